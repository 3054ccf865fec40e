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
