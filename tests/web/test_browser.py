"""The web intake in a real browser: Chromium (the OS package) driven by Playwright, against a real
``xlrating serve`` process on a loopback port.

- the organiser uploads the faulty example, reads the same findings ``xlrating validate`` reports
  (also for the same sheet saved as .ods and .xls by LibreOffice) and downloads the annotated copy;
- the organiser uploads a valid example and submits it; the officer signs in and accepts it; the
  public ranking then shows its players and the organiser's page says it was accepted;
- without signing in, no officer page or action is reachable.

Each test stands alone: pytest-xdist may run them on different workers, each of which then starts
its own server and browser (about 5 s); the tests on one worker share them.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from libreoffice_copies import libreoffice_copies
from live_server import OFFICER, running_server

from xlrating.sheets.validate.annotate import TABLE_HEADER_ROW, listed_findings

CHROMIUM = "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else shutil.which("chromium")
if CHROMIUM is None:
    pytest.skip("Chromium is not installed (/usr/bin/chromium or chromium on PATH)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FAULTY = EXAMPLES / "06_paris_winter_open_2025_with_mistakes.xlsx"
LYON = EXAMPLES / "01_lyon_mcr_open_2024.xlsx"  # MCR: accepting it makes MCR players ranked
AMSTERDAM = EXAMPLES / "03_amsterdam_riichi_2024.xlsx"
STORED = sorted(EXAMPLES.glob("0[2-5]_*.xlsx"))
RANKING = "/rankings/MCR/2018?as_of=2025-12-31"
TIMEOUT_MS = 20_000


def xlrating(*args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "xlrating", *args], capture_output=True, text=True, check=check)


@functools.cache
def cli_findings(path: Path) -> list[dict[str, str]]:
    """What ``xlrating validate --format json`` reports for ``path``."""
    done = xlrating("validate", "--format", "json", str(path))
    assert done.returncode in (0, 1), done.stderr
    (report,) = json.loads(done.stdout)  # one report per file checked
    assert report["file"] == str(path)
    findings: list[dict[str, str]] = [{k: v for k, v in f.items() if k != "file"} for f in report["findings"]]
    return findings


def rows(findings: list[dict[str, str]]) -> list[tuple[str, str, str, str, str]]:
    """Findings as the page's table shows them: severity, sheet, cell, message, code."""
    return [(f["severity"], f["sheet"], f["cell"], f["message"], f["code"]) for f in findings]


# ----------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def store_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding examples 02-05 (no MCR player has two results: the MCR ranking is empty)."""
    db = tmp_path_factory.mktemp("browser-store") / "store.db"
    xlrating("ingest", "--db", str(db), *map(str, STORED), check=True)
    return db


@pytest.fixture(scope="module")
def server(store_db: Path) -> Iterator[str]:
    with running_server(store_db, "--upload-rate", "1000/minute", log=store_db.with_name("serve.log")) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


@pytest.fixture
def context(browser: Any, server: str) -> Iterator[Any]:
    """A fresh browser profile (no cookies) for one person."""
    ctx = browser.new_context(base_url=server, accept_downloads=True)
    ctx.set_default_timeout(TIMEOUT_MS)
    yield ctx
    ctx.close()


def new_context(browser: Any, server: str) -> Any:
    ctx = browser.new_context(base_url=server, accept_downloads=True)
    ctx.set_default_timeout(TIMEOUT_MS)
    return ctx


# ----------------------------------------------------------------------------- page helpers

def upload(page: Any, path: Path) -> str:
    """Upload ``path`` through the submission page's file input; returns the check page's token."""
    page.goto("/submit")
    page.set_input_files("input#sheet", str(path))
    page.get_by_role("button", name="Check the sheet").click()
    page.wait_for_url("**/checks/*")
    return str(page.url.rsplit("/", 1)[1])


def table_rows(page: Any) -> list[tuple[str, ...]]:
    cells = page.locator("table.findings tbody tr").evaluate_all(
        "rows => rows.map(r => Array.from(r.cells, c => c.textContent.trim()))")
    return [tuple(row) for row in cells]


def findings_sheet(path: Path) -> list[tuple[str, str, str, str, str]]:
    """The annotated copy's Findings sheet as (severity, sheet, cell, message, code) rows."""
    book = openpyxl.load_workbook(path)
    sheet = book["Findings"]
    header = [c.value for c in sheet[TABLE_HEADER_ROW]]
    assert header == ["Severity", "Code", "Sheet", "Cell", "Message"]
    listed = [(sev, sheet_name, cell, message, code)
              for sev, code, sheet_name, cell, message in listed_findings(sheet)]
    book.close()
    return listed


def sign_in(page: Any) -> None:
    page.goto("/officer")
    page.wait_for_url("**/officer/sign-in")
    page.fill("#user", OFFICER[0])
    page.fill("#password", OFFICER[1])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/officer")


def store_rows(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the store, for comparing before and after."""
    with sqlite3.connect(db) as con:
        tables = [name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: sorted(con.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables}


# ----------------------------------------------------------------------------- the organiser

def test_faulty_sheet_findings_and_annotated_copy(context: Any, tmp_path: Path) -> None:
    expected = rows(cli_findings(FAULTY))
    assert expected and any(sev == "error" for sev, *_ in expected)
    page = context.new_page()
    upload(page, FAULTY)
    assert page.locator("#verdict").inner_text().startswith("Not valid")
    assert table_rows(page) == expected
    errors = sum(sev == "error" for sev, *_ in expected)
    assert page.locator("table.findings caption").inner_text().startswith(f"{errors} errors")
    assert page.locator("#contact").count() == 0  # an invalid sheet cannot be submitted

    with page.expect_download() as started:
        page.click("#annotated")
    download = started.value
    assert download.suggested_filename == f"{FAULTY.stem}.annotated.xlsx"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    assert findings_sheet(saved) == expected


@pytest.fixture(scope="module")
def saved_by_libreoffice(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> dict[str, Path]:
    """The faulty example saved as .ods and as .xls by LibreOffice."""
    copies = libreoffice_copies(tmp_path_factory, worker_id)
    if copies is None:
        pytest.skip("LibreOffice (soffice) is not installed")
    return {suffix: copies[f"{FAULTY.stem}.{suffix}"] for suffix in ("ods", "xls")}


@pytest.mark.libreoffice
def test_faulty_sheet_saved_by_libreoffice(context: Any, saved_by_libreoffice: dict[str, Path],
                                           tmp_path: Path) -> None:
    as_xlsx = [(sev, sheet, cell, code) for sev, sheet, cell, _, code in rows(cli_findings(FAULTY))]
    page = context.new_page()
    for suffix, path in saved_by_libreoffice.items():
        expected = rows(cli_findings(path))
        assert [(sev, sheet, cell, code) for sev, sheet, cell, _, code in expected] == as_xlsx, suffix
        upload(page, path)
        assert page.locator("h1").inner_text() == path.name
        assert page.locator("#verdict").inner_text().startswith("Not valid"), suffix
        assert table_rows(page) == expected, suffix
        with page.expect_download() as started:  # the annotated copy of any format is an .xlsx
            page.click("#annotated")
        assert started.value.suggested_filename == f"{FAULTY.stem}.annotated.xlsx", suffix
        saved = tmp_path / f"{suffix}.annotated.xlsx"
        started.value.save_as(saved)
        assert findings_sheet(saved) == expected, suffix


# ----------------------------------------------------------------------------- organiser and officer

def ranked_players(page: Any) -> list[str]:
    page.goto(RANKING)
    # the EMA ID, after the rank, the move and the name
    return [text.strip() for text in page.locator("table#ranking tbody tr td:nth-child(4)").all_inner_texts()]


def sheet_ema_ids(path: Path) -> set[str]:
    book = openpyxl.load_workbook(path, read_only=True)
    values = [row for row in book.active.iter_rows(values_only=True)]
    book.close()
    header = next(i for i, row in enumerate(values) if row[0] == "Position")
    column = values[header].index("EMA ID")
    return {str(row[column]) for row in values[header + 1:] if row[column] not in (None, "-")}


def test_valid_sheet_submitted_accepted_and_ranked(browser: Any, server: str, store_db: Path) -> None:
    organiser = new_context(browser, server)
    officer = new_context(browser, server)
    try:
        page = organiser.new_page()
        assert ranked_players(page) == []
        assert "No player has enough results" in page.locator("main").inner_text()

        # the organiser: upload, valid, submit with a contact address, pending
        token = upload(page, LYON)
        assert page.locator("#verdict").inner_text().startswith("Valid")
        assert "Lyon MCR Open 2024" in page.locator("main").inner_text()
        page.fill("#contact", "organiser@lyon-mahjong.example")
        page.get_by_role("button", name="Send to the ranking officer").click()
        page.wait_for_url(f"**/checks/{token}")
        assert "waiting for a decision" in page.locator("#status").inner_text()
        assert page.request.get(f"/checks/{token}.json").json()["status"] == "pending"

        # the officer: sign in, find it in the queue, accept it
        desk = officer.new_page()
        sign_in(desk)
        queued = desk.locator("table#pending tbody tr", has_text=LYON.name)
        assert queued.count() == 1
        assert "organiser@lyon-mahjong.example" in queued.inner_text()
        queued.get_by_role("link", name=LYON.name).click()
        desk.wait_for_url("**/officer/submissions/*")
        assert desk.locator("#status").inner_text().startswith("pending")
        desk.click("#accept")
        desk.wait_for_url("**/officer")
        assert desk.locator("p.notice").inner_text().startswith(f"Accepted {LYON.name}")
        assert desk.locator("table#decided tbody tr", has_text=LYON.name).locator("td").nth(3).inner_text() \
            == "accepted"

        # the public ranking now ranks players, every one of them with a result in Lyon
        ranked = ranked_players(desk)
        assert ranked, "no MCR player is ranked after the Lyon results were accepted"
        assert set(ranked) <= sheet_ema_ids(LYON)
        desk.locator("table#ranking tbody tr").first.get_by_role("link").first.click()  # the name
        desk.wait_for_url("**/players/*")
        assert "Lyon MCR Open 2024" in desk.locator("table#results").inner_text()

        # the organiser's page says so
        page.goto(f"/checks/{token}")
        assert page.locator("#status").inner_text().startswith("Accepted by the ranking officer")
        with sqlite3.connect(store_db) as con:
            assert con.execute("SELECT status FROM intake WHERE token = ?", (token,)).fetchone() == ("accepted",)

        # signing out ends it: the queue is behind the sign-in form again
        desk.goto("/officer")
        desk.get_by_role("button", name=f"Sign out ({OFFICER[0]})").click()
        desk.goto("/officer")
        assert desk.url.endswith("/officer/sign-in")
    finally:
        organiser.close()
        officer.close()


# ----------------------------------------------------------------------------- without signing in

def test_officer_pages_and_actions_unreachable_without_signing_in(context: Any, store_db: Path) -> None:
    page = context.new_page()
    token = upload(page, AMSTERDAM)  # a pending submission to try the officer's actions on
    page.fill("#contact", "organiser@amsterdam.example")
    page.get_by_role("button", name="Send to the ranking officer").click()
    page.wait_for_url(f"**/checks/{token}")
    with sqlite3.connect(store_db) as con:
        (item,) = con.execute("SELECT id FROM intake WHERE token = ? AND status = 'pending'", (token,)).fetchone()

    pages = ["/officer", f"/officer/submissions/{item}", f"/officer/submissions/{item}/file",
             f"/officer/submissions/{item}/annotated.xlsx", "/officer/submissions/999999",
             "/officer/submissions/x", f"/officer/submissions/{item}/accept", f"/officer/submissions/{item}/reject"]
    for path in pages:
        answer = page.request.get(path, max_redirects=0)
        assert answer.status in (303, 405), (path, answer.status)  # accept/reject have no GET at all
        if answer.status == 303:
            assert answer.headers["location"] == "/officer/sign-in", path
            page.goto(path)
            assert page.url.endswith("/officer/sign-in"), path
            assert page.locator("input#password").count() == 1, path
            assert "Submissions" not in page.locator("nav").inner_text()

    before = store_rows(store_db)
    page.goto("/submit")
    csrf = page.locator("input[name=csrf_token]").first.get_attribute("value")  # this session's real token
    actions = [(f"/officer/submissions/{item}/accept", {"csrf_token": csrf, "replace": "yes"}),
               (f"/officer/submissions/{item}/reject", {"csrf_token": csrf, "note": "rejected by nobody"}),
               (f"/officer/submissions/{item}/accept", {}),
               (f"/officer/submissions/{item}/reject", {"note": "no token either"})]
    for path, form in actions:
        answer = page.request.post(path, form=form, max_redirects=0)
        assert answer.status == 403, (path, form, answer.status)
        assert "Only the signed-in ranking officer" in answer.text()
    # a wrong password does not sign in either
    page.goto("/officer/sign-in")
    page.fill("#user", OFFICER[0])
    page.fill("#password", OFFICER[1] + "!")
    page.get_by_role("button", name="Sign in").click()
    assert "wrong" in page.locator("p.error").inner_text()
    assert page.request.get("/officer", max_redirects=0).status == 303

    assert store_rows(store_db) == before
    assert page.request.get(f"/checks/{token}.json").json()["status"] == "pending"
