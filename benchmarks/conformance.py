"""Conformance: how often each engine computes the value Excel computed, on workbooks Excel saved.

    python benchmarks/conformance.py [--extra DIR] [--engines ours,formulas,libreoffice]
                                     [--timeout 300] [--details FILE.json] [--verbose] [--only GLOB] [--excel-only]
                                     [--xlcalculator-current DIR|none] [--target 99.5] [--clock saved|computer]

The workbooks, by corpus (each workbook is labelled ``corpus/file``):

- ``xlcalculator-0.5.0``: the 65 test workbooks of xlcalculator 0.5.0 (``tests/resources/*.xlsx|*.xlsm``
  of its sdist, downloaded from PyPI with ``pip download`` into ``benchmarks/.cache/`` on the first
  run and reused afterwards);
- ``xlcalculator-current``: the workbooks of xlcalculator's repository as it is today (newer than
  the sdist: ``reader.xlsm`` among them), every .xlsx/.xlsm of a ``git clone --depth 1`` made into
  ``benchmarks/.cache/`` on the first run, named by their path with ``_`` for ``/``
  (``tests_resources_ABS.xlsx``); ``--xlcalculator-current DIR`` takes them from DIR instead, ``none``
  leaves them out (so does a clone that fails, with a note);
- every .xlsx/.xlsm in each ``--extra DIR``, the folder's name the corpus' (formulas', pycel's,
  IronCalc's ...). A folder holding exactly xlcalculator's current workbooks is counted once, as
  ``xlcalculator-current``.

``--only GLOB`` keeps the workbooks whose file name matches.

The oracle: every formula cell (a ``<c>`` with an ``<f>`` child, followers of shared formulas
included) that Excel saved with a cached ``<v>``, typed by the cell's ``t`` attribute: a number,
a text (shared string or formula string; the empty text too), a boolean or an error code.

The input each engine sees: a copy of the workbook whose formula cells have lost their cached
``<v>`` and ``t`` (and so have the other cells covered by an array formula's ``ref``); every other
zip member is kept as it is. Each engine then recalculates it, one workbook per subprocess with a
``--timeout``, two at a time (LibreOffice one at a time, on one private profile):

- ours: ``python -m xlrating convert STRIPPED -o OUT --now saved`` (exit status 0 = converted),
  then the cached values of OUT;
- formulas, plain, as a new user runs it: ``ExcelModel().loads(path).finish(circular=True)`` and
  ``calculate()``; the values are read from the solution itself (each cell's Ranges value, an
  XlError as its code, EMPTY as no value), which is what ``ExcelModel.write`` would save, minus a
  round trip through openpyxl (a text equal to an error code is an error, as openpyxl saves it);
- libreoffice: ``xlrating.engine.libreoffice.convert`` (recalculation forced on load) to .xlsx,
  then its cached values. Skipped with a note when ``soffice`` is not installed.

The clock (``--clock``): Excel cached TODAY() and NOW() as they were when it last calculated the
workbook, before saving it. With ``--clock saved`` (the default) ours computes them at each
workbook's save time (``--now saved``: ``dcterms:modified`` of docProps/core.xml, UTC), which is
what makes a workbook of TODAY() (a Gantt chart, a timesheet) comparable with what Excel saved;
``--clock computer`` leaves ours on the computer's clock, as the other engines are. formulas and
LibreOffice have no such option: they always compute TODAY() and NOW() from the computer's clock,
and the report says so. NOW() rarely equals Excel's to the second under either clock (Excel
calculated it before it saved, in the saver's time zone), and the date of TODAY() is the UTC one.

Reproducible cells: some values Excel saved no engine can compute from the workbook alone, and the
target is judged without them (the table gives both shares). A formula cell is not reproducible
when its formula (or a defined name it uses) calls RAND, RANDBETWEEN or RANDARRAY (random numbers),
NOW (the time of day Excel calculated at, in the saver's time zone), TODAY under ``--clock
computer`` (under ``--clock saved`` ours takes the day from the save time), WEBSERVICE (and so
FILTERXML over it), RTD (a real-time data server), a CUBE function (the data model), INFO (the
application and its computer), an add-in's function (``_xll.``, or one called through an external
link: ``[1]!HsGetValue(...)``) or, in a workbook holding a VBA project, a function neither Excel's
nor a defined name or LAMBDA of the workbook (a VBA function; without a VBA project Excel itself
shows #NAME? for it, which the workbook gives); or when it reads such a cell, directly or through
other cells, on its sheet or another, in a range, through a defined name, or through OFFSET or
INDIRECT over an area holding one (their arguments are read as the areas they name), propagated
to a fixed point. The references of each formula are found by the engine's own formula reader
(``xlrating.engine.formula``; a shared formula's follower as Excel fills the anchor's to it; a
formula it cannot parse by its text: A1 references, tables whole, defined names). A text of
FORMULATEXT, TEXT, DOLLAR or FIXED that differs from ours only by another locale's separators
(``;`` between arguments, a decimal comma, a space, a point or an apostrophe between thousands)
was computed in the saver's locale, which the file does not record: it counts as not reproducible
("the saver's locale"); a cell reading it is not followed. Stale values Excel kept are not told
apart: they count as reproducible. ``--details`` gives each mismatch ``reproducible`` (and ``not_reproducible``: the
function, or ``depends on SHEET!CELL: function``) and each corpus ``reproducible_total``,
``reproducible_equal`` and ``not_reproducible`` (cells per function).

Every oracle cell is compared: numbers within 1e-9 relative (1e-12 absolute near 0), booleans,
texts exactly, errors by code; a different type or a missing value is a mismatch. A workbook the
engine failed (non-zero exit, timeout, unreadable output) counts all its oracle cells as
mismatches. Prints one table (engine, workbooks failed, formula cells equal to Excel's, wall
time); then per engine and corpus the workbooks, those failed, the formula cells equal to Excel's
and their share, the reproducible ones equal and their share, marked against the target
(``--target``, default 99.5%: the reproducible share, with no workbook failed), the cells not
reproducible by what they need, and what is left and why, cells per reason (top 8): the workbook failed (its
error); not computed, with the reason ours named in its warning (an Excel function the engine does
not compute, a formula it cannot parse, a cell it reads that was not computed ...); no value; a
value of another type; another value, with the functions of the formula. Then for each engine the
functions in the formulas of the mismatched cells of the workbooks it converted (cells per
function, top 25) and the workbooks it failed. ``--details FILE.json`` writes the per-corpus
figures (``corpora``), every mismatch with its reason and every failed workbook; ``--verbose``
prints the counts and seconds per workbook. Workbooks whose docProps/app.xml names another application than
Excel (a few of xlcalculator's were saved by LibreOffice) are named in a note; ``--excel-only``
leaves them out.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import math
import os
import posixpath
import re
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(__file__).resolve().parent / ".cache"
XLCALCULATOR = ("xlcalculator", "0.5.0")
XLCALCULATOR_REPOSITORY = "https://github.com/bradbase/xlcalculator.git"
CURRENT = "xlcalculator-current"  # the corpus of xlcalculator's repository as it is today
TARGET = 99.5  # % of the formula cells of each corpus equal to Excel's: the engine's aim
SAVED_CLOCK, COMPUTER_CLOCK = "saved", "computer"  # ours' TODAY()/NOW(): each workbook's save time, or now
TOP_REASONS = 8
ENGINES = ("ours", "formulas", "libreoffice")
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")
WORKER_FLAG = "--worker"
PARALLEL = 2
TOP_FUNCTIONS = 25
REL_TOL, ABS_TOL = 1e-9, 1e-12

OFFICE_DOCUMENT = "/officeDocument"
WORKSHEET = "/worksheet"
SHARED_STRINGS = "/sharedStrings"
ERROR_CODES = frozenset({"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A"})
FUNCTION_NAME = re.compile(r"([A-Z][A-Z0-9._]*)\(")
FUNCTION_PREFIXES = re.compile(r"_xl(?:fn|ws)\.", re.IGNORECASE)
ESCAPED_CHARACTER = re.compile(r"_x([0-9A-Fa-f]{4})_")
CELL_REFERENCE = re.compile(r"\$?([A-Za-z]{1,3})\$?(\d+)")
FORMULAS_KEY = re.compile(r"^'\[(?P<book>[^\]]+)\](?P<sheet>.*)'!(?P<ref>[A-Z]+\d+(?::[A-Z]+\d+)?)$")


# --- cell values ------------------------------------------------------------------------------

class Cached(NamedTuple):
    """A cell value with its Excel type: kind is number, text, bool, error (value: the code) or
    date (an ISO text, ``t="d"``)."""

    kind: str
    value: float | str | bool

    def as_json(self) -> dict[str, Any]:
        return {"type": self.kind, "value": self.value}


CellKey = tuple[str, str]  # (sheet name in upper case, cell reference such as "B7")
Values = dict[CellKey, Cached]


def same_value(expected: Cached, got: Cached | None) -> bool:
    """Whether an engine's value equals Excel's: numbers within the tolerances, the rest exactly;
    a different type (a number against a boolean) or no value is a mismatch."""
    if got is None or got.kind != expected.kind:
        return False
    if expected.kind == "number":
        return math.isclose(float(expected.value), float(got.value), rel_tol=REL_TOL, abs_tol=ABS_TOL)
    return expected.value == got.value


def function_names(formula: str) -> set[str]:
    """The functions a formula calls, without the _xlfn./_xlws. prefixes Excel stores."""
    return set(FUNCTION_NAME.findall(FUNCTION_PREFIXES.sub("", formula)))


def unescape_text(text: str) -> str:
    """OOXML strings carry characters XML cannot hold as ``_xHHHH_``."""
    return ESCAPED_CHARACTER.sub(lambda m: chr(int(m.group(1), 16)), text)


def column_number(letters: str) -> int:
    number = 0
    for letter in letters.upper():
        number = number * 26 + ord(letter) - ord("A") + 1
    return number


def column_letters(number: int) -> str:
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def parse_reference(reference: str) -> tuple[int, int]:
    """("B7") -> (row 7, column 2)."""
    match = CELL_REFERENCE.fullmatch(reference.strip())
    if match is None:
        raise ValueError(f"not a cell reference: {reference!r}")
    return int(match.group(2)), column_number(match.group(1))


def cells_of_range(reference: str) -> Iterator[str]:
    """Every cell of "A1:B3" (or of "A1"), row by row."""
    first, _, last = reference.partition(":")
    (top, left), (bottom, right) = parse_reference(first), parse_reference(last or first)
    for row in range(top, bottom + 1):
        for column in range(left, right + 1):
            yield f"{column_letters(column)}{row}"


# --- reading a workbook package -----------------------------------------------------------------

def xml_parser() -> etree.XMLParser:
    """No entity expansion, no DTD, no network: safe on untrusted workbooks."""
    return etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True, remove_comments=False)


def parse_member(package: zipfile.ZipFile, name: str) -> etree._Element:
    return etree.fromstring(package.read(name), parser=xml_parser())


def relationships(package: zipfile.ZipFile, part: str) -> list[tuple[str, str, str]]:
    """(id, type, target part) of a part's relationships; internal targets resolved to part names."""
    folder, base = posixpath.split(part)
    rels_name = posixpath.join(folder, "_rels", base + ".rels")
    if rels_name not in package.namelist():
        return []
    result = []
    for rel in parse_member(package, rels_name).iter("{*}Relationship"):
        target = rel.get("Target", "")
        if rel.get("TargetMode") != "External":
            target = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
        result.append((rel.get("Id", ""), rel.get("Type", ""), target))
    return result


def workbook_part(package: zipfile.ZipFile) -> str:
    for _, kind, target in relationships(package, ""):
        if kind.endswith(OFFICE_DOCUMENT):
            return target
    raise ValueError("no workbook part (officeDocument relationship)")


def relationship_id(element: etree._Element) -> str | None:
    """The r:id attribute, whatever the relationships namespace (transitional or strict)."""
    for name, value in element.attrib.items():
        if etree.QName(name).localname == "id" and etree.QName(name).namespace:
            return str(value)
    return None


def worksheet_parts(package: zipfile.ZipFile) -> list[tuple[str, str]]:
    """(sheet name, worksheet part) in workbook order; chart sheets and macro sheets left out."""
    book = workbook_part(package)
    targets = {rid: target for rid, kind, target in relationships(package, book) if kind.endswith(WORKSHEET)}
    sheets = []
    for sheet in parse_member(package, book).iter("{*}sheet"):
        target = targets.get(relationship_id(sheet) or "")
        if target is not None and target in package.namelist():
            sheets.append((sheet.get("name", ""), target))
    return sheets


def shared_strings(package: zipfile.ZipFile) -> list[str]:
    """The shared string table; a rich text is its runs joined, phonetic hints left out."""
    book = workbook_part(package)
    parts = [target for _, kind, target in relationships(package, book) if kind.endswith(SHARED_STRINGS)]
    if not parts or parts[0] not in package.namelist():
        return []
    strings = []
    for item in parse_member(package, parts[0]).iter("{*}si"):
        texts = [t.text or "" for t in item.iter("{*}t")
                 if etree.QName(t.getparent()).localname != "rPh"]
        strings.append(unescape_text("".join(texts)))
    return strings


# The errors Excel 365 added (#SPILL!, #CALC! ...) are saved as ``<v>#VALUE!</v>`` (what older
# readers show) with a ``vm`` attribute naming a rich value of type ``_error`` whose ``errorType``
# is the error's number, ERROR.TYPE's minus one ([MS-XLSX] 2.3.6.1.3): the error Excel shows.
RICH_ERROR_TYPES = ("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA",
                    "#SPILL!", "#CONNECT!", "#BLOCKED!", "#UNKNOWN!", "#FIELD!", "#CALC!")


def rich_errors(package: zipfile.ZipFile) -> dict[str, str]:
    """The error each ``vm`` (value metadata index, 1-based) stands for, where it is a rich ``_error``."""
    parts = {kind.rsplit("/", 1)[-1]: target for _, kind, target in relationships(package, workbook_part(package))}
    names = set(package.namelist())
    if not {"sheetMetadata", "rdRichValue", "rdRichValueStructure"} <= parts.keys() or not all(
            parts[k] in names for k in ("sheetMetadata", "rdRichValue", "rdRichValueStructure")):
        return {}
    metadata = parse_member(package, parts["sheetMetadata"])
    types = [t.get("name") for t in metadata.iterfind("{*}metadataTypes/{*}metadataType")]
    blocks = {}
    for future in metadata.iterfind("{*}futureMetadata"):
        if future.get("name") == "XLRICHVALUE":
            blocks = {i: int(b.get("i", "-1")) for i, b in enumerate(future.iter("{*}rvb"))}
    structures = [[k.get("n") for k in s.iterfind("{*}k")] if s.get("t") == "_error" else None
                  for s in parse_member(package, parts["rdRichValueStructure"]).iterfind("{*}s")]
    values = list(parse_member(package, parts["rdRichValue"]).iterfind("{*}rv"))
    errors = {}
    for index, block in enumerate(metadata.iterfind("{*}valueMetadata/{*}bk"), start=1):
        record = block.find("{*}rc")
        if record is None or not (0 < int(record.get("t", "0")) <= len(types)):
            continue
        if types[int(record.get("t", "0")) - 1] != "XLRICHVALUE":
            continue
        rich = blocks.get(int(record.get("v", "-1")), -1)
        if not 0 <= rich < len(values):
            continue
        value = values[rich]
        structure = int(value.get("s", "-1"))
        keys = structures[structure] if 0 <= structure < len(structures) else None
        if keys is None or "errorType" not in keys:
            continue
        fields = [v.text or "" for v in value.iterfind("{*}v")]
        number = fields[keys.index("errorType")] if keys.index("errorType") < len(fields) else ""
        if number.strip().isdigit() and int(number) < len(RICH_ERROR_TYPES):
            errors[str(index)] = RICH_ERROR_TYPES[int(number)]
    return errors


def iter_cells(sheet: etree._Element) -> Iterator[tuple[str, etree._Element]]:
    """(reference, <c>) of a worksheet, the reference worked out when ``r`` is left out."""
    row_number = 0
    for row in sheet.iter("{*}row"):
        row_number = int(row.get("r") or row_number + 1)
        column = 0
        for cell in row.iterchildren("{*}c"):
            reference = cell.get("r")
            if reference:
                column = parse_reference(reference)[1]
            else:
                column += 1
                reference = f"{column_letters(column)}{row_number}"
            yield reference.upper(), cell


def child(element: etree._Element, name: str) -> etree._Element | None:
    return element.find("{*}" + name)


def cached_value(cell: etree._Element, strings: list[str], errors: Mapping[str, str] | None = None) -> Cached | None:
    """A cell's saved value typed by its ``t`` attribute; None when it has none. An error cell whose
    ``vm`` names a rich error (``errors``: :func:`rich_errors`) is that error."""
    kind = cell.get("t", "n")
    if kind == "inlineStr":
        inline = child(cell, "is")
        if inline is None:
            return None
        return Cached("text", unescape_text("".join(t.text or "" for t in inline.iter("{*}t")
                                                    if etree.QName(t.getparent()).localname != "rPh")))
    value = child(cell, "v")
    if value is None:
        return None
    text = value.text or ""
    if kind == "s":  # an index past the table (a part the reader does not know): no value, as LibreOffice reads it
        index = int(text)
        return Cached("text", strings[index]) if 0 <= index < len(strings) else None
    if kind == "str":
        return Cached("text", unescape_text(text))
    if kind == "b":
        return Cached("bool", text.strip() in ("1", "true"))
    if kind == "e":
        return Cached("error", (errors or {}).get(cell.get("vm", ""), text.strip()))
    if kind == "d":
        return Cached("date", text.strip())
    if not text.strip():
        return None
    return Cached("number", float(text))


@dataclass(frozen=True)
class OracleCell:
    sheet: str
    cell: str
    formula: str
    expected: Cached

    @property
    def key(self) -> CellKey:
        return self.sheet.upper(), self.cell


def array_members(sheet: etree._Element) -> dict[str, str]:
    """The cells an array formula's ``ref`` covers (its anchor left out), with its text."""
    members: dict[str, str] = {}
    for reference, cell in iter_cells(sheet):
        formula = child(cell, "f")
        if formula is not None and formula.get("t") == "array" and formula.get("ref"):
            members.update(dict.fromkeys(cells_of_range(formula.get("ref", "")), formula.text or ""))
            members.pop(reference, None)
    return members


def formula_text(reference: str, formula: etree._Element, shared: dict[str, str], arrays: dict[str, str]) -> str:
    """A formula's text; a shared formula's follower takes its anchor's (same functions), and so
    does an empty ``<f/>`` inside an array formula's range."""
    if formula.text:
        return str(formula.text)
    if formula.get("t") == "shared":
        return shared.get(formula.get("si", ""), "")
    return arrays.get(reference, "")


def read_oracle(path: Path) -> list[OracleCell]:
    """Excel's cached values of a workbook's formula cells."""
    oracle = []
    with zipfile.ZipFile(path) as package:
        strings = shared_strings(package)
        errors = rich_errors(package)
        for sheet_name, part in worksheet_parts(package):
            sheet = parse_member(package, part)
            arrays = array_members(sheet)
            cells = [(ref, cell, f) for ref, cell in iter_cells(sheet) if (f := child(cell, "f")) is not None]
            shared = {f.get("si", ""): f.text for _, _, f in cells if f.get("t") == "shared" and f.text}
            for reference, cell, formula in cells:
                value = cached_value(cell, strings, errors)
                if value is not None:
                    text = formula_text(reference, formula, shared, arrays)
                    oracle.append(OracleCell(sheet_name, reference, text, value))
    return oracle


def read_values(path: Path) -> Values:
    """Every cached value of a workbook (an engine's output), by (SHEET, cell)."""
    values: Values = {}
    with zipfile.ZipFile(path) as package:
        strings = shared_strings(package)
        errors = rich_errors(package)
        for sheet_name, part in worksheet_parts(package):
            for reference, cell in iter_cells(parse_member(package, part)):
                value = cached_value(cell, strings, errors)
                if value is not None:
                    values[sheet_name.upper(), reference] = value
    return values


# --- cells no engine can reproduce from the workbook alone ----------------------------------------

# Functions whose value Excel took from outside the workbook: random numbers, the clock (NOW: the
# time of day Excel calculated at, in the saver's time zone; TODAY: the day, which ``--clock saved``
# gives ours from the save time), web services, the data model behind CUBE functions, and the
# application itself (INFO: its version, the operating system, memory ...).
OUTSIDE_FUNCTIONS = frozenset({"RAND", "RANDBETWEEN", "RANDARRAY", "NOW", "TODAY", "WEBSERVICE", "INFO", "RTD",
                               "CUBEKPIMEMBER", "CUBEMEMBER", "CUBEMEMBERPROPERTY", "CUBERANKEDMEMBER",
                               "CUBESET", "CUBESETCOUNT", "CUBEVALUE"})
# Functions whose text Excel writes in the saver's locale (Windows' regional settings, which the file
# does not record): FORMULATEXT's list and decimal separators, the number separators of TEXT, DOLLAR
# and FIXED. A text of one that differs from ours only by those separators (:func:`in_another_locale`)
# was computed in another locale, which no engine can know from the workbook.
LOCALE_FUNCTIONS = frozenset({"FORMULATEXT", "TEXT", "DOLLAR", "FIXED"})
_LOCALES = (str.maketrans({",": ";"}), str.maketrans({",": ";", ".": ","}), str.maketrans({".": ",", ",": "."}),
            str.maketrans({".": ",", ",": " "}), str.maketrans({".": ",", ",": "\xa0"}),
            str.maketrans({".": ",", ",": "\u202f"}), str.maketrans({",": "'"}))


def in_another_locale(formula: str, expected: Cached, got: Cached | None) -> bool:
    """Whether Excel's text differs from ours only by the separators of another locale, in a cell
    calling one of :data:`LOCALE_FUNCTIONS` (``=SUBTOTAL(9;$B2:$B4)`` against ``=SUBTOTAL(9,$B2:$B4)``,
    ``349 578 723 238,40`` against ``349,578,723,238.40``)."""
    if got is None or expected.kind != "text" or got.kind != "text" or got.value == expected.value:
        return False
    if not function_names(formula) & LOCALE_FUNCTIONS:
        return False
    return any(str(got.value).translate(table) == expected.value for table in _LOCALES)


# Excel's own names that its function list leaves out: storage forms (the spill operator #, @, a data
# table's {=TABLE()}), eta-reduced functions and LAMBDA parameters
# (ARRAY: the formula reader's node for an array constant {1,2;3,4})
STORAGE_FUNCTIONS = frozenset({"_XLFN.ANCHORARRAY", "_XLFN.SINGLE", "TABLE", "_XLWS.FILTER", "_XLWS.SORT", "ARRAY"})
BOUND_PREFIXES = ("_XLPM.", "_XLETA.")
MAX_ROW, MAX_COL = 1_048_576, 16_384
_TEXT = re.compile(r'"(?:[^"]|"")*"')
_QUOTED_SHEET = r"'(?:[^']|'')+'"
_REFERENCE_TEXT = re.compile(rf"(?:(?P<sheet>{_QUOTED_SHEET}|[A-Za-z_][\w.]*)!)?(?P<a>\$?[A-Za-z]{{1,3}}\$?\d+)"
                             rf"(?::(?P<b>\$?[A-Za-z]{{1,3}}\$?\d+))?(?![\w(])")
_CALLED = re.compile(r"(?<![\w.])([A-Za-z_\\][\w.]*)\s*\(")
_BINDS = re.compile(r"(?<![\w.])(?:_xlfn\.)?(?:LET|LAMBDA)\s*\(", re.IGNORECASE)
_STRUCTURED = re.compile(r"(?<![\w.\]])([A-Za-z_\\][\w.]*)\[")
Area = tuple[str, int, int, int, int]  # SHEET (upper case), r1, c1, r2, c2
# A function called from another workbook or an add-in through an external link (``[1]!LUCANET("Ist")``,
# Essbase's ``[1]!HsGetValue(...)``): a macro of a workbook or add-in the file does not hold
_LINKED_CALL = re.compile(r"\[\d+\]!'?([A-Za-z_][\w.]*)'?\s*\(")


def outside_reason(name: str, clock: str, known: Callable[[str], bool], defined: set[str],
                   macros: bool = False) -> str | None:
    """Why a call of ``name`` (upper case, as stored) needs more than the workbook, or None:
    one of :data:`OUTSIDE_FUNCTIONS` (TODAY only with ``--clock computer``), or a function neither
    Excel's nor a defined name of the workbook, of an add-in (``_xll.``) or, in a workbook holding
    a VBA project (``macros``), of VBA. Without either, Excel itself shows #NAME? for such a call,
    which the workbook alone gives."""
    bare = FUNCTION_PREFIXES.sub("", name)
    if bare in OUTSIDE_FUNCTIONS and not (bare == "TODAY" and clock == SAVED_CLOCK):
        return bare
    if name in STORAGE_FUNCTIONS or bare in STORAGE_FUNCTIONS or name.startswith(BOUND_PREFIXES):
        return None
    if known(name) or name in defined:
        return None
    if name.startswith("_XLL."):
        return f"{bare} (an add-in's)"
    return f"{bare} (not Excel's: VBA)" if macros else None


@dataclass
class FormulaFacts:
    """What one formula needs: the areas it reads and why it needs more than the workbook (None: it does not)."""

    areas: list[Area] = field(default_factory=list)
    outside: str | None = None


class Reproducibility:
    """Which formula cells of one workbook no engine can compute from the workbook alone, and why:
    those calling a function of :func:`outside_reason`, and those reading, directly or through
    other cells or defined names, such a cell (the references of each formula found by the
    engine's own formula reader; OFFSET and INDIRECT read the areas given them, so a cell using
    them over an area holding such a cell counts too). Propagated to a fixed point."""

    def __init__(self, clock: str = SAVED_CLOCK):
        project_importable()
        from xlrating.engine.evaluate.registry import is_excel_function
        from xlrating.engine.formula.reader import parse
        from xlrating.engine.formula.tree import Call, Ref, walk

        self.clock = clock
        self.known = is_excel_function
        self.parse, self.walk, self.Call, self.Ref = parse, walk, Call, Ref

    def classify(self, path: Path) -> dict[CellKey, str]:
        """The cells of ``path`` no engine can reproduce, with the reason: the function, or
        "depends on SHEET!CELL: reason"."""
        with zipfile.ZipFile(path) as package:
            names = defined_names(package)
            tables = table_areas(package)
            formulas = workbook_formulas(package)
            self.macros = any(name.lower().endswith("vbaproject.bin") for name in package.namelist())
        self.names, self.tables = names, tables
        self.defined = {name for name, _ in names}
        self.name_facts: dict[tuple[str, str | None], FormulaFacts] = {}
        facts = {key: self.facts(text, key[0], set()) for key, text in formulas.items()}
        reasons: dict[CellKey, str] = {key: f.outside for key, f in facts.items() if f.outside}
        by_sheet: dict[str, list[tuple[int, int, int, int, CellKey]]] = {}
        for key, fact in facts.items():
            for sheet, r1, c1, r2, c2 in fact.areas:
                by_sheet.setdefault(sheet, []).append((r1, c1, r2, c2, key))
        queue = list(reasons)
        while queue:
            sheet, cell = queue.pop()
            row, col = parse_reference(cell)
            for r1, c1, r2, c2, dependent in by_sheet.get(sheet, ()):
                if dependent not in reasons and r1 <= row <= r2 and c1 <= col <= c2:
                    root = reasons[sheet, cell].split(": ", 1)[-1] if reasons[sheet, cell].startswith("depends") \
                        else reasons[sheet, cell]
                    reasons[dependent] = f"depends on {sheet}!{cell}: {root}"
                    queue.append(dependent)
        return reasons

    def facts(self, text: str, sheet: str, seen: set[str]) -> FormulaFacts:
        """The areas ``text`` (a formula of ``sheet``, upper case) reads and why it needs more than
        the workbook; defined names it uses are followed (``seen``: those being followed)."""
        found = FormulaFacts()
        try:
            tree = self.parse("=" + text.removeprefix("="))
        except Exception:  # noqa: BLE001 - a formula our reader cannot parse: read its text
            return self.facts_of_text(text, sheet, seen)
        bound = {n.name for n in self.walk(tree) if isinstance(n, self.Ref) and n.name
                 and n.name.startswith(BOUND_PREFIXES)}
        bound |= let_names(self.walk(tree), self.Call, self.Ref)
        for node in self.walk(tree):
            if isinstance(node, self.Call):
                if node.name not in bound and found.outside is None:
                    found.outside = outside_reason(node.name, self.clock, self.known, self.defined, self.macros)
                    if found.outside is None and node.name in self.defined:
                        self.follow(node.name, sheet, seen, found)
            elif isinstance(node, self.Ref):
                if node.name:
                    if node.name not in bound:
                        self.follow(node.name, sheet, seen, found)
                else:
                    found.areas.append(((node.sheet or sheet).upper(), node.r1, node.c1, node.r2, node.c2))
        return found

    def facts_of_text(self, text: str, sheet: str, seen: set[str]) -> FormulaFacts:
        """What a formula the reader cannot parse needs, from its text: the functions it calls,
        the A1 references it holds, the tables it names (whole), the defined names it mentions."""
        found = FormulaFacts()
        bare = _TEXT.sub('""', text)
        linked = _LINKED_CALL.search(bare)
        if linked:
            found.outside = f"{linked.group(1).upper()} (a linked workbook's or add-in's)"
        binds = _BINDS.search(bare) is not None  # LET's and LAMBDA's names are called like functions
        for name in _CALLED.findall(bare.upper()):
            if name.startswith(BOUND_PREFIXES) or found.outside is not None:
                continue
            why = outside_reason(name, self.clock, self.known, self.defined, self.macros)
            found.outside = None if binds and why is not None and "(not Excel's" in why else why
        for match in _REFERENCE_TEXT.finditer(bare):
            on = match.group("sheet") or sheet
            on = on[1:-1].replace("''", "'") if on.startswith("'") else on
            if "[" in on:
                continue  # another workbook's cached cells
            r1, c1 = parse_reference(match.group("a").replace("$", ""))
            r2, c2 = parse_reference((match.group("b") or match.group("a")).replace("$", ""))
            found.areas.append((on.upper(), min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)))
        for table in _STRUCTURED.findall(bare):
            if table.upper() in self.tables:
                found.areas.append(self.tables[table.upper()])
        for word in set(re.findall(r"[A-Za-z_\\][\w.]*", bare)):
            if word.upper() in self.defined:
                self.follow(word.upper(), sheet, seen, found)
        return found

    def follow(self, name: str, sheet: str, seen: set[str], found: FormulaFacts) -> None:
        """Add what defined name ``name`` needs, as ``sheet`` sees it (its own name first)."""
        key = (name, sheet.upper()) if (name, sheet.upper()) in self.names else (name, None)
        text = self.names.get(key)
        if text is None or name in seen:
            return
        facts = self.facts(text, sheet, seen | {name})
        found.areas.extend(facts.areas)
        if found.outside is None:
            found.outside = facts.outside


def let_names(nodes: Iterator[Any], call: Any, ref: Any) -> set[str]:
    """The names a LET binds (its 1st, 3rd ... arguments) and a LAMBDA's parameters (all but its last)."""
    bound: set[str] = set()
    node: Any
    for node in nodes:
        if isinstance(node, call) and FUNCTION_PREFIXES.sub("", node.name) in ("LET", "LAMBDA"):
            params = node.args[0:-1:2] if FUNCTION_PREFIXES.sub("", node.name) == "LET" else node.args[:-1]
            bound.update(arg.name for arg in params if isinstance(arg, ref) and arg.name)
    return bound


def defined_names(package: zipfile.ZipFile) -> dict[tuple[str, str | None], str]:
    """The workbook's defined names: (NAME, SHEET it is local to or None) -> what it refers to."""
    book = parse_member(package, workbook_part(package))
    sheets = [sheet.get("name", "") for sheet in book.iter("{*}sheet")]
    names: dict[tuple[str, str | None], str] = {}
    for element in book.iter("{*}definedName"):
        local = element.get("localSheetId")
        scope = sheets[int(local)].upper() if local and local.isdigit() and int(local) < len(sheets) else None
        names[(element.get("name", "").upper(), scope)] = element.text or ""
    return names


def table_areas(package: zipfile.ZipFile) -> dict[str, Area]:
    """Each table's name (upper case) -> its whole area on its sheet."""
    areas: dict[str, Area] = {}
    for sheet_name, part in worksheet_parts(package):
        rels = posixpath.join(posixpath.dirname(part), "_rels", posixpath.basename(part) + ".rels")
        if rels not in package.namelist():
            continue
        for _, kind, target in relationships(package, part):
            if not kind.endswith("/table") or target not in package.namelist():
                continue
            table = parse_member(package, target)
            ends = (table.get("ref") or "").split(":")
            if len(ends) != 2:
                continue
            (r1, c1), (r2, c2) = parse_reference(ends[0]), parse_reference(ends[1])
            areas[(table.get("displayName") or table.get("name") or "").upper()] = (sheet_name.upper(), r1, c1, r2, c2)
    return areas


def workbook_formulas(package: zipfile.ZipFile) -> dict[CellKey, str]:
    """Every formula cell's text, a shared formula's follower as Excel fills the anchor's to it,
    each cell of an array formula's range the formula's text."""
    project_importable()
    from xlrating.engine.evaluate.blocks import translate

    formulas: dict[CellKey, str] = {}
    for sheet_name, part in worksheet_parts(package):
        sheet = parse_member(package, part)
        arrays = array_members(sheet)
        anchors: dict[str, tuple[str, str]] = {}
        cells = [(ref, f) for ref, cell in iter_cells(sheet) if (f := child(cell, "f")) is not None]
        for reference, formula in cells:
            if formula.get("t") == "shared" and formula.text:
                anchors[formula.get("si", "")] = (reference, formula.text)
        for reference, formula in cells:
            text = formula.text or ""
            if not text and formula.get("t") == "shared" and formula.get("si", "") in anchors:
                origin, anchor_text = anchors[formula.get("si", "")]
                try:
                    text = translate("=" + anchor_text, parse_reference(origin), parse_reference(reference))[1:]
                except Exception:  # noqa: BLE001 - a text the translator cannot move: the anchor's
                    text = anchor_text
            elif not text:
                text = arrays.get(reference, "")
            if text:
                formulas[sheet_name.upper(), reference] = text
        for reference, text in arrays.items():
            formulas.setdefault((sheet_name.upper(), reference), text)
    return formulas


# --- the stripped input -------------------------------------------------------------------------

def strip_sheet(sheet: etree._Element) -> None:
    """Remove the cached value (``<v>`` and ``t``) of formula cells and of the other cells of
    array formulas."""
    covered = array_members(sheet)
    for reference, cell in iter_cells(sheet):
        is_formula = child(cell, "f") is not None
        if not is_formula and reference not in covered:
            continue
        value = child(cell, "v")
        if value is not None:
            cell.remove(value)
        cell.attrib.pop("t", None)


def strip_cached_values(source: Path, target: Path) -> None:
    """Copy a workbook without the cached values of its computed cells, every other zip member
    (and every worksheet's other content) as it was."""
    with zipfile.ZipFile(source) as package:
        parts = {part for _, part in worksheet_parts(package)}
        target.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(target, "w") as out:
            for info in package.infolist():
                data = package.read(info)
                if info.filename in parts:
                    data = stripped_sheet_bytes(data)
                out.writestr(info, data)


def stripped_sheet_bytes(data: bytes) -> bytes:
    tree = etree.ElementTree(etree.fromstring(data, parser=xml_parser()))
    strip_sheet(tree.getroot())
    docinfo = tree.docinfo
    return bytes(etree.tostring(tree, xml_declaration=True, encoding=docinfo.encoding or "UTF-8",
                                standalone=docinfo.standalone))


# --- the workbooks ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Workbook:
    label: str  # source/file name, unique
    path: Path


def saved_by(path: Path) -> str:
    """The application that last saved a workbook, from docProps/app.xml ("" when it says none)."""
    with zipfile.ZipFile(path) as package:
        if "docProps/app.xml" not in package.namelist():
            return ""
        application = parse_member(package, "docProps/app.xml").find("{*}Application")
    return (application.text or "").split("$")[0].strip() if application is not None else ""


def saved_by_excel(path: Path) -> bool:
    return "Excel" in saved_by(path)


def xlcalculator_workbooks(cache: Path) -> list[Path]:
    """xlcalculator's test workbooks from its sdist on PyPI, downloaded once into ``cache``."""
    name, version = XLCALCULATOR
    folder = cache / f"{name}-{version}-resources"
    if not folder.is_dir() or not any(folder.iterdir()):
        extract_resources(download_sdist(cache), folder)
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in WORKBOOK_SUFFIXES)


def download_sdist(cache: Path) -> Path:
    name, version = XLCALCULATOR
    cache.mkdir(parents=True, exist_ok=True)
    existing = sorted(cache.glob(f"{name}-{version}.tar.gz"))
    if existing:
        return existing[0]
    print(f"downloading the {name} {version} sdist from PyPI into {cache} ...", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                    f"{name}=={version}", "-d", str(cache)], check=True, stdout=subprocess.DEVNULL)
    found = sorted(cache.glob(f"{name}-{version}.tar.gz"))
    if not found:
        raise RuntimeError(f"pip download left no {name}-{version}.tar.gz in {cache}")
    return found[0]


def extract_resources(sdist: Path, folder: Path) -> None:
    """The ``tests/resources/*.xlsx|*.xlsm`` of the sdist, by base name (no paths from the tar)."""
    folder.mkdir(parents=True, exist_ok=True)
    with tarfile.open(sdist) as archive:
        for member in archive.getmembers():
            parent, base = posixpath.split(member.name)
            if (member.isfile() and parent.endswith("tests/resources")
                    and base.lower().endswith(WORKBOOK_SUFFIXES)):
                stream = archive.extractfile(member)
                if stream is not None:
                    (folder / base).write_bytes(stream.read())


def current_xlcalculator(cache: Path) -> Path | None:
    """xlcalculator's workbooks as its repository has them today (newer than the 0.5.0 sdist:
    ``reader.xlsm`` and others), fetched once with ``git clone --depth 1`` into ``cache``: every
    .xlsx/.xlsm of the repository, named by its path with ``_`` for ``/``
    (``tests_resources_ABS.xlsx``). None, with a note, when git cannot fetch it."""
    folder = cache / CURRENT
    if folder.is_dir() and any(folder.iterdir()):
        return folder
    clone = cache / "xlcalculator-repository"
    if not clone.is_dir():
        print(f"cloning {XLCALCULATOR_REPOSITORY} into {clone} ...", file=sys.stderr)
        try:
            subprocess.run(["git", "clone", "--quiet", "--depth", "1", XLCALCULATOR_REPOSITORY, str(clone)],
                           check=True, stdout=subprocess.DEVNULL, timeout=300)
        except (OSError, subprocess.SubprocessError) as error:
            print(f"note: xlcalculator's current workbooks left out: cannot clone its repository ({error}); "
                  f"--xlcalculator-current DIR names a copy", file=sys.stderr)
            return None
    folder.mkdir(parents=True, exist_ok=True)
    for path in sorted(clone.rglob("*")):
        relative = path.relative_to(clone)
        if path.is_file() and path.suffix.lower() in WORKBOOK_SUFFIXES and ".git" not in relative.parts:
            (folder / "_".join(relative.parts)).write_bytes(path.read_bytes())
    return folder


def workbooks_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in WORKBOOK_SUFFIXES and p.is_file())


def contents(paths: list[Path]) -> frozenset[bytes]:
    import hashlib

    return frozenset(hashlib.sha256(p.read_bytes()).digest() for p in paths)


def collect_workbooks(extra: list[Path], only: list[str], current: Path | None | bool = True) -> list[Workbook]:
    """The workbooks of every corpus, each labelled ``corpus/file``: xlcalculator 0.5.0's, its
    current ones (``current``: a folder, True to fetch them (:func:`current_xlcalculator`), None or
    False to leave them out), then each ``--extra`` folder (its name is the corpus'). An extra
    folder holding exactly the current xlcalculator workbooks is that corpus, not a second copy."""
    sources = [(f"{XLCALCULATOR[0]}-{XLCALCULATOR[1]}", xlcalculator_workbooks(CACHE))]
    folder = current_xlcalculator(CACHE) if current is True else current or None
    current_books: frozenset[bytes] = frozenset()
    if folder is not None:
        if not folder.is_dir():
            raise SystemExit(f"--xlcalculator-current {folder}: not a folder")
        sources.append((CURRENT, workbooks_in(folder)))
        current_books = contents(sources[-1][1])
    for folder in extra:
        if not folder.is_dir():
            raise SystemExit(f"--extra {folder}: not a folder")
        paths = workbooks_in(folder)
        if current_books and contents(paths) == current_books:
            print(f"note: --extra {folder} holds xlcalculator's current workbooks: counted once, as {CURRENT}",
                  file=sys.stderr)
            continue
        sources.append((folder.name, paths))
    books = [Workbook(f"{source}/{p.name}", p) for source, paths in sources for p in paths
             if not only or any(fnmatch.fnmatch(p.name, pattern) for pattern in only)]
    labels = Counter(book.label for book in books)
    return [book if labels[book.label] == 1 else Workbook(f"{book.label}#{i}", book.path)
            for i, book in enumerate(books)]


def corpus_of(label: str) -> str:
    """The corpus a workbook label names (``ironcalc/x.xlsx`` -> ``ironcalc``)."""
    return label.split("/", 1)[0]


# --- running the engines ------------------------------------------------------------------------

@dataclass
class Outcome:
    """One engine on one workbook: its values, or why it failed."""

    values: Values | None
    error: str | None = None
    seconds: float = 0.0
    # (SHEET, cell) -> why the engine left it not computed (ours names each such cell in a warning)
    warnings: dict[CellKey, str] = field(default_factory=dict)


def run_command(command: list[str], timeout: float) -> tuple[int, str]:
    """Run a command in its own process group; on timeout, or when it leaves processes behind
    (soffice after an inner timeout), the whole group is killed."""
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(process.pid)
        process.communicate()
        return -1, f"timed out after {timeout:g} s"
    kill_group(process.pid)
    return process.returncode, output


def kill_group(group: int) -> None:
    try:
        os.killpg(group, signal.SIGKILL)
    except ProcessLookupError:
        pass


def failure_line(output: str) -> str:
    """The line of a failed run's output that says why: the last one naming an error or a
    failure (a traceback's exception, xlrating's "failed: ..."), else the last one."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    telling = [line for line in lines if line.startswith("failed") or "Error" in line or "error" in line]
    return (telling or lines or [""])[-1][:300]


def outcome_of(command: list[str], output: Path, timeout: float,
               reader: Callable[[Path], Values], warnings: Callable[[str], dict[CellKey, str]] | None = None) -> Outcome:
    started = time.perf_counter()
    status, text = run_command(command, timeout)
    seconds = time.perf_counter() - started
    if status != 0:
        reason = text if status == -1 else f"exit status {status}: {failure_line(text)}"
        return Outcome(None, reason, seconds)
    try:
        return Outcome(reader(output), None, seconds, warnings(text) if warnings is not None else {})
    except Exception as error:  # noqa: BLE001 - any unreadable output is a failed workbook
        return Outcome(None, f"unreadable output: {type(error).__name__}: {error}"[:300], seconds)


WARNING_CELL = re.compile(r"^(?P<sheet>.*?)!(?P<cell>\$?[A-Z]{1,3}\$?\d+): (?P<reason>.*)$")


def warnings_of(output: str, source: Path) -> dict[CellKey, str]:
    """The cells ``xlrating convert`` left not computed, from its warnings
    (``warning: FILE: Sheet!B7: why``), by (SHEET, cell)."""
    prefix = f"warning: {source}: "
    found: dict[CellKey, str] = {}
    for line in output.splitlines():
        if line.startswith(prefix):
            match = WARNING_CELL.match(line[len(prefix):])
            if match is not None:
                sheet = match.group("sheet")
                if sheet.startswith("'") and sheet.endswith("'"):
                    sheet = sheet[1:-1].replace("''", "'")
                found[(sheet.upper(), match.group("cell").replace("$", ""))] = match.group("reason")
    return found


def run_ours(stripped: Path, work: Path, timeout: float, clock: str = SAVED_CLOCK) -> Outcome:
    output = work / ("ours" + stripped.suffix)
    command = [sys.executable, "-m", "xlrating", "convert", str(stripped), "-o", str(output), "-q"]
    if clock == SAVED_CLOCK:
        command += ["--now", "saved"]
    return outcome_of(command, output, timeout, read_values, lambda text: warnings_of(text, stripped))


def run_formulas(stripped: Path, work: Path, timeout: float, clock: str = SAVED_CLOCK) -> Outcome:
    """Plain formulas (``clock`` is ours only: formulas has no clock of its own)."""
    output = work / "formulas.json"
    command = [sys.executable, str(Path(__file__).resolve()), WORKER_FLAG, "formulas", str(stripped), str(output)]
    return outcome_of(command, output, timeout, read_worker_values)


def run_libreoffice(stripped: Path, work: Path, timeout: float, profile: Path) -> Outcome:
    folder = work / "libreoffice"
    command = [sys.executable, str(Path(__file__).resolve()), WORKER_FLAG, "libreoffice", str(stripped),
               str(folder), str(profile), str(timeout)]
    return outcome_of(command, folder / (stripped.stem + ".xlsx"), timeout + 30, read_values)


def read_worker_values(path: Path) -> Values:
    rows = json.loads(path.read_text(encoding="utf-8"))
    return {(sheet, cell): Cached(kind, value) for sheet, cell, kind, value in rows}


def run_engine(engine: str, inputs: list[Path], work: Path, timeout: float,
               clock: str = SAVED_CLOCK) -> list[Outcome]:
    """One engine on every workbook; LibreOffice one at a time (a profile is single-user). ``clock``
    is the moment of ours' TODAY() and NOW() (see the module's docstring); the others have no such
    option."""
    folders = [work / engine / f"{i:03d}" for i in range(len(inputs))]
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
    if engine == "libreoffice":
        profile = work / "libreoffice-profile"
        make_libreoffice_profile(profile)
        return [run_libreoffice(p, f, timeout, profile) for p, f in zip(inputs, folders)]
    runner = run_ours if engine == "ours" else run_formulas
    with ThreadPoolExecutor(PARALLEL) as pool:
        return list(pool.map(lambda pair: runner(pair[0], pair[1], timeout, clock), zip(inputs, folders)))


def project_importable() -> None:
    """xlrating importable from this checkout, installed or not."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


def make_libreoffice_profile(folder: Path) -> None:
    project_importable()
    from xlrating.engine.libreoffice import make_profile

    make_profile(folder)


def libreoffice_available() -> bool:
    project_importable()
    from xlrating.engine.libreoffice import soffice

    return soffice() is not None


# --- the workers (run as subprocesses of this script) -------------------------------------------

def formulas_worker(source: Path, output: Path) -> None:
    """Plain formulas on one workbook; writes [sheet, cell, kind, value] rows of its solution."""
    import formulas

    model = formulas.ExcelModel().loads(str(source)).finish(circular=True)
    solution = model.calculate()
    rows = [[sheet, cell, value.kind, value.value]
            for (sheet, cell), value in formulas_values(solution, source.name).items()]
    output.write_text(json.dumps(rows), encoding="utf-8")


def formulas_values(solution: Mapping[Any, Any], book: str) -> Values:
    """The cells of ``book`` in a formulas solution: single-cell keys first, then the cells of
    range keys (array formulas) not already given."""
    single: Values = {}
    spread: Values = {}
    for key, ranges in solution.items():
        match = FORMULAS_KEY.match(key) if isinstance(key, str) else None
        if match is None or match["book"].upper() != book.upper() or not hasattr(ranges, "value"):
            continue
        sheet = match["sheet"].replace("''", "'").upper()
        cells = list(cells_of_range(match["ref"]))
        flat = list(getattr(ranges.value, "flat", []))
        if len(flat) != len(cells):
            continue
        target = single if len(cells) == 1 else spread
        for cell, raw in zip(cells, flat):
            value = formulas_cell_value(raw)
            if value is not None:
                target.setdefault((sheet, cell), value)
    return spread | single


def formulas_cell_value(raw: Any) -> Cached | None:
    """A formulas value typed as ``ExcelModel.write`` saves it: EMPTY is no value, an XlError its
    code, and a text that is an error code an error (openpyxl types it so)."""
    import numpy as np
    import schedula as sh
    from formulas.tokens.operand import XlError

    if hasattr(raw, "value") and getattr(raw.value, "shape", None) == (1, 1):
        raw = raw.value[0, 0]
    if raw is sh.EMPTY:
        return None
    if isinstance(raw, XlError):
        return Cached("error", str(raw))
    if isinstance(raw, np.generic):
        raw = raw.item()
    if isinstance(raw, bool):
        return Cached("bool", raw)
    if isinstance(raw, (int, float)):
        return Cached("number", float(raw))
    if isinstance(raw, str):
        return Cached("error" if raw in ERROR_CODES else "text", raw)
    return Cached("text", f"<{type(raw).__name__}: {raw!r}>"[:200])


def libreoffice_worker(source: Path, folder: Path, profile: Path, timeout: float) -> None:
    project_importable()
    from xlrating.engine.libreoffice import convert

    convert(source, folder, profile, fmt="xlsx", timeout=timeout)


def run_worker(arguments: list[str]) -> int:
    engine, *rest = arguments
    if engine == "formulas":
        formulas_worker(Path(rest[0]), Path(rest[1]))
    elif engine == "libreoffice":
        libreoffice_worker(Path(rest[0]), Path(rest[1]), Path(rest[2]), float(rest[3]))
    else:
        raise SystemExit(f"unknown worker {engine}")
    return 0


# --- scoring and the report ---------------------------------------------------------------------

@dataclass
class Mismatch:
    workbook: str
    cell: OracleCell
    got: Cached | None
    reason: str = ""  # why, in a few words (:func:`mismatch_reason`)
    unreproducible: str | None = None  # why no engine can reproduce it from the workbook (:class:`Reproducibility`)

    def as_json(self, engine: str) -> dict[str, Any]:
        return {"engine": engine, "workbook": self.workbook, "sheet": self.cell.sheet, "cell": self.cell.cell,
                "formula": self.cell.formula, "expected": self.cell.expected.as_json(),
                "got": None if self.got is None else self.got.as_json(), "reason": self.reason,
                "reproducible": self.unreproducible is None,
                **({"not_reproducible": self.unreproducible} if self.unreproducible else {})}


_WHICH_FORMULA = re.compile(r"(cannot parse)(?: the formula)? .* (\([\w.]+\))$")
_WHICH_CELL = re.compile(r"(?:'(?:[^']|'')+'|[^\s!',()]+)!\$?[A-Z]{1,3}\$?\d+")
_READS = re.compile(r"^reads .*?, which was not computed \((?P<inner>.*)\)$")


def warning_reason(warning: str) -> str:
    """A warning of ours without what is particular to one cell (its formula, the cells it reads),
    so that cells left out for the same reason count together."""
    reads = _READS.match(warning)
    if reads is not None:
        return "reads a cell not computed: " + warning_reason(reads.group("inner"))
    warning = _WHICH_FORMULA.sub(r"\1 the formula \2", warning)
    return _WHICH_CELL.sub("<cell>", warning)


def mismatch_reason(expected: Cached, got: Cached | None, formula: str, failed: str | None,
                    warning: str | None) -> str:
    """Why a cell differs from Excel's: the workbook failed; not computed, with the warning's
    reason (a function the engine does not compute among them); no value; a value of another type;
    or another value, with the functions of the formula."""
    if failed is not None:
        return "workbook failed: " + failure_line(failed)[:120]
    if warning is not None:
        return "not computed: " + warning_reason(warning)
    if got is None:
        return "no value"
    functions = ", ".join(sorted(function_names(formula))) or "no function"
    if got.kind != expected.kind:
        return f"{got.kind} where Excel has a {expected.kind} ({functions})"
    return f"another {expected.kind} ({functions})"


@dataclass
class EngineScore:
    engine: str
    seconds: float = 0.0
    total: int = 0
    equal: int = 0
    failed: dict[str, str] = field(default_factory=dict)
    mismatches: list[Mismatch] = field(default_factory=list)
    per_workbook: dict[str, tuple[int, int, float]] = field(default_factory=dict)  # label -> (equal, total, s)
    # label -> (equal, total) of the cells reproducible from the workbook alone (:class:`Reproducibility`)
    reproducible: dict[str, tuple[int, int]] = field(default_factory=dict)
    # label -> the cells no engine can reproduce, per root reason (RANDBETWEEN, NOW ...)
    unreproducible: dict[str, Counter[str]] = field(default_factory=dict)

    def add(self, workbook: str, oracle: list[OracleCell], outcome: Outcome,
            unreproducible: Mapping[CellKey, str] | None = None) -> None:
        if outcome.values is None:
            self.failed[workbook] = outcome.error or "failed"
        values = outcome.values or {}
        failed = self.failed.get(workbook)
        outside = unreproducible or {}
        equal = equal_reproducible = total_reproducible = 0
        roots: Counter[str] = Counter()
        for cell in oracle:
            got = values.get(cell.key)
            why = outside.get(cell.key)
            if why is None and in_another_locale(cell.formula, cell.expected, got):
                why = "the saver's locale"
            if why is None:
                total_reproducible += 1
            else:
                roots[why.split(": ", 1)[-1] if why.startswith("depends on ") else why] += 1
            if outcome.values is not None and same_value(cell.expected, got):
                equal += 1
                equal_reproducible += why is None
            else:
                reason = mismatch_reason(cell.expected, got, cell.formula, failed, outcome.warnings.get(cell.key))
                self.mismatches.append(Mismatch(workbook, cell, got, reason, why))
        self.total += len(oracle)
        self.equal += equal
        self.per_workbook[workbook] = (equal, len(oracle), outcome.seconds)
        self.reproducible[workbook] = (equal_reproducible, total_reproducible)
        self.unreproducible[workbook] = roots


def mismatch_functions(mismatches: list[Mismatch]) -> Counter[str]:
    """Mismatched cells per function in their formulas ("(no function)" for pure operators)."""
    counts: Counter[str] = Counter()
    for mismatch in mismatches:
        counts.update(function_names(mismatch.cell.formula) or {"(no function)"})
    return counts


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def format_table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [" | ".join(text.ljust(widths[i]) for i, text in enumerate(row)) for row in [header, *rows]]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def clock_note(clock: str, engines: list[str]) -> str:
    """What each engine's TODAY() and NOW() computed from."""
    others = [engine for engine in engines if engine != "ours"]
    parts = []
    if "ours" in engines:
        parts.append("ours at each workbook's save time (convert --now saved)" if clock == SAVED_CLOCK
                     else "ours at the computer's clock (--clock computer)")
    if others:
        parts.append(f"{' and '.join(others)} at the computer's clock (no such option)")
    return "clock: TODAY() and NOW() computed by " + "; ".join(parts)


def print_report(scores: list[EngineScore], workbooks: int, verbose: bool, target: float = TARGET,
                 clock: str = SAVED_CLOCK) -> None:
    rows = [[s.engine, f"{len(s.failed)} of {workbooks}", f"{s.equal} of {s.total}", percent(s.equal, s.total),
             f"{s.seconds:.1f} s"] for s in scores]
    print(format_table(["engine", "workbooks failed", "formula cells equal to Excel's", "%", "wall time"], rows))
    print(clock_note(clock, [s.engine for s in scores]))
    print_corpora(scores, target)
    for score in scores:
        print_mismatch_functions(score)
    if verbose:
        print_per_workbook(scores)


@dataclass
class CorpusScore:
    """One engine on one corpus: its workbooks, those failed, its formula cells and those equal to Excel's."""

    corpus: str
    workbooks: int = 0
    failed: int = 0
    total: int = 0
    equal: int = 0
    reasons: Counter[str] = field(default_factory=Counter)  # why the other cells differ, cells per reason
    reproducible_total: int = 0  # the cells reproducible from the workbook alone
    reproducible_equal: int = 0
    unreproducible: Counter[str] = field(default_factory=Counter)  # the others, per root reason

    def meets(self, target: float) -> bool:
        """No workbook failed, and ``target`` % of the reproducible cells equal to Excel's."""
        return (self.failed == 0 and self.reproducible_total > 0
                and 100 * self.reproducible_equal >= target * self.reproducible_total)

    def short_of(self, target: float) -> int:
        """Reproducible cells more to equal Excel's for the corpus to reach ``target`` %."""
        return max(0, math.ceil(target * self.reproducible_total / 100 - 1e-9) - self.reproducible_equal)

    def as_json(self, target: float) -> dict[str, Any]:
        return {"corpus": self.corpus, "workbooks": self.workbooks, "failed": self.failed, "total": self.total,
                "equal": self.equal, "reproducible_total": self.reproducible_total,
                "reproducible_equal": self.reproducible_equal, "target": target,
                "meets_target": self.meets(target), "reasons": dict(self.reasons.most_common()),
                "not_reproducible": dict(self.unreproducible.most_common())}


def corpus_scores(score: EngineScore) -> list[CorpusScore]:
    """``score`` per corpus, in the order the corpora were read."""
    corpora: dict[str, CorpusScore] = {}
    for label, (equal, total, _) in score.per_workbook.items():
        corpus = corpora.setdefault(corpus_of(label), CorpusScore(corpus_of(label)))
        corpus.workbooks += 1
        corpus.failed += label in score.failed
        corpus.total += total
        corpus.equal += equal
        equal_reproducible, total_reproducible = score.reproducible.get(label, (equal, total))
        corpus.reproducible_equal += equal_reproducible
        corpus.reproducible_total += total_reproducible
        corpus.unreproducible.update(score.unreproducible.get(label, Counter()))
    for mismatch in score.mismatches:
        corpora[corpus_of(mismatch.workbook)].reasons[mismatch.reason] += 1
    return list(corpora.values())


def print_corpora(scores: list[EngineScore], target: float) -> None:
    """Per engine and corpus: workbooks failed, formula cells equal to Excel's, whether the corpus
    meets the target (no workbook failed, ``target`` % of its cells equal), and the reasons
    behind the cells left (top :data:`TOP_REASONS`)."""
    rows, left = [], []
    for score in scores:
        for corpus in corpus_scores(score):
            mark = "yes" if corpus.meets(target) else (
                f"NO: {corpus.failed} failed" if corpus.failed else f"NO: {corpus.short_of(target)} cells short")
            rows.append([score.engine, corpus.corpus, str(corpus.workbooks), str(corpus.failed),
                         f"{corpus.equal} of {corpus.total}", percent(corpus.equal, corpus.total),
                         f"{corpus.reproducible_equal} of {corpus.reproducible_total}",
                         percent(corpus.reproducible_equal, corpus.reproducible_total), mark])
            left.append((score.engine, corpus))
    print(f"\nper corpus (target: {target:g}% of the reproducible formula cells of each corpus equal to Excel's, "
          f"no workbook failed; reproducible: computable from the workbook alone, see --help)")
    print(format_table(["engine", "corpus", "workbooks", "failed", "formula cells equal", "%",
                        "reproducible cells equal", "%", f">= {target:g}%"], rows))
    for engine, corpus in left:
        cells = corpus.total - corpus.equal
        if corpus.unreproducible:
            shown = ", ".join(f"{reason} {count}" for reason, count in corpus.unreproducible.most_common(TOP_REASONS))
            print(f"\n{engine}, {corpus.corpus}: {corpus.total - corpus.reproducible_total} cells not reproducible "
                  f"from the workbook alone, by what they need (top {TOP_REASONS}): {shown}")
        if not cells:
            continue
        print(f"\n{engine}, {corpus.corpus}: {cells} cells left, why (cells per reason, top {TOP_REASONS})")
        for reason, count in corpus.reasons.most_common(TOP_REASONS):
            print(f"  {count:>6}  {reason}")


def print_mismatch_functions(score: EngineScore) -> None:
    """The functions behind the mismatches in the workbooks the engine converted (a failed
    workbook's cells say nothing about its functions: it is listed with its cell count)."""
    converted = [m for m in score.mismatches if m.workbook not in score.failed]
    print(f"\n{score.engine}: functions behind the {len(converted)} mismatched cells of the workbooks it "
          f"converted (cells per function, top {TOP_FUNCTIONS})")
    for name, count in mismatch_functions(converted).most_common(TOP_FUNCTIONS):
        print(f"  {name:<24} {count}")
    for workbook, reason in score.failed.items():
        print(f"  failed {workbook} ({score.per_workbook[workbook][1]} cells): {reason}")


def print_per_workbook(scores: list[EngineScore]) -> None:
    labels = list(scores[0].per_workbook) if scores else []
    rows = []
    for label in labels:
        rows.append([label, str(scores[0].per_workbook[label][1])] + [workbook_cell(s, label) for s in scores])
    print()
    print(format_table(["workbook", "formula cells"] + [s.engine for s in scores], rows))


def workbook_cell(score: EngineScore, label: str) -> str:
    equal, _, seconds = score.per_workbook[label]
    return ("FAILED " if label in score.failed else "") + f"{equal} ({seconds:.1f} s)"


def write_details(path: Path, scores: list[EngineScore], target: float = TARGET, clock: str = SAVED_CLOCK) -> None:
    document = {
        "clock": clock_note(clock, [s.engine for s in scores]),
        "corpora": [{"engine": s.engine, **c.as_json(target)} for s in scores for c in corpus_scores(s)],
        "mismatches": [m.as_json(s.engine) for s in scores for m in s.mismatches],
        "failed_workbooks": [{"engine": s.engine, "workbook": w, "reason": r}
                             for s in scores for w, r in s.failed.items()],
    }
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False), encoding="utf-8")


# --- main ---------------------------------------------------------------------------------------

def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--extra", action="append", type=Path, default=[], metavar="DIR",
                        help="also every .xlsx/.xlsm in DIR (repeatable)")
    parser.add_argument("--engines", default=",".join(ENGINES),
                        help=f"comma-separated, among {', '.join(ENGINES)} (default: all)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per workbook (default 300)")
    parser.add_argument("--details", type=Path, metavar="FILE.json", help="write every mismatch here")
    parser.add_argument("--only", action="append", default=[], metavar="GLOB",
                        help="only workbooks whose file name matches (repeatable)")
    parser.add_argument("--excel-only", action="store_true",
                        help="leave out workbooks last saved by another application (their cached values "
                             "are not Excel's)")
    parser.add_argument("--verbose", action="store_true", help="counts and seconds per workbook")
    parser.add_argument("--xlcalculator-current", metavar="DIR|none", default=None,
                        help="xlcalculator's current test workbooks (default: cloned from its repository into "
                             "benchmarks/.cache once); none leaves them out")
    parser.add_argument("--target", type=float, default=TARGET, metavar="PERCENT",
                        help=f"the share of each corpus' formula cells to equal Excel's (default {TARGET:g})")
    parser.add_argument("--clock", choices=(SAVED_CLOCK, COMPUTER_CLOCK), default=SAVED_CLOCK,
                        help="the moment of ours' TODAY() and NOW(): each workbook's save time (saved, the default: "
                             "convert --now saved) or the computer's clock; formulas and LibreOffice have no such "
                             "option and always use the computer's clock")
    arguments = parser.parse_args(argv)
    current = arguments.xlcalculator_current
    arguments.xlcalculator_current = True if current is None else None if current.lower() == "none" else Path(current)
    arguments.engines = [e.strip() for e in arguments.engines.split(",") if e.strip()]
    unknown = set(arguments.engines) - set(ENGINES)
    if unknown:
        parser.error(f"unknown engines: {', '.join(sorted(unknown))}")
    return arguments


def select_workbooks(arguments: argparse.Namespace) -> list[Workbook]:
    """The workbooks to run; says which were not saved by Excel (their oracle is another
    application's), and leaves them out with ``--excel-only``."""
    books = collect_workbooks(arguments.extra, arguments.only, arguments.xlcalculator_current)
    others = [(book, saved_by(book.path) or "unknown") for book in books if not saved_by_excel(book.path)]
    if others:
        action = "left out" if arguments.excel_only else "kept; --excel-only leaves them out"
        names = ", ".join(f"{book.label} ({application})" for book, application in others)
        print(f"note: {len(others)} workbook(s) were last saved by another application than Excel ({action}): "
              f"{names}", file=sys.stderr)
    if arguments.excel_only:
        return [book for book in books if saved_by_excel(book.path)]
    return books


def prepare(workbooks: list[Workbook], work: Path, clock: str = SAVED_CLOCK
            ) -> tuple[list[Workbook], list[list[OracleCell]], list[Path], list[dict[CellKey, str]]]:
    """The oracle, the stripped input and the cells no engine can reproduce of each workbook
    (unreadable workbooks left out)."""
    kept, oracles, inputs, outside = [], [], [], []
    reproducibility = Reproducibility(clock)
    for i, book in enumerate(workbooks):
        stripped = work / "inputs" / f"{i:03d}" / book.path.name
        try:
            oracle = read_oracle(book.path)
            strip_cached_values(book.path, stripped)
        except (OSError, ValueError, KeyError, IndexError, zipfile.BadZipFile, etree.XMLSyntaxError) as error:
            print(f"skipping {book.label}: {error}", file=sys.stderr)
            continue
        try:
            unreproducible = reproducibility.classify(book.path)
        except (ValueError, KeyError, IndexError, etree.XMLSyntaxError) as error:
            print(f"note: {book.label}: every cell counted reproducible ({error})", file=sys.stderr)
            unreproducible = {}
        kept.append(book)
        oracles.append(oracle)
        inputs.append(stripped)
        outside.append(unreproducible)
    return kept, oracles, inputs, outside


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == [WORKER_FLAG]:
        return run_worker(argv[1:])
    arguments = parse_arguments(argv)
    engines = arguments.engines
    if "libreoffice" in engines and not libreoffice_available():
        print("note: LibreOffice (soffice) is not installed; skipping the libreoffice engine", file=sys.stderr)
        engines = [e for e in engines if e != "libreoffice"]
    with tempfile.TemporaryDirectory(prefix="conformance-") as temporary:
        work = Path(temporary)
        books, oracles, inputs, outside = prepare(select_workbooks(arguments), work, arguments.clock)
        print(f"{len(books)} workbooks, {sum(map(len, oracles))} formula cells with a value cached by Excel",
              file=sys.stderr)
        scores = []
        for engine in engines:
            started = time.perf_counter()
            outcomes = run_engine(engine, inputs, work, arguments.timeout, arguments.clock)
            score = EngineScore(engine, seconds=time.perf_counter() - started)
            for book, oracle, outcome, unreproducible in zip(books, oracles, outcomes, outside):
                score.add(book.label, oracle, outcome, unreproducible)
            scores.append(score)
            print(f"{engine}: {score.seconds:.1f} s", file=sys.stderr)
    print_report(scores, len(books), arguments.verbose, arguments.target, arguments.clock)
    if arguments.details:
        write_details(arguments.details, scores, arguments.target, arguments.clock)
    return 0


if __name__ == "__main__":
    sys.exit(main())
