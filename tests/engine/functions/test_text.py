"""VALUETOTEXT against Microsoft's examples: numbers as a General cell shows them, strict text quoted; CHAR and
CODE in the character set of the Excel that saved the workbook."""

from __future__ import annotations

import zipfile
from collections.abc import Callable, Iterator
from contextvars import Token
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
import schedula as sh
from formulas.tokens.operand import Error, XlError

from xlrating.engine import evaluate_workbook
from xlrating.engine.functions.text import FUNCTIONS
from xlrating.engine.read.character_set import CHARACTER_SET, MAC, WINDOWS
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


# --- CHAR and CODE: the character set of the Excel that saved the workbook ----------------------------

@pytest.fixture
def character_set() -> Iterator[Callable[[str], None]]:
    """Sets the character set CHAR and CODE use (as the model does for a workbook), undone after the test."""
    tokens: list[Token[str]] = []
    yield lambda name: tokens.append(CHARACTER_SET.set(name))
    for token in reversed(tokens):
        CHARACTER_SET.reset(token)


def _one(name: str, *args: Any) -> Any:
    """One function's value for one set of arguments (an error as ExcelError)."""
    value = np.asarray(FUNCTIONS[name]["function"](False, *args), dtype=object).ravel()[0]
    return ExcelError(str(value)) if isinstance(value, XlError) else value


def test_char_numbers_characters_by_windows_code_page_1252(character_set: Callable[[str], None]) -> None:
    # what a workbook Excel for Windows saved holds (IronCalc's TEXT_CHAR.xlsx, every number 1 to 255):
    # CHAR(128) the euro sign; 129, 141, 143, 144 and 157, unassigned in 1252, their own control characters
    character_set(WINDOWS)
    assert [_one("CHAR", n) for n in (65, 127, 128, 130, 150, 160, 255)] == ["A", "\x7f", "€", "‚", "–", "\xa0", "ÿ"]
    assert [_one("CHAR", n) for n in (129, 141, 143, 144, 157)] == ["\x81", "\x8d", "\x8f", "\x90", "\x9d"]
    assert [_one("CHAR", n) for n in (9, 10, 13)] == ["\t", "\n", "\r"]


def test_char_numbers_characters_by_mac_os_roman_for_excel_for_the_mac(character_set: Callable[[str], None]) -> None:
    # what a workbook Excel for the Mac saved holds (formulas' test.xlsx, every number 1 to 255)
    character_set(MAC)
    assert [_one("CHAR", n) for n in (65, 128, 157, 202, 219, 240, 255)] == ["A", "Ä", "ù", "\xa0", "€", "\uf8ff",
                                                                            "ˇ"]


@pytest.mark.parametrize("name", [WINDOWS, MAC])
def test_code_is_the_inverse_of_char(character_set: Callable[[str], None], name: str) -> None:
    character_set(name)
    assert [_one("CODE", _one("CHAR", n)) for n in range(1, 256)] == list(range(1, 256))


def test_char_reads_its_argument_as_a_number(character_set: Callable[[str], None]) -> None:
    # formulas' test.xlsx (Excel for the Mac): CHAR(65.8) "A", CHAR(TRUE) CHAR(1), 0, -1, an empty cell
    # and a text #VALUE!, an error as it is
    character_set(WINDOWS)
    assert [_one("CHAR", v) for v in (65.8, 9.9, True, "66")] == ["A", "\t", "\x01", "B"]
    assert [_one("CHAR", v) for v in (0, -1, 256, 300.5, "ciao", sh.EMPTY)] == [VALUE] * 6
    assert _one("CHAR", Error.errors["#N/A"]) == ExcelError("#N/A")


def test_code_reads_numbers_and_logical_values_as_their_text(character_set: Callable[[str], None]) -> None:
    # formulas' test.xlsx: CODE(0) 48, CODE(1.9) 49, CODE(2.3) 50, CODE(10) 49, CODE(-1) 45, CODE(TRUE) 84,
    # an empty cell #VALUE!, an error as it is
    character_set(WINDOWS)
    assert [_one("CODE", v) for v in (0, 1.9, 2.3, 10, -1, True, 65, "AB", "c")] == [48, 49, 50, 49, 45, 84, 54, 65, 99]
    assert [_one("CODE", v) for v in ("", sh.EMPTY)] == [VALUE, VALUE]
    assert _one("CODE", Error.errors["#DIV/0!"]) == ExcelError("#DIV/0!")


def test_code_of_a_character_the_set_lacks_is_the_question_mark(character_set: Callable[[str], None]) -> None:
    character_set(WINDOWS)
    assert [_one("CODE", t) for t in ("€uro", "Äpfel", "\x81", "中文", "ɸ", "\u2011")] == [128, 196, 129, 63, 63, 63]
    character_set(MAC)
    assert [_one("CODE", t) for t in ("€uro", "Äpfel", "\uf8ff", "中文", "¤")] == [219, 128, 240, 63, 63]


def _book(path: Path, application: str | None) -> Path:
    """A workbook of CHAR and CODE formulas whose docProps/app.xml names ``application`` (None: no app.xml)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    for row in range(1, 4):
        ws.cell(row, 1, 127 + row)
        ws.cell(row, 2, f"=CHAR(A{row})")
        ws.cell(row, 3, f"=CODE(B{row})")
    ws["D1"], ws["D2"], ws["D3"] = "=CHAR(128)", '=CODE("€")', "=CHAR(219)&CHAR(240)"  # constant arguments
    wb.save(path.with_suffix(".tmp"))
    with zipfile.ZipFile(path.with_suffix(".tmp")) as source, zipfile.ZipFile(path, "w") as target:
        for info in source.infolist():
            if info.filename == "docProps/app.xml":
                if application is None:
                    continue
                target.writestr(info, f'<Properties xmlns="{EXTENDED}"><Application>{application}</Application>'
                                      "</Properties>")
            else:
                target.writestr(info, source.read(info))
    return path


EXTENDED = "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"


def test_each_workbook_is_computed_with_the_character_set_of_the_excel_that_saved_it(tmp_path: Path) -> None:
    # one process, one workbook after another: the constant CHAR(128) is not remembered from the last one
    books = {"mac": _book(tmp_path / "mac.xlsx", "Microsoft Macintosh Excel"),
             "windows": _book(tmp_path / "windows.xlsx", "Microsoft Excel"),
             "unknown": _book(tmp_path / "unknown.xlsx", None)}
    expected = {"mac": [["Ä", "Å", "Ç"], [128, 129, 130], ["Ä", 219, "€\uf8ff"]],
                "windows": [["€", "\x81", "‚"], [128, 129, 130], ["€", 128, "Ûð"]]}
    expected["unknown"] = expected["windows"]
    for name in ("mac", "windows", "mac", "unknown"):
        sheet = evaluate_workbook(str(books[name])).grid.sheet("Sheet")
        assert [[sheet.get(row, col) for row in range(1, 4)] for col in (2, 3, 4)] == expected[name], name


# SEARCH's wildcards: the values Excel saved in IronCalc's TEXT_FIND_SEARCH workbook (rows 16-32)
@pytest.mark.parametrize(("find_text", "within_text", "start", "expected"), [
    ("ana", "Banana", 1, 2.0), ("Ana", "Banana", 3, 4.0), ("hey", "Ahey", 3, "#VALUE!"),
    ("ns??i", "Einstein", 1, 3.0), ("ns?i", "Einstein", 1, "#VALUE!"), ("ns*i", "Einstein", 1, 3.0),
    ("国?港", "中国香港", 1, 2.0), ("*~?", "Late?", 1, 1.0), ("~?", "Late?", 1, 5.0), ("La?", "Late?", 1, 1.0),
    ("Lat???", "Late", 1, "#VALUE!"), ("~*", "Ho*la", 1, 3.0), ("h", "Hello", 1, 1.0),
    ("~~", "Hi ~Bang!", 1, 4.0), ("~", "Hi ~Bang!", 1, 1.0), ("~", "Hello", 1, 1.0), ("~d", "My dear", 1, 4.0),
    ("~~*", "Ho*la", 1, "#VALUE!"), ("a", "abc", 0, "#VALUE!"), ("a", "abc", 4, "#VALUE!"),
])
def test_search_reads_wildcards_as_excel_does(tmp_path: Path, find_text: str, within_text: str, start: int,
                                             expected: Any) -> None:
    wb = openpyxl.Workbook()
    wb.active.append([find_text, within_text, start, "=SEARCH(A1,B1,C1)"])
    wb.save(tmp_path / "search.xlsx")
    got = evaluate_workbook(str(tmp_path / "search.xlsx")).grid.sheet("Sheet").get(1, 4)
    if isinstance(expected, str):
        assert isinstance(got, ExcelError) and got.code == expected
    else:
        assert got == expected


def test_number_arguments_of_text_functions_read_text_as_numbers(tmp_path: Path) -> None:
    # POI's FormulaEvalTestData, saved by Excel: REPLACE("ABCDEF","3.9","40","x") is "ABx" (start 3,
    # 40 characters), LEFT(E12,E17) "no" and RIGHT(E11,E17) "ce" where E17 holds the text "2.99999";
    # SUBSTITUTE("testblankmatch","","!",1) leaves the text as it is
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["A2"], ws["A3"] = "non-numeric", " beginsWithSpace", '="2.99999"'
    formulas = ['=REPLACE("ABCDEF", "3.9", "40", "x")', "=LEFT(A1, A3)", "=RIGHT(A2, A3)", '=MID("abcdef","2","3")',
                '=LEFT("abc",TRUE)', '=SUBSTITUTE("aaa","a","b","2")', '=FIND("b","abcb","3")', '=REPT("ab","2")',
                '=LEFT("abc","x")', '=SUBSTITUTE("testblankmatch", "", "!", 1)', '=SUBSTITUTE("abc", "", "!")',
                '=SUBSTITUTE("abc", "", "!", 0)']
    for row, formula in enumerate(formulas, start=1):
        ws.cell(row, 2, formula)
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert sheet is not None
    assert [sheet.get(row, 2) for row in range(1, len(formulas) + 1)] == [
        "ABx", "no", "ce", "bcd", "a", "aba", 4.0, "abab", VALUE, "testblankmatch", "abc", VALUE]


def test_value_reads_currency_thousands_percent_and_parentheses(tmp_path: Path) -> None:
    # POI's FormulaEvalTestData, saved by Excel: VALUE("$1,000") is 1000; Microsoft's VALUE page: text
    # in any number, date or time format Excel recognises; Python's own "1_000" and "inf" are none
    cases = [('"$1,000"', 1000.0), ('"1,000"', 1000.0), ('"10%"', 0.1), ('"(100)"', -100.0), ('"-$5"', -5.0),
             ('"$-1,234.5"', -1234.5), ('" 12 "', 12.0), ('"1.5E3"', 1500.0), ('".5"', 0.5),
             ('"1/2/2000"', 36527.0), ("12", 12.0), ('"1_000"', VALUE), ('"inf"', VALUE), ('"abc"', VALUE),
             ("TRUE", VALUE), ('"-(5)"', VALUE), ('"$"', VALUE)]
    wb = openpyxl.Workbook()
    for row, (text, _) in enumerate(cases, start=1):
        wb.active.cell(row, 1, f"=VALUE({text})")
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert sheet is not None
    assert [sheet.get(row, 1) for row in range(1, len(cases) + 1)] == [expected for _, expected in cases]
