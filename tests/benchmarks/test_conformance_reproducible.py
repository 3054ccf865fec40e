"""The conformance benchmark tells the cells no engine can reproduce from the workbook alone (random
numbers, the clock, web services, CUBE functions, INFO, a VBA or add-in function) from the others,
and counts the cells that read them, directly, through other cells, other sheets, ranges, defined
names or OFFSET/INDIRECT over such an area, as not reproducible too; the target is judged on the
reproducible cells."""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
from openpyxl.workbook.defined_name import DefinedName
from test_conformance_oracle import load_conformance


def _book(path: Path, macros: bool = False) -> Path:
    book = openpyxl.Workbook()
    data = book.active
    data.title = "Data"
    data["A1"] = "=RANDBETWEEN(1,6)"  # a die
    data["A2"] = "=A1*2"  # reads it
    data["A3"] = "=SUM(A1:A2)+Other!B1"  # and through another cell
    data["A4"] = "=1+1"  # reproducible
    data["A5"] = "=TODAY()"  # the saved clock gives it; the computer's not
    data["A6"] = "=A5+1"
    data["A7"] = "=NOW()"  # the time of day: never
    data["A8"] = '=FILTERXML(WEBSERVICE("https://example.org/x"),"//a")'
    data["A9"] = '=CUBEVALUE("ThisWorkbookDataModel","[Measures].[Sum]")'
    data["A10"] = '=INFO("osversion")'
    data["A11"] = "=myFunc(A4)"  # neither Excel's nor a name: #NAME? in Excel without VBA
    data["A12"] = "=_xll.Quote(A4)"  # an add-in's
    data["A13"] = "=Die+1"  # a name that reads A1
    data["A14"] = "=SUM(OFFSET(A1,0,0,3,1))"  # OFFSET over an area holding A1
    data["A15"] = '=INDIRECT("B"&A4)'  # reads A4 only
    data["A16"] = "=Twice(A4)"  # a LAMBDA of the workbook
    data["A17"] = "=SUM(B1:B3)"  # B2 is a shared formula's follower reading A7 (NOW)
    data["A18"] = "=LET(x,A4,x+1)"
    data["A19"] = '=_xlfn.RANDARRAY(2,1)+LEN(_xlfn.WEBSERVICE("https://example.org"))'  # stored with Excel's prefix
    data["B1"] = 5
    data["B2"] = "=A7+0"
    data["B3"] = "=A4+0"
    other = book.create_sheet("Other")
    other["B1"] = "=Data!A4+1"  # reproducible, read by A3
    other["B2"] = "=Data!A2"  # another sheet, through A2
    book.defined_names["Die"] = DefinedName("Die", attr_text="Data!$A$1")
    book.defined_names["Twice"] = DefinedName("Twice", attr_text="LAMBDA(v,v*2)")
    book.save(path)
    if macros:
        with zipfile.ZipFile(path, "a") as package:
            package.writestr("xl/vbaProject.bin", b"\x00")
    return path


def _reasons(path: Path, clock: str = "saved") -> dict[tuple[str, str], str]:
    conformance = load_conformance()
    return conformance.Reproducibility(clock).classify(path)


def test_cells_needing_more_than_the_workbook_and_those_reading_them_are_found(tmp_path: Path) -> None:
    reasons = _reasons(_book(tmp_path / "book.xlsx"))
    assert reasons[("DATA", "A1")] == "RANDBETWEEN"
    assert reasons[("DATA", "A2")] == "depends on DATA!A1: RANDBETWEEN"
    assert reasons[("DATA", "A3")].endswith(": RANDBETWEEN")
    assert reasons[("OTHER", "B2")].endswith(": RANDBETWEEN")  # another sheet, through A2
    assert reasons[("DATA", "A13")] == "depends on DATA!A1: RANDBETWEEN"  # through a defined name
    assert reasons[("DATA", "A14")].endswith(": RANDBETWEEN")  # OFFSET over an area holding A1
    assert reasons[("DATA", "A7")] == "NOW"
    assert reasons[("DATA", "B2")] == "depends on DATA!A7: NOW"
    assert reasons[("DATA", "A17")] == "depends on DATA!B2: NOW"
    assert reasons[("DATA", "A8")] == "WEBSERVICE"
    assert reasons[("DATA", "A9")] == "CUBEVALUE"
    assert reasons[("DATA", "A10")] == "INFO"
    assert reasons[("DATA", "A12")] == "_XLL.QUOTE (an add-in's)"
    assert reasons[("DATA", "A19")] == "RANDARRAY"
    reproducible = ["A4", "A5", "A6", "A11", "A15", "A16", "A18", "B3"]
    assert [cell for cell in reproducible if ("DATA", cell) in reasons] == []
    assert ("OTHER", "B1") not in reasons


def test_today_needs_the_computers_clock_only_under_clock_computer(tmp_path: Path) -> None:
    reasons = _reasons(_book(tmp_path / "book.xlsx"), clock="computer")
    assert reasons[("DATA", "A5")] == "TODAY"
    assert reasons[("DATA", "A6")] == "depends on DATA!A5: TODAY"


def test_an_unknown_function_needs_vba_only_in_a_workbook_holding_a_vba_project(tmp_path: Path) -> None:
    reasons = _reasons(_book(tmp_path / "book.xlsm", macros=True))
    assert reasons[("DATA", "A11")] == "MYFUNC (not Excel's: VBA)"
    assert ("DATA", "A16") not in reasons  # a LAMBDA the workbook defines is no VBA


def test_the_report_judges_the_target_on_the_reproducible_cells() -> None:
    conformance = load_conformance()
    cells = [conformance.OracleCell("S", f"A{row}", "=1", conformance.Cached("number", 1.0)) for row in range(1, 5)]
    values = {("S", "A1"): conformance.Cached("number", 1.0), ("S", "A2"): conformance.Cached("number", 1.0),
              ("S", "A3"): conformance.Cached("number", 1.0), ("S", "A4"): conformance.Cached("number", 2.0)}
    score = conformance.EngineScore("ours")
    score.add("c/book.xlsx", cells, conformance.Outcome(values=values), {("S", "A4"): "RAND"})
    corpus = conformance.corpus_scores(score)[0]
    assert (corpus.equal, corpus.total, corpus.reproducible_equal, corpus.reproducible_total) == (3, 4, 3, 3)
    assert corpus.meets(99.5)
    assert corpus.as_json(99.5)["not_reproducible"] == {"RAND": 1}
    assert score.mismatches[0].as_json("ours")["reproducible"] is False


def test_a_shared_string_index_past_the_table_is_no_value_not_a_failed_workbook() -> None:
    # a pre-release Excel 2007 file keeps its strings in <sstItem>, which no reader finds: its output
    # still reads, the cell without a value
    conformance = load_conformance()
    cell = conformance.etree.fromstring('<c xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                                        'r="A1" t="s"><v>3</v></c>')
    assert conformance.cached_value(cell, ["only"]) is None
    assert conformance.cached_value(cell, ["a", "b", "c", "d"]) == conformance.Cached("text", "d")


def test_a_text_excel_wrote_in_another_locale_is_not_reproducible_and_other_misses_stay() -> None:
    # EPPlus' workbooks were saved in a Swedish Excel: FORMULATEXT writes ';' between arguments and
    # TEXT a space between thousands and a decimal comma; the file does not record the locale
    conformance = load_conformance()
    text = conformance.Cached
    cells = [conformance.OracleCell("S", "A1", "_xlfn.FORMULATEXT(B1)", text("text", "=SUBTOTAL(9;$B2:$B4)")),
             conformance.OracleCell("S", "A2", 'TEXT(B2,"# ##0,00")', text("text", "349 578 723 238,40")),
             conformance.OracleCell("S", "A3", 'TEXT(B3,"0.00")', text("text", "1.50")),  # a real miss
             conformance.OracleCell("S", "A4", 'B4&";"', text("text", "1;2"))]  # no function of the locale
    values = {("S", "A1"): text("text", "=SUBTOTAL(9,$B2:$B4)"), ("S", "A2"): text("text", "349,578,723,238.40"),
              ("S", "A3"): text("text", "1.5"), ("S", "A4"): text("text", "1,2")}
    score = conformance.EngineScore("ours")
    score.add("c/book.xlsx", cells, conformance.Outcome(values=values), {})
    corpus = conformance.corpus_scores(score)[0]
    assert (corpus.equal, corpus.total, corpus.reproducible_equal, corpus.reproducible_total) == (0, 4, 0, 2)
    assert corpus.as_json(99.5)["not_reproducible"] == {"the saver's locale": 2}
    assert [m.as_json("ours")["reproducible"] for m in score.mismatches] == [False, False, True, True]


def test_a_function_called_through_an_external_link_needs_that_workbook_or_add_in(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Data"
    sheet["A1"] = '=[1]!LUCANET("Ist")'  # a macro of the linked workbook (an add-in's, as Essbase's HsGetValue)
    sheet["A2"] = "=A1&\"!\""
    sheet["A3"] = '=RTD("quotes.server",,"MSFT")'  # a real-time data server
    sheet["A4"] = "=[1]Sheet1!B2*2"  # a cached cell of the linked workbook: the file holds it
    book.save(tmp_path / "linked.xlsx")
    reasons = _reasons(tmp_path / "linked.xlsx")
    assert reasons[("DATA", "A1")] == "LUCANET (a linked workbook's or add-in's)"
    assert reasons[("DATA", "A2")] == "depends on DATA!A1: LUCANET (a linked workbook's or add-in's)"
    assert reasons[("DATA", "A3")] == "RTD"
    assert ("DATA", "A4") not in reasons
