"""The engine's own formula reader: Excel's operator order, the same trees as ``formulas``' tokenizer
for every formula it takes, the rest left to that tokenizer, and a rating workbook converted without
loading ``formulas`` at all."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from xlrating.engine import evaluate_workbook
from xlrating.engine.formula.reader import _Declined, _Reader, normalise, parse
from xlrating.engine.formula.tokens import parse_with_formulas
from xlrating.engine.formula.tree import Call, Const, Op, Ref


def _read(formula: str) -> object:
    """The engine reader's tree, or None where it leaves the formula to formulas' tokenizer."""
    try:
        return _Reader(normalise(formula)).tree()
    except _Declined:
        return None


def _cell(row: int, col: int, rel: bool = True) -> Ref:
    return Ref(None, row, col, row, col, rel, rel)


def test_operators_bind_in_excels_order() -> None:
    a1, b1 = _cell(1, 1), _cell(1, 2)
    two, three = Const(2.0), Const(3.0)
    assert _read("=-A1^2") == Op("^", (Op("u-", (a1,)), two))  # negation first: -2^2 is 4
    assert _read("=-A1%") == Op("%", (Op("u-", (a1,)),))
    assert _read("=2^3^2") == Op("^", (Op("^", (two, three)), two))  # left to right: 64
    assert _read("=A1*-B1^2") == Op("*", (a1, Op("^", (Op("u-", (b1,)), two))))
    assert _read("=1+2*3&A1=B1") == Op("=", (Op("&", (Op("+", (Const(1.0), Op("*", (two, three)))), a1)), b1))
    assert _read("=2^3%") == Op("^", (two, Op("%", (three,))))


def test_references_names_and_constants() -> None:
    assert _read("='Bob''s'!$A$1:B$2") == Ref("Bob's", 1, 1, 2, 2, False, False)
    assert _read("=Sheet2!C:C") == Ref("Sheet2", 1, 3, 1_048_576, 3, False, False)
    assert _read("=$3:5") == Ref(None, 3, 1, 5, 16_384, False, True)
    assert _read("=Rate_2024+ABCD1") == Op("+", (Ref(None, 0, 0, 0, 0, name="RATE_2024"),
                                                  Ref(None, 0, 0, 0, 0, name="ABCD1")))
    assert _read('=IF(,"say ""hi""",#N/A)') == Call("IF", (Const(None), Const('say "hi"'),
                                                            Const(parse("=#N/A").value)))  # type: ignore[union-attr]
    assert _read("=_xlfn.XLOOKUP(TRUE,a1:a3,B1:B3)") == Call("_XLFN.XLOOKUP", (
        Const(True), Ref(None, 1, 1, 3, 1, True, True), Ref(None, 1, 2, 3, 2, True, True)))
    assert _read("=ROUND(A1, )") == Call("ROUND", (_cell(1, 1), Const(None)))
    assert _read("=NOW( )") == Call("NOW", ())


# What the reader leaves to formulas' tokenizer: array constants, unions and intersections, spill
# and R1C1 references, other workbooks, LET/LAMBDA, INDIRECT of a constant text, runs of signs
# after an operator, a space ending the formula, names with a dot or on a sheet.
LEFT = ["={1,2;3,4}", "=SUM((A1,B1))", "=A1:B2 B1:C3", "=A1#", "=R1C1", "=[1]Sheet1!A1", "=LET(x,1,x+1)",
        "=LAMBDA(x,x)(1)", '=INDIRECT("B1:B3")', "=1--1", "=1+-1", "=A1 ", "=x.y", "=Sheet1!Rate",
        "=@A1:A3", "=SUM (A1)", "=1E3", "=A1:B", "=Sheet1!A1:Sheet2!B2", "=XFE1", "=TRUE()"]


@pytest.mark.parametrize("formula", LEFT)
def test_what_the_reader_leaves_goes_to_formulas_tokenizer(formula: str) -> None:
    assert _read(formula) is None
    try:
        expected = parse_with_formulas(normalise(formula))
    except Exception as exc:  # noqa: BLE001 - then parse fails the same way
        with pytest.raises(type(exc)):
            parse.__wrapped__(formula)
        return
    assert parse.__wrapped__(formula) == expected


_ATOMS = ["1", "2.5", ".5", "1E+3", "0", '"a"', '""', '"x""y"', "TRUE", "false", "#N/A", "#div/0!", "A1", "$B$2",
          "c$3", "$D4", "A1:B2", "$A$1:$C$9", "A:A", "$B:$C", "1:1", "$2:$3", "Sheet2!A1", "'My Sheet'!B2:C3",
          "Sheet2!A:A", "name1", "XY", "ZZ9", "AB12", "A1B", "R1", "{1,2}", "A1 B1"]
_FUNCTIONS = ["SUM", "IF", "round", "F", "_xlfn.XLOOKUP", "N", "STDEV.S", "LOG10"]
_OPERATORS = ["+", "-", "*", "/", "^", "&", "=", "<>", "<", ">", "<=", ">="]


def _random_formula(rng: random.Random, depth: int = 0) -> str:
    def space() -> str:
        return rng.choice(["", "", "", " ", "  "])

    r = rng.random()
    if depth > 3 or r < 0.35:
        return rng.choice(_ATOMS)
    if r < 0.55:
        return (_random_formula(rng, depth + 1) + space() + rng.choice(_OPERATORS) + space()
                + _random_formula(rng, depth + 1))
    if r < 0.65:
        return "-" + space() + _random_formula(rng, depth + 1)
    if r < 0.72:
        return _random_formula(rng, depth + 1) + "%"
    if r < 0.8:
        return "(" + space() + _random_formula(rng, depth + 1) + space() + ")"
    if r < 0.84:
        return rng.choice(["+", "--", "-+", "+-", "- -"]) + _random_formula(rng, depth + 1)
    args = [rng.choice([_random_formula(rng, depth + 1), "", " "]) for _ in range(rng.randint(0, 3))]
    return rng.choice(_FUNCTIONS) + "(" + space() + ("," + space()).join(args) + space() + ")"


def test_every_formula_the_reader_takes_reads_as_formulas_tokenizer_reads_it() -> None:
    rng = random.Random(20261201)
    taken = 0
    for _ in range(3000):
        formula = normalise("=" + rng.choice(["", " "]) + _random_formula(rng) + rng.choice(["", "", " "]))
        tree = _read(formula)
        if tree is None:
            continue
        taken += 1
        if re.search(r"%\s*%", formula):  # formulas' tokenizer cannot read a repeated percent
            continue
        assert tree == parse_with_formulas(formula), formula
    assert taken > 1500  # the reader takes most of them: the comparison is not vacuous


def test_a_repeated_percent_divides_again_as_excel_does(tmp_path: Path) -> None:
    # POI's FormulaEvalTestData, saved by Excel: =1000%% is 0.1; formulas' tokenizer could not read it
    wb = openpyxl.Workbook()
    wb.active["A1"], wb.active["B1"], wb.active["C1"] = 5, "=1000%%", "=-A1%%*2"
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert sheet is not None
    assert sheet.get(1, 2) == pytest.approx(0.1, rel=1e-15)
    assert sheet.get(1, 3) == pytest.approx(-0.001, rel=1e-15)


def test_a_line_break_in_a_text_of_the_formula_stays_in_the_value(tmp_path: Path) -> None:
    # POI's dataValidationTableRange.xlsx, saved by Excel: IF(...,"Select a Hospice \n(Service Area ...)")
    # shows the line break; a line break between tokens is only a space
    wb = openpyxl.Workbook()
    wb.active["A1"] = '=IF(B1="","Select a County \n(Highlighted)",\n"none")'
    wb.active["A2"] = '="a\nb"&"c"'
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert sheet is not None
    assert [sheet.get(1, 1), sheet.get(2, 1)] == ["Select a County \n(Highlighted)", "a\nbc"]


def test_precedence_computes_excels_values(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["B1"] = 2, 50
    formulas = ["=-A1^2", "=2^3^2", "=-B1%", "=2*-A1^2", "=1+2*3&4", '=5-3&"x"', "=A1^-1", "=10-2-3", "=12/2/3",
                "=1<2=TRUE", "=(1+2)*3"]
    for col, formula in enumerate(formulas, start=1):
        ws.cell(2, col, formula)
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert sheet is not None
    assert [sheet.get(2, col) for col in range(1, len(formulas) + 1)] == [
        4.0, 64.0, -0.5, 8.0, "74", "2x", 0.5, 5.0, 2.0, True, 9.0]


_LOADED = """
import sys
from xlrating.engine import convert_file
convert_file(sys.argv[1], sys.argv[2])
print(sorted(name for name in ("formulas", "schedula", "regex") if name in sys.modules))
"""


def test_a_rating_workbook_converts_without_loading_formulas(tmp_path: Path) -> None:
    # Every formula is read by the engine's reader and computed whole columns at a time: loading
    # formulas' tokenizer (tens of milliseconds of every conversion) is left to workbooks needing it.
    wb = openpyxl.Workbook()
    ws = wb.active
    for row in range(1, 21):
        ws.append([10 + row, 1 + row % 3, 1 + row % 7, 40 + row, f"=DIPPOUCH_PERCENTILE(A{row},C{row})",
                   f"=DIPPOUCH_VALUE(A{row},B{row})", f"=DIPPOUCH_NEW_RATING(D{row},E{row},F{row})",
                   f"=G{row}-D{row}", f"=RANK(G{row},G$1:G$20)"])
    ws["J1"], ws["J2"], ws["J3"] = "=SUM(H1:H20)", "=AVERAGE(G1:G20)", "=MAX(I1:I20)"
    wb.save(tmp_path / "book.xlsx")
    done = subprocess.run([sys.executable, "-c", _LOADED, str(tmp_path / "book.xlsx"), str(tmp_path / "out.xlsx")],
                          capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"
    values = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True).active
    assert values["E1"].value == pytest.approx((11 + 0.5 - 2) / 11 * 100)
    assert sorted(values.cell(row, 9).value for row in range(1, 21)) == list(range(1, 21))
    assert values["J3"].value == 20


@pytest.mark.parametrize(("written", "read"), [
    ("=SUM(INDEX(A1:C2,2,2):A1)", "=SUM(A1:INDEX(A1:C2,2,2))"),
    ("=SUM(INDEX(A:A,2):$B$9)+1", "=SUM($B$9:INDEX(A:A,2))+1"),
    # a cell with its sheet before a call is parenthesised: unparenthesised, the tokenizer dropped its sheet
    ("=SUM(INDEX('My Sheet'!A:A,2):'My Sheet'!B4)", "=SUM(('My Sheet'!B4):INDEX('My Sheet'!A:A,2))"),
    ('=SUM(X("a):B2"):B2)', '=SUM(B2:X("a):B2"))'),  # a string literal is text, not a call
    ("=SUM(INDEX(A1:C2,1,1):INDEX(A1:C2,2,2))", "=SUM(INDEX(A1:C2,1,1):INDEX(A1:C2,2,2))"),  # kept
    ("=SUM((A1):B2)", "=SUM((A1):B2)"),  # a parenthesis without a call: kept
])
def test_a_call_before_a_colon_is_written_after_the_cell(written: str, read: str) -> None:
    # the same area either way; formulas' tokenizer read ":A1" after a parenthesis as a reference
    assert normalise(written) == read


def test_character_data_is_unescaped_as_xml_defines_its_references() -> None:
    """Every text of entity fragments comes out as the one expression over every reference reads it:
    named and numeric references, an escaped ampersand before a name (``&amp;lt;`` stays ``&lt;``),
    unknown names and lone ampersands left as they are."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from xlrating.engine.read import formula_xml

    pieces = st.sampled_from(["&lt;", "&gt;", "&amp;", "&quot;", "&apos;", "&#65;", "&#x42;", "&foo;", "&", ";",
                              "lt", "amp;", "a", "<", "é", "&#", "&amp;lt;"])

    @settings(max_examples=400, deadline=None)
    @given(st.lists(pieces, max_size=12).map("".join))
    def check(text: str) -> None:
        assert formula_xml.unescape_xml(text) == formula_xml._REFERENCE.sub(formula_xml._referenced, text)

    check()
    assert formula_xml.unescape_xml('IF(E2&gt;100,"big","a&amp;lt;b")') == 'IF(E2>100,"big","a&lt;b")'
