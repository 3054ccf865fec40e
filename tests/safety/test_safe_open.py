"""Rules of the one door: every hostile file is refused by load_workbook, quickly and by name."""

from __future__ import annotations

import io
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hostile import hostile_corpus
from make_hostile_corpus import as_macro_workbook, results_workbook, rezip, sheet_xml

from xlrating.gate.limits import Limits
from xlrating.gate.safe_open import UnreadableWorkbook, inspect_package, load_workbook

TIME_BOUND_S = 10.0


@pytest.mark.parametrize("name", sorted(hostile_corpus()))
def test_every_hostile_file_is_refused_naming_the_reason_within_the_time_bound(name: str) -> None:
    case = hostile_corpus()[name]
    started = time.monotonic()
    with pytest.raises(UnreadableWorkbook) as refused:
        load_workbook(case.path, limits=Limits.from_env(case.env))
    elapsed = time.monotonic() - started
    assert case.fragment in refused.value.reason.lower(), refused.value.reason
    assert refused.value.path == str(case.path)
    assert str(case.path) in str(refused.value)
    assert elapsed < TIME_BOUND_S


def test_a_real_results_workbook_opens(tmp_path: Path) -> None:
    path = tmp_path / "results.xlsx"
    path.write_bytes(results_workbook())
    book = load_workbook(path)
    assert book["Results"]["E2"].value == "Player 1"


def test_inspect_package_reports_the_extent_of_each_sheet_by_its_tab_name(tmp_path: Path) -> None:
    path = tmp_path / "results.xlsx"
    path.write_bytes(results_workbook())
    report = inspect_package(path)
    (sheet,) = report.sheets
    assert (sheet.name, sheet.rows, sheet.columns, sheet.cells) == ("Results", 9, 6, 54)
    assert not report.has_macros


def test_a_sheet_within_the_limits_passes_and_one_row_more_is_refused_naming_the_limit(tmp_path: Path) -> None:
    body = "".join(f'<row r="{r}"><c r="B{r}"><v>{r}</v></c></row>' for r in range(1, 51))
    path = tmp_path / "fifty.xlsx"
    path.write_bytes(rezip(results_workbook(), replace={"xl/worksheets/sheet1.xml": sheet_xml(body)}))
    assert load_workbook(path, limits=Limits(max_rows=50, max_columns=2)).active.max_row == 50
    with pytest.raises(UnreadableWorkbook, match=r"row 50 .*max_rows = 49 \(XLRATING_MAX_ROWS\)"):
        load_workbook(path, limits=Limits(max_rows=49))
    with pytest.raises(UnreadableWorkbook, match=r"column 2 .*max_columns = 1 \(XLRATING_MAX_COLUMNS\)"):
        load_workbook(path, limits=Limits(max_columns=1))


def test_limits_come_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert Limits.from_env({"XLRATING_MAX_ROWS": "200_000"}).max_rows == 200_000
    assert Limits.from_env({}) == Limits()
    path = tmp_path / "results.xlsx"
    path.write_bytes(results_workbook())
    monkeypatch.setenv("XLRATING_MAX_ROWS", "5")
    with pytest.raises(UnreadableWorkbook, match="max_rows = 5"):
        load_workbook(path)


@pytest.mark.parametrize("value", ["", "abc", "0", "-3", "1.5"])
def test_a_bad_limit_in_the_environment_is_a_clean_refusal_naming_the_variable(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str) -> None:
    path = tmp_path / "results.xlsx"
    path.write_bytes(results_workbook())
    monkeypatch.setenv("XLRATING_MAX_CELLS", value)
    with pytest.raises(UnreadableWorkbook, match="XLRATING_MAX_CELLS must be a positive whole number"):
        load_workbook(path)


def test_a_missing_file_is_named() -> None:
    with pytest.raises(UnreadableWorkbook, match="no such file"):
        load_workbook("/nonexistent/results.xlsx")


def test_macros_are_carried_byte_for_byte_and_never_run(tmp_path: Path) -> None:
    # Nothing in xlrating can execute VBA (no Python library runs it); what we can promise and
    # test is that a .xlsm opens as data and its vbaProject.bin comes back out unchanged.
    vba = b"\xd0\xcf\x11\xe0" + b"Sub Auto_Open(): Shell \"calc\": End Sub" * 10
    source = tmp_path / "macro.xlsm"
    source.write_bytes(as_macro_workbook(results_workbook(), vba))
    assert inspect_package(source).has_macros
    book = load_workbook(source, keep_vba=True)
    saved = tmp_path / "saved.xlsm"
    book.save(saved)
    with zipfile.ZipFile(saved) as archive:
        assert archive.read("xl/vbaProject.bin") == vba
    without = load_workbook(source)  # keep_vba=False drops the macros instead
    assert without["Results"]["A1"].value == "tournament"


def test_the_file_is_read_once_so_it_cannot_change_between_checks_and_parse(tmp_path: Path) -> None:
    path = tmp_path / "results.xlsx"
    path.write_bytes(results_workbook())
    calls = []
    real = openpyxl.load_workbook

    def spy(source, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(source)
        return real(source, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(openpyxl, "load_workbook", spy)
        load_workbook(path)
    assert isinstance(calls[0], io.BytesIO)


@pytest.mark.parametrize("limit", [10_000_000, 1000])
def test_a_file_that_grows_after_its_size_was_taken_is_read_whole_or_refused_at_the_limit(
        tmp_path: Path, limit: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from xlrating.gate import safe_open

    data = results_workbook()
    path = tmp_path / "growing.xlsx"
    path.write_bytes(data)
    real = os.stat

    def smaller(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        found = real(file, *args, **kwargs)
        if str(file) != str(path):
            return found
        fields = list(found)
        fields[6] = 100  # st_size: as it was before the writer went on
        return os.stat_result(fields)

    monkeypatch.setattr(safe_open.os, "stat", smaller)
    if limit > len(data):
        assert safe_open._read_file(path, Limits(max_file_bytes=limit)) == data
    else:
        with pytest.raises(UnreadableWorkbook, match="more than 1,000 bytes"):
            safe_open._read_file(path, Limits(max_file_bytes=limit))


def test_reading_turns_a_damaged_cell_met_while_streaming_into_unreadable_workbook(tmp_path: Path) -> None:
    # Rich text with a font size that is not a number: well-formed, within every limit, and only
    # parsed when a read-only sheet is iterated -- after load_workbook has returned.
    body = '<row r="1"><c r="A1" t="inlineStr"><is><r><rPr><sz val="big"/></rPr><t>x</t></r></is></c></row>'
    path = tmp_path / "damaged.xlsx"
    path.write_bytes(rezip(results_workbook(), replace={"xl/worksheets/sheet1.xml": sheet_xml(body)}))
    from xlrating.gate.safe_open import reading

    book = load_workbook(path, read_only=True)
    with pytest.raises(UnreadableWorkbook, match="damaged worksheet content .*TypeError"), reading(path):
        list(book.active.iter_rows(values_only=True))


def test_reading_lets_a_bug_in_the_callers_own_code_through() -> None:
    from xlrating.gate.safe_open import reading

    with pytest.raises(ZeroDivisionError), reading("any.xlsx"):
        1 / 0  # noqa: B018
