"""The bulk reader (array operations over the sheet's bytes, :mod:`xlrating.engine.read.bulk_cells`) reads
a sheet of the four common cell layouts exactly as the per-cell reader does, and leaves any sheet
with one cell laid out otherwise to the general readers, untouched."""

from __future__ import annotations

import random
from html import escape
from typing import Any

import numpy as np
import pytest

from xlrating.engine.formula.tree import column_letters
from xlrating.engine.read import sheet_cells
from xlrating.engine.read.sheet_cells import SheetCells

STRINGS = ["alpha", "beta", "ångström", "日本語", "a<b>&c"]


def _cells(sheet: SheetCells) -> dict[tuple[int, int], tuple[str, Any]]:
    """Every cell a reader placed: (row, col) -> ("n", number) / ("f", formula text) / ("t", text)."""
    found: dict[tuple[int, int], tuple[str, Any]] = {}
    for attribute, kind in (("numbers", "n"), ("simple", "f"), ("texts", "t")):
        cells = getattr(sheet, attribute)
        if cells is not None:
            rows, cols, values = cells
            for row, col, value in zip(rows.tolist(), cols.tolist(), list(values), strict=True):
                found[(row, col)] = (kind, float(value) if kind == "n" else value)
    for row, col, value in sheet.values:
        found[(row, col)] = ("n", value) if isinstance(value, float) else ("t", value)
    for cell in sheet.formulas:
        found[(cell.row, cell.col)] = ("f", cell.text)
    return found


def _random_sheet(rng: random.Random, rows: int) -> str:
    """A sheet of the four bulk layouts in every variant: styles, t="n", xml:space, cached values
    present, empty or absent, escaped and non-ASCII text, columns up to XFD, rows up to 1048576."""
    parts = []
    row_numbers = sorted(rng.sample(range(1, 1_048_577), rows))
    for row in row_numbers:
        cols = sorted(rng.sample([*range(1, 40), 700, 702, 703, 16_383, 16_384], rng.randint(1, 6)))
        cells = []
        for col in cols:
            ref = f"{column_letters(col)}{row}"
            style = rng.choice(["", f' s="{rng.randint(0, 120)}"'])
            kind = rng.randrange(4)
            if kind == 0:
                number = rng.choice([str(rng.randint(-10**6, 10**6)), repr(rng.uniform(-1e9, 1e9)), "1E+300",
                                     "-0", "2.5e-8", ".5", "7."])
                typed = rng.choice(["", ' t="n"'])
                cells.append(f'<c r="{ref}"{style}{typed}><v>{number}</v></c>')
            elif kind == 1:
                text = rng.choice(["A1*2", 'IF(B2>1,"x&y","é")', "SUM($A$1:C3)", "'My sheet'!B2+1"])
                cached = rng.choice(["", "<v/>", "<v>12.5</v>", "<v></v>", "<v>text &amp; more</v>"])
                cells.append(f'<c r="{ref}"{style}><f>{escape(text, quote=False)}</f>{cached}</c>')
            elif kind == 2:
                cells.append(f'<c r="{ref}"{style} t="s"><v>{rng.randrange(len(STRINGS))}</v></c>')
            else:
                text = rng.choice(["", "plain", " spaced ", "é日本", "tag <b> & amp", "_x0041_BC"])
                space = rng.choice(["", ' xml:space="preserve"'])
                cells.append(f'<c r="{ref}"{style} t="inlineStr"><is><t{space}>{escape(text)}</t></is></c>')
        parts.append(f'<row r="{row}">{"".join(cells)}</row>')
    return f'<worksheet><sheetData>{"".join(parts)}</sheetData></worksheet>'


def _read(reader: str, text: str, checking: bool = False) -> tuple[bool, SheetCells]:
    sheet = SheetCells("S", "xl/worksheets/sheet1.xml")
    if reader == "bulk":
        read = sheet_cells.read_sheet_bulk(text.encode("utf-8"), text, sheet, STRINGS, checking)
    else:
        read = sheet_cells.read_sheet_fast(text, sheet, STRINGS, checking)
    return read, sheet


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("chunk", [1 << 20, 300])
def test_the_bulk_reader_reads_every_layout_as_the_cell_by_cell_reader(seed: int, chunk: int,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sheet_cells, "_CHUNK", chunk)  # 300: many pieces, each read on its own
    text = _random_sheet(random.Random(seed), 60)
    bulk_read, bulk = _read("bulk", text)
    fast_read, fast = _read("fast", text)
    assert bulk_read and fast_read and bulk.bulk and fast.bulk  # both see the layout the writer's bulk path takes
    assert _cells(bulk) == _cells(fast)
    assert (bulk.min_row, bulk.max_row, bulk.max_col) == (fast.min_row, fast.max_row, fast.max_col)
    formula_rows, formula_cols, _ = bulk.simple if bulk.simple is not None else (np.zeros(0), np.zeros(0), [])
    order = [(r, c) for r, c in zip(formula_rows.tolist(), formula_cols.tolist(), strict=True)]
    assert order == sorted(order)  # document order, which the writer relies on


def test_texts_and_numbers_come_out_as_excel_wrote_them() -> None:
    text = ('<worksheet><sheetData><row r="7"><c r="A7" t="s"><v>2</v></c><c r="B7" s="3" t="inlineStr"><is>'
            '<t xml:space="preserve"> a&amp;b_x0041_ </t></is></c><c r="XFD7" t="n"><v>1E+3</v></c>'
            '<c r="AA7"><f>A7&amp;"日本"</f><v>stale</v></c></row></sheetData></worksheet>')
    read, sheet = _read("bulk", text)
    assert read and _cells(sheet) == {(7, 1): ("t", "ångström"), (7, 2): ("t", " a&bA "), (7, 16_384): ("n", 1000.0),
                                      (7, 27): ("f", '=A7&"日本"')}


@pytest.mark.parametrize("odd_cell", [
    '<c r="C1" t="str"><f>A1</f><v>x</v></c>',  # a formula giving text, with its type
    '<c r="C1" s="2"/>',  # an empty styled cell
    '<c r="C1" t="b"><v>1</v></c>',
    '<c r="C1"><f t="shared" ref="C1:C9" si="0">A1</f><v>1</v></c>',
    '<c r="C1"><f>A1</f><v>1</v><extLst/></c>',
    '<c r="CCCC1"><v>1</v></c>',  # four letters
    '<c r="c1"><v>1</v></c>',  # lower case
    '<c r="C1" t="s"><v>x1</v></c>',  # a string index that is not a number
    '<c r="C1" s="x"><v>1</v></c>',
    '<c r="C1" t="n" s="1"><v>1</v></c>',  # attributes in another order
    '<c r="C1"><v></v></c>',
    '<c><v>1</v></c>',
    '<x:c r="C1"><x:v>1</x:v></x:c>',
    '<c r="C123456789012345"><v>1</v></c>',  # more digits than a reference has
])
def test_one_cell_in_another_layout_leaves_the_sheet_to_the_general_readers(odd_cell: str) -> None:
    text = ('<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c><c r="B1"><f>A1+1</f></c>' + odd_cell +
            '</row></sheetData></worksheet>')
    for checking in (False, True):
        read, sheet = _read("bulk", text, checking)
        assert not read
        assert sheet.numbers is sheet.simple is sheet.texts is None and not sheet.bulk and not sheet.max_row


@pytest.mark.parametrize("odd_formula", [
    '<c r="C1" t="str"><f>A1</f><v>x</v></c>',  # typed: the writer's bulk path would type it again
    '<c r="C1" s="2" cm="1"><f>A1</f><v>1</v></c>',  # another attribute
    '<c r="C1"><f t="shared" ref="C1:C9" si="0">A1</f><v>1</v></c>',
    '<c r="C1"><f>A1</f><v>1</v><extLst/></c>',  # more after the value
    '<c r="C1"><f>A1</f><is><t>1</t></is></c>',
])
def test_the_per_cell_reader_claims_the_bulk_layout_only_for_plain_formula_cells(odd_formula: str) -> None:
    plain = '<c r="A1"><v>1</v></c><c r="B1" s="4"><f>A1+1</f><v>2</v></c><c r="D1"><f>A1</f><v/></c>'
    read, sheet = _read("fast", f"<worksheet><sheetData><row r=\"1\">{plain}</row></sheetData></worksheet>")
    assert read and sheet.bulk
    read, sheet = _read("fast", f"<worksheet><sheetData><row r=\"1\">{plain}{odd_formula}</row></sheetData>"
                                "</worksheet>")
    assert read and not sheet.bulk


def test_a_number_that_is_not_finite_is_left_to_the_package_scan_when_checking() -> None:
    text = '<worksheet><sheetData><row r="1"><c r="A1"><v>inf</v></c></row></sheetData></worksheet>'
    assert not _read("bulk", text, checking=True)[0]
    read, sheet = _read("bulk", text)
    assert read and sheet.numbers is not None and np.isinf(sheet.numbers[2][0])


NUMBER_TEXTS = ["0", "-0", "-0.000", "27", "59.06", "0.1", "0.3", "12345678", "12345678.87654321", "99999999.99999999",
                "90071992.54740991", "90071992.54740993", "00000007.50000000", "1E+300", "2.5e-8", ".5", "-.5", "7.",
                "0.30000000000000004", "123456789", "-1234567890123456789", "1_0", " 4", "+3", "inf", "-nan"]


def test_numbers_are_read_bit_for_bit_as_float_reads_them() -> None:
    # most are computed in bulk (digits over a power of ten), the rest by float(): none may differ
    rng = random.Random(7)
    texts = NUMBER_TEXTS + [f"{rng.choice(['', '-'])}{rng.randrange(10 ** rng.randint(1, 8))}.{rng.randrange(10 ** 8):08d}"[
        :rng.randint(3, 19)].rstrip(".") for _ in range(3000)]
    cells = "".join(f'<c r="A{row}"><v>{number}</v></c>' for row, number in enumerate(texts, 1))
    read, sheet = _read("bulk", f'<worksheet><sheetData><row r="1">{cells}</row></sheetData></worksheet>')
    assert read and sheet.numbers is not None
    assert sheet.numbers[2].tobytes() == np.array([float(t) for t in texts]).tobytes()


@pytest.mark.parametrize("odd_cell", ['<c><v>1</v></c>', '<x:c r="C9"><x:v>1</x:v></x:c>'])
def test_a_sheet_for_the_general_readers_is_theirs_even_when_an_earlier_piece_fails_to_convert(
        odd_cell: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the odd cell is many pieces after the number float() refuses: still False, as the sheet was
    # never the bulk reader's; without it, the refusal is raised
    monkeypatch.setattr(sheet_cells, "_CHUNK", 100)
    rows = "".join(f'<row r="{row}"><c r="A{row}"><v>{row}</v></c></row>' for row in range(2, 40))
    bad = '<row r="1"><c r="A1"><v>x1</v></c></row>'
    text = f'<worksheet><sheetData>{bad}{rows}<row r="40">{odd_cell}</row></sheetData></worksheet>'
    for checking in (False, True):
        read, sheet = _read("bulk", text, checking)
        assert not read and sheet.numbers is None
    with pytest.raises(ValueError):
        _read("bulk", text.replace(odd_cell, '<c r="B40"><v>1</v></c>'))
