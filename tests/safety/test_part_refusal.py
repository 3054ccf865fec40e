"""A worksheet over a limit is refused from its bytes (xlrating.gate.part_refusal) with exactly the
message of the full scan, and only where everything before the place it stops is proven to pass;
anywhere else the full scan reads the part as before. Each case is checked both ways: with the
short cut for parts of any size, and with the full scan alone."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hostile import hostile_corpus
from package_bytes import SHEET, results_workbook, rezip, sheet_xml

from xlrating.gate import package_guard, part_refusal
from xlrating.gate.limits import Limits
from xlrating.gate.part_scan import PartParser

SMALL = Limits(max_rows=50, max_columns=10, max_cells=100, max_records=40)
BASE = results_workbook()
X14AC = b'xmlns:x14ac="http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac" xmlns="http'
STRINGS = (b'<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="2" '
           b'uniqueCount="2"><si><t>a</t></si><si><t>b</t></si></sst>')
LETTERS = "ABCDEFGHIJKLMNOP"


def _grid(rows: int, columns: int, first: int = 1, row_attributes: str = "") -> str:
    return "".join(f'<row r="{r}"{row_attributes}>' + "".join(f'<c r="{LETTERS[c]}{r}"><v>{r * 7 + c}</v></c>'
                                                               for c in range(columns)) + "</row>"
                   for r in range(first, first + rows))


def _typed(rows: int, columns: int) -> str:
    """Cells of every type the short cut knows, rows as Excel writes them, some empty rows between."""
    out = []
    for r in range(1, rows + 1):
        cells = []
        for c in range(columns):
            ref = f"{LETTERS[c]}{r}"
            cells.append([f'<c r="{ref}"><v>{r}.5</v></c>', f'<c r="{ref}" s="1" t="s"><v>1</v></c>',
                          f'<c r="{ref}" t="b"><v>1</v></c>', f'<c r="{ref}" t="e"><v>#DIV/0!</v></c>',
                          f'<c r="{ref}" t="str"><v>ab c</v></c>', f'<c r="{ref}" s="3"/>'][(r + c) % 6])
        out.append(f'<row r="{r}" spans="1:{columns}" x14ac:dyDescent="0.25">' + "".join(cells) + "</row>")
        if r % 4 == 0:
            out.append(f'<row r="{r}" ht="12"/>')
    return "".join(out)


CELLS = sheet_xml(_grid(11, 10))
SHEETS: dict[str, bytes] = {
    # refused by the short cut
    "cells over the limit": CELLS,
    "cells over the limit, Excel's layout": sheet_xml(_typed(11, 10)).replace(b'xmlns="http', X14AC),
    "cells over the limit, rows with attributes": sheet_xml(_grid(11, 10, row_attributes=' spans="1:10" s="2"')),
    "a row past the limit": sheet_xml(_grid(60, 1)),
    "a cell's row past the limit": sheet_xml(_grid(3, 1) + '<row r="4"><c r="A60"><v>1</v></c></row>'),
    "a column past the limit": sheet_xml(_grid(3, 12)),
    "a column past the limit after many cells": sheet_xml(_grid(9, 10) + _grid(1, 12, first=10)),
    "a row past the limit far down": sheet_xml(_grid(5, 10) + '<row r="999999999"><c r="A9"/></row>'),
    # refused by the full scan, which meets something else first (or the short cut cannot prove it)
    "a damaged style before the limit": sheet_xml(_grid(2, 10) + '<row r="3"><c r="A3" s="x"><v>1</v></c></row>'
                                                  + _grid(10, 10, first=4)),
    "a value not a number before the limit": CELLS.replace(b"<v>45</v>", b"<v>4,5</v>"),
    "a date before the limit": CELLS.replace(b'<c r="B5">', b'<c r="B5" t="d">'),
    "a missing shared string before the limit": CELLS.replace(b'<c r="B5"><v>', b'<c r="B5" t="s"><v>9'),
    "a row 0 before the limit": CELLS.replace(b'<row r="5">', b'<row r="0">'),
    "a cell in row 0 before the limit": CELLS.replace(b'<c r="B5">', b'<c r="B0">'),
    "a row written 05": CELLS.replace(b'<row r="5">', b'<row r="05">'),
    "a comment before the limit": CELLS.replace(b'<row r="5">', b'<!-- x --><row r="5">'),
    "a processing instruction": CELLS.replace(b'<row r="5">', b'<?x y?><row r="5">'),
    "line breaks between cells": CELLS.replace(b"</row>", b"</row>\n"),
    "a formula before the limit": CELLS.replace(b'<c r="B5"><v>', b'<c r="B5"><f>1+1</f><v>'),
    "a merged range in the sheet": CELLS.replace(b"</sheetData>", b'</sheetData><mergeCells count="1">'
                                                 b'<mergeCell ref="A1:B2"/></mergeCells>'),
    "a used range past the limit": sheet_xml(_grid(11, 10), "A1:Z999"),
    "an unbound prefix on a row": sheet_xml(_typed(11, 10)),
    "not well-formed before the limit": CELLS.replace(b"</c></row><row r=\"5\">", b"</row><row r=\"5\">"),
    "a duplicate attribute where it stops": CELLS.replace(b'<c r="A11">', b'<c r="A11" r="A11">'),
    "cut off where it stops": CELLS[:CELLS.index(b'<c r="A11">') + 7],
    "a cell without its address where it stops": CELLS.replace(b'<c r="A11">', b"<c>"),
    "cells outside rows": CELLS.replace(b'<row r="3">', b"").replace(b'</c></row><row r="4">', b'</c><row r="4">'),
    "lower-case addresses": CELLS.replace(b'r="B', b'r="b'),
    "a DTD": CELLS.replace(b"<worksheet", b"<!DOCTYPE worksheet><worksheet"),
    "within the limits": sheet_xml(_grid(10, 10)),
}
SHORT_CUT = [name for name in SHEETS if name.startswith(("cells over", "a row past", "a cell's row", "a column past"))]


def _outcome(data: bytes, limits: Limits, *, short_cut: bool, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(part_refusal, "MIN_BYTES", 0 if short_cut else 1 << 40)
    try:
        package_guard.check_package(data, limits)
    except package_guard.Refused as refused:
        return refused.reason
    return "accepted"


@pytest.fixture
def resumed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many times the scan's parser was resumed past proven cells (the short cut taken)."""
    calls: list[int] = []
    original = PartParser.resume

    def resume(self: PartParser, cells: int, row: int, column: int, tag: bytes) -> None:
        calls.append(cells)
        original(self, cells, row, column, tag)

    monkeypatch.setattr(PartParser, "resume", resume)
    yield calls


@pytest.mark.parametrize("strings", [False, True], ids=["", "with shared strings"])
@pytest.mark.parametrize("case", SHEETS)
def test_the_short_cut_refuses_with_the_full_scans_message_or_leaves_it_to_the_scan(
        case: str, strings: bool, monkeypatch: pytest.MonkeyPatch, resumed: list[int]) -> None:
    data = rezip(BASE, replace={SHEET: SHEETS[case]}, add={"xl/sharedStrings.xml": STRINGS} if strings else {})
    scan = _outcome(data, SMALL, short_cut=False, monkeypatch=monkeypatch)
    assert resumed == []
    assert _outcome(data, SMALL, short_cut=True, monkeypatch=monkeypatch) == scan
    if case in SHORT_CUT and (strings or "Excel" not in case):
        assert resumed, "the short cut was not taken"
    if case == "within the limits":
        assert scan == "accepted"


def test_the_cells_of_the_sheets_before_count(monkeypatch: pytest.MonkeyPatch, resumed: list[int]) -> None:
    data = rezip(BASE, replace={SHEET: sheet_xml(_grid(6, 10))},
                 add={"xl/worksheets/sheet2.xml": sheet_xml(_grid(5, 10))})
    reason = _outcome(data, SMALL, short_cut=True, monkeypatch=monkeypatch)
    assert "more than 100 cells" in reason and "xl/worksheets/sheet2.xml" in reason
    assert resumed == [40]  # 60 cells in the first sheet, 40 proven in the second, the 41st refused
    assert reason == _outcome(data, SMALL, short_cut=False, monkeypatch=monkeypatch)


def test_random_damage_anywhere_gets_the_same_answer_either_way(monkeypatch: pytest.MonkeyPatch,
                                                                 resumed: list[int]) -> None:
    rng = random.Random(20240501)
    bases = [SHEETS[name] for name in SHORT_CUT]
    tokens = [b' s="x"', b' t="d"', b' t="s"', b"<f>1</f>", b"<!-- x -->", b"x14ac:", b' r="0"', b"0", b"9", b'"',
              b'<c r="A1"/>', b'<row r="3">', b"</row>", b"<v>1e5</v>", b" ", b"\n", b"&amp;", b"<c>", b"K",
              b'<c r="A99"><v>1</v></c>', b'<row r="99"/>', b"<v>inf</v>", b"\xff", b"<"]
    for _ in range(400):
        xml = bytearray(rng.choice(bases))
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(xml))
            if rng.random() < 0.5:
                xml[at:at] = rng.choice(tokens)
            else:
                del xml[at:at + rng.randint(1, 8)]
        data = rezip(BASE, replace={SHEET: bytes(xml)}, add={"xl/sharedStrings.xml": STRINGS})
        assert (_outcome(data, SMALL, short_cut=True, monkeypatch=monkeypatch)
                == _outcome(data, SMALL, short_cut=False, monkeypatch=monkeypatch)), bytes(xml)
    assert len(resumed) > 20  # the damage left many of them within the short cut's reach


@pytest.mark.parametrize("name", ["cells-1.1m.xlsx", "rows-200k.xlsx"])
def test_the_hostile_sheets_over_a_limit_are_refused_by_the_short_cut(name: str, resumed: list[int]) -> None:
    data = hostile_corpus()[name].path.read_bytes()
    with pytest.raises(package_guard.Refused) as refused:
        package_guard.check_package(data, Limits())
    assert resumed, "refused by the full scan"
    expected = {"cells-1.1m.xlsx": "the workbook has more than 1,000,000 cells (at sheet 'Results' "
                                   "(xl/worksheets/sheet1.xml)), over the limit max_cells = 1,000,000 "
                                   "(XLRATING_MAX_CELLS)",
                "rows-200k.xlsx": "sheet 'Results' (xl/worksheets/sheet1.xml) reaches row 100,001 at row 100001, "
                                  "beyond the limit max_rows = 100,000 (XLRATING_MAX_ROWS)"}
    assert refused.value.reason == expected[name]
