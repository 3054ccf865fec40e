"""The intake application in process (Starlette's TestClient): what each audience can and cannot
do, the protections on every request, and that what the web stores is what ``xlrating ingest``
stores."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from xlrating.sheets.validate.ema.sheet import validate_file
from xlrating.web.app import Settings, create_app
from xlrating.web.organiser import upload_name
from xlrating.web.security import OfficerPassword

EXAMPLES = Path(__file__).parents[2] / "examples"
FAULTY = EXAMPLES / "06_paris_winter_open_2025_with_mistakes.xlsx"
LYON = EXAMPLES / "01_lyon_mcr_open_2024.xlsx"
OFFICER = ("ranking-officer", "not the default password")
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def _app(db: Path, **settings: object) -> TestClient:
    officer = settings.pop("officer", OfficerPassword(*OFFICER))
    return TestClient(create_app(Settings(str(db), officer=officer, check_processes=1, **settings)))  # type: ignore[arg-type]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with _app(tmp_path / "store.db") as c:
        yield c


def token(client: TestClient, page: str = "/submit") -> str:
    match = CSRF.search(client.get(page).text)
    assert match, f"no form on {page}"
    return match.group(1)


def upload(client: TestClient, path: Path, name: str | None = None, **extra: str):  # type: ignore[no-untyped-def]
    return client.post("/checks", data={"csrf_token": token(client)} | extra,
                       files={"sheet": (name or path.name, path.read_bytes())}, follow_redirects=False)


def checked(client: TestClient, path: Path) -> str:
    """Upload ``path``; the address of its check page."""
    response = upload(client, path)
    assert response.status_code == 303, response.text
    return str(response.headers["location"])


def submitted(client: TestClient, path: Path) -> str:
    page = checked(client, path)
    response = client.post(f"{page}/submit", data={"csrf_token": token(client, page), "contact": "to@example.org"})
    assert response.status_code == 200 and "waiting for a decision" in response.text
    return page


def sign_in(client: TestClient) -> None:
    response = client.post("/officer/sign-in", data={"csrf_token": token(client, "/officer/sign-in"),
                                                      "user": OFFICER[0], "password": OFFICER[1]})
    assert response.status_code == 200 and response.url.path == "/officer"


def pending_ids(client: TestClient) -> list[int]:
    page = client.get("/officer").text
    section = page.split('id="pending"')[1].split("</table>")[0] if 'id="pending"' in page else ""
    return [int(n) for n in re.findall(r'/officer/submissions/(\d+)"', section)]


def rows(db: Path, table: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return connection.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall()


def versions(db: Path) -> list[tuple[object, ...]]:
    """(number, version, current) of each stored event version, oldest first."""
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT number, version, replaced_at IS NULL FROM events ORDER BY id").fetchall()


# --- the organiser ------------------------------------------------------------------------------

def test_the_faulty_example_shows_every_finding_of_validate_at_its_cell(client: TestClient) -> None:
    page = checked(client, FAULTY)
    report = client.get(f"{page}.json").json()
    expected = [f.as_dict() for f in validate_file(FAULTY).findings]
    assert report["findings"] == expected and not report["valid"]
    html = client.get(page).text
    assert "Not valid" in html and "Send to the ranking officer" not in html
    for finding in expected:
        assert f"<td>{finding['cell']}</td>" in html and finding["code"] in html


def test_the_annotated_copy_is_an_xlsx_named_after_the_upload(client: TestClient) -> None:
    import io

    import openpyxl

    from xlrating.sheets.validate.annotate import listed_findings

    page = checked(client, FAULTY)
    response = client.get(f"{page}/annotated.xlsx")
    assert response.status_code == 200
    assert 'filename="06_paris_winter_open_2025_with_mistakes.annotated.xlsx"' in response.headers["content-disposition"]
    findings = openpyxl.load_workbook(io.BytesIO(response.content))["Findings"]
    listed = [(row[2], row[3]) for row in listed_findings(findings)]
    assert listed == [(f.sheet, f.cell) for f in validate_file(FAULTY).findings]


def test_an_unreadable_upload_is_422_naming_the_file_and_nothing_is_kept(client: TestClient, tmp_path: Path) -> None:
    fake = tmp_path / "results.xls"
    fake.write_bytes(b"<html><body>not a sheet</body></html>")
    response = upload(client, fake)
    assert response.status_code == 422
    assert "results.xls" in response.text and "HTML" in response.text
    assert rows(tmp_path / "store.db", "intake") == []


def test_the_uploaded_name_is_only_a_label_never_a_path(client: TestClient, tmp_path: Path) -> None:
    before = sorted(p.name for p in tmp_path.rglob("*"))
    response = upload(client, LYON, name="../../../../tmp/evilname.xlsx")
    assert response.status_code == 303
    item = client.get(f"{response.headers['location']}.json").json()
    assert item["file_name"] == "evilname.xlsx" and item["valid"]
    assert upload_name("a\x00b\r\n\u202e.xlsx") == "ab.xlsx" and upload_name("") == "upload"
    assert len(upload_name("x" * 500 + ".xlsx")) <= 120 and upload_name("x" * 500 + ".xlsx").endswith(".xlsx")
    windows = upload(client, LYON, name="C:\\Users\\me\\Desktop\\lyon.xlsx")
    assert client.get(f"{windows.headers['location']}.json").json()["file_name"] == "lyon.xlsx"
    after = sorted(p.name for p in tmp_path.rglob("*"))
    assert set(after) - set(before) <= {"store.db-journal", "store.db-wal", "store.db-shm"}
    assert not Path("/tmp/evilname.xlsx").exists()


def test_the_format_is_judged_by_the_content_and_a_disguised_file_is_refused(client: TestClient) -> None:
    response = upload(client, LYON, name="lyon.ods")
    assert response.status_code == 422 and "lyon.ods" in response.text and "named .ods" in response.text


def test_only_a_valid_sheet_can_be_submitted_and_only_once(client: TestClient) -> None:
    faulty = checked(client, FAULTY)
    response = client.post(f"{faulty}/submit", data={"csrf_token": token(client), "contact": "a@example.org"})
    assert response.status_code == 409 and "has errors" in response.text
    valid = checked(client, LYON)
    bad_contact = client.post(f"{valid}/submit", data={"csrf_token": token(client), "contact": "not an address"})
    assert bad_contact.status_code == 400 and "e-mail address" in bad_contact.text
    submitted_page = client.post(f"{valid}/submit", data={"csrf_token": token(client), "contact": "a@example.org"})
    assert "waiting for a decision" in submitted_page.text
    again = client.post(f"{valid}/submit", data={"csrf_token": token(client), "contact": "a@example.org"})
    assert again.status_code == 409 and "already submitted" in again.text
    # the same file uploaded again cannot queue a second time while the first waits
    duplicate = checked(client, LYON)
    refused = client.post(f"{duplicate}/submit", data={"csrf_token": token(client), "contact": "a@example.org"})
    assert refused.status_code == 409 and "already waiting" in refused.text


def test_the_template_offered_to_organisers_is_the_shipped_one(client: TestClient) -> None:
    response = client.get("/template.xlsx")
    shipped = Path(__file__).parents[2] / "workbook_templates" / "ema_results_template.xlsx"
    assert response.status_code == 200 and response.content == shipped.read_bytes()
    assert 'href="/template.xlsx"' in client.get("/submit").text


def test_an_unknown_check_address_is_404(client: TestClient) -> None:
    assert client.get("/checks/not-a-token").status_code == 404
    assert client.get("/checks/not-a-token.json").json()["error"] == "Not found"


# --- protections --------------------------------------------------------------------------------

@pytest.mark.parametrize("page", ["/", "/rankings", "/officer/sign-in", "/rankings/MCR/2018.json", "/nowhere"])
def test_every_response_carries_the_security_headers(client: TestClient, page: str) -> None:
    headers = client.get(page).headers
    assert "default-src 'none'" in headers["content-security-policy"]
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"


def test_the_session_cookie_is_http_only_and_same_site(client: TestClient) -> None:
    cookie = client.get("/submit").headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie


def test_https_deployments_get_secure_cookies_and_hsts(tmp_path: Path) -> None:
    with _app(tmp_path / "s.db", secure_cookies=True) as c:
        response = c.get("/submit")
    assert "secure" in response.headers["set-cookie"].lower()
    assert response.headers["strict-transport-security"].startswith("max-age=")


@pytest.mark.parametrize("action", ["/checks", "/officer/sign-in", "/officer/sign-out"])
def test_a_state_changing_request_without_the_csrf_token_is_refused(client: TestClient, tmp_path: Path,
                                                                      action: str) -> None:
    token(client)  # the session exists; the form field is what is missing or wrong
    for data in ({}, {"csrf_token": "forged"}):
        response = client.post(action, data=data | {"user": OFFICER[0], "password": OFFICER[1]},
                               files={"sheet": ("a.xlsx", LYON.read_bytes())} if action == "/checks" else None)
        assert response.status_code == 403, (action, data)
    assert rows(tmp_path / "store.db", "intake") == []
    assert client.get("/officer", follow_redirects=False).status_code == 303  # not signed in


def test_a_request_from_another_origin_is_refused_even_with_the_token(client: TestClient) -> None:
    response = client.post("/checks", data={"csrf_token": token(client)}, files={"sheet": ("a.xlsx", LYON.read_bytes())},
                           headers={"origin": "https://evil.example"})
    assert response.status_code == 403 and "another site" in response.text


def test_an_upload_over_the_limit_is_413_before_it_is_read(tmp_path: Path) -> None:
    with _app(tmp_path / "s.db", max_upload_bytes=100_000) as c:
        response = c.post("/checks", data={"csrf_token": token(c)}, files={"sheet": ("big.csv", b"a," * 200_000)})
    assert response.status_code == 413 and "larger than this server accepts" in response.text
    assert rows(tmp_path / "s.db", "intake") == []


def test_uploads_beyond_the_rate_limit_get_429(tmp_path: Path) -> None:
    with _app(tmp_path / "s.db", upload_rate="2/minute") as c:
        assert [upload(c, LYON).status_code for _ in range(3)] == [303, 303, 429]


# --- the ranking officer ------------------------------------------------------------------------

OFFICER_PAGES = ["/officer", "/officer/submissions/1", "/officer/submissions/1/file",
                 "/officer/submissions/1/annotated.xlsx"]
OFFICER_ACTIONS = ["/officer/submissions/1/accept", "/officer/submissions/1/reject"]


def test_without_signing_in_no_officer_page_or_action_is_reachable(client: TestClient, tmp_path: Path) -> None:
    submitted(client, LYON)
    for page in OFFICER_PAGES:
        response = client.get(page, follow_redirects=False)
        assert response.status_code == 303 and response.headers["location"] == "/officer/sign-in", page
    for action in OFFICER_ACTIONS:
        response = client.post(action, data={"csrf_token": token(client), "note": "no"})
        assert response.status_code == 403, action
    assert versions(tmp_path / "store.db") == []
    assert [row[11] for row in rows(tmp_path / "store.db", "intake")] == ["pending"]


def test_a_wrong_password_does_not_sign_in_and_attempts_are_limited(tmp_path: Path) -> None:
    with _app(tmp_path / "s.db", sign_in_rate="3/minute") as c:
        statuses = [c.post("/officer/sign-in", data={"csrf_token": token(c, "/officer/sign-in"), "user": OFFICER[0],
                                                     "password": "guess"}).status_code for _ in range(4)]
        assert statuses == [401, 401, 401, 429]
        assert c.get("/officer", follow_redirects=False).status_code == 303


def test_without_a_configured_password_nobody_can_sign_in(tmp_path: Path) -> None:
    with _app(tmp_path / "s.db", officer=None) as c:
        assert "No ranking officer account" in c.get("/officer/sign-in").text
        response = c.post("/officer/sign-in", data={"csrf_token": token(c), "user": "officer", "password": ""})
        assert response.status_code == 403
        assert c.get("/officer", follow_redirects=False).status_code == 303


def test_the_password_comes_from_the_environment_and_must_be_long(monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Path) -> None:
    monkeypatch.delenv("XLRATING_OFFICER_PASSWORD", raising=False)
    monkeypatch.delenv("XLRATING_OFFICER_PASSWORD_FILE", raising=False)
    assert Settings.from_env("x.db").officer is None
    monkeypatch.setenv("XLRATING_OFFICER_PASSWORD", "short")
    with pytest.raises(ValueError, match="at least 12 characters"):
        Settings.from_env("x.db")
    monkeypatch.delenv("XLRATING_OFFICER_PASSWORD")
    secret = tmp_path / "password"
    secret.write_text("from a secrets file\n")
    monkeypatch.setenv("XLRATING_OFFICER_PASSWORD_FILE", str(secret))
    officer = Settings.from_env("x.db").officer
    assert officer is not None and officer.matches("officer", "from a secrets file")
    assert not officer.matches("officer", "from a secrets file\n") and not officer.matches("admin", "from a secrets file")


def test_accepting_stores_exactly_what_xlrating_ingest_stores(client: TestClient, tmp_path: Path) -> None:
    page = submitted(client, LYON)
    sign_in(client)
    [number] = pending_ids(client)
    response = client.post(f"/officer/submissions/{number}/accept", data={"csrf_token": token(client, "/officer")})
    assert response.status_code == 200 and "Accepted 01_lyon_mcr_open_2024.xlsx" in response.text
    assert pending_ids(client) == []
    assert "Accepted by the ranking officer" in client.get(page).text
    cli_db = tmp_path / "cli.db"
    subprocess.run([sys.executable, "-m", "xlrating", "ingest", "--db", str(cli_db), str(LYON)], check=True,
                   capture_output=True)
    web_db = tmp_path / "store.db"
    for table, volatile in (("players", ()), ("entries", ()), ("submissions", (5,)), ("events", (14,))):
        def stable(db: Path) -> list[tuple[object, ...]]:
            return [tuple(v for i, v in enumerate(row) if i not in volatile) for row in rows(db, table)]  # noqa: B023
        assert stable(web_db) == stable(cli_db), table
    assert rows(web_db, "submissions")[0][4] == LYON.read_bytes()  # the bytes received, unchanged


def test_the_same_tournament_from_another_file_is_replaced_only_on_purpose(client: TestClient,
                                                                           tmp_path: Path) -> None:
    import openpyxl

    submitted(client, LYON)
    sign_in(client)
    client.post(f"/officer/submissions/{pending_ids(client)[0]}/accept", data={"csrf_token": token(client, "/officer")})
    corrected = tmp_path / "lyon_corrected.xlsx"
    wb = openpyxl.load_workbook(LYON)
    wb.properties.title = "corrected"  # another file, the same tournament
    wb.save(corrected)
    submitted(client, corrected)
    [number] = pending_ids(client)
    first = client.post(f"/officer/submissions/{number}/accept", data={"csrf_token": token(client, "/officer")})
    assert first.status_code == 409 and "already stored as version 1" in first.text and 'name="replace"' in first.text
    assert "--replace" not in first.text and "as version 2 instead" in first.text
    assert len(versions(tmp_path / "store.db")) == 1 and pending_ids(client) == [number]
    second = client.post(f"/officer/submissions/{number}/accept",
                         data={"csrf_token": token(client, "/officer"), "replace": "yes"})
    assert second.status_code == 200 and "as version 2" in second.text
    assert [(version, current) for _, version, current in versions(tmp_path / "store.db")] \
        == [(1, False), (2, True)]  # the history is kept


def test_rejecting_needs_a_note_which_the_organiser_then_reads(client: TestClient, tmp_path: Path) -> None:
    page = submitted(client, LYON)
    sign_in(client)
    [number] = pending_ids(client)
    empty = client.post(f"/officer/submissions/{number}/reject", data={"csrf_token": token(client, "/officer"),
                                                                       "note": "  "})
    assert empty.status_code == 400 and pending_ids(client) == [number]
    client.post(f"/officer/submissions/{number}/reject",
                data={"csrf_token": token(client, "/officer"), "note": "Player 12's <b>ID</b> is wrong"})
    shown = client.get(page).text
    assert "Rejected by the ranking officer" in shown and "Player 12&#39;s &lt;b&gt;ID&lt;/b&gt; is wrong" in shown
    again = client.post(f"/officer/submissions/{number}/accept", data={"csrf_token": token(client, "/officer")})
    assert again.status_code == 409 and "not waiting for a decision" in again.text
    assert versions(tmp_path / "store.db") == []


def test_the_officer_downloads_the_file_exactly_as_sent(client: TestClient) -> None:
    submitted(client, LYON)
    sign_in(client)
    [number] = pending_ids(client)
    assert client.get(f"/officer/submissions/{number}/file").content == LYON.read_bytes()


def test_a_merely_checked_upload_is_not_in_the_officers_reach(client: TestClient) -> None:
    checked(client, FAULTY)
    sign_in(client)
    assert client.get("/officer/submissions/1").status_code == 404
    assert "Nothing is waiting" in client.get("/officer").text


# --- public pages -------------------------------------------------------------------------------

@pytest.fixture
def ranked(tmp_path: Path) -> Path:
    db = tmp_path / "store.db"
    subprocess.run([sys.executable, "-m", "xlrating", "ingest", "--db", str(db),
                    *sorted(str(p) for p in EXAMPLES.glob("0[1-5]*.xlsx"))], check=True, capture_output=True)
    return db


@pytest.mark.parametrize(("ruleset", "rules"), [("MCR", "2018"), ("Riichi", "2005"), ("Riichi", "2010")])
def test_the_ranking_page_is_the_leaderboard_of_xlrating_rank(ranked: Path, tmp_path: Path, ruleset: str,
                                                              rules: str) -> None:
    out = tmp_path / "board.json"
    subprocess.run([sys.executable, "-m", "xlrating", "rank", "mers", "--db", str(ranked), "--ruleset", ruleset,
                    "--rules", rules, "--as-of", "2025-12-31", "-o", str(out)], check=True, capture_output=True)
    with _app(ranked) as c:
        page = c.get(f"/rankings/{ruleset}/{rules}.json?as_of=2025-12-31").json()
        html = c.get(f"/rankings/{ruleset}/{rules}?as_of=2025-12-31").text
    countries = {row[1]: json.loads(str(row[2])).get("country") for row in rows(ranked, "players")}
    assert [{k: v for k, v in line.items() if k not in ("country", "previous_rank", "movement")}
            for line in page["ranking"]] \
        == json.loads(out.read_text()) and page["ranking"]
    assert [line["country"] for line in page["ranking"]] == [countries[line["player"]] for line in page["ranking"]]
    for line in page["ranking"]:
        # the player's page is linked for the same era and date as the ranking
        assert f'/players/{line["player"]}?rules={rules}&amp;as_of=2025-12-31' in html
        assert f"{line['total']:.2f}" in html


def test_a_player_page_breaks_the_total_down_as_the_ranking_counts_it(ranked: Path) -> None:
    with _app(ranked) as c:
        # the 2005 era's total is the plain weighted average of the counted results (docs/rating-rules.md)
        best = c.get("/rankings/Riichi/2005.json?as_of=2025-12-31").json()["ranking"][0]
        page = c.get(f"/players/{best['player']}.json?rules=2005&as_of=2025-12-31").json()
        html = c.get(f"/players/{best['player']}?rules=2005&as_of=2025-12-31").text
    [standing] = [s for s in page["standings"] if s["ruleset"] == "Riichi"]
    assert standing["rank"] == 1 and standing["total"] == best["total"]
    counted = standing["counted"]
    real = [c for c in counted if not c["tournament"].startswith("(padding")]
    assert len(real) == best["count"] and len(page["results"]) >= best["count"]
    weighted = sum(c["base_rank"] * c["weight"] * c["age_factor"] for c in counted)
    assert weighted / sum(c["weight"] * c["age_factor"] for c in counted) == pytest.approx(best["total"])
    assert "How the total is made" in html and page["player"]["ema_id"] == best["player"]


@pytest.mark.parametrize(("address", "status"), [("/rankings/Bridge/2018.json", 404), ("/rankings/MCR/1999.json", 404),
                                                 ("/rankings/MCR/2018.json?as_of=31/12/2025", 400),
                                                 ("/players/123.json", 404), ("/players/99999999.json", 404)])
def test_a_wrong_address_says_what_is_wrong(client: TestClient, address: str, status: int) -> None:
    response = client.get(address)
    assert response.status_code == status and response.json()["message"]


def test_the_tournaments_page_lists_the_current_versions(ranked: Path) -> None:
    with _app(ranked) as c:
        listed = c.get("/tournaments.json").json()["tournaments"]
    assert len(listed) == 5 and {t["ruleset"] for t in listed} == {"MCR", "Riichi"}


def test_serving_an_in_memory_store_is_refused_with_a_message() -> None:
    from xlrating.store import StoreError

    with pytest.raises(StoreError, match="needs a store file"):
        create_app(Settings(":memory:"))

