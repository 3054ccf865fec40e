"""The web intake takes Dip Pouch results and DCI matches tables as it takes EMA sheets: checked with
every finding at its cell, submitted, accepted by the officer into the store exactly as
``xlrating ingest`` stores them, a changed event replaced only on purpose."""

from __future__ import annotations

import io
import sqlite3
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest
from starlette.testclient import TestClient
from test_app import client, pending_ids, rows, sign_in, submitted, token, upload

from xlrating.sheets.validate.annotate import listed_findings

TABLES = Path(__file__).parents[2] / "examples" / "tables"
__all__ = ["client"]  # the fixture, shared with test_app


def _accept(client: TestClient, number: int, **extra: str):  # type: ignore[no-untyped-def]
    return client.post(f"/officer/submissions/{number}/accept", data={"csrf_token": token(client, "/officer")} | extra)


@pytest.mark.parametrize("name, title", [("dippouch_results.csv", "Dip Pouch results"),
                                         ("dci_matches.csv", "DCI matches")])
def test_the_officer_accepts_a_table_into_the_store_as_ingest_stores_it(client: TestClient, tmp_path: Path,
                                                                         name: str, title: str) -> None:
    page = submitted(client, TABLES / name)
    sign_in(client)
    [number] = pending_ids(client)
    queue = client.get("/officer").text
    assert f"{title}: " in queue  # the queue says what the file is
    detail = client.get(f"/officer/submissions/{number}").text
    assert f'<dd id="system">{title}</dd>' in detail
    response = _accept(client, number)
    assert response.status_code == 200 and f"Accepted {name}: stored {title}:" in response.text
    assert "Accepted by the ranking officer" in client.get(page).text
    cli_db = tmp_path / "cli.db"
    subprocess.run([sys.executable, "-m", "xlrating", "ingest", "--db", str(cli_db), str(TABLES / name)],
                   check=True, capture_output=True)
    web_db = tmp_path / "store.db"
    for table, volatile in (("events", (14,)), ("entries", ()), ("submissions", (5,))):
        def stable(db: Path) -> list[tuple[object, ...]]:
            return [tuple(v for i, v in enumerate(row) if i not in volatile) for row in rows(db, table)]  # noqa: B023
        assert stable(web_db) == stable(cli_db), table
    assert rows(web_db, "submissions")[0][4] == (TABLES / name).read_bytes()


def test_a_faulty_table_shows_every_finding_at_its_cell_and_cannot_be_sent(client: TestClient,
                                                                           tmp_path: Path) -> None:
    bad = tmp_path / "matches.csv"
    bad.write_text("event,date,round,player,opponent,result,tier\nFNM,2009-03-06,1,Jon,Kai,W,casual\n"
                   "FNM,2009-03-06,1,Kai,Jon,W,casual\nFNM,2009-03-07,1,Jon,Kai,L,casul\n")
    response = upload(client, bad)
    assert response.status_code == 303
    report = client.get(str(response.headers["location"]) + ".json").json()
    assert [(f["cell"], f["code"]) for f in report["findings"]] == [
        ("F2", "MATCH_SIDES_DISAGREE"), ("F3", "MATCH_SIDES_DISAGREE"), ("G4", "TIER_UNKNOWN")]
    assert report["valid"] is False and report["system"] == "dci"
    copy = client.get(str(response.headers["location"]) + "/annotated.xlsx")
    assert copy.status_code == 200
    book = openpyxl.load_workbook(io.BytesIO(copy.content))
    listed = [row[3] for row in listed_findings(book["Findings"])]
    assert listed == ["F2", "F3", "G4"] and book["matches"]["G4"].comment is not None


def test_a_changed_event_is_replaced_only_when_the_officer_says_so(client: TestClient, tmp_path: Path) -> None:
    submitted(client, TABLES / "dippouch_results.csv")
    sign_in(client)
    _accept(client, pending_ids(client)[0])
    changed = tmp_path / "results_corrected.csv"
    changed.write_text((TABLES / "dippouch_results.csv").read_text().replace("Grace Hopper,3,", "Grace Hopper,4,"))
    submitted(client, changed)
    [number] = pending_ids(client)
    first = _accept(client, number)
    assert first.status_code == 409 and "Summer Open (2023-07-02): already stored as version 1" in first.text
    assert 'name="replace"' in first.text and "--replace" not in first.text
    second = _accept(client, number, replace="yes")
    assert second.status_code == 200 and "1 event replaced (Summer Open (2023-07-02) v2)" in second.text
    with sqlite3.connect(tmp_path / "store.db") as connection:  # by name: later migrations add columns
        versions = connection.execute("SELECT event_key, version, replaced_at IS NULL FROM events").fetchall()
    versions = [(key, version, bool(current)) for key, version, current in versions]
    assert ("summer open|2023-07-02", 1, False) in versions and ("summer open|2023-07-02", 2, True) in versions
