"""``validate --annotate FOLDER`` with several files: one copy per file, never one overwriting
another when two files share a name, and each copy's place said on stderr."""

from __future__ import annotations

import openpyxl
from click.testing import CliRunner
from ema_sheets import rows_with

from xlrating.cli import main
from xlrating.sheets.validate.annotate import listed_findings


def validate_into(folder, *files):
    return CliRunner().invoke(main, ["validate", "--annotate", str(folder), *map(str, files)])


def test_files_with_the_same_name_in_different_folders_get_numbered_copies(make_sheet, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = make_sheet(name="a/results.xlsx")
    second = make_sheet(name="b/results.xlsx", rows=rows_with(0, {"EMA ID": "-"}))
    out = tmp_path / "out"
    result = validate_into(out, first, second)
    assert result.exit_code == 1, result.output
    assert sorted(p.name for p in out.iterdir()) == ["results-2.annotated.xlsx", "results.annotated.xlsx"]
    # the second file's copy is the one carrying its finding: nothing was overwritten
    assert listed_findings(openpyxl.load_workbook(out / "results.annotated.xlsx")["Findings"]) == []
    assert "EMA_ID_MISSING" in openpyxl.load_workbook(out / "results-2.annotated.xlsx")["Results"]["B14"].comment.text


def test_where_each_copy_went_is_said_on_stderr(make_sheet, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = make_sheet(name="a/results.xlsx"), make_sheet(name="b/results.xlsx")
    out = tmp_path / "out"
    result = validate_into(out, first, second)
    assert f"annotated copy of {first} written to {out / 'results.annotated.xlsx'}" in result.stderr
    assert f"annotated copy of {second} written to {out / 'results-2.annotated.xlsx'}" in result.stderr
    assert "annotated copy" not in result.stdout  # stdout stays the report


def test_names_differing_only_in_case_are_also_kept_apart(make_sheet, tmp_path):
    (tmp_path / "a").mkdir()
    out = tmp_path / "out"
    result = validate_into(out, make_sheet(name="a/Results.xlsx"), make_sheet(name="results.xlsx"))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["Results.annotated.xlsx", "results-2.annotated.xlsx"]
