"""Random and mutated workbooks never crash the validator or the converter.

Each example is a real .xlsx file built or damaged by hypothesis: bytes flipped or cut in the
file, bytes flipped, cut or spliced inside one XML part (then re-zipped with a valid CRC, so the
damage reaches the XML parsers), and sheets whose cells hold random values. The rule: the reader
answers with findings, or with its documented clean error (``UnreadableWorkbook``; for the
converter also ``ConversionError``), never with any other exception.

Examples are derandomised (the same ones every run, so CI cannot flake); set
``XLRATING_FUZZ_EXAMPLES=500`` and ``XLRATING_FUZZ_RANDOM=1`` to hunt with fresh ones.
"""

from __future__ import annotations

import datetime as dt
import io
import os
import tempfile
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl.utils.exceptions import IllegalCharacterError

from xlrating.engine import ConversionError, convert_file
from xlrating.gate.safe_open import UnreadableWorkbook
from xlrating.sheets.examples.builders import build_workbook
from xlrating.sheets.validate.ema.sheet import validate_file

EXAMPLES = int(os.environ.get("XLRATING_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("XLRATING_FUZZ_RANDOM"),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], database=None)

BLOCK = [("Tournament name", "Fuzz Open"), ("Ruleset", "MCR"), ("City", "Lyon"), ("Country", "FRA"),
         ("Start date", dt.date(2024, 3, 2)), ("End date", dt.date(2024, 3, 3)), ("Days", 2), ("Players", 4),
         ("Countries", 2), ("MERS weight", 2), ("Qualification required", "No")]
HEADER = ["Position", "EMA ID", "Last name", "First name", "Country", "Table points", "Score"]
ROWS = [[1, "04060059", "Dupont", "Jean", "FRA", 12, 110.5], [2, "05010001", "Muller", "Hans", "GER", 10, 50],
        [3, "04060061", "Vries", "Anna", "FRA", 6, -20], [4, "04060060", "Martin", "Luc", "FRA", 2, -140.5]]


def _saved(book: Any) -> bytes:
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def results_sheet() -> bytes:
    """A valid EMA results sheet (the validator's input)."""
    return _saved(build_workbook(BLOCK, HEADER, ROWS))


def formula_workbook() -> bytes:
    """A workbook of xlrating and ordinary formulas over a small table (the converter's input)."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["players", "place", "base rank", "percentile", "double", "label"])
    for place in range(1, 6):
        r = place + 1
        sheet.append([5, place, f"=MERS_BASE_RANK(A{r},B{r})", f"=DIPPOUCH_PERCENTILE(A{r},B{r})",
                      f"=C{r}*2", f'=IF(B{r}=1,"winner","P"&B{r})'])
    sheet["H1"] = "=SUM(C2:C6)"
    sheet["H2"] = "=AVERAGE(D2:D6)"
    sheet["H3"] = "=DCI_WIN_PROBABILITY(1700,1600)"
    sheet["H4"] = "=VLOOKUP(3,B2:C6,2,FALSE)"
    return _saved(book)


BASES = {"results": results_sheet(), "formulas": formula_workbook()}
PARTS = ["xl/worksheets/sheet1.xml", "xl/workbook.xml", "xl/styles.xml", "[Content_Types].xml",
         "xl/_rels/workbook.xml.rels", "xl/sharedStrings.xml"]
XML_CRUMBS = st.sampled_from(['<', '>', '"', "&", "&amp;", '<c r="A1">', '</row>', ' t="s"', ' t="e"', ' s="999"',
                              ' r="XFD1"', ' r="A0"', "<v>", "</v>", "-1", "1E+308", "9" * 30, "<f>", "</f>", "#REF!",
                              "\x00", "\u00e9", "]]>", "<![CDATA[", "<?xml", " xmlns=\"x\""])


def _rezip(data: bytes, part: str, change: Callable[[bytes], bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = source.read(info)
            target.writestr(info.filename, change(content) if info.filename == part else content)
    return out.getvalue()


@dataclass(frozen=True)
class Damage:
    """One kind of damage to a workbook file; small, so a failing example prints readably."""

    kind: str  # flip-file, cut-file, flip-part, cut-part, splice-part
    offsets: tuple[int, ...] = ()
    xor: int = 0
    part: str = ""
    insert: bytes = b""

    def apply(self, base: bytes) -> bytes:
        if self.kind == "flip-file":
            data = bytearray(base)
            for offset in self.offsets:
                data[offset % len(data)] ^= self.xor
            return bytes(data)
        if self.kind == "cut-file":
            return base[: self.offsets[0] % len(base)]
        with zipfile.ZipFile(io.BytesIO(base)) as archive:
            if self.part not in archive.namelist():
                return base
        at = self.offsets[0]

        def change(b: bytes) -> bytes:
            i = at % max(len(b), 1)
            if self.kind == "flip-part":
                return b[:i] + bytes([b[i] ^ self.xor]) + b[i + 1:] if b else b
            if self.kind == "cut-part":
                return b[:i]
            return b[:i] + self.insert + b[i:]

        return _rezip(base, self.part, change)


damages = st.builds(
    Damage,
    kind=st.sampled_from(["flip-file", "cut-file", "flip-part", "cut-part", "splice-part"]),
    offsets=st.lists(st.integers(0, 1 << 20), min_size=1, max_size=8).map(tuple),
    xor=st.integers(1, 255),
    part=st.sampled_from(PARTS),
    insert=st.lists(XML_CRUMBS, min_size=1, max_size=4).map(lambda crumbs: "".join(crumbs).encode()),
)


cell_values = st.one_of(
    st.none(), st.booleans(), st.integers(-10**12, 10**12),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.text(max_size=40).map(lambda s: "".join(ch for ch in s if ch.isprintable())),
    st.sampled_from(["=1/0", "=A1", "=SUM(A:A)", "=MERS_BASE_RANK(1,2)", "-", "N/A", "#N/A", " 04060059 ",
                     "0406005", "FRA", "fr", "2024-13-45", "1e999", "Players", "Position"]),
    st.dates(dt.date(1900, 1, 1), dt.date(2100, 1, 1)),
)


@st.composite
def random_results_sheet(draw: st.DrawFn) -> bytes:
    """The EMA layout with random values in the block and the table (and sometimes in the labels)."""
    block = [(label if draw(st.integers(0, 9)) else draw(cell_values), draw(cell_values)) for label, _ in BLOCK]
    rows = draw(st.lists(st.lists(cell_values, min_size=0, max_size=9), min_size=0, max_size=12))
    layout = draw(st.sampled_from(["template", "beside", "own_sheet"]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return _saved(build_workbook(block, HEADER, rows, layout))
        except IllegalCharacterError:  # openpyxl will not write control characters; Excel neither
            return _saved(build_workbook(BLOCK, HEADER, ROWS, layout))


def _validator_answers(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "submission.xlsx"
        path.write_bytes(data)
        try:
            validation = validate_file(path)
        except UnreadableWorkbook as refused:
            assert refused.reason and str(path) in str(refused)
            return
        assert all(f.code and f.message and f.severity in ("error", "warning") for f in validation.findings)


def _converter_answers(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "book.xlsx"
        path.write_bytes(data)
        try:
            written = convert_file(path, Path(folder) / "out.xlsx")
        except (UnreadableWorkbook, ConversionError) as refused:
            assert str(refused)
            return
        assert all(p.exists() for p in written)


@FUZZ
@given(damages)
def test_the_validator_answers_a_damaged_results_sheet_with_findings_or_a_clean_error(damage: Damage) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _validator_answers(damage.apply(BASES["results"]))


@FUZZ
@given(random_results_sheet())
def test_the_validator_answers_random_cell_contents_with_findings(data: bytes) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _validator_answers(data)


@FUZZ
@given(damages)
def test_the_converter_answers_a_damaged_workbook_with_output_or_a_clean_error(damage: Damage) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _converter_answers(damage.apply(BASES["formulas"]))


@FUZZ
@given(random_results_sheet())
def test_the_converter_answers_random_cell_contents_with_output_or_a_clean_error(data: bytes) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _converter_answers(data)


def test_the_undamaged_bases_pass_cleanly() -> None:
    # Control: the fuzz bases are good files, so a crash above is caused by the damage.
    with tempfile.TemporaryDirectory() as folder:
        sheet = Path(folder) / "results.xlsx"
        sheet.write_bytes(BASES["results"])
        assert validate_file(sheet).valid
        book = Path(folder) / "book.xlsx"
        book.write_bytes(BASES["formulas"])
        convert_file(book, Path(folder) / "out.xlsx")
        values = openpyxl.load_workbook(Path(folder) / "out.xlsx", data_only=True).active
        assert values["C2"].value == 1000 and values["F2"].value == "winner"
