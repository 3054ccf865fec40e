"""Which cells show a date: what CSV and JSON outputs need to write ``2025-03-01`` and not 45717.

A date in a workbook is a number with a date number format. The format hangs on the cell's style
(``<c s="5">`` -> ``cellXfs[5]`` -> ``numFmtId``): a built-in date format (ids 14-22, 45-47) or a
custom format code that openpyxl's :func:`~openpyxl.styles.numbers.is_date_format` recognises.
openpyxl is imported only for a workbook with custom number formats (importing it takes longer
than converting a small workbook).
"""

from __future__ import annotations

import datetime as dt
import io
import math
import re
import zipfile
from typing import Any

from .date_system import LAST_SERIAL, SYSTEM_1900, offset
from .package import Package, _rels, _xml
from .sheet_cells import MAIN, cell_position

_CELL_TAG = re.compile(r"<c\s([^>]*?)/?>")
_ATTRIBUTE = re.compile(r'\b(r|s)="([^"]*)"')
_DAY_BEFORE_SERIAL_1 = dt.date(1899, 12, 31)
# The built-in number formats (ECMA-376 18.8.30) that show a date or a time, as openpyxl's
# BUILTIN_FORMATS and is_date_format classify them; any other built-in id is not a date.
BUILTIN_DATE_FORMATS = frozenset((*range(14, 23), 45, 46, 47))


def date_styles(archive: zipfile.ZipFile, workbook_part: str) -> set[int]:
    """Indexes of the cell styles (``cellXfs``) whose number format is a date or time."""
    styles = [t for t in _rels(archive, workbook_part).values() if t.endswith("styles.xml")]
    if not styles or styles[0] not in archive.namelist():
        return set()
    root = _xml(archive, styles[0])
    custom = {int(f.get("numFmtId", -1)): f.get("formatCode", "") for f in root.iter(f"{{{MAIN}}}numFmt")}
    dates = BUILTIN_DATE_FORMATS - custom.keys()  # a custom format may take a built-in's id
    if custom:
        from openpyxl.styles.numbers import is_date_format

        dates |= {number_format for number_format, code in custom.items() if is_date_format(code)}
    found = set()
    for xfs in root.iter(f"{{{MAIN}}}cellXfs"):
        for index, xf in enumerate(xfs.iter(f"{{{MAIN}}}xf")):
            if int(xf.get("numFmtId", 0)) in dates:
                found.add(index)
    return found


def date_cells(package: Package) -> dict[str, set[tuple[int, int]]]:
    """Per sheet name, the (row, column) of every cell styled as a date."""
    with zipfile.ZipFile(io.BytesIO(package.data)) as archive:
        styles = date_styles(archive, package.workbook_part)
        if not styles:
            return {}
        cells: dict[str, set[tuple[int, int]]] = {}
        for sheet in package.sheets:
            xml = sheet.xml if sheet.xml is not None else archive.read(sheet.part).decode("utf-8")
            dated = cells.setdefault(sheet.name, set())
            for match in _CELL_TAG.finditer(xml):
                attributes = dict(_ATTRIBUTE.findall(match.group(1)))
                style = attributes.get("s", "")
                if style.isdigit() and int(style) in styles and "r" in attributes:
                    dated.add(cell_position(attributes["r"]))
    return cells


def as_date(value: Any, system: int = SYSTEM_1900) -> Any:
    """A number shown as a date, as ISO text (a date, or a date and time), counted in the date
    ``system`` of its workbook (:mod:`.date_system`); anything else unchanged."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < LAST_SERIAL[system] + 1:
        return value
    value += offset(system)  # the same day's serial in the 1900 system
    whole = math.floor(value)
    if whole >= 61:
        day = _DAY_BEFORE_SERIAL_1 + dt.timedelta(days=whole - 1)  # no 29 February 1900 after it
    else:  # serials before 1900-03-01 count Excel's phantom 29 February 1900: serial 1 is 1 January
        day = _DAY_BEFORE_SERIAL_1 + dt.timedelta(days=whole)
    time_of_day = dt.timedelta(days=float(value)) - dt.timedelta(days=whole)  # to the microsecond
    if not time_of_day:
        return day.isoformat()
    return (dt.datetime.combine(day, dt.time()) + time_of_day).isoformat(timespec="seconds")
