"""``xlrating ingest``: validate first, store only valid sheets, re-ingest and replace rules,
store location from --db or XLRATING_DB, exit statuses."""

from __future__ import annotations

import datetime as dt
import hashlib

from cli_sheets import ROWS, save_sheet
from click.testing import CliRunner

from tests.stored import records
from xlrating.cli import main
from xlrating.store import open_store

BLOCK = [("Tournament name", "Ingest Open"), ("Ruleset", "MCR"), ("Start date", dt.date(2024, 9, 7)),
         ("End date", dt.date(2024, 9, 8)), ("Days", 2), ("Players", 3), ("Countries", 2), ("MERS weight", 2)]


def _save(tmp_path, name, rows=ROWS):
    return save_sheet(tmp_path / name, BLOCK, rows)


def _ingest(*args, env=None):
    return CliRunner().invoke(main, ["ingest", *args], env=env)


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_valid_sheet_is_stored(tmp_path):
    db = tmp_path / "x.db"
    result = _ingest("--db", str(db), _save(tmp_path, "good.xlsx"))
    assert result.exit_code == 0, result.output
    assert "stored 'Ingest Open' (MCR, 2024-09-07) as version 1" in result.output
    with open_store(str(db)) as store:
        assert len(records(store)) == 3


def test_an_invalid_sheet_stores_nothing_and_leaves_the_store_unchanged(tmp_path):
    db = tmp_path / "x.db"
    assert _ingest("--db", str(db), _save(tmp_path, "good.xlsx")).exit_code == 0
    before = _digest(db)
    bad = [list(r) for r in ROWS]
    bad[1][1] = 5000002
    result = _ingest("--db", str(db), _save(tmp_path, "bad.xlsx", bad))
    assert result.exit_code == 1
    assert "EMA_ID_LOST_LEADING_ZERO" in result.output and "not stored" in result.output
    assert _digest(db) == before


def test_an_invalid_sheet_does_not_create_a_store(tmp_path):
    bad = [list(r) for r in ROWS]
    bad[2][0] = 4
    assert _ingest("--db", str(tmp_path / "new.db"), _save(tmp_path, "bad.xlsx", bad)).exit_code == 1
    assert not (tmp_path / "new.db").exists()


def test_the_same_file_again_is_reported_and_exits_0(tmp_path):
    db, good = tmp_path / "x.db", _save(tmp_path, "good.xlsx")
    _ingest("--db", str(db), good)
    before = _digest(db)
    result = _ingest("--db", str(db), good)
    assert result.exit_code == 0 and "already stored as version 1" in result.output
    assert _digest(db) == before


def test_a_different_file_for_a_stored_tournament_needs_replace(tmp_path):
    db = tmp_path / "x.db"
    _ingest("--db", str(db), _save(tmp_path, "v1.xlsx"))
    corrected = [list(r) for r in ROWS]
    corrected[2][3] = "Cyril"
    v2 = _save(tmp_path, "v2.xlsx", corrected)
    before = _digest(db)
    refused = _ingest("--db", str(db), v2)
    assert refused.exit_code == 1 and "use --replace" in refused.output
    assert _digest(db) == before
    replaced = _ingest("--db", str(db), "--replace", v2)
    assert replaced.exit_code == 0 and "version 2 (replaced version 1)" in replaced.output
    with open_store(str(db)) as store:
        assert [(v.version, v.current) for v in store.events("mers", history=True)] == [(1, False), (2, True)]


def test_the_store_location_comes_from_the_environment(tmp_path):
    db = tmp_path / "env.db"
    result = _ingest(_save(tmp_path, "good.xlsx"), env={"XLRATING_DB": f"sqlite:///{db}"})
    assert result.exit_code == 0, result.output
    assert db.exists()


def test_an_unsupported_store_url_is_bad_usage(tmp_path):
    result = _ingest("--db", "mysql://x/y", _save(tmp_path, "good.xlsx"))
    assert result.exit_code == 2 and "unsupported store URL scheme" in result.output


def test_an_unreadable_file_exits_2(tmp_path):
    junk = tmp_path / "junk.xlsx"
    junk.write_text("nope")
    result = _ingest("--db", str(tmp_path / "x.db"), str(junk))
    assert result.exit_code == 2 and "junk.xlsx" in result.output


def test_with_several_files_the_valid_ones_are_stored_and_the_exit_says_some_were_not(tmp_path):
    db = tmp_path / "x.db"
    bad = [list(r) for r in ROWS]
    bad[0][1] = "1234"
    result = _ingest("--db", str(db), _save(tmp_path, "bad.xlsx", bad), _save(tmp_path, "good.xlsx"))
    assert result.exit_code == 1
    assert "bad.xlsx: not stored" in result.output and "good.xlsx: stored" in result.output
    with open_store(str(db)) as store:
        assert [v.file_name for v in store.events("mers")] == ["good.xlsx"]


def test_the_file_is_read_and_checked_once_and_the_bytes_validated_are_the_bytes_stored(tmp_path, monkeypatch):
    from xlrating.gate import safe_open

    checks = []
    original = safe_open.check_package
    monkeypatch.setattr(safe_open, "check_package", lambda data, limits: checks.append(data) or original(data, limits))
    sheet = _save(tmp_path, "once.xlsx")
    db = tmp_path / "once.db"
    assert _ingest("--db", str(db), sheet).exit_code == 0
    assert len(checks) == 1
    with open_store(str(db)) as store:
        (version,) = store.events("mers")
        assert store.submission_content(version.sha256) == checks[0]


def test_several_files_end_with_one_summary_line(tmp_path):
    db = tmp_path / "x.db"
    good = _save(tmp_path, "good.xlsx")
    _ingest("--db", str(db), good)
    bad = [list(r) for r in ROWS]
    bad[0][1] = "1234"
    other = save_sheet(tmp_path / "other.xlsx", [("Tournament name", "Other Open")] + BLOCK[1:], ROWS)
    result = _ingest("--db", str(db), good, _save(tmp_path, "bad.xlsx", bad), other)
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == "3 files: 1 stored, 1 unchanged, 1 rejected"


def test_one_file_needs_no_summary_line(tmp_path):
    result = _ingest("--db", str(tmp_path / "x.db"), _save(tmp_path, "good.xlsx"))
    assert result.exit_code == 0 and len(result.output.splitlines()) == 1
