"""``xlrating validate``: text and JSON reports, annotated copy, registry option, exit statuses."""

from __future__ import annotations

import datetime as dt
import json

import openpyxl
from cli_sheets import ROWS, save_sheet
from click.testing import CliRunner

from xlrating.cli import main

BLOCK = [("Tournament name", "CLI Cup"), ("Ruleset", "Riichi"), ("Start date", dt.date(2025, 5, 10)),
         ("End date", dt.date(2025, 5, 10)), ("Days", 1), ("Players", 3), ("Countries", 2), ("MERS weight", 1)]


def _save(tmp_path, name, rows=ROWS):
    return save_sheet(tmp_path / name, BLOCK, rows)


def _run(*args):
    return CliRunner().invoke(main, ["validate", *args])


def test_a_valid_sheet_exits_0_and_says_valid(tmp_path):
    result = _run(_save(tmp_path, "good.xlsx"))
    assert result.exit_code == 0, result.output
    assert "good.xlsx: valid (0 errors, 0 warnings)" in result.output


def test_an_invalid_sheet_exits_1_and_lists_findings_at_cells(tmp_path):
    bad = [list(r) for r in ROWS]
    bad[2][1] = 4000003
    result = _run(_save(tmp_path, "bad.xlsx", bad))
    assert result.exit_code == 1
    assert "Results!B13: error EMA_ID_LOST_LEADING_ZERO" in result.output


def test_json_report_has_every_file_checked_with_its_verdict_and_findings(tmp_path):
    bad = [list(r) for r in ROWS]
    bad[1][0] = 3
    junk = tmp_path / "junk.xlsx"
    junk.write_bytes(b"not a zip")
    files = [_save(tmp_path, "good.xlsx"), _save(tmp_path, "bad.xlsx", bad), str(junk)]
    result = CliRunner().invoke(main, ["validate", "--format", "json", *files])
    assert result.exit_code == 2
    good, invalid, unreadable = json.loads(result.stdout)
    assert good == {"file": files[0], "valid": True, "errors": 0, "warnings": 0, "findings": []}
    assert (invalid["file"], invalid["valid"], invalid["errors"], invalid["warnings"]) == (files[1], False, 1, 0)
    [place_gap] = invalid["findings"]
    assert place_gap["code"] == "PLACE_GAP" and place_gap["cell"] == "A12" and place_gap["file"] == files[1]
    assert set(place_gap) == {"code", "severity", "sheet", "cell", "message", "file"}
    assert unreadable["file"] == files[2] and unreadable["valid"] is False and unreadable["unreadable"]


def test_json_report_of_one_valid_file_names_it(tmp_path):
    good = _save(tmp_path, "good.xlsx")
    result = _run("--format", "json", good)
    assert result.exit_code == 0
    assert json.loads(result.output) == [{"file": good, "valid": True, "errors": 0, "warnings": 0, "findings": []}]


def test_an_unreadable_file_exits_2_with_its_reason(tmp_path):
    junk = tmp_path / "junk.xlsx"
    junk.write_bytes(b"not a zip")
    result = _run(str(junk))
    assert result.exit_code == 2
    assert "junk.xlsx" in result.output and "Traceback" not in result.output


def test_annotate_writes_a_marked_copy(tmp_path):
    bad = [list(r) for r in ROWS]
    bad[0][1] = "-"
    out = tmp_path / "marked.xlsx"
    result = _run("--annotate", str(out), _save(tmp_path, "bad.xlsx", bad))
    assert result.exit_code == 1
    wb = openpyxl.load_workbook(out)
    assert "EMA_ID_MISSING" in wb["Results"]["B11"].comment.text
    assert wb.sheetnames[0] == "Findings"


def test_a_player_registry_is_checked(tmp_path):
    registry = tmp_path / "players.csv"
    registry.write_text("ema_id,name\n04000001,Abel Ann\n05000002,Berg Bo\n", encoding="utf-8")
    result = _run("--players", str(registry), _save(tmp_path, "good.xlsx"))
    assert result.exit_code == 1 and "PLAYER_UNKNOWN" in result.output


def test_a_broken_registry_is_bad_usage(tmp_path):
    registry = tmp_path / "players.csv"
    registry.write_text("player no;name\n04000001;Abel Ann\n", encoding="utf-8")
    result = _run("--players", str(registry), _save(tmp_path, "good.xlsx"))
    assert result.exit_code == 2 and "expected columns ema_id" in result.output


def test_annotate_with_several_files_writes_one_copy_each_into_a_folder(tmp_path):
    bad = [list(r) for r in ROWS]
    bad[0][0] = 2
    files = [_save(tmp_path, "one.xlsx"), _save(tmp_path, "two.xlsx", bad)]
    result = _run("--annotate", str(tmp_path / "marked"), *files)
    assert result.exit_code == 1
    assert sorted(p.name for p in (tmp_path / "marked").iterdir()) == ["one.annotated.xlsx", "two.annotated.xlsx"]


def test_one_systematic_mistake_prints_a_few_findings_and_counts_the_rest(tmp_path):
    from click.testing import CliRunner

    from xlrating.cli import main

    rows = "".join(f"Cup {i},2023-13-01,10,1,P{i},1\n" for i in range(300))
    table = tmp_path / "results.csv"
    table.write_text("event,date,players,rounds,player,place\n" + rows)
    text = CliRunner().invoke(main, ["validate", str(table)]).stdout.splitlines()
    assert text[0].endswith("INVALID (300 errors, 0 warnings)")
    assert len(text) == 1 + 20 + 1
    assert text[-1] == "  ... and 280 more TABLE_DATE_INVALID like these (validate --format json lists every one)"
    listed = CliRunner().invoke(main, ["validate", "--format", "json", str(table)]).stdout
    assert listed.count('"TABLE_DATE_INVALID"') == 300
