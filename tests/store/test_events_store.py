"""Dip Pouch and DCI events in the SQLite store: stored with the bytes received, read back as
``rank`` reads the table, the same file again unchanged, a changed event replaced only on purpose
with its old version kept, all or nothing, and a store of the previous schema upgraded with its
data kept."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from tests.stored import records
from xlrating.core import dci, dippouch
from xlrating.sheets.read.submitted import open_submission
from xlrating.sheets.read.table_files import read_table_file
from xlrating.sheets.validate.events import EventTable
from xlrating.store import SQLiteStore, StoreError, Submission, open_store
from xlrating.store.schema import MIGRATIONS, SCHEMA_VERSION
from xlrating.systems import get, validate_submission

TABLES = Path(__file__).parents[2] / "examples" / "tables"
DIPPOUCH = TABLES / "dippouch_results.csv"
DCI = TABLES / "dci_matches.csv"


def _table(path: Path) -> EventTable:
    validation = validate_submission(path, open_submission(path))
    assert validation.valid, validation.findings
    assert isinstance(validation.submission, EventTable)
    return validation.submission


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _submission(path: Path, table: EventTable | None = None) -> Submission:
    table = table or _table(path)
    return get(table.system).submission(table, _digest(path))


def _ingest(db: Path, path: Path, **options: object):  # type: ignore[no-untyped-def]
    with open_store(str(db)) as store:
        return store.ingest(path.name, path.read_bytes(), _submission(path), **options)  # type: ignore[arg-type]


def _rows(store: SQLiteStore, system: str, key: str, version: int | None = None) -> list[dict[str, object]]:
    """The entries of one stored version of an event (the current one unless ``version``), as the
    file gave them: the row, the columns of the entry and its facts."""
    [event] = [e for e in store.events(system, history=True)
               if e.key == key and (e.version == version if version else e.current)]
    rows = []
    for e in store.entries([event])[event.id]:
        row: dict[str, object] = {"row": e.row, "player": e.player}
        if system == "dippouch":
            row |= {"place": e.place, "country": e.facts.get("country")}
        else:
            row |= {"date": e.date.isoformat() if e.date else None, "round": e.round, "opponent": e.opponent,
                    "result": e.result, **{k: e.facts.get(k) for k in ("k", "tier", "category", "player_country",
                                                                      "opponent_country")}}
        rows.append(row)
    return rows


def _edited(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    text = source.read_text()
    assert old in text
    path = tmp_path / f"edited_{source.name}"
    path.write_text(text.replace(old, new, 1))
    return path


def test_a_dippouch_table_is_stored_with_its_bytes_and_read_back_as_rank_reads_it(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    outcome = _ingest(db, DIPPOUCH)
    assert outcome.status == "stored" and [c.status for c in outcome.changes] == ["stored"] * 4
    with open_store(str(db)) as store:
        source = read_table_file(DIPPOUCH)
        assert sorted(records(store, "dippouch"), key=lambda r: r.row) == dippouch.results_from_table(source.rows)
        events = store.events("dippouch")
        assert [(e.name, e.players, e.facts["rounds"], e.facts["world_championship"]) for e in events] == [
            ("Spring Cup", 21, 3, False), ("Summer Open", 14, 1, False),
            ("World Diplomacy Championship", 65, 4, True), ("Winter Masters", 65, 3, False)]
        assert store.submission_content(events[0].sha256) == DIPPOUCH.read_bytes()
        assert _rows(store, "dippouch", events[0].key)[:2] == [
            {"row": 2, "player": "Ada Lovelace", "place": 1, "country": "GBR"},
            {"row": 3, "player": "Blaise Pascal", "place": 2, "country": "FRA"}]
        assert records(store, "dci") == []


def test_a_dci_table_is_stored_with_tier_k_and_category_and_read_back_as_rank_reads_it(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    assert _ingest(db, DCI).status == "stored"
    with open_store(str(db)) as store:
        source = read_table_file(DCI)
        assert sorted(records(store, "dci"), key=lambda m: m.row) == dci.matches_from_table(source.rows)
        kyoto = next(e for e in store.events("dci") if e.name == "Pro Tour Kyoto")
        first = _rows(store, "dci", kyoto.key)[0]
        assert first == {"row": 18, "date": "2009-02-20", "round": 1, "player": "Kai Budde",
                         "opponent": "Jon Finkel", "result": 1.0, "k": 48.0, "tier": "pro tour", "category": "Limited",
                         "player_country": "GER", "opponent_country": "USA"}


def test_the_same_file_again_changes_nothing_not_even_the_file(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    _ingest(db, DIPPOUCH)
    before = _digest(db)
    again = _ingest(db, DIPPOUCH)
    assert again.status == "unchanged" and "already stored" in again.message
    reordered = tmp_path / "reordered.csv"
    lines = DIPPOUCH.read_text().splitlines()
    reordered.write_text("\n".join([lines[0], *reversed(lines[1:])]) + "\n")
    assert _ingest(db, reordered).status == "unchanged"  # other bytes, the same events
    assert _digest(db) == before


def test_a_changed_event_is_replaced_only_on_purpose_and_its_old_version_kept(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    _ingest(db, DIPPOUCH)
    changed = _edited(tmp_path, DIPPOUCH, "Fritz Haber,9,", "Fritz Haber,8,")
    before = _digest(db)
    with open_store(str(db)) as store:  # what accepting would do, said before it is done
        assert [c.status for c in store.planned_changes(_submission(changed))] == [
            "refused", "unchanged", "unchanged", "unchanged"]
        assert store.planned_changes(_submission(changed), replace=True)[0].status == "replaced"
    refused = _ingest(db, changed)
    assert refused.status == "refused" and "Spring Cup (2023-04-16): already stored as version 1" in refused.message
    assert _digest(db) == before
    replaced = _ingest(db, changed, replace=True)
    assert replaced.status == "replaced"
    assert [(c.label, c.status, c.version) for c in replaced.changes][:2] == [
        ("Spring Cup (2023-04-16)", "replaced", 2), ("Summer Open (2023-07-02)", "unchanged", 1)]
    with open_store(str(db)) as store:
        stored = sorted(store.events("dippouch", history=True), key=lambda e: (e.start_date, e.key, e.version))
        history = [(e.name, e.version, e.current, e.file_name) for e in stored]
        assert history[:2] == [("Spring Cup", 1, False, "dippouch_results.csv"),
                               ("Spring Cup", 2, True, "edited_dippouch_results.csv")]
        key = next(e.key for e in store.events("dippouch") if e.name == "Spring Cup")
        assert max(row["place"] for row in _rows(store, "dippouch", key, version=1)) == 9  # type: ignore[type-var]
        assert max(row["place"] for row in _rows(store, "dippouch", key)) == 8  # type: ignore[type-var]
        haber = [r for r in records(store, "dippouch") if r.player == "Fritz Haber" and r.event == "Spring Cup"]
        assert [r.place for r in haber] == [8]


def test_an_ingest_that_fails_midway_leaves_the_store_byte_for_byte(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "s.db"
    _ingest(db, DCI)
    before = _digest(db)
    from xlrating.store.ledger import Ledger

    original, calls = Ledger._insert, []

    def failing(*args):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 2:
            raise sqlite3.OperationalError("disk I/O error")
        return original(*args)

    monkeypatch.setattr(Ledger, "_insert", staticmethod(failing))
    with pytest.raises(StoreError, match="nothing was changed"):
        _ingest(db, DIPPOUCH)
    assert _digest(db) == before
    with open_store(str(db)) as store:
        assert records(store, "dippouch") == [] and len(store.events("dci")) == 3


def test_a_dci_event_overlapping_a_stored_one_of_the_same_name_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    two_days = tmp_path / "gp.csv"
    two_days.write_text("event,date,round,player,opponent,result\nGP,2009-04-18,1,A,B,W\nGP,2009-04-19,2,A,B,L\n")
    assert _ingest(db, two_days).status == "stored"
    second_day = tmp_path / "gp_day2.csv"
    second_day.write_text("event,date,round,player,opponent,result\nGP,2009-04-19,1,A,C,W\n")
    refused = _ingest(db, second_day)
    assert refused.status == "refused" and "overlap the stored event 'GP' (2009-04-18 to 2009-04-19)" in refused.message


def test_a_store_of_the_previous_schema_opens_upgraded_with_its_data_kept(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    old = sqlite3.connect(db)
    old.executescript(MIGRATIONS[0] + ";" + MIGRATIONS[1] + "; PRAGMA user_version = 2;")
    old.execute("INSERT INTO intake (token, file_name, kind, sha256, size, content, findings, valid, uploaded_at, "
                "status) VALUES ('t', 'a.xlsx', 'xlsx', 'x', 1, x'00', '[]', 1, '2025-01-01T00:00:00+00:00', "
                "'checked')")
    old.commit()
    old.close()
    with pytest.raises(StoreError, match="schema version 2"):
        open_store(str(db), read_only=True)  # a reader never upgrades
    with open_store(str(db)) as store:
        item = store.intake_by_token("t")
        assert item is not None and item.system == "mers" and item.file_name == "a.xlsx"
        assert store.ingest(DCI.name, DCI.read_bytes(), _submission(DCI)).status == "stored"
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def _without_countries(tmp_path: Path) -> Path:
    """The example DCI matches as they were before the table had the country columns."""
    lines = DCI.read_text().splitlines()
    path = tmp_path / "dci_matches_before_countries.csv"
    path.write_text("\n".join(",".join(line.split(",")[:8]) for line in lines) + "\n")
    assert "country" not in path.read_text() and "country" in lines[0]
    return path


def test_a_store_of_schema_4_gets_the_dci_country_columns_with_its_matches_kept(tmp_path: Path) -> None:
    db = tmp_path / "v4.db"
    old = sqlite3.connect(db)
    old.executescript(";".join(MIGRATIONS[:4]) + "; PRAGMA user_version = 4;")
    old.commit()
    old.close()
    # a DCI event stored by the previous xlrating: the same insert, without the country columns
    table = _table(_without_countries(tmp_path))
    with sqlite3.connect(db) as v4:
        v4.execute("INSERT INTO submissions (file_name, sha256, size, content, received_at) "
                   "VALUES ('old.csv', 'x', 1, x'00', '2024-01-01T00:00:00+00:00')")
        event = table.events[0]
        v4.execute("INSERT INTO events (system, event_key, name_key, version, submission_id, name, start_date, "
                   "end_date, players, rounds, fingerprint, stored_at) VALUES ('dci', ?, 'x', 1, 1, ?, ?, ?, ?, ?, ?, "
                   "'2024-01-01T00:00:00+00:00')",
                   (event.key, event.name, event.start_date.isoformat(), event.end_date.isoformat(), event.players,
                    event.rounds, event.fingerprint))
        v4.executemany("INSERT INTO matches (event_id, sheet_row, match_date, round, player, opponent, result, k, "
                       "category) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)",
                       [(m.row, m.date.isoformat(), m.round, m.player, m.opponent, m.result, m.k, m.category)
                        for m in event.matches])
    with open_store(str(db)) as store:
        rows = _rows(store, "dci", event.key)
        assert len(rows) == len(event.matches) and rows[0]["player"] == event.matches[0].player
        assert {(r["player_country"], r["opponent_country"]) for r in rows} == {(None, None)}
        # the same matches again, without countries: the event stored before is recognised as it is
        assert store.planned_changes(_submission(_without_countries(tmp_path), table))[0].status == "unchanged"
        # with the countries, it is other content: a new version only on purpose, the old one kept
        with_countries = _table(DCI)
        assert store.ingest(DCI.name, DCI.read_bytes(), _submission(DCI, with_countries)).status == "refused"
        assert store.ingest(DCI.name, DCI.read_bytes(), _submission(DCI, with_countries),
                            replace=True).status == "replaced"
        current = _rows(store, "dci", event.key)
        assert (current[0]["player"], current[0]["player_country"], current[0]["opponent_country"]) \
            == ("Jon Finkel", "USA", "GER")
        assert _rows(store, "dci", event.key, version=1)[0]["player_country"] is None
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_dci_table_keeps_each_rows_countries_and_a_bye_has_no_opponent_country(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    assert _ingest(db, DCI).status == "stored"
    with open_store(str(db)) as store:
        friday = next(e for e in store.events("dci") if e.name == "Friday Night Magic")
        rows = _rows(store, "dci", friday.key)
    bye = next(r for r in rows if r["opponent"] is None)
    assert (bye["player"], bye["player_country"], bye["opponent_country"]) == ("Paulo Vitor Damo da Rosa", "BRA", None)
    assert {(r["player"], r["player_country"]) for r in rows} >= {("Kai Budde", "GER"), ("Luis Scott-Vargas", "USA")}
