"""Functions that need the workbook, not only their arguments: references known only when computed
(OFFSET, INDIRECT) and what Excel tells about cells and sheets (CELL, INFO, SHEET, SHEETS,
FORMULATEXT, ISFORMULA, ADDRESS).

They run inside :meth:`xlrating.engine.evaluate.fallback.Fallback.evaluate`, which sets
:data:`~.position.CURRENT` to the cell being computed. A reference they compute is read through
:meth:`~.fallback.Fallback.read`: formula cells there are computed first (on demand), so a cell
reading ``OFFSET(A1, B1, 0)`` gets the value Excel shows even though which cell it reads is only
known once ``B1`` is. Behaviour follows Microsoft's function reference pages (OFFSET, INDIRECT,
CELL, INFO, SHEET, SHEETS, FORMULATEXT, ISFORMULA, ADDRESS).

What only the Excel application knows (INFO's "osversion" or "directory") is never made up: the
cell is left :class:`~.grid.NotComputed`, with a warning. CELL's "format", "width", "color" ... are
read from the workbook's styles and column widths (:mod:`.cell_info`).
"""

from __future__ import annotations

import collections
import math
import os
import re
from typing import Any

import numpy as np
import schedula as sh
from formulas.functions import COMPILING, wrap_func, wrap_impure_func, wrap_ufunc
from formulas.ranges import Ranges
from formulas.tokens.operand import Error, XlError

from ..formula.reader import parse
from ..formula.tree import FormulaSyntaxError, Ref, column_letters
from ..formula.values import is_omitted
from ..read.cell_formats import cell_formats
from ..read.grid import MAX_COL, MAX_ROW, NotComputed, Sheet
from .legacy_values import FUNCTIONS as IS_FUNCTIONS
from .pivot_data import getpivotdata
from .position import CURRENT, Abort, Position, area_sheet


class _Failed(Exception):
    def __init__(self, error: str):
        self.error = error


def _error(code: str) -> Any:
    return Error.errors[code]


def _value(arg: Any) -> Any:
    """A scalar argument as a plain value (the top-left of a range or array); errors raise."""
    if isinstance(arg, Ranges):
        arg = arg.value
    if isinstance(arg, np.ndarray):
        arg = arg.ravel()[0] if arg.size else sh.EMPTY
    if isinstance(arg, XlError):
        raise _Failed(str(arg))
    return arg


def _number(arg: Any, default: float | None = None) -> float:
    value = _value(arg)
    if value is sh.EMPTY or value is None:
        if default is None:
            return 0.0
        return default
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value)
    try:
        return float(str(value).strip())
    except ValueError:
        raise _Failed("#VALUE!") from None


def _area(reference: Ranges, position: Position) -> tuple[Sheet, int, int, int, int]:
    """The sheet and rectangle of a ``formulas`` reference (its first area)."""
    area = reference.ranges[0]
    sheet = area_sheet(position.fallback.grid, area, position.sheet)
    if sheet is None:
        raise _Failed("#REF!")
    r1, r2 = max(int(area["r1"]), 1), int(area["r2"])
    c1, c2 = max(int(area["n1"]), 1), int(area["n2"])
    return sheet, r1, c1, r2 or MAX_ROW, c2 or MAX_COL


def _read(position: Position, sheet: Sheet, r1: int, c1: int, r2: int, c2: int) -> Ranges:
    if not (1 <= r1 <= r2 <= MAX_ROW and 1 <= c1 <= c2 <= MAX_COL):
        raise _Failed("#REF!")
    return position.fallback.read(sheet, r1, c1, r2, c2, position.sheet)


def _guarded(function: Any) -> Any:
    """Excel's error for bad arguments (:class:`_Failed`) as the function's result."""
    def evaluate(*args: Any) -> Any:
        try:
            return function(CURRENT.get(), *args)
        except _Failed as failed:
            return _error(failed.error)

    evaluate.__name__ = function.__name__
    return evaluate


# --- OFFSET and INDIRECT ------------------------------------------------------------------------

def _single(position: Position, arg: Any) -> Any:
    """A number argument given as a range: in a legacy formula the cell of the range in the formula's
    row (a column of cells) or column (a row of cells), #VALUE! when there is none; in a dynamic-array
    formula a range of several cells is #VALUE! (a function returning a reference takes no arrays)."""
    if not isinstance(arg, Ranges) or not arg.ranges:
        if isinstance(arg, np.ndarray) and arg.size > 1:
            raise _Failed("#VALUE!")
        return arg
    sheet, r1, c1, r2, c2 = _area(arg, position)
    if len(arg.ranges) > 1 or (r1, c1) != (r2, c2) and not position.intersect:
        raise _Failed("#VALUE!")
    if (r1, c1) == (r2, c2):
        return arg
    if c1 == c2 and r1 <= position.row <= r2:
        return _read(position, sheet, position.row, c1, position.row, c1)
    if r1 == r2 and c1 <= position.col <= c2:
        return _read(position, sheet, r1, position.col, r1, position.col)
    raise _Failed("#VALUE!")


def _size(number: float) -> int:
    """A height or width as OFFSET reads it: truncated, but a fraction of a cell is one cell
    (IronCalc's ROW_COLUM book, saved by Excel: width 0.9 is 1, 3.99 is 3, 0 is #REF!)."""
    whole = int(number)
    return whole if whole or number == 0 else (1 if number > 0 else -1)


def offset(position: Position, reference: Any, rows: Any, cols: Any, height: Any = None, width: Any = None) -> Any:
    """OFFSET(reference, rows, cols, [height], [width]): the area ``rows`` below and ``cols`` right of
    ``reference``, of its size unless given (or left out between commas: ``OFFSET(A1:B2,0,0,,1)``
    is A1:A2, as Excel computes it); off the sheet or a size of 0 is #REF!. A reference of
    several areas (a union) is #VALUE!, as Microsoft's OFFSET page says. A number given as a range is
    read as a legacy formula reads it (:func:`_single`)."""
    if not isinstance(reference, Ranges) or len(reference.ranges) != 1:
        return _error("#VALUE!")
    sheet, r1, c1, r2, c2 = _area(reference, position)
    down, right = int(_number(_single(position, rows))), int(_number(_single(position, cols)))
    tall = _size(_number(_single(position, height))) if not is_omitted(height) else r2 - r1 + 1
    wide = _size(_number(_single(position, width))) if not is_omitted(width) else c2 - c1 + 1
    if tall == 0 or wide == 0:
        raise _Failed("#REF!")
    top, left = r1 + down, c1 + right
    # a negative height or width extends up or left from the moved corner (Excel 365)
    top, bottom = (top, top + tall - 1) if tall > 0 else (top + tall + 1, top)
    left, right_end = (left, left + wide - 1) if wide > 0 else (left + wide + 1, left)
    return _read(position, sheet, top, left, bottom, right_end)


_R1C1 = re.compile(r"^R(\[-?\d+\]|\d+)?C(\[-?\d+\]|\d+)?(?::R(\[-?\d+\]|\d+)?C(\[-?\d+\]|\d+)?)?$", re.IGNORECASE)


def _r1c1_part(text: str | None, here: int) -> int:
    if not text:
        return here
    if text.startswith("["):
        return here + int(text[1:-1])
    return int(text)


def _split_sheet(text: str) -> tuple[str | None, str]:
    if "!" not in text:
        return None, text
    sheet, _, address = text.rpartition("!")
    if sheet.startswith("'") and sheet.endswith("'"):
        sheet = sheet[1:-1].replace("''", "'")
    return sheet, address


# Zeros leading a row number of an A1 address: after a column's letters (or its $) or at the start
# of a whole-row part ("05:05"), before another digit
_ZERO_LED = re.compile(r"(?:(?<=[A-Za-z$])|(?<=^)|(?<=:))0+(?=\d)")


def indirect(position: Position, text: Any, a1: Any = None) -> Any:
    """INDIRECT(ref_text, [a1]): the reference a text names, in A1 style or (``a1`` FALSE) R1C1 style,
    relative to the formula's cell; a defined name of a reference works too. Anything else is #REF!."""
    ref_text = _value(text)
    if not isinstance(ref_text, str) or not ref_text.strip():
        raise _Failed("#REF!")
    ref_text = ref_text.strip()
    a1_style = True if a1 is None or _value(a1) is sh.EMPTY else bool(_number(a1))
    if not a1_style:
        sheet_name, address = _split_sheet(ref_text)
        match = _R1C1.match(address)
        if match is None:
            raise _Failed("#REF!")
        r1 = _r1c1_part(match.group(1), position.row)
        c1 = _r1c1_part(match.group(2), position.col)
        r2 = _r1c1_part(match.group(3), position.row) if match.group(3) or match.group(4) else r1
        c2 = _r1c1_part(match.group(4), position.col) if match.group(3) or match.group(4) else c1
        if match.group(1) is None and match.group(3) is None:
            r1, r2 = 1, MAX_ROW  # C2: a whole column
        sheet = position.fallback.grid.sheet(sheet_name) if sheet_name else position.sheet
        if sheet is None:
            raise _Failed("#REF!")
        return _read(position, sheet, min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2))
    names = position.fallback.names_for(position.sheet)
    target = names.get(ref_text.upper())
    if target is not None:
        ref_text = target.lstrip("=")
    sheet_name, address = _split_sheet(ref_text)
    if _ZERO_LED.search(address):  # "A01", "05:05": the row numbers Excel reads (a workbook it saved)
        ref_text = ref_text[:len(ref_text) - len(address)] + _ZERO_LED.sub("", address)
    try:
        node = parse("=" + ref_text)
    except FormulaSyntaxError:
        raise _Failed("#REF!") from None
    if not isinstance(node, Ref) or node.name:
        raise _Failed("#REF!")
    sheet = position.fallback.grid.sheet(node.sheet) if node.sheet else position.sheet
    if sheet is None:
        raise _Failed("#REF!")
    return _read(position, sheet, node.r1, node.c1, node.r2, node.c2)


# --- cells and sheets ----------------------------------------------------------------------------

def _excel_text(formula: str) -> str:
    """A formula as Excel shows it: without the file format's ``_xlfn.``/``_xlws.``/``_xlpm.`` marks."""
    return re.sub(r"_xl(?:fn|ws|pm)\.", "", formula, flags=re.IGNORECASE)


def _cell_of(position: Position, reference: Any) -> tuple[Sheet, int, int]:
    if reference is None:
        return position.sheet, position.row, position.col
    if not isinstance(reference, Ranges) or not reference.ranges:
        raise _Failed("#VALUE!")
    sheet, r1, c1, _, _ = _area(reference, position)
    return sheet, r1, c1


def formulatext(position: Position, reference: Any) -> Any:
    """FORMULATEXT(reference): the formula of the top-left cell as Excel shows it; #N/A if none."""
    sheet, row, col = _cell_of(position, reference)
    text = position.fallback.formula_text(sheet.name.upper(), row, col)
    return _error("#N/A") if text is None else _excel_text(text)


def isformula(position: Position, reference: Any) -> Any:
    """ISFORMULA(reference): whether the top-left cell holds a formula."""
    sheet, row, col = _cell_of(position, reference)
    return position.fallback.formula_text(sheet.name.upper(), row, col) is not None


def _sheet_names(position: Position) -> list[str]:
    package = position.fallback.package
    names = list(package.every_sheet) if package is not None and package.every_sheet else []
    return names or [s.name for s in position.fallback.grid.order]


def sheet(position: Position, value: Any = None) -> Any:
    """SHEET([value]): the number of a sheet (of a reference, or named by a text), this one if omitted."""
    names = [n.upper() for n in _sheet_names(position)]
    if value is None:
        wanted = position.sheet.name.upper()
    elif isinstance(value, Ranges) and value.ranges:
        wanted = _area(value, position)[0].name.upper()
    else:
        text = _value(value)
        if not isinstance(text, str):
            raise _Failed("#N/A")
        wanted = text.upper()
    if wanted not in names:
        raise _Failed("#N/A")
    return float(names.index(wanted) + 1)


def sheets(position: Position, reference: Any = None) -> Any:
    """SHEETS([reference]): the sheets a reference spans (1 for one sheet); every sheet if omitted."""
    if reference is None:
        return float(len(_sheet_names(position)))
    if not isinstance(reference, Ranges):
        raise _Failed("#VALUE!")
    return 1.0


def _plain_sheet(name: str) -> bool:
    plain = re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", name) is not None
    looks_like_cell = re.fullmatch(r"[A-Za-z]{1,3}\d+|R\d*C\d*", name, re.IGNORECASE) is not None
    return plain and not looks_like_cell


def _address_sheet(name: str) -> str:
    """A sheet name as Excel writes it before ``!``: quoted when it is not a plain word. A sheet of
    another workbook, the workbook in brackets first (``[Book1]Sheet1``), is quoted only when the
    workbook's or the sheet's name needs it (POI's FormulaEvalTestData, saved by Excel:
    ADDRESS(2,3,3,TRUE,"[Book1]Sheet1") is [Book1]Sheet1!$C2)."""
    book = re.fullmatch(r"\[([^\[\]']+)\](.+)", name)
    if book is not None:
        plain = re.fullmatch(r"[A-Za-z0-9_.]+", book.group(1)) is not None and _plain_sheet(book.group(2))
    else:
        plain = _plain_sheet(name)
    return name if plain else "'" + name.replace("'", "''") + "'"


def address(row: Any, col: Any, abs_num: Any = 1, a1: Any = True, sheet_text: Any = None) -> Any:
    """ADDRESS(row, column, [abs_num], [a1], [sheet_text]) as Excel writes it."""
    try:
        r, c = int(_number(row)), int(_number(col))
        kind = int(_number(abs_num, 1))
        style_a1 = bool(_number(a1))  # an empty cell is FALSE (R1C1); only an omitted a1 is TRUE
    except _Failed as failed:
        return _error(failed.error)
    if not (1 <= r <= MAX_ROW and 1 <= c <= MAX_COL) or kind not in (1, 2, 3, 4):
        return _error("#VALUE!")
    absolute_row, absolute_col = kind in (1, 2), kind in (1, 3)
    if style_a1:
        text = f"{'$' if absolute_col else ''}{column_letters(c)}{'$' if absolute_row else ''}{r}"
    else:
        text = f"R{r if absolute_row else f'[{r}]'}C{c if absolute_col else f'[{c}]'}"
    if sheet_text is not None:
        name = _value(sheet_text)
        if name is sh.EMPTY:
            return "!" + text
        text = _address_sheet(str(name)) + "!" + text
    return text


_CELL_TYPES = ("address", "col", "row", "contents", "type", "filename", "protect", "prefix", "format", "width",
               "color", "parentheses")


def cell(position: Position, info_type: Any, reference: Any = None) -> Any:
    """CELL(info_type, [reference]) for the formula's own cell when ``reference`` is omitted, else the
    top-left cell of ``reference``; what a cell's formatting says is read from the workbook's styles
    (:mod:`.cell_info`)."""
    kind = _value(info_type)
    if not isinstance(kind, str):
        raise _Failed("#VALUE!")
    kind = kind.strip().lower()
    if kind not in _CELL_TYPES:
        raise _Failed("#VALUE!")
    target, row, col = _cell_of(position, reference)
    if kind == "address":
        prefix = "" if target is position.sheet else _address_sheet(target.name) + "!"
        return f"{prefix}${column_letters(col)}${row}"
    if kind == "col":
        return float(col)
    if kind == "row":
        return float(row)
    if kind == "filename":
        return _filename(position, target)
    package = position.fallback.package
    if kind in ("protect", "prefix", "format", "width", "color", "parentheses"):
        from . import cell_info

        if package is None:
            raise Abort(NotComputed(reason=f'CELL("{kind}"): the workbook\'s styles are not known'))
        formats = cell_formats(package)
        if kind == "width":
            return cell_info.width(*formats.width(target.name, col))
        style = formats.style(target.name, row, col)
        if kind == "protect":
            return 1.0 if style.locked else 0.0
        if kind == "format":
            return cell_info.format_code(style.number_format)
        if kind == "color":
            return 1.0 if cell_info.negative_in_colour(style.number_format) else 0.0
        if kind == "parentheses":
            return 1.0 if cell_info.positive_in_parentheses(style.number_format) else 0.0
    value = _read(position, target, row, col, row, col).value[0, 0]
    if kind == "prefix":
        from . import cell_info

        return cell_info.prefix(cell_formats(package).style(target.name, row, col), value)
    if kind == "contents":
        return 0.0 if value is sh.EMPTY else value
    # "type": b for an empty cell, l for a text, v for anything else (a number, a logical value, an error)
    if value is sh.EMPTY:
        return "b"
    return "l" if isinstance(value, str) and not isinstance(value, XlError) else "v"


def _filename(position: Position, target: Sheet) -> str:
    """CELL("filename"): the full path of the workbook, its file name in brackets, the sheet's name
    ("C:\\Books\\[Results.xlsx]Sheet1"), of the file the engine read; "" when no file is known,
    as Excel shows it for a workbook never saved."""
    package = position.fallback.package
    if package is None or not package.path:
        return ""
    folder, name = os.path.split(os.path.abspath(package.path))
    return f"{folder}{os.sep}[{name}]{target.name}"


def info(position: Position, type_text: Any) -> Any:
    """INFO(type_text) for what the workbook says (numfile, recalc); the rest describes the Excel
    application and its computer, and is not computed."""
    kind = _value(type_text)
    if not isinstance(kind, str):
        raise _Failed("#VALUE!")
    kind = kind.strip().lower()
    if kind == "numfile":
        return float(len(_sheet_names(position)))
    if kind == "recalc":
        return "Automatic"
    if kind in ("directory", "origin", "osversion", "release", "system", "memavail", "memused", "totmem"):
        raise Abort(NotComputed(reason=f'INFO("{kind}") describes the Excel application, not the workbook'))
    raise _Failed("#VALUE!")


def anchorarray(position: Position, reference: Any) -> Any:
    """The spilled range of a dynamic array, ``A1#`` in a formula (stored as ``_xlfn.ANCHORARRAY(A1)``):
    the whole array the formula in the referenced cell fills; #REF! if that cell holds no formula."""
    if not isinstance(reference, Ranges) or not reference.ranges:
        raise _Failed("#VALUE!")
    sheet, row, col, _, _ = _area(reference, position)
    size = position.fallback.spill_size(sheet.name.upper(), row, col)
    if size is None:
        raise _Failed("#REF!")
    height, width = size
    return _read(position, sheet, row, col, row + height - 1, col + width - 1)


# SUBTOTAL's function numbers (1-11; 101-111 the same, leaving out rows hidden by hand)
_SUBTOTALS = {1: "AVERAGE", 2: "COUNT", 3: "COUNTA", 4: "MAX", 5: "MIN", 6: "PRODUCT", 7: "STDEV", 8: "STDEVP",
              9: "SUM", 10: "VAR", 11: "VARP"}


def _subtotal_of(kind: str, values: list[Any]) -> Any:
    if kind == "COUNTA":
        return float(sum(1 for v in values if v is not sh.EMPTY and v is not None))
    for v in values:
        if isinstance(v, XlError):
            return v
    numbers = [float(v) for v in values
               if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))]
    if kind == "COUNT":
        return float(len(numbers))
    if kind == "SUM":
        return math.fsum(numbers)
    if kind == "PRODUCT":
        return math.prod(numbers) if numbers else 0.0
    if kind in ("MAX", "MIN"):
        return (max if kind == "MAX" else min)(numbers) if numbers else 0.0
    if kind == "AVERAGE":
        return math.fsum(numbers) / len(numbers) if numbers else _error("#DIV/0!")
    sample = kind in ("STDEV", "VAR")
    if len(numbers) < (2 if sample else 1):
        return _error("#DIV/0!")
    mean = math.fsum(numbers) / len(numbers)
    variance = math.fsum((x - mean) ** 2 for x in numbers) / (len(numbers) - (1 if sample else 0))
    return math.sqrt(variance) if kind.startswith("STDEV") else variance


def subtotal(position: Position, function_num: Any, *references: Any) -> Any:
    """SUBTOTAL(function_num, ref1, ...): AVERAGE, COUNT, COUNTA, MAX, MIN, PRODUCT, STDEV, STDEVP,
    SUM, VAR or VARP (1-11, or 101-111) of the referenced cells, leaving out cells that are
    themselves SUBTOTAL or AGGREGATE formulas (a table's totals row), so subtotals are not counted
    twice. Rows an AutoFilter filtered out are left out; with 101-111 every hidden row is
    (:mod:`.row_visibility`); hidden columns are not."""
    number = int(_number(function_num))
    kind = _SUBTOTALS.get(number - 100 if number > 100 else number)  # 1-11 or 101-111 only (205: #VALUE!)
    if kind is None or not references:
        raise _Failed("#VALUE!")
    values: list[Any] = []
    for reference in references:
        if isinstance(reference, np.ndarray) and reference.size == 1:
            reference = reference.ravel()[0]
        if isinstance(reference, XlError):  # SUBTOTAL(9,#REF!): a reference deleted in Excel
            raise _Failed(str(reference))
        if not isinstance(reference, Ranges) or not reference.ranges:
            raise _Failed("#VALUE!")
        for area in reference.ranges:
            sheet = area_sheet(position.fallback.grid, area, position.sheet)
            if sheet is None:
                raise _Failed("#REF!")
            r1, c1 = max(int(area["r1"]), 1), max(int(area["n1"]), 1)
            r2, c2 = int(area["r2"]) or MAX_ROW, int(area["n2"]) or MAX_COL
            block = _read(position, sheet, r1, c1, r2, c2)
            cells = np.atleast_2d(np.asarray(block.value, dtype=object))
            shown = position.fallback.rows_of(sheet)
            left_out = shown.hidden if number > 100 else shown.filtered
            for i, row in enumerate(cells.tolist()):
                if r1 + i in left_out:
                    continue
                for j, value in enumerate(row):
                    text = position.fallback.formula_text(sheet.name.upper(), r1 + i, c1 + j)
                    if text is not None and re.search(r"\b(?:SUBTOTAL|AGGREGATE)\s*\(", text, re.IGNORECASE):
                        continue
                    values.append(value)
    return _subtotal_of(kind, values)


def span(position: Position, left: Any, right: Any) -> Any:
    """The range operator ``:`` between two references: the smallest area holding both, read whole
    through the engine. ``formulas`` filled in only the cells of either operand, leaving the cells
    between them empty (SUM(OFFSET(A1,0,0):OFFSET(A1,1,1)) missed A2 and B1). Errors pass on; areas on
    two sheets are #VALUE!; anything else (several areas) as ``formulas`` spans it."""
    for operand in (left, right):
        if isinstance(operand, XlError):
            return operand
    if not (isinstance(left, Ranges) and isinstance(right, Ranges)) or len(left.ranges) != 1 \
            or len(right.ranges) != 1:
        return left + right
    first, second = _area(left, position), _area(right, position)
    if first[0] is not second[0]:
        raise _Failed("#VALUE!")
    return _read(position, first[0], min(first[1], second[1]), min(first[2], second[2]),
                 max(first[3], second[3]), max(first[4], second[4]))


def _range_operator(left: Any, right: Any) -> Any:
    """``:`` as compiled: spanned through the cell being computed; while ``formulas`` compiles (a
    constant A1:B2 is joined once, before any cell), or for references not read yet, its own."""
    for operand in (left, right):  # #REF!:B4, a reference deleted in Excel: the error, as Excel shows it
        if isinstance(operand, XlError):
            return operand
    position = CURRENT.get(None)
    if position is None or not all(getattr(operand, "values", True) for operand in (left, right)):
        return left + right
    try:
        return span(position, left, right)
    except _Failed as failed:
        return _error(failed.error)


RANGE_OPERATOR = wrap_func(_range_operator, ranges=True)


def _with_position(function: Any) -> dict[str, Any]:
    """Registered as impure: ``formulas`` would otherwise compute a call with constant arguments
    once, while compiling, away from any cell (``=SHEET()``)."""
    return {"extra_inputs": collections.OrderedDict([(COMPILING, False)]),
            "function": wrap_impure_func(wrap_func(_guarded(function), ranges=True))}


FUNCTIONS: dict[str, Any] = {
    "OFFSET": _with_position(offset),
    "INDIRECT": _with_position(indirect),
    "FORMULATEXT": _with_position(formulatext),
    "ISFORMULA": _with_position(isformula),
    "SHEET": _with_position(sheet),
    "SHEETS": _with_position(sheets),
    "CELL": _with_position(cell),
    "INFO": _with_position(info),
    "SUBTOTAL": _with_position(subtotal),
    "ANCHORARRAY": _with_position(anchorarray),
    "GETPIVOTDATA": _with_position(getpivotdata),
    "ADDRESS": wrap_ufunc(address, input_parser=lambda *a: a, args_parser=lambda *a: a),
    **IS_FUNCTIONS,
}

__all__ = ["FUNCTIONS"]
