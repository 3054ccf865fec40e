"""VALUETOTEXT against Microsoft's examples: numbers as a General cell shows them, strict text quoted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import schedula as sh
from formulas.tokens.operand import Error, XlError

from xlrating.engine import evaluate_workbook
from xlrating.engine.functions.text import FUNCTIONS
from xlrating.functions import ExcelError

VALUE = ExcelError("#VALUE!")


def _valuetotext(*args: Any) -> Any:
    """VALUETOTEXT's value for one set of arguments (an error as ExcelError)."""
    value = np.asarray(FUNCTIONS["VALUETOTEXT"](*args), dtype=object).ravel()[0]
    return ExcelError(str(value)) if isinstance(value, XlError) else value


def test_numbers_are_written_as_a_general_cell_shows_them() -> None:
    assert _valuetotext(1234.01234) == "1234.01234"
    assert _valuetotext(1234.0, 1) == "1234"
    # formulas wrote Python's str(): 0.30000000000000004, 0.3333333333333333, 1e-05 and 21 digits;
    # decimal notation up to 20 characters, as Excel turns numbers into text (text.number_text)
    assert _valuetotext(0.1 + 0.2) == "0.3"
    assert _valuetotext(1 / 3) == "0.333333333333333"
    assert _valuetotext(1e-05) == "0.00001"
    assert _valuetotext(1e20) == "1E+20"
    assert _valuetotext(1234567890123456.0) == "1234567890123460"
    assert _valuetotext(-0.0) == "0"


def test_strict_format_quotes_text_and_doubles_its_quotes() -> None:
    assert _valuetotext("Hello", 1) == '"Hello"'
    assert _valuetotext("Hello") == "Hello"
    assert _valuetotext('say "hi"', 1) == '"say ""hi"""'  # formulas: "say "hi"" (does not parse back)
    assert _valuetotext(True, 1) == "TRUE"
    assert _valuetotext(Error.errors["#VALUE!"], 1) == "#VALUE!"
    assert _valuetotext(sh.EMPTY, 1) == ""
    assert _valuetotext("Hello", 2) == VALUE
    assert _valuetotext("Hello", Error.errors["#N/A"]) == ExcelError("#N/A")


def test_valuetotext_in_a_workbook(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([0.1, 0.2, 'a "quoted" word'])
    ws["A2"] = "=_xlfn.VALUETOTEXT(A1+B1)"
    ws["B2"] = "=_xlfn.VALUETOTEXT(C1,1)"
    ws["C2"] = "=_xlfn.VALUETOTEXT(1/3)&\"!\""
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert [sheet.get(2, col) for col in range(1, 4)] == ["0.3", '"a ""quoted"" word"', "0.333333333333333!"]


def test_textjoin_with_an_empty_delimiter_cell_joins_with_nothing_between(tmp_path: Path) -> None:
    # as a workbook Excel saved has it (IronCalc's TEXT_TEXTJOIN.xlsx, row 12)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([None, True, "Monday", "Tuesday", None, "Friday", "=TEXTJOIN(A1,B1,C1:F1)", "=TEXTJOIN(A1,FALSE,C1:F1)",
               '=TEXTJOIN(",",TRUE,C1:F1)'])
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert [sheet.get(1, col) for col in (7, 8, 9)] == ["MondayTuesdayFriday", "MondayTuesdayFriday",
                                                        "Monday,Tuesday,Friday"]


# TEXTBEFORE/TEXTAFTER: arguments and results as a workbook Excel saved has them (IronCalc's
# TEXT_TEXTBEFORE_TEXTAFTER.xlsx): (text, delimiter, instance_num, match_mode, match_end, if_not_found)
# -> (TEXTAFTER, TEXTBEFORE) with every argument given
AROUND = [
    (("123 the 456 the 891", "the", 2, 1, 0, "@"), (" 891", "123 the 456 ")),
    (("123 the 456 the 891", "THE", 2, 1, 0, "@"), (" 891", "123 the 456 ")),  # case ignored
    (("123 the 456 the 891", "THE", 2, 0, 0, "@"), ("@", "@")),  # case matched: not found
    (("123 the 456 the 891", "the", -1, 1, 0, "x"), (" 891", "123 the 456 ")),  # from the end
    (("123 the 456 the 891", "the", -1.2, 1, 0, "x"), (" 456 the 891", "123 ")),  # rounded down: -2
    (("123 the 456 the 891", "the", 5, 1, 0, "Not found"), ("Not found", "Not found")),
    (("A day in the woods", "the", 0, 1, 0, "x"), (VALUE, VALUE)),
    (("A day in the woods", "the", 1, 3, 0, "@"), (" woods", "A day in ")),  # any other match_mode
    (("123 the 456 the 891", "Hello", 1, 1, 1, "Failed"), ("", "123 the 456 the 891")),  # the end matches
    (("123 the 456 the 891", "Hello", -1, 1, 1, "Failed"), ("123 the 456 the 891", "")),  # the start
    (("123 the 456 the 891", "Hello", 2, 1, 1, "Failed"), ("Failed", "Failed")),
    (("123 the 456 the 891", "Hello", -1, 1, 2, "Failed"), (VALUE, VALUE)),
    (("del", "deli", 1, 1, 0, "qwerty"), (VALUE, VALUE)),
    ((True, "R", 1, 0, 0, None), ("UE", "T")),
    ((123, 1, 1, 1, 0, None), ("23", "")),
]


def test_textbefore_and_textafter_as_excel_computes_them(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for row, (arguments, _) in enumerate(AROUND, start=1):
        for col, value in enumerate(arguments, start=1):
            ws.cell(row, col, value)
        ws.cell(row, 7, f"=TEXTAFTER(A{row},B{row},C{row},D{row},E{row},F{row})")
        ws.cell(row, 8, f"=TEXTBEFORE(A{row},B{row},C{row},D{row},E{row},F{row})")
    end = len(AROUND) + 1
    ws.append(["del", "deli", f"=TEXTAFTER(A{end},B{end})", f"=TEXTAFTER(A{end},B{end},1)"])
    ws.append(["Email - me@example.com", f'=TEXTAFTER(A{end + 1},"- ",-1,,1)',
               f'=TEXTBEFORE(A{end + 1},{{"x","- "}})'])
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    got = [(sheet.get(row, 7), sheet.get(row, 8)) for row in range(1, len(AROUND) + 1)]
    assert got == [expected for _, expected in AROUND]
    assert [sheet.get(end, 3), sheet.get(end, 4)] == [ExcelError("#N/A"), VALUE]
    assert [sheet.get(end + 1, 2), sheet.get(end + 1, 3)] == ["me@example.com", "Email "]
