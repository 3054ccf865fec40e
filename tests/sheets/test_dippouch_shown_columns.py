"""A Dip Pouch results table's optional nationality, score and location columns (for the public
pages): checked at their cells, stored with the event, ignored by the ratings, and an event stored
from a table without them keeps its fingerprint (the same file later is still the same event)."""

from __future__ import annotations

from pathlib import Path

from tests.stored import ingest
from xlrating.core import dippouch
from xlrating.core.tables import read_table
from xlrating.sheets.read.submitted import open_submission
from xlrating.store import open_store
from xlrating.systems import validate_submission
from xlrating.systems.base import Validation as TableValidation
from xlrating.web import dippouch_published

PLAIN = """event,date,players,rounds,player,place
Spring Cup,2023-04-16,21,3,Ada Lovelace,1
Spring Cup,2023-04-16,21,3,Blaise Pascal,2
"""
SHOWN = """event,date,players,rounds,player,place,Nationality,Score,Location
Spring Cup,2023-04-16,21,3,Ada Lovelace,1,GBR,120.5,
Spring Cup,2023-04-16,21,3,Blaise Pascal,2,,99,Paris
"""
FAULTY = """event,date,players,rounds,player,place,country,score,location
Spring Cup,2023-04-16,21,3,Ada Lovelace,1,GBR,12 centres,Paris
Spring Cup,2023-04-16,21,3,Blaise Pascal,2,FRA,99,Lyon
"""


def _validate(tmp_path: Path, name: str, text: str) -> tuple[Path, TableValidation]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    validation = validate_submission(path, open_submission(path))
    assert isinstance(validation, TableValidation)
    return path, validation


def test_a_bad_score_and_a_location_differing_within_an_event_are_findings_at_their_cells(tmp_path: Path) -> None:
    _, validation = _validate(tmp_path, "faulty.csv", FAULTY)
    assert not validation.valid and validation.submission.events == []
    assert [(f.cell, f.code, f.message) for f in validation.findings] == [
        ("H2", "TABLE_NUMBER_INVALID", "score '12 centres' is not a number; expected a number"),
        ("I3", "EVENT_VALUE_DIFFERS", ("location 'Lyon' differs from 'Paris' at I2 in event 'Spring Cup'; "
                                       "expected the same location on every row of an event"))]


def test_the_shown_columns_are_stored_and_the_ratings_ignore_them(tmp_path: Path) -> None:
    path, validation = _validate(tmp_path, "shown.csv", SHOWN)
    assert validation.valid
    rows = [line.split(",") for line in SHOWN.splitlines()]
    assert dippouch.ratings(dippouch.results_from_table(rows)) \
        == dippouch.ratings(dippouch.results_from_table([line.split(",") for line in PLAIN.splitlines()]))
    assert "score" not in read_table(rows, dippouch.RESULT_COLUMNS)[0]  # what rank and the functions read
    with open_store(str(tmp_path / "store.db")) as store:
        assert ingest(store, path.name, path.read_bytes(), validation.submission, "dippouch").status == "stored"
        (event,) = dippouch_published.events(store)
        assert event["location"] == "Paris"  # given on one row, left empty on the other
        stored = store.event("dippouch", event["id"])
        assert stored is not None and dippouch_published.standings(store, stored) == [
            {"place": 1, "player": "Ada Lovelace", "country": "GBR", "score": 120.5},
            {"place": 2, "player": "Blaise Pascal", "country": None, "score": 99.0}]


# The fingerprint of PLAIN's event as stores written before these columns existed hold it.
PLAIN_FINGERPRINT = "c0d05f4aee7fe37867dc5e7f1941aed96d59c215ecab22a22ac41fa9a3aa24f4"


def test_an_event_without_the_shown_columns_keeps_its_fingerprint(tmp_path: Path) -> None:
    _, plain = _validate(tmp_path, "plain.csv", PLAIN)
    _, shown = _validate(tmp_path, "shown.csv", SHOWN)
    (before,), (after,) = plain.submission.events, shown.submission.events
    assert before.fingerprint == PLAIN_FINGERPRINT  # a stored event is still recognised as unchanged
    assert after.fingerprint != before.fingerprint  # a nationality or score added makes a new version
