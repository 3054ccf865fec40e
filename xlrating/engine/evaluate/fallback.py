"""The cell-by-cell path: one formula evaluated by ``formulas``, with our functions registered.

Used for whatever the vectorised path does not cover (lookups, text functions, array results,
our table functions ...) and for rows the vectorised path deferred. Each distinct formula text is
compiled once against the engine's registry (:mod:`.compiler`); the compiled function's inputs (``formulas``
names them by their references) are filled from the :class:`~.grid.Grid`. Defined names that stand
for formulas or LAMBDAs are expanded in the text first (:mod:`.names`).

Every area read, by a compiled input or by a reference computed while the formula runs (OFFSET,
INDIRECT: :mod:`.references`), goes through :meth:`Fallback.read`: formula cells there that are not
computed yet are computed first (the evaluator's ``demand``), whole columns and rows cost only the
used range, and a cell the engine could not compute makes the reading formula not computed too.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import schedula as sh
from formulas.ranges import Ranges
from formulas.tokens.operand import Error as ErrorToken

from xlrating.excel_errors import ExcelError

from ..formula.areas import spread_areas
from ..formula.function_names import builtin_name
from ..formula.reader import normalise, parse
from ..formula.tree import Call, FormulaSyntaxError, Ref, column_letters, walk
from ..formula.values import Area
from ..read.grid import MAX_ROW, CellFailure, Grid, InCircle, NotComputed, Sheet
from ..read.names import expand_names, is_lambda, uses_relative_names
from ..read.row_visibility import Rows, rows_of
from .blocks import ARRAY_FUNCTIONS
from .compiler import compile_formula, needs_cell
from .host_values import from_host, to_host
from .lambdas import Lambda
from .legacy_values import takes_arrays
from .position import CURRENT, Abort, Position, area_sheet
from .registry import FunctionRegistry

_PLAIN_NAME = re.compile(r"^[^!]+![$A-Za-z0-9:]+$")
# a reference in formula text (string literals matched first, to be skipped)
_REFERENCE_TEXT = re.compile(r"""("(?:[^"]|"")*")|(?<![\w.!$'\]])((?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?"""
                             r"(\$?[A-Za-z]{1,3}\$?[0-9]+(?::\$?[A-Za-z]{1,3}\$?[0-9]+)?|\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}"
                             r"|\$?[0-9]+:\$?[0-9]+)(?![\w(!#])")
# the last column or row named in an address
_SHEET_EDGE = re.compile(rf"(?<![A-Za-z])XFD(?![A-Za-z])|(?<![0-9]){MAX_ROW}(?![0-9])", re.IGNORECASE)



def _sheet_misread(name: str, area: dict[str, Any]) -> bool:
    """Whether ``formulas`` read input ``name`` as another area: it ends an unquoted sheet name at
    a character such as the middle dot of a linked workbook's sheet (``ext1·Sheet1!H5`` read as cell
    EXT1 of the formula's sheet), which our reader then reads whole."""
    sheet_name, bang, _ = name.rpartition("!")
    if not bang or "\u00b7" not in sheet_name:
        return False
    found = str(area.get("sheet") or area.get("sheet_id") or "").strip("'")
    return found.upper() != sheet_name.strip("'").replace("''", "'").upper()

class Fallback:
    """Compiles formula texts once and evaluates them against a grid."""

    def __init__(self, grid: Grid, defined_names: dict[str | None, dict[str, str]], registry: FunctionRegistry,
                 package: Any = None):
        self.grid = grid
        self.registry = registry  # the functions formulas compile against
        # SHEET (None: every other sheet) -> NAME -> reference text, e.g. "Sheet1!$A$1:$A$9"
        self.names = defined_names
        self.package = package
        # computes the formula cells of (SHEET, r1, c1, r2, c2) not computed yet; set by the evaluator
        self.demand: Callable[[str, int, int, int, int], None] | None = None
        # (SHEET, row, col) -> formula text, for FORMULATEXT and ISFORMULA; set by the evaluator
        self.formula_text: Callable[[str, int, int], str | None] = lambda sheet, row, col: None
        # (SHEET, row, col) -> (height, width) of the array that formula cell fills; for ANCHORARRAY
        self.spill_size: Callable[[str, int, int], tuple[int, int] | None] = lambda sheet, row, col: None
        # the areas the formula being computed read: r1, c1, r2, c2 read and the r2, c2 asked (whole
        # columns and rows are read as their used part)
        self._reads: list[tuple[int, int, int, int, int, int]] = []
        # (SHEET, formula text) -> the text normalised and with its defined names written out
        self._prepared: dict[tuple[str, str], str] = {}
        self._rows: dict[str, Rows] = {}  # SHEET -> its hidden and filtered rows, read when first asked
        # the sheets in the order of their tabs, which 3-D references span
        every = getattr(package, "every_sheet", None) or [s.name for s in grid.order]
        self.sheet_order: tuple[str, ...] = tuple(every)
        # name -> reference, for the references at the sheet's edge given to formulas under a name
        self._edges: dict[str, Ref] = {}
        self._edge_names: dict[str, str] = {}

    def rows_of(self, sheet: Sheet) -> Rows:
        """The rows of ``sheet`` hidden in Excel, and those an AutoFilter filtered out (for SUBTOTAL)."""
        key = sheet.name.upper()
        if key not in self._rows:
            cells = next((c for c in getattr(self.package, "sheets", ()) if c.name.upper() == key), None)
            self._rows[key] = rows_of(self.package, cells) if cells is not None else Rows(frozenset(), frozenset())
        return self._rows[key]

    def compile(self, formula: str, row: int, col: int) -> Any:
        if needs_cell(self.registry, formula):
            return compile_formula(self.registry, formula, f"{column_letters(col)}{row}")
        return compile_formula(self.registry, formula)

    def names_for(self, sheet: Sheet) -> dict[str, str]:
        return self.names.get(sheet.name.upper(), self.names[None])

    def _area(self, name: str, ranges: Any, sheet: Sheet) -> tuple[Sheet | None, int, int, int, int] | Any:
        """The sheet and rectangle an input names, or the error value to feed instead."""
        parsed = ranges is not None and ranges is not sh.NONE and getattr(ranges, "ranges", None)
        if parsed and not _sheet_misread(name, ranges.ranges[0]):
            area = ranges.ranges[0]
            target = area_sheet(self.grid, area, sheet)
            return target, max(int(area["r1"]), 1), max(int(area["n1"]), 1), int(area["r2"]), int(area["n2"])
        reference = None if parsed else self.names_for(sheet).get(name.upper())
        if reference is None:
            # a sheet name formulas' tokenizer does not take ('!"'!A1): read it with ours
            sheet_name, _, address = name.rpartition("!")
            text = "'" + sheet_name.strip("'").replace("'", "''") + "'!" + address if sheet_name else address
            try:
                node = parse("=" + text)
            except FormulaSyntaxError:
                return ErrorToken.errors["#NAME?"]
            if not isinstance(node, Ref) or node.name:
                return ErrorToken.errors["#NAME?"]
            target = self.grid.sheet(node.sheet) if node.sheet else sheet
            return target, node.r1, node.c1, node.r2, node.c2
        try:
            area = Ranges().push(reference.replace("$", "")).ranges[0]
        except Exception:  # noqa: BLE001 - a defined name that is no reference
            return ErrorToken.errors["#REF!"]
        target = area_sheet(self.grid, area, sheet)
        return target, max(int(area["r1"]), 1), max(int(area["n1"]), 1), int(area["r2"]), int(area["n2"])

    def read(self, target: Sheet, r1: int, c1: int, r2: int, c2: int, seen_from: Sheet) -> Ranges:
        """The area as a ``formulas`` reference holding its values (computed first where needed)."""
        rows_asked, cols_asked = r2, c2
        r2, c2 = target.used_part(r1, c1, r2, c2)
        cells = (r2 - r1 + 1) * (c2 - c1 + 1)
        if cells > MAX_READ:
            where = f"{target.name}!{column_letters(c1)}{r1}:{column_letters(c2)}{r2}"
            raise Abort(CellFailure(f"reads {where}, {cells:,} cells of its used part: more than the "
                                    f"{MAX_READ:,} cells the engine reads for one formula cell"))
        if self.demand is not None:
            try:
                self.demand(target.name.upper(), r1, c1, r2, c2)
            except Abort:
                raise
            except Exception as exc:  # noqa: BLE001 - carried through formulas' wrappers, re-raised by evaluate
                raise Abort(exc) from None
        values = np.empty((r2 - r1 + 1, c2 - c1 + 1), dtype=object)
        for i, r in enumerate(range(r1, r2 + 1)):
            for j, c in enumerate(range(c1, c2 + 1)):
                v = target.get(r, c)
                if isinstance(v, InCircle):  # read as an error: an IF may yet step out of the loop
                    v = ExcelError("#CIRCULAR!")
                if isinstance(v, NotComputed):
                    where = f"{target.name}!{column_letters(c)}{r}"
                    raise Abort(NotComputed(reason=f"reads {where}, which was not computed ({v.reason})"
                                            if "which was not computed" not in v.reason else v.reason))
                values[i, j] = sh.EMPTY if v is None else from_host(v)
        label = "'" + target.name.replace("'", "''") + "'!" if target is not seen_from else ""
        ref = f"{label}{column_letters(c1)}{r1}:{column_letters(c2)}{r2}"
        result = Area((rows_asked - r1 + 1, cols_asked - c1 + 1)).push(ref, values)
        self._reads.append((r1, c1, r2, c2, rows_asked, cols_asked))
        return result

    def _spilled(self, name: str, sheet: Sheet) -> Any:
        """A spill reference ``A1#`` (``_xlfn.ANCHORARRAY(A1)`` in the file): the whole array the
        formula in A1 fills; #REF! when A1 holds no formula."""
        anchor = name[:-1]
        try:
            node = parse("=" + anchor)
        except FormulaSyntaxError:
            return ErrorToken.errors["#REF!"]
        if not isinstance(node, Ref) or node.name or not node.is_cell:
            return ErrorToken.errors["#REF!"]
        target = self.grid.sheet(node.sheet) if node.sheet else sheet
        if target is None:
            return ErrorToken.errors["#REF!"]
        size = self.spill_size(target.name.upper(), node.r1, node.c1)
        if size is None:
            return ErrorToken.errors["#REF!"]
        return self.read(target, node.r1, node.c1, node.r1 + size[0] - 1, node.c1 + size[1] - 1, sheet)

    def _named_edges(self, formula: str) -> str:
        """``formula`` with each reference naming the last column (XFD) or row (1048576) of the sheet
        given to ``formulas`` under a name of its own, read by :meth:`_input` as the reference:
        ``formulas`` drops those ends from the names of its inputs (A:XFD became "A:", #NAME?;
        A1:A1048576 the one cell A1), so ROWS(A:XFD) and SUM(A1:XFD1) went wrong."""
        if "XFD" not in formula.upper() and str(MAX_ROW) not in formula:
            return formula

        def name(match: re.Match[str]) -> str:
            if match.group(1) or not _SHEET_EDGE.search(match.group(3)):
                return match.group(0)
            text = match.group(0)
            alias = self._edge_names.get(text)
            if alias is None:
                try:
                    node = parse("=" + text)
                except FormulaSyntaxError:
                    return text
                if not isinstance(node, Ref) or node.name:
                    return text
                alias = self._edge_names[text] = f"_XLRATING_EDGE{len(self._edge_names) + 1}"
                self._edges[alias] = node
            return alias

        return _REFERENCE_TEXT.sub(name, formula)

    def _union(self, ranges: Ranges, sheet: Sheet) -> Any:
        """A union of areas ``(A1:A3,C1:C3)``, every area read (``formulas`` names the union as one
        input): a reference of several areas, for LARGE, RANK, INDEX, AREAS and the like."""
        union: Ranges | None = None
        for area in ranges.ranges:
            target = area_sheet(self.grid, area, sheet)
            if target is None:
                return ErrorToken.errors["#REF!"]
            read = self.read(target, max(int(area["r1"]), 1), max(int(area["n1"]), 1), int(area["r2"]),
                             int(area["n2"]), sheet)
            union = read if union is None else union | read
        return union

    def _input(self, name: str, ranges: Any, sheet: Sheet) -> Any:
        edge = self._edges.get(name.upper())
        if edge is not None:
            target = self.grid.sheet(edge.sheet) if edge.sheet else sheet
            if target is None:
                return ErrorToken.errors["#REF!"]
            return self.read(target, edge.r1, edge.c1, edge.r2, edge.c2, sheet)
        if name.endswith("#") and not getattr(ranges, "ranges", None):
            return self._spilled(name, sheet)
        if ranges is not None and ranges is not sh.NONE and len(getattr(ranges, "ranges", None) or ()) > 1:
            return self._union(ranges, sheet)
        text = self.names_for(sheet).get(name.upper())
        if text is not None and is_lambda(text):  # a LAMBDA that calls itself, left a name (.lambdas)
            from .lambdas import named

            return named(name.upper(), text)
        found = self._area(name, ranges, sheet)
        if not isinstance(found, tuple):
            return found
        target, r1, c1, r2, c2 = found
        if target is None:
            return ErrorToken.errors["#REF!"]
        return self.read(target, r1, c1, r2, c2, sheet)

    def evaluate(self, formula: str, sheet: Sheet, row: int, col: int, spill: bool = True,
                 intersect: bool = False, fills: tuple[int, int] | None = None, operands: bool = False) -> Any:
        """The value of ``formula`` in ``sheet`` at (row, col): a host value, a list of rows for an
        array, or :class:`NotComputed` when it reads a cell that was not computed.

        ``intersect``: an ordinary formula cell Excel computes as a legacy formula, with implicit
        intersection (``=@B1:B9``): an array result shaped like an area it read is the value in the
        formula's row (or column), #VALUE! when there is none; any other array its first value
        (``={1,2;3,4}`` shows 1). ``operands``: with ``intersect``, in a workbook a spreadsheet saved,
        an operator's operand given as a range is intersected too (:func:`.legacy_values.operands_intersected`)."""
        key = (sheet.name.upper(), formula)
        prepared = self._prepared.get(key)
        if prepared is None:  # once per distinct text: cell-by-cell groups repeat the same few texts
            names = self.names_for(sheet)
            written = normalise(spread_areas(formula, self.sheet_order))
            if uses_relative_names(written, names):  # a name meaning another cell for each cell: written per cell
                prepared = self._named_edges(expand_names(written, names, at=(row, col)))
            else:
                prepared = self._prepared[key] = self._named_edges(expand_names(written, names))
        formula = prepared
        function = self.compile(formula, row, col)
        legacy = intersect and not takes_arrays(formula)
        token = CURRENT.set(Position(self, sheet, row, col, legacy, legacy and operands))
        self._reads = []
        try:
            inputs = [self._input(name, ranges, sheet) for name, ranges in function.inputs.items()]
            result = function(*inputs)
        except RecursionError:
            raise CellFailure("the formula is nested too deeply to evaluate") from None
        except Exception as exc:  # noqa: BLE001 - formulas raises for a few unimplemented cases
            stop = _abort_in(exc)
            if stop is None and _caused_by(exc, MemoryError):  # never an error value Excel would not show
                raise CellFailure(OUT_OF_MEMORY) from None
            if stop is None:
                return ExcelError("#VALUE!", f"{type(exc).__name__}: {exc}")
            if isinstance(stop.reason, (NotComputed, InCircle)):
                return stop.reason
            if isinstance(stop.reason, ExcelError):  # an error that ends the whole formula (a LAMBDA too deep)
                return ExcelError(stop.reason.code)
            raise stop.reason from None
        finally:
            CURRENT.reset(token)
        if intersect:
            result = self._intersect(result, row, col, first=_numbers_its_area(formula) or _makes_array(formula))
        elif fills is not None:
            result = self._padded(result, fills)
        return result_value(result)

    def _padded(self, result: Any, fills: tuple[int, int]) -> Any:
        """A whole row or column the formula returns (an area read only as far as its sheet is
        used), as large as the area asked for, but no larger than the range the formula fills: the
        cells past the used part are empty. Only a reference is: ``formulas`` hands one over as a
        plain ``ndarray``, a computed array (``=First!1:1&"x"``) as its ``Array`` subclass."""
        if isinstance(result, Ranges):
            result = result.value
        if type(result) is not np.ndarray or not result.size:
            return result
        values = np.atleast_2d(result)
        for r1, c1, r2, c2, asked_r2, asked_c2 in self._reads:
            if values.shape != (r2 - r1 + 1, c2 - c1 + 1):
                continue
            height = max(values.shape[0], min(asked_r2 - r1 + 1, fills[0]))
            width = max(values.shape[1], min(asked_c2 - c1 + 1, fills[1]))
            if (height, width) == values.shape:
                return result
            padded = np.full((height, width), None, dtype=object)
            padded[:values.shape[0], :values.shape[1]] = values
            return padded
        return result

    def _intersect(self, result: Any, row: int, col: int, first: bool = False) -> Any:
        """Excel's implicit intersection of an area-shaped result with the formula's row and column
        (with ``first``, of no area: the result's first value)."""
        if isinstance(result, np.ndarray) and result.size == 1 and isinstance(result.ravel()[0], Ranges):
            result = result.ravel()[0]  # a reference returned by INDEX, OFFSET ...
        if isinstance(result, Ranges):
            result = result.value
        if not isinstance(result, np.ndarray) or result.size <= 1:
            return result
        values = np.atleast_2d(result)
        if first:
            return values[0, 0]
        for r1, c1, r2, c2, asked_r2, asked_c2 in self._reads:
            if values.shape != (r2 - r1 + 1, c2 - c1 + 1):
                continue
            if c1 == asked_c2 and r1 <= row <= asked_r2:
                return values[row - r1, 0] if row <= r2 else sh.EMPTY
            if r1 == asked_r2 and c1 <= col <= asked_c2:
                return values[0, col - c1] if col <= c2 else sh.EMPTY
            return ErrorToken.errors["#VALUE!"]
        return values[0, 0]


@functools.lru_cache(maxsize=1024)
def _numbers_its_area(formula: str) -> bool:
    """Whether ``formula`` is ROW(...) or COLUMN(...) of an area: its numbers are no values of the
    area, so a legacy cell shows the first of them, not the one in its own row ("If reference is a
    range of cells, and if ROW is not entered as an array, ROW returns the row of the topmost
    row", Microsoft's ROW page; a workbook Excel saved has ROW(INDIRECT("D:D")) as 1 in row 14)."""
    try:
        tree = parse(formula)
    except FormulaSyntaxError:
        return False
    return isinstance(tree, Call) and tree.name.upper().removeprefix("_XLFN.") in ("ROW", "COLUMN")


@functools.lru_cache(maxsize=1024)
def _makes_array(formula: str) -> bool:
    """Whether ``formula`` calls a function returning an array (SEQUENCE, TRANSPOSE, MMULT ...): as a
    legacy formula (a workbook Excel saved, no array formula) it shows the array's first value,
    whatever areas it read ("=@SEQUENCE(3)" is 1)."""
    try:
        tree = parse(formula)
    except FormulaSyntaxError:
        return False
    return any(isinstance(node, Call) and builtin_name(node.name) in ARRAY_FUNCTIONS for node in walk(tree))


def _abort_in(exc: BaseException | None) -> Abort | None:
    """The :class:`Abort` behind an exception (schedula wraps what a function raises)."""
    seen = 0
    while exc is not None and seen < 16:
        if isinstance(exc, Abort):
            return exc
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def _caused_by(exc: BaseException | None, kind: type[BaseException]) -> bool:
    """Whether ``exc`` or an exception behind it (schedula wraps what a function raises) is a ``kind``."""
    seen = 0
    while exc is not None and seen < 16:
        if isinstance(exc, kind):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


OUT_OF_MEMORY = ("ran out of memory computing it: its arrays are within the engine's caps, but this computer "
                 "gave less memory than they take")


def result_value(result: Any) -> Any:
    """A formula's result as a cell's value; an array of several values as a 2-D object array, whose
    values :func:`cell_value` makes cell values as it spills (after its size is checked)."""
    if isinstance(result, Ranges):
        result = result.value
    if isinstance(result, np.ndarray) and result.size == 1 and isinstance(result.ravel()[0], list):
        result = result.ravel()[0]
    if isinstance(result, list):  # a function answering a Python list: its values down a column, never its text
        rows = [row if isinstance(row, list) else [row] for row in result] or [[None]]
        result = np.full((len(rows), max(len(row) for row in rows)), ExcelError("#N/A"), dtype=object)
        for i, row in enumerate(rows):
            result[i, :len(row)] = row
    if isinstance(result, np.ndarray):
        if result.size == 1:
            return _scalar(result.ravel()[0])
        grid = np.atleast_2d(result)
        if grid.ndim > 2:
            return ExcelError("#VALUE!")
        return grid
    return _scalar(result)


def _scalar(value: Any) -> Any:
    if isinstance(value, Lambda):
        return ExcelError("#CALC!")  # a LAMBDA not called: Excel's error for a function as a cell's value
    if isinstance(value, Ranges):  # a reference inside an array (INDEX over several rows)
        value = np.asarray(value.value, dtype=object).ravel()[0] if np.size(value.value) else None
    value = to_host(value)
    if value is None:
        return 0.0  # a formula showing an empty cell shows 0
    if isinstance(value, ExcelError):
        return ExcelError(value.code)
    if isinstance(value, float) and not math.isfinite(value):
        return ExcelError("#NUM!")  # Excel has no infinity or NaN
    if isinstance(value, str) and len(value) > MAX_TEXT:
        return ExcelError("#VALUE!")  # a text longer than a cell holds (REPT("x", 1E+7))
    return value


cell_value = _scalar  # one value of an array result as a cell's value

MAX_TEXT = 32_767  # characters in one cell, Excel's limit
# the cells one area read cell by cell may hold (a whole sheet used down to row 1048576 and across to
# XFD would be 17 billion): the formula is left not computed beyond it, with a warning
MAX_READ = 20_000_000
