"""Excel built-ins the vectorised path computes itself, without loading ``formulas``.

A small workbook of everyday formulas (dates, MOD, a VLOOKUP, a COUNTIF, a SUMPRODUCT) would
otherwise load ``formulas``' function library, about 50 ms, more than the rest of the evaluation.
Here are the same functions on the cases whose result is certain, written against the engine's
own values (:class:`.vector.Vec`, the grid's cells):

- DATE, YEAR, MONTH, DAY, MOD, INT of numbers (:data:`NUMERIC`), one call per distinct row.
- VLOOKUP, HLOOKUP and MATCH with an exact match, or an approximate one over ascending numbers;
  COUNTIF with a number, a text or a comparison with one; SUMPRODUCT of fixed ranges
  (:func:`fixed_range`), each over a range that is the same for every row, read once.

Whatever falls outside (a key with wildcards, TRUE/FALSE, an empty key, a text criterion that may
read as a date, a result that is an empty cell ...) is handed, for those rows only, to the memoised
path through the engine's function library (:func:`.vector_compile._memoised`), so the results are
the cell-by-cell path's in every case: tests/engine/evaluate/test_engine_vector_lookup.py compares the two.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from xlrating.excel_errors import ExcelError

from ..formula.tree import Const, Node, Ref
from ..maths import plain_numbers
from ..read.date_system import offset
from ..read.grid import MAX_COL, MAX_ROW, InCircle, NotComputed, error_index
from .vector import NUM, VALUE, Context, Program, Unsupported, Vec, _resolve_sheet

Result = tuple[float, int]  # (number, error index); error index 0: the number is the result


# --- numbers, one row at a time -------------------------------------------------------------------

def _checked(function: Callable[..., float | str]) -> Callable[..., Result]:
    def checked(*args: float) -> Result:
        found = function(*args)
        if isinstance(found, str):
            return 0.0, error_index(found)
        return (found, 0) if math.isfinite(found) else (0.0, NUM)
    return checked


def _part(index: int) -> Callable[[float], Result]:
    def part(serial: float) -> Result:
        days = offset()  # the workbook's date system (:mod:`.date_system`)
        found = plain_numbers.date_parts(serial + days if serial >= 0 else serial)
        return (0.0, NUM) if found is None else (float(found[index]), 0)
    return part


def _date(year: float, month: float, day: float) -> float | str:
    found = plain_numbers.date(year, month, day)
    days = offset()
    if days and not isinstance(found, str):
        return found - days if found >= days else "#NUM!"
    return found


_BEFORE_MONTH = np.array(plain_numbers.DAYS_BEFORE_MONTH, dtype=np.float64)


def dates(year: np.ndarray, month: np.ndarray, day: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """DATE of many rows at once (numbers and error indexes), each row what :func:`_date` gives
    it, in the date system of the workbook being computed. In doubles: below 2**52 every step is
    exact, and a row with an argument beyond is #NUM! whichever way it is counted (the caller
    gives the rows with an argument that is not finite to the row-by-row path)."""
    with np.errstate(all="ignore"):
        y, m, d = np.floor(year), np.floor(month), np.floor(day)
        bad = ~((y >= 0) & (y < 10000))
        y = np.where(y < 1900, y + 1900, y)
        y, m = y + np.floor_divide(m - 1, 12), np.mod(m - 1, 12) + 1
        bad |= ~((y > 0) & (y <= 10000))
        y = np.where(bad, 1900, y)
        m = np.where(bad, 1, m)
        before = y - 1
        leap = (np.mod(y, 4) == 0) & ((np.mod(y, 100) != 0) | (np.mod(y, 400) == 0))
        first = (365 * before + np.floor_divide(before, 4) - np.floor_divide(before, 100) + np.floor_divide(before, 400)
                 + _BEFORE_MONTH[m.astype(np.int64) - 1] + (leap & (m > 2)) + 1)
        serial = first - plain_numbers.SERIAL_ZERO + (first >= plain_numbers.MARCH_1900) + d - 1
        bad |= ~((serial >= 0) & (serial <= plain_numbers.LAST_SERIAL))
        days = offset()
        if days:
            bad |= serial < days
            serial = serial - days
    err = np.where(bad, np.int8(NUM), np.int8(0)).astype(np.int8)
    return np.where(bad, 0.0, serial), err


# Excel name -> its implementation on plain numbers (text, TRUE/FALSE and empty cells go cell by cell)
NUMERIC: dict[str, Callable[..., Result]] = {
    "DATE": _checked(_date), "MOD": _checked(plain_numbers.mod), "INT": _checked(plain_numbers.integer),
    "YEAR": _part(0), "MONTH": _part(1), "DAY": _part(2)}


# Excel name -> the same computed for many rows at once (numbers and error indexes)
COLUMNS: dict[str, Callable[..., tuple[np.ndarray, np.ndarray]]] = {"DATE": dates}


# --- over a fixed range -------------------------------------------------------------------------

Cell = tuple[float, int, str | None] | None  # (number, error index, text), or None: delegate the row


def _keys(ctx: Context, v: Vec) -> list[tuple[str, Any]]:
    """Each row's value as a key: ("n", number), ("t", text), ("e", error index), or ("?", None)
    for an empty cell or TRUE/FALSE (delegated)."""
    if v.is_bool:
        return [("?", None)] * ctx.n
    keys: list[tuple[str, Any]] = [("n", x) for x in v.num.tolist()]
    if v.text is not None:
        for i, text in enumerate(v.text.tolist()):
            if text is not None:
                keys[i] = ("t", text)
    if v.empty is not None:
        for i in np.flatnonzero(v.empty).tolist():
            keys[i] = ("?", None)
    if v.err is not None:
        for i in np.flatnonzero(v.err).tolist():
            keys[i] = ("e", int(v.err[i]))
    return keys


def _area(ref: Ref) -> bool:
    """A range, not a defined name."""
    return not ref.name


def _placed(ctx: Context, ref: Ref) -> Ref:
    """``ref`` where the row being computed reads it: a range moving with the row only for one row
    (a block of one cell, or cells ordered one by one); a moving window over many rows is not a
    fixed range (:class:`Unsupported`: cell by cell, as for the memoised path)."""
    if not ref.rel_r1 and not ref.rel_r2:
        return ref
    if ctx.n > 1:
        raise Unsupported("a range moving with the row")
    shift = int(ctx.shift[0])
    r1, r2 = ref.r1 + (shift if ref.rel_r1 else 0), ref.r2 + (shift if ref.rel_r2 else 0)
    if r1 < 1:
        raise Unsupported("a reference above the first row")
    return Ref(ref.sheet, r1, ref.c1, r2, ref.c2)


class _Table:
    """A range's values (rows of float, str, bool, ExcelError or None), read as the cell-by-cell
    path reads it (whole columns and rows clipped to the sheet's used area); ``ready`` is False when
    a cell of it was not computed (the memoised path then reads it, computing or reporting it)."""

    def __init__(self, ctx: Context, ref: Ref):
        ref = _placed(ctx, ref)
        sheet = _resolve_sheet(ctx, ref.sheet)
        if sheet is None:
            raise Unsupported("reference to a missing sheet")
        self.whole = ref.r2 >= MAX_ROW or ref.c2 >= MAX_COL
        self.rows = sheet.block(ref.r1, ref.c1, *sheet.used_part(ref.r1, ref.c1, ref.r2, ref.c2))
        self.ready = not any(isinstance(v, (NotComputed, InCircle)) for row in self.rows for v in row)

    def flat(self) -> list[Any]:
        return [v for row in self.rows for v in row]


def _cell(value: Any) -> Cell:
    """A found cell as a result: a number, a text or an error; None (delegated) for an empty cell or
    TRUE/FALSE, which the vectorised values do not carry per row."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, float):
        return value, 0, None
    if isinstance(value, ExcelError):
        return 0.0, error_index(value.code), None
    return 0.0, 0, value


def _wild(text: str) -> bool:
    return "*" in text or "?" in text or "~" in text


class _Column:
    """The lookup column of a table: where each number and each text (lower case, as the lookups
    compare) first is; whether its numbers ascend strictly with nothing but empty cells after them
    (an approximate match is then certain)."""

    def __init__(self, values: list[Any]):
        self.first: dict[tuple[str, Any], int] = {}
        numbers: list[float] = []
        positions: list[int] = []
        tail = True  # only numbers so far, then only empty cells
        for i, value in enumerate(values):
            if isinstance(value, float):
                self.first.setdefault(("n", value), i)
                tail = tail and (not numbers or value > numbers[-1]) and len(positions) == i
                numbers.append(value)
                positions.append(i)
            elif isinstance(value, str):
                self.first.setdefault(("t", value.lower()), i)
                tail = False
            elif value is not None:
                tail = False
        self.ascending = tail and bool(numbers)
        self.numbers = numbers
        self.positions = positions

    def find(self, key: tuple[str, Any], exact: bool) -> int | None | bool:
        """The position of ``key``; None when it is not there (#N/A); False when unsure (delegate)."""
        kind, value = key
        if exact:
            if kind == "t":
                return False if _wild(value) else self.first.get(("t", value.lower()))
            return self.first.get(key)
        if kind != "n" or not self.ascending:
            return False
        at = int(np.searchsorted(self.numbers, value, side="right")) - 1
        return None if at < 0 else self.positions[at]


def _mode(args: tuple[Node, ...], at: int, default: bool) -> bool | None:
    """An exact (True) or approximate (False) match argument, if a plain constant; None otherwise."""
    if len(args) <= at:
        return default
    arg = args[at]
    if not isinstance(arg, Const) or arg.value is None or isinstance(arg.value, (str, ExcelError)):
        return None
    value = float(arg.value)
    return True if value == 0 else False if value == 1 else None


def _lookup(name: str, args: tuple[Node, ...], compile_node: Callable[[Node], Program]) -> Callable[..., Any]:
    """VLOOKUP, HLOOKUP, MATCH: (key program, table reference, per-table finder) or Unsupported."""
    if name == "MATCH":
        if len(args) not in (2, 3) or not isinstance(args[1], Ref) or not _area(args[1]):
            raise Unsupported("MATCH arguments")
        ref = args[1]
        if ref.r1 != ref.r2 and ref.c1 != ref.c2:
            raise Unsupported("MATCH over several rows and columns")
        exact = _mode(args, 2, False)
        answer = None
    else:
        if len(args) not in (3, 4) or not isinstance(args[1], Ref) or not _area(args[1]):
            raise Unsupported(f"{name} arguments")
        ref = args[1]
        index = args[2]
        if not isinstance(index, Const) or isinstance(index.value, (str, bool, ExcelError)) or index.value is None:
            raise Unsupported(f"{name} with a computed index")
        answer = float(index.value)
        across = (ref.c1, ref.c2, MAX_COL) if name == "VLOOKUP" else (ref.r1, ref.r2, MAX_ROW)
        if not answer.is_integer() or not 1 <= answer <= across[1] - across[0] + 1 or across[1] >= across[2]:
            raise Unsupported(f"{name} index outside the table")
        exact = _mode(args, 3, False)
    if exact is None:
        raise Unsupported(f"{name} match type")
    key = compile_node(args[0])

    def rows(ctx: Context) -> tuple[list[Cell], bool]:
        table = _Table(ctx, ref)
        if not table.ready:
            return [], False
        if name == "MATCH":
            column = _Column(table.flat())
        elif name == "VLOOKUP":
            column = _Column([row[0] if row else None for row in table.rows])
        else:
            column = _Column(table.rows[0] if table.rows else [])
        results: list[Cell] = []
        memo: dict[tuple[str, Any], Cell] = {}
        for found in _keys(ctx, key(ctx)):
            if found in memo:
                results.append(memo[found])
                continue
            kind, value = found
            if kind == "e":
                result: Cell = (0.0, value, None)
            elif kind == "?":
                result = None
            else:
                at = column.find(found, bool(exact))
                if at is False:
                    result = None
                elif at is None:
                    result = (0.0, error_index("#N/A"), None)
                elif name == "MATCH":
                    result = (float(at) + 1.0, 0, None)
                elif name == "VLOOKUP":
                    result = _cell(table.rows[int(at)][int(answer) - 1])  # type: ignore[arg-type]
                else:
                    result = _cell(table.rows[int(answer) - 1][int(at)])  # type: ignore[arg-type]
            memo[found] = result
            results.append(result)
        return results, True
    return rows


_ORDER: dict[str, Callable[[Any, Any], Any]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_OPERATORS = ("<=", ">=", "<>", "<", ">", "=")


def _criterion(found: tuple[str, Any]) -> tuple[str, str, Any] | None:
    """(operator, "n" or "t", operand) of a COUNTIF criterion; None when it needs the full reading
    (TRUE/FALSE, errors, dates written as text, wildcards, the empty criterion)."""
    kind, value = found
    if kind == "n":
        return "=", "n", value
    if kind != "t":
        return None
    op = "="
    for candidate in _OPERATORS:
        if value.startswith(candidate):
            op, value = candidate, value[len(candidate):]
            break
    if value == "" or value.upper() in ("TRUE", "FALSE") or value.startswith("#"):
        return None
    try:
        number = float(value)  # as the criteria read an operand ("inf" and "1e999" stay text)
    except ValueError:
        if any(c.isdigit() for c in value):  # may be a date ("1/2/2024")
            return None
        number = math.nan
    if math.isfinite(number):
        return op, "n", number
    if op in ("=", "<>") and _wild(value):
        return None
    return op, "t", value.casefold()


class _Counted:
    """A COUNTIF range: its numbers, its texts (case-folded) and whether a text might read as a number."""

    def __init__(self, table: _Table):
        values = table.flat()
        self.size = len(values)
        self.whole = table.whole
        self.numbers = np.array([v for v in values if isinstance(v, float)], dtype=float)
        self.texts = [v.casefold() for v in values if isinstance(v, str)]
        self.numeric_text = any(any(c.isdigit() for c in v) for v in self.texts)

    def count(self, test: tuple[str, str, Any]) -> float | None:
        op, kind, operand = test
        if op == "<>" and self.whole:  # Excel counts the empty cells past the used area: cell by cell
            return None
        if kind == "n":
            if op == "=" and self.numeric_text:  # a text reading as the number matches too
                return None
            if op in ("=", "<>"):
                equal = int(np.count_nonzero(self.numbers == operand))
                return float(equal if op == "=" else self.size - equal)
            return float(np.count_nonzero(_ORDER[op](self.numbers, operand)))
        if op in ("=", "<>"):
            equal = sum(1 for t in self.texts if t == operand)
            return float(equal if op == "=" else self.size - equal)
        compare = _ORDER[op]
        return float(sum(1 for t in self.texts if compare(t, operand)))


def _countif(args: tuple[Node, ...], compile_node: Callable[[Node], Program]) -> Callable[..., Any]:
    if len(args) != 2 or not isinstance(args[0], Ref) or not _area(args[0]):
        raise Unsupported("COUNTIF arguments")
    ref = args[0]
    criteria = compile_node(args[1])

    def rows(ctx: Context) -> tuple[list[Cell], bool]:
        table = _Table(ctx, ref)
        if not table.ready:
            return [], False
        counted = _Counted(table)
        memo: dict[tuple[str, Any], Cell] = {}
        results: list[Cell] = []
        for found in _keys(ctx, criteria(ctx)):
            if found not in memo:
                test = _criterion(found)
                count = None if test is None else counted.count(test)
                memo[found] = None if count is None else (count, 0, None)
            results.append(memo[found])
        return results, True
    return rows


def _sumproduct(args: tuple[Node, ...]) -> Callable[..., Any]:
    if not args or not all(isinstance(a, Ref) and _area(a) and a.r2 < MAX_ROW and a.c2 < MAX_COL for a in args):
        raise Unsupported("SUMPRODUCT of computed arrays or whole columns")
    refs: list[Ref] = list(args)  # type: ignore[arg-type]

    def rows(ctx: Context) -> tuple[list[Cell], bool]:
        tables = [_Table(ctx, ref) for ref in refs]
        if not all(t.ready for t in tables):
            return [], False
        values = [t.flat() for t in tables]
        error = next((v for flat in values for v in flat if isinstance(v, ExcelError)), None)
        if error is not None:  # the first error, in argument order, even before a shape mismatch
            result: Cell = (0.0, error_index(error.code), None)
        elif len({(len(t.rows), len(t.rows[0]) if t.rows else 0) for t in tables}) > 1:
            result = (0.0, VALUE, None)
        elif len(values[0]) == 1 and any(isinstance(flat[0], str) for flat in values):
            result = (0.0, VALUE, None)  # single cells: a text is no number to multiply (builtins' SUMPRODUCT)
        else:
            total = np.ones(len(values[0]))
            for flat in values:
                total *= np.array([v if isinstance(v, float) else 0.0 for v in flat])
            result = (float(total.sum()), 0, None)
        return [result] * ctx.n, True
    return rows


def fixed_range(name: str, args: tuple[Node, ...], compile_node: Callable[[Node], Program],
                delegate: Callable[[], Program]) -> Program:
    """The program of VLOOKUP, HLOOKUP, MATCH, COUNTIF or SUMPRODUCT over a fixed range; the rows it
    is not sure of go to ``delegate()`` (the memoised path, made on first need). Raises
    :class:`Unsupported` for arguments outside its cases (the caller then uses the memoised path)."""
    if name in ("VLOOKUP", "HLOOKUP", "MATCH"):
        compute = _lookup(name, args, compile_node)
    elif name == "COUNTIF":
        compute = _countif(args, compile_node)
    elif name == "SUMPRODUCT":
        compute = _sumproduct(args)
    else:
        raise Unsupported(f"function {name}")
    made: list[Program] = []

    def run(ctx: Context) -> Vec:
        results, ready = compute(ctx)
        todo = ~ctx.defer if not ready else np.array([r is None for r in results], dtype=bool) & ~ctx.defer
        num = np.zeros(ctx.n)
        err = np.zeros(ctx.n, dtype=np.int8)
        text: np.ndarray | None = None
        if ready:
            for row, result in enumerate(results):
                if result is None:
                    continue
                num[row], err[row], value = result
                if value is not None:
                    if text is None:
                        text = np.full(ctx.n, None, dtype=object)
                    text[row] = value
        if todo.any():
            if not made:
                try:
                    made.append(delegate())
                except Unsupported:
                    made.append(_deferred)
            rows = np.flatnonzero(todo)
            sub = ctx.subset(rows)
            got = made[0](sub)
            ctx.defer[rows[sub.defer]] = True
            num[rows] = got.num
            if got.err is not None:
                err[rows] = got.err
            if got.text is not None:
                if text is None:
                    text = np.full(ctx.n, None, dtype=object)
                text[rows] = got.text
        return Vec(num, err if err.any() else None, text=text)
    return run


def _deferred(ctx: Context) -> Vec:
    ctx.defer[:] = True
    return Vec(np.zeros(ctx.n))
