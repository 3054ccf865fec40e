"""``xlrating demo``: validate -> ingest -> rank on the bundled examples, into the store of its
output folder (the one ``make serve`` serves), never losing what it did not put there."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re

from cli_sheets import ROWS, save_sheet
from click.testing import CliRunner
from starlette.testclient import TestClient

from xlrating.cli import demo as demo_module
from xlrating.cli import main
from xlrating.store import open_store


def _demo(out, *args):
    return CliRunner().invoke(main, ["demo", "--out", str(out), *args])


def test_the_demo_stores_the_good_examples_rejects_the_bad_one_and_writes_rankings(tmp_path):
    result = _demo(tmp_path)
    assert result.exit_code == 0, result.output
    assert "5 stored, 1 rejected" in result.output
    assert "EMA_ID_LOST_LEADING_ZERO" in result.output
    assert (tmp_path / "annotated" / "06_paris_winter_open_2025_with_mistakes.annotated.xlsx").exists()
    for ruleset in ("mcr", "riichi"):
        board = json.loads((tmp_path / f"ranking-{ruleset}.json").read_text())
        assert board and board[0]["rank"] == 1 and board[0]["count"] >= 2
        assert (tmp_path / f"ranking-{ruleset}.xlsx").exists()


def test_run_again_the_demo_finds_its_examples_stored_and_prints_the_same_ranking(tmp_path):
    _demo(tmp_path)
    first = (tmp_path / "ranking-mcr.json").read_text()
    again = _demo(tmp_path)
    assert again.exit_code == 0, again.output
    assert "0 stored, 5 unchanged, 1 rejected" in again.output
    assert (tmp_path / "ranking-mcr.json").read_text() == first
    with open_store(str(tmp_path / "xlrating.db")) as store:
        assert len(store.events("mers", history=True)) == 5


CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
OFFICER = ("officer", "a long enough passphrase")


def _accept_through_the_web(db, sheet):
    """What ``make serve`` lets an organiser and the officer do: upload, submit, accept."""
    from xlrating.web.app import Settings, create_app
    from xlrating.web.security import OfficerPassword

    settings = Settings(str(db), officer=OfficerPassword(*OFFICER), check_processes=1)
    with TestClient(create_app(settings)) as client:
        def token(page):
            return CSRF.search(client.get(page).text).group(1)

        page = client.post("/checks", data={"csrf_token": token("/")}, files={"sheet": (sheet.name, sheet.read_bytes())},
                           follow_redirects=False).headers["location"]
        client.post(f"{page}/submit", data={"csrf_token": token(page), "contact": "to@example.org"})
        client.post("/officer/sign-in", data={"csrf_token": token("/officer/sign-in"), "user": OFFICER[0],
                                              "password": OFFICER[1]})
        number = re.search(r"/officer/submissions/(\d+)", client.get("/officer").text).group(1)
        accepted = client.post(f"/officer/submissions/{number}/accept", data={"csrf_token": token("/officer")})
        assert "Accepted" in accepted.text


def test_a_tournament_accepted_through_the_web_outlives_the_next_demo(tmp_path):
    assert _demo(tmp_path).exit_code == 0
    block = [("Tournament name", "Web Open"), ("Ruleset", "MCR"), ("Start date", dt.date(2025, 6, 7)),
             ("End date", dt.date(2025, 6, 7)), ("Days", 1), ("Players", 3), ("Countries", 2), ("MERS weight", 1)]
    sheet = tmp_path / "web_open.xlsx"
    save_sheet(sheet, block, ROWS)
    db = tmp_path / "xlrating.db"
    _accept_through_the_web(db, sheet)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    rankings = {p: p.read_bytes() for p in tmp_path.glob("ranking-*")}

    again = _demo(tmp_path)
    assert again.exit_code == 2
    message = " ".join(again.output.split())
    assert "1 stored tournament that the bundled examples do not hold ('Web Open' (MCR, 2025-06-07))" in message
    assert "1 submission made through the web intake" in message
    assert "--out OTHER_FOLDER" in message and f"move {db} away" in message
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before  # nothing written, the submission kept
    assert {p: p.read_bytes() for p in tmp_path.glob("ranking-*")} == rankings
    with open_store(str(db)) as store:
        assert "Web Open" in {t.name for t in store.events("mers")}
    elsewhere = _demo(tmp_path / "afresh")
    assert elsewhere.exit_code == 0 and "5 stored, 1 rejected" in elsewhere.output


def test_a_file_in_the_way_of_the_store_is_left_as_it_is(tmp_path):
    (tmp_path / "xlrating.db").write_bytes(b"my notes, not a store" * 50)
    result = _demo(tmp_path)
    assert result.exit_code == 2 and "the demo leaves it as it is" in result.output
    assert (tmp_path / "xlrating.db").read_bytes() == b"my notes, not a store" * 50


def test_without_a_checkout_the_demo_generates_its_examples(tmp_path, monkeypatch):
    monkeypatch.setattr(demo_module, "bundled_examples", lambda: None)
    result = _demo(tmp_path)
    assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "submissions").glob("*.xlsx"))) == 6
    again = _demo(tmp_path)  # its own generated files are found again, not taken for someone else's
    assert again.exit_code == 0 and "0 stored, 5 unchanged, 1 rejected" in again.output, again.output


def test_a_bad_as_of_date_is_bad_usage(tmp_path):
    result = _demo(tmp_path, "--as-of", "31/12/2025")
    assert result.exit_code == 2 and "YYYY-MM-DD" in result.output
