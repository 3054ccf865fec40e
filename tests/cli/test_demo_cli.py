"""``xlrating demo``: date -> validate -> ingest -> rank on the bundled examples of every system, into
the store of its output folder (the one ``make serve`` serves), never losing what it did not put
there; the examples dated so that each system's latest event is in the week up to the ranking date."""

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
from xlrating.sheets.examples.dated import dates_in
from xlrating.store import open_store
from xlrating.systems import get

EXAMPLES = demo_module.bundled_examples()
ORIGINAL_FILES = {"mers": sorted(p for p in EXAMPLES.glob("*.xlsx") if "mistakes" not in p.name),
                  "dippouch": [EXAMPLES / "tables" / "dippouch_results.csv"],
                  "dci": [EXAMPLES / "tables" / "dci_matches.csv"]}
A_WEDNESDAY = dt.date(2031, 3, 12)


def _demo(out, *args):
    return CliRunner().invoke(main, ["demo", "--out", str(out), *args])


def _stored_days(db, key):
    """Every first and last day of the system's stored events."""
    with open_store(str(db)) as store:
        return sorted({d for e in store.events(key) for d in (e.start_date, e.end_date)})


def _original_days(key):
    return sorted({d for path in ORIGINAL_FILES[key] for d in dates_in(path)})


def test_the_demo_stores_the_good_examples_rejects_the_bad_one_and_writes_rankings(tmp_path):
    result = _demo(tmp_path)
    assert result.exit_code == 0, result.output
    assert "7 stored, 1 rejected" in result.output
    assert "EMA_ID_LOST_LEADING_ZERO" in result.output
    assert len(list((tmp_path / "annotated").glob("06_paris_winter_open_*_with_mistakes.annotated.xlsx"))) == 1
    for name in ("mcr", "riichi", "dippouch", "dci"):
        board = json.loads((tmp_path / f"ranking-{name}.json").read_text())
        assert board and board[0]["rank"] == 1 and board[0]["count"] >= 2, name
        assert (tmp_path / f"ranking-{name}.xlsx").exists()
    assert "make serve" in result.output


def test_every_system_is_stored_with_its_latest_event_in_the_week_up_to_the_ranking_date(tmp_path):
    result = _demo(tmp_path, "--as-of", A_WEDNESDAY.isoformat())
    assert result.exit_code == 0, result.output
    assert f"dated for {A_WEDNESDAY}" in result.output
    db = tmp_path / "xlrating.db"
    for key, expected in (("mers", 5), ("dippouch", 4), ("dci", 3)):
        with open_store(str(db)) as store:
            assert len(store.events(key)) == expected, key
        stored, original = _stored_days(db, key), _original_days(key)
        assert A_WEDNESDAY - dt.timedelta(days=6) <= stored[-1] <= A_WEDNESDAY, (key, stored[-1])
        moved = stored[0] - original[0]
        assert moved.days % 7 == 0, key  # whole weeks: the days of the week are kept
        assert [d - moved for d in stored] == original, key  # every date moved alike: the spacing is kept
    with open_store(str(db)) as store:  # the names follow their dates' years
        assert {e.name for e in store.events("mers")} >= {"Berlin MCR Cup 2031"}


def _ranked(db, key, **options):
    system = get(key)
    with open_store(str(db)) as store:
        return system.leaderboard(system.stored_records(store, **{k: v for k, v in options.items() if k == "ruleset"}),
                                  source=str(db), stored=store, **options).ranked()


def test_made_today_the_store_ranks_players_in_every_system_as_of_today(tmp_path):
    assert _demo(tmp_path).exit_code == 0
    db, today = tmp_path / "xlrating.db", dt.date.today()
    for ruleset in ("MCR", "Riichi"):
        ranked = _ranked(db, "mers", as_of=today, ruleset=ruleset)
        assert len(ranked) >= 5 and ranked[0]["rank"] == 1, ruleset
    assert len(_ranked(db, "mers", as_of=today, ruleset="MCR")) > 13  # the oldest tournament still counts
    assert _ranked(db, "dippouch") and _ranked(db, "dci")
    assert today - dt.timedelta(days=6) <= _stored_days(db, "mers")[-1] <= today


def test_made_today_the_site_shows_every_system(tmp_path):
    """What ``make serve`` shows after ``make demo``: rankings with players, events, player pages."""
    from xlrating.web.app import Settings, create_app

    assert _demo(tmp_path).exit_code == 0
    with TestClient(create_app(Settings(str(tmp_path / "xlrating.db"), check_processes=1))) as client:
        for ruleset in ("MCR", "Riichi"):
            ranking = client.get(f"/rankings/{ruleset}/2018.json").json()["ranking"]
            assert ranking and client.get(f"/players/{ranking[0]['player']}").status_code == 200
        for key, events in (("mers", "/tournaments.json"), ("dippouch", "/dippouch/events.json"),
                            ("dci", "/dci/events.json")):
            page = client.get(events).json()
            assert page[next(k for k in page if k in ("tournaments", "events"))], key
        dippouch = client.get("/rankings/dippouch.json").json()["ranking"]
        assert dippouch and client.get(dippouch[0]["address"]).status_code == 200
        dci = client.get("/rankings/dci/Constructed.json").json()["ranking"]
        assert dci and client.get(f"/dci/players/{dci[0]['player']}").status_code == 200


def test_run_again_the_demo_finds_its_examples_stored_and_prints_the_same_ranking(tmp_path):
    _demo(tmp_path, "--as-of", A_WEDNESDAY.isoformat())
    first = (tmp_path / "ranking-mcr.json").read_text()
    again = _demo(tmp_path, "--as-of", A_WEDNESDAY.isoformat())
    assert again.exit_code == 0, again.output
    assert "0 stored, 7 unchanged, 1 rejected" in again.output
    assert (tmp_path / "ranking-mcr.json").read_text() == first
    with open_store(str(tmp_path / "xlrating.db")) as store:
        assert len(store.events("mers", history=True)) == 5
    later = _demo(tmp_path, "--as-of", (A_WEDNESDAY + dt.timedelta(days=100)).isoformat())
    assert later.exit_code == 0 and "0 stored, 7 unchanged, 1 rejected" in later.output  # dated once per store
    assert f"as dated for {A_WEDNESDAY} when this store was made" in later.output


def test_a_store_of_the_undated_examples_from_an_earlier_demo_is_left_as_it_is(tmp_path):
    db = tmp_path / "xlrating.db"
    runner = CliRunner()
    assert runner.invoke(main, ["ingest", "--db", str(db), *map(str, ORIGINAL_FILES["mers"])]).exit_code == 0
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    result = _demo(tmp_path)
    assert result.exit_code == 2
    assert "was made by an earlier demo" in " ".join(result.output.split())
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert not (tmp_path / "submissions").exists()


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

        form = next(page for page in ("/submit", "/") if CSRF.search(client.get(page).text))  # the upload form
        page = client.post("/checks", data={"csrf_token": token(form)}, files={"sheet": (sheet.name, sheet.read_bytes())},
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
    assert elsewhere.exit_code == 0 and "7 stored, 1 rejected" in elsewhere.output


def test_a_file_in_the_way_of_the_store_is_left_as_it_is(tmp_path):
    (tmp_path / "xlrating.db").write_bytes(b"my notes, not a store" * 50)
    result = _demo(tmp_path)
    assert result.exit_code == 2 and "the demo leaves it as it is" in result.output
    assert (tmp_path / "xlrating.db").read_bytes() == b"my notes, not a store" * 50


def test_without_a_checkout_the_demo_generates_its_examples(tmp_path, monkeypatch):
    monkeypatch.setattr(demo_module, "bundled_examples", lambda: None)
    result = _demo(tmp_path)
    assert result.exit_code == 0, result.output
    assert "5 stored, 1 rejected" in result.output and "examples/tables/" in result.output
    assert len(list((tmp_path / "submissions").glob("*.xlsx"))) == 6
    again = _demo(tmp_path)  # its own generated files are found again, not taken for someone else's
    assert again.exit_code == 0 and "0 stored, 5 unchanged, 1 rejected" in again.output, again.output


def test_a_bad_as_of_date_is_bad_usage(tmp_path):
    result = _demo(tmp_path, "--as-of", "31/12/2025")
    assert result.exit_code == 2 and "YYYY-MM-DD" in result.output
