"""Excel's criteria in COUNTIF, COUNTIFS, SUMIF, SUMIFS, AVERAGEIF, AVERAGEIFS, MAXIFS, MINIFS.

Each case is a formula of one workbook built here, evaluated by the engine. The data copy the
workbooks Excel saved (their cached values are the expected results; the comment names the book and
cell): ic = /work/conf/ironcalc_books/ic-calc_tests_..., "test.xlsx" = formulas' test workbook
(saved by Microsoft Macintosh Excel); or Microsoft's COUNTIF page example ("MS COUNTIF").
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from xlrating.engine import evaluate_workbook
from xlrating.engine.read.grid import Sheet
from xlrating.functions import ExcelError

# (column, first row, values) down a column (across a row for row 1): a value "=..." is a formula,
# TEXT(...) a text that openpyxl would otherwise store as an error value.


class TEXT(str):
    """A text cell spelling an error value ("#DIV/0!" as text, not the error)."""


DATA: list[tuple[str, int, list[Any]]] = [
    # ic STATISTICAL_COUNTIF, sheet Rows, A2:A8 and G2:G15
    ("A", 2, [23, "23", True, 1, -23, "hey", False]),
    ("G", 2, [23, "23", True, 1, -23, "hey", False, 123, None, None, '=""', None, None, None]),
    # Rows T2:T15 (T9 the error #N/A, T11 the text "#DIV/0!")
    ("T", 2, ["Steven", "Albert", "Bernanrd", "Steven", "Mr. Brown", "Mrs. Brown", "Albert", "=NA()", None,
              TEXT("#DIV/0!"), "=1/0", "=1/0", None, None]),
    # Rows Y2:Y15 (Y2 #N/A and Y4 #DIV/0! errors, Y5 the text "#N/A", Y7 and Y8 formulas giving "")
    ("Y", 2, ["=NA()", 12, "=1/0", TEXT("#N/A"), 0, '=""', '=""', None, 0, None, None, None, None, None]),
    # Rows AG2:AG15
    ("AG", 2, [True, 1, 0, False, None, "TRUE", None, True, True, False, None, None, None, None]),
    # ic MATH_AND_TRIGONOMETRY_SUMIF_AVERAGE_IF, A2:B10 (here AN2:AO10)
    ("AN", 2, ["1213", "Alemania", "Argentina", "Paraguay", "XYZ", "QWERTY", 1213, "tron"]),
    ("AO", 2, [3, 4, 5, 6, -3, 12, "=1/0", "=NA()", None]),
    # ic MATH_AND_TRIGONOMETRY_SUMIFS, Sheet1 A2:B20 (here AQ2:AR20) and A25:B37 (AQ25:AR37)
    ("AQ", 2, [13, 17, -23, 5, 7, -3, None, "=NA()", "=1/0", '=""', 113, "123", True, 14, 77, 34, None, 0,
               "string"]),
    ("AR", 2, ["red", "BLUE", "yellow", "dark blue", "light blue", "light yellow", "dark yellow", "brown", "white",
               "Mr. White", "brown", "blue", "blue", "white dark", "red-ish", "blue-ish", "magenta", "magenta",
               "yellow"]),
    ("AQ", 25, [1, 2, 3, -1, -3, 7, 12, -13, "=1/0", "3", True, 7, 8]),
    ("AR", 25, [1, 7, 8, 9, 13, "=1/0", 9, 3, 90, None, None, True, False]),
    # test.xlsx, MATH & TRIG row 73: C73:L73 (here BC1:BL1)
    ("BC", 1, [0, 1, 2.3, 10, -1, None, "ciao", True, "=1/0", "=NA()"]),
    # MS COUNTIF: A2:B5 (here BA2:BB5)
    ("BA", 2, ["apples", "oranges", "peaches", "apples"]),
    ("BB", 2, [32, 54, 75, 86]),
]

VALUE, NA, DIV0 = ExcelError("#VALUE!"), ExcelError("#N/A"), ExcelError("#DIV/0!")

CASES: list[tuple[str, Any]] = [
    # A number criterion matches numbers and text reading as that number (ic COUNTIF Rows C2: 2, D2 "=23": 2),
    # not TRUE for 1 (C3: 1)
    ("COUNTIF($A$2:$A$8, 23)", 2.0),
    ('COUNTIF($A$2:$A$8, "=23")', 2.0),
    ("COUNTIF($A$2:$A$8, 1)", 1.0),
    # but "<>23" leaves out the number only: the text "23" counts (Rows E2: 6 of 7; M2: 13 of 14)
    ('COUNTIF($A$2:$A$8, "<>23")', 6.0),
    ('COUNTIF($G$2:$G$15, "<>23")', 13.0),
    ('COUNTIF($A$2:$A$8, "<>0")', 7.0),  # Rows E6
    # ordering compares numbers only (Rows I2 "<23": 2, J2 "<=23": 3, K2 ">23": 1, L4 ">=-23": 4, I7 "<100": 3)
    ('COUNTIF($G$2:$G$15, "<23")', 2.0),
    ('COUNTIF($G$2:$G$15, "<=23")', 3.0),
    ('COUNTIF($G$2:$G$15, ">23")', 1.0),
    ('COUNTIF($G$2:$G$15, ">=-23")', 4.0),
    ('COUNTIF($G$2:$G$15, "<100")', 3.0),
    # an operator alone: "<>" every cell not empty, a formula's "" included (Rows M9: 9); "<" & co. nothing (I9..L9)
    ('COUNTIF($G$2:$G$15, "<>")', 9.0),
    ('COUNTIF($G$2:$G$15, "<")', 0.0),
    ('COUNTIF($G$2:$G$15, ">=")', 0.0),
    # "" matches empty cells and cells holding "" (Rows AA5: 8); an empty criterion cell is 0 (AA6: 2; U6 on T: 0)
    ('COUNTIF($Y$2:$Y$15, "")', 8.0),
    ("COUNTIF($Y$2:$Y$15, $ZZ$1)", 2.0),
    ("COUNTIF($T$2:$T$15, $ZZ$1)", 0.0),
    ('COUNTIF($Y$2:$Y$8, "<>")', 7.0),  # AB5
    # errors: an error criterion or its text matches the error cells only, not the text "#N/A"
    # (AA2 #N/A: 1, AA3 #DIV/0!: 1, AA4 "#N/A": 1; V10 "#DIV/0!" on T: 2, the text T11 left out)
    ("COUNTIF($Y$2:$Y$15, NA())", 1.0),
    ("COUNTIF($Y$2:$Y$15, 1/0)", 1.0),
    ('COUNTIF($Y$2:$Y$15, "#N/A")', 1.0),
    ('COUNTIF($T$2:$T$15, "#DIV/0!")', 2.0),
    ('COUNTIF($Y$2:$Y$8, "<>#N/A")', 6.0),  # AB4: the other error and the text count
    ("COUNTIF($Y$2:$Y$8, CONCAT(\"<>\", NA()))", 1.0),  # AB2: the criterion is the error #N/A itself
    # text: whole, case-insensitive, wildcards; "<>" counts empty cells and errors (V2: 12, V3: 2)
    ('COUNTIF($T$2:$T$15, "<>*brown")', 12.0),
    ('COUNTIF($T$2:$T$15, "=*brown")', 2.0),
    ('COUNTIF($T$2:$T$15, "steven")', 2.0),
    # text order, case-insensitive, texts only (V4 "<brown": 4 with the text "#DIV/0!", V5 ">brown": 4)
    ('COUNTIF($T$2:$T$15, "<brown")', 4.0),
    ('COUNTIF($T$2:$T$15, ">brown")', 4.0),
    # TRUE/FALSE match logical cells only, typed or as text in any case (AI3: 3, AI5 FALSE: 2, AI6 "true": 3,
    # AI7 "FaLSe": 2, AJ3 "<>TRUE": 11)
    ("COUNTIF($AG$2:$AG$15, TRUE)", 3.0),
    ("COUNTIF($AG$2:$AG$15, FALSE)", 2.0),
    ('COUNTIF($AG$2:$AG$15, "true")', 3.0),
    ('COUNTIF($AG$2:$AG$15, "FaLSe")', 2.0),
    ('COUNTIF($AG$2:$AG$15, "<>TRUE")', 11.0),
    ('COUNTIF($AG$2:$AG$15, 0)', 1.0),  # AI4
    ('COUNTIF($BC$1:$BL$1, "<=TRUE")', 1.0),  # test.xlsx STATISTICAL Y24 (the TRUE cell only, not 1)
    # COUNTIFS: the same rules, each pair ANDed (ic COUNTIFS Rows2 C2, E2, T2)
    ("COUNTIFS($A$2:$A$8, 23)", 2.0),
    ('COUNTIFS($A$2:$A$8, "<>23")', 6.0),
    ('COUNTIFS($T$2:$T$15, "<>*brown")', 12.0),
    ('COUNTIFS($AR$25:$AR$37, ">=1", $AR$25:$AR$37, "<=9")', 6.0),  # Columns1 C4 shape: 1,7,8,9,9,3
    ('COUNTIFS($A$2:$A$8, ">0", $G$2:$G$9, ">0")', VALUE),  # ranges of different shapes (Microsoft's COUNTIFS)
    # MS COUNTIF examples
    ('COUNTIF($BA$2:$BA$5, "apples")', 2.0),
    ("COUNTIF($BA$2:$BA$5, $BA$4)", 1.0),
    ('COUNTIF($BB$2:$BB$5, ">55")', 2.0),
    ('COUNTIF($BB$2:$BB$5, "<>"&$BB$4)', 3.0),
    ('COUNTIF($BB$2:$BB$5, ">=32")-COUNTIF($BB$2:$BB$5, ">85")', 3.0),
    ('COUNTIF($BA$2:$BA$5, "*")', 4.0),
    ('COUNTIF($BA$2:$BA$5, "?????es")', 2.0),
    # a range of criteria gives one count each: 7 names, 5 distinct
    ("SUMPRODUCT(1/COUNTIF($T$2:$T$8, $T$2:$T$8))", 5.0),
    # SUMIF / AVERAGEIF (ic SUMIF_AVERAGE_IF): wildcards match whole texts (J4 "*a": 4.5, K4: 9; J5 "*Y*": 5),
    # and text cells only (J6 "12*": 3, the number 1213 left out)
    ('AVERAGEIF($AN$2:$AN$9, "*a", $AO$2:$AO$9)', 4.5),
    ('SUMIF($AN$2:$AN$9, "*a", $AO$2:$AO$9)', 9.0),
    ('AVERAGEIF($AN$2:$AN$9, "*Y*", $AO$2:$AO$9)', 5.0),
    ('SUMIF($AN$2:$AN$9, "12*", $AO$2:$AO$9)', 3.0),
    ('SUMIF($AO$2:$AO$10, "<5")', 4.0),  # F5
    ('AVERAGEIF($AO$2:$AO$10, ">0")', 6.0),  # E4
    ("SUMIF($AO$2:$AO$10, $ZZ$1)", 0.0),  # F7: the empty criterion is 0, no 0 there
    ("AVERAGEIF($AO$2:$AO$10, $ZZ$1)", DIV0),  # E7: nothing matched
    ("AVERAGEIF($AO$2:$AO$10, NA())", NA),  # E6: the matched cell's error
    ("COUNTIF($AO$2:$AO$10, NA())", 1.0),  # G6
    # SUMIFS & co. (ic SUMIFS Sheet1): numbers of the matched rows only (D3 29, F3 29/3, H3 5, I3 17)
    ('SUMIFS($AQ$2:$AQ$20, $AR$2:$AR$20, "*blue")', 29.0),
    ('SUMIF($AR$2:$AR$20, "*blue", $AQ$2:$AQ$20)', 29.0),
    ('AVERAGEIFS($AQ$2:$AQ$20, $AR$2:$AR$20, "*blue")', 29.0 / 3),
    ('MINIFS($AQ$2:$AQ$20, $AR$2:$AR$20, "*blue")', 5.0),
    ('MAXIFS($AQ$2:$AQ$20, $AR$2:$AR$20, "*blue")', 17.0),
    ('_xlfn.MAXIFS($AQ$2:$AQ$20, $AR$2:$AR$20, "*blue")', 17.0),
    # the first error among the matched rows (D4 "*o*": #N/A, D6 "white": #DIV/0!, D13 ">c": #DIV/0!)
    ('SUMIFS($AQ$2:$AQ$20, $AR$2:$AR$20, "*o*")', NA),
    ('SUMIF($AR$2:$AR$20, "white", $AQ$2:$AQ$20)', DIV0),
    ('MINIFS($AQ$2:$AQ$20, $AR$2:$AR$20, ">c")', DIV0),
    ('SUMIFS($AQ$2:$AQ$20, $AR$2:$AR$20, "???-ish")', 77.0),  # D12
    ('MAXIFS($AQ$2:$AQ$20, $AR$2:$AR$20, "magenta")', 0.0),  # I9: an empty cell and 0
    # two criteria on one range (E25 -12, F25 -6, H25 1; E26 4, F26 4/6; F28: nothing matched)
    ('SUMIFS($AQ$25:$AQ$37, $AR$25:$AR$37, ">0", $AR$25:$AR$37, "<5")', -12.0),
    ('AVERAGEIFS($AQ$25:$AQ$37, $AR$25:$AR$37, ">0", $AR$25:$AR$37, "<5")', -6.0),
    ('MAXIFS($AQ$25:$AQ$37, $AR$25:$AR$37, ">0", $AR$25:$AR$37, "<5")', 1.0),
    ('SUMIFS($AQ$25:$AQ$37, $AR$25:$AR$37, ">=1", $AR$25:$AR$37, "<=9")', 4.0),
    ('AVERAGEIFS($AQ$25:$AQ$37, $AR$25:$AR$37, ">100", $AR$25:$AR$37, "<1")', DIV0),
    ('SUMIFS($AQ$25:$AQ$37, $AR$25:$AR$37, 7, $AR$25:$AR$37, "<9")', 2.0),  # E30
    ('SUMIFS($AQ$2:$AQ$20, $AR$2:$AR$19, "*blue")', VALUE),  # shapes differ (Microsoft's SUMIFS)
    # test.xlsx MATH & TRIG row 73 (R73 10, S73 10, T73 -1, Y73 -1, Z73 the matched cell's error)
    ("SUMIF($BC$1:$BD$1, 1, $BE$1:$BF$1)", 10.0),
    ('SUMIF($BD$1:$BE$1, "1", $BF$1:$BG$1)', 10.0),
    ('SUMIF($BE$1:$BF$1, ">1", $BG$1:$BH$1)', -1.0),
    ('SUMIF($BI$1:$BJ$1, "<=TRUE", $BF$1:$BG$1)', -1.0),
    ("SUMIF($BI$1:$BJ$1, $BI$1, $BK$1:$BL$1)", DIV0),
    # sum_range in the criteria range's shape from its top-left cell (Microsoft's SUMIF: A1:A5 with B1:K5 sums
    # B1:B5)
    ('SUMIF($BB$2:$BB$5, ">50", $BB$2:$BC$9)', 215.0),
    # A whole column is every one of its 1,048,576 cells, the empty ones past the used area included
    # (ic COUNTIF Rows R2: COUNTIF($G:$G, "<>" & a value found once) is 1048575; ic COUNTIFS H2 likewise)
    ('COUNTIF($G:$G, "<>hey")', 1048575.0),
    ('COUNTIF($G:$G, "")', 1048568.0),  # all but the 8 values of G2:G9 (G12's "" matches too)
    ('COUNTIFS($G:$G, "<>hey", $A:$A, "<>23")', 1048574.0),  # rows 2 (A2 23) and 7 (G7 "hey") left out
    ('COUNTIFS($G:$G, "<>hey", $A$2:$A$8, "<>23")', ExcelError("#VALUE!")),  # ranges of different sizes
]


def _write(sheet: Any, column: str, row: int, values: list[Any]) -> None:
    first = openpyxl.utils.column_index_from_string(column)
    for offset, value in enumerate(values):
        if value is None:
            continue
        cell = sheet.cell(row, first + offset) if row == 1 else sheet.cell(row + offset, first)
        cell.value = str(value) if isinstance(value, TEXT) else value
        if isinstance(value, TEXT):
            cell.data_type = "s"


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> Sheet:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Sheet"
    for column, row, values in DATA:
        _write(sheet, column, row, values)
    for row, (formula, _) in enumerate(CASES, start=1):
        sheet[f"CA{row}"] = "=" + formula
    path = tmp_path_factory.mktemp("criteria") / "criteria.xlsx"
    book.save(path)
    found = evaluate_workbook(str(path)).grid.sheet("Sheet")
    assert found is not None
    return found


@pytest.mark.parametrize(("row", "formula", "expected"),
                         [(row, formula, expected) for row, (formula, expected) in enumerate(CASES, start=1)])
def test_criteria_as_excel_computed_them(evaluated: Sheet, row: int, formula: str, expected: Any) -> None:
    got = evaluated.get(row, 79)  # column CA
    if isinstance(expected, ExcelError):
        assert isinstance(got, ExcelError) and got.code == expected.code, (formula, got)
    else:
        assert got == pytest.approx(expected), (formula, got)


_IMPORTS = """
import sys
from xlrating.engine import evaluate_workbook
sheet = evaluate_workbook(sys.argv[1]).grid.sheet("Sheet")
print(repr([sheet.get(r, 1) for r in (1, 2)]))
print("dateutil.parser" in sys.modules)
"""


@pytest.mark.parametrize(("criterion", "count", "dateutil"), [('"big"', 3.0, False), ('">1/1/2020"', 1.0, False)])
def test_a_criterion_without_digits_parses_no_date(tmp_path: Path, criterion: str, count: float,
                                                   dateutil: bool) -> None:
    # dateutil.parser costs ~15 ms to import: no criterion reads it, a date in one neither (the
    # engine's own reading of text as a number, maths/text_numbers.py, reads ">1/1/2020")
    book = openpyxl.Workbook()
    sheet = book.active
    for row, value in enumerate(["big", "small", "A123", 5, "big", None, "7", "x1", "big", 45000], start=2):
        sheet.cell(row, 6, value)
    sheet["A1"] = f"=COUNTIF(F2:F11,{criterion})"
    sheet["A2"] = '=SUMIF(F2:F11,"<>big",F2:F11)'
    book.save(tmp_path / "book.xlsx")
    done = subprocess.run([sys.executable, "-c", _IMPORTS, str(tmp_path / "book.xlsx")],
                          capture_output=True, text=True, check=True)
    values, loaded = done.stdout.strip().splitlines()
    assert eval(values) == [count, 45005.0]  # the numbers 5 and 45000; "7" is text
    assert loaded == str(dateutil)
