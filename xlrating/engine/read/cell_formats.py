"""How a cell is formatted, for CELL's "format", "color", "parentheses", "prefix", "protect" and
"width" (Microsoft's CELL page): the cell's style (``<c s="5">`` -> ``cellXfs[5]``), its number
format (a built-in id, ECMA-376 18.8.30, or a ``<numFmt>`` code), horizontal alignment and
``locked`` protection, and the width of its column (``<cols>``, else ``<sheetFormatPr>``).

Read from the package's bytes on the first CELL that needs it (one workbook in a thousand has
one), a sheet's cells scanned once for their style index.
"""

from __future__ import annotations

import io
import math
import re
import zipfile
from dataclasses import dataclass, field
from typing import Any

from .package import Package, _rels, _xml
from .sheet_cells import MAIN, cell_position

# The built-in number formats (ECMA-376 18.8.30) by id, as their codes read in the en-US locale
BUILTIN_FORMATS: dict[int, str] = {
    0: "General", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 5: '"$"#,##0_);("$"#,##0)',
    6: '"$"#,##0_);[Red]("$"#,##0)', 7: '"$"#,##0.00_);("$"#,##0.00)', 8: '"$"#,##0.00_);[Red]("$"#,##0.00)',
    9: "0%", 10: "0.00%", 11: "0.00E+00", 12: "# ?/?", 13: "# ??/??", 14: "m/d/yyyy", 15: "d-mmm-yy",
    16: "d-mmm", 17: "mmm-yy", 18: "h:mm AM/PM", 19: "h:mm:ss AM/PM", 20: "h:mm", 21: "h:mm:ss",
    22: "m/d/yyyy h:mm", 37: "#,##0_);(#,##0)", 38: "#,##0_);[Red](#,##0)", 39: "#,##0.00_);(#,##0.00)",
    40: "#,##0.00_);[Red](#,##0.00)", 45: "mm:ss", 46: "[h]:mm:ss", 47: "mm:ss.0", 48: "##0.0E+0", 49: "@",
}

# Excel's default column width when a sheet states none: 8 characters of the default font
# (``baseColWidth``), shown as 8.43 with the cell padding.
DEFAULT_BASE_WIDTH = 8
# The maximum digit width of the default font in pixels (Calibri and Aptos Narrow at 11 points,
# Excel's default fonts): the stored width includes 5 pixels of padding (ECMA-376 18.3.1.13).
DIGIT_PIXELS = 7
PADDING_PIXELS = 5
DEFAULT_EXTRA_PIXELS = 3  # a default-width column is 64 pixels: 8 digits, 3 pixels, the padding


@dataclass(frozen=True)
class CellStyle:
    """What CELL reads of one cell style (``cellXfs`` entry)."""

    number_format: str = "General"
    horizontal: str = "general"
    locked: bool = True


@dataclass
class SheetLayout:
    """A sheet's column widths (stored, in characters with padding) and cell style indexes."""

    styles: dict[tuple[int, int], int] = field(default_factory=dict)
    widths: list[tuple[int, int, float]] = field(default_factory=list)  # (first col, last col, width)
    default_width: float | None = None  # sheetFormatPr defaultColWidth, with padding
    base_width: int = DEFAULT_BASE_WIDTH  # sheetFormatPr baseColWidth, without


@dataclass
class CellFormats:
    """The formatting of a package's cells, read once (:func:`cell_formats`)."""

    styles: list[CellStyle]
    sheets: dict[str, SheetLayout]

    def style(self, sheet: str, row: int, col: int) -> CellStyle:
        layout = self.sheets.get(sheet.upper())
        index = layout.styles.get((row, col), 0) if layout is not None else 0
        return self.styles[index] if 0 <= index < len(self.styles) else CellStyle()

    def width(self, sheet: str, col: int) -> tuple[float, bool]:
        """The column's width in characters as Excel shows it (8.43 for the default), and whether it
        is the sheet's default width."""
        layout = self.sheets.get(sheet.upper()) or SheetLayout()
        for first, last, stored in layout.widths:
            if first <= col <= last:
                return shown_width(stored), False
        if layout.default_width is not None:
            return shown_width(layout.default_width), True
        # no width stated: the base width's characters and 3 pixels (8 shows 8.43, 59 pixels)
        characters = (layout.base_width * DIGIT_PIXELS + DEFAULT_EXTRA_PIXELS) / DIGIT_PIXELS
        return math.trunc(characters * 100 + 0.5) / 100, True


def shown_width(stored: float) -> float:
    """A stored column width (characters with padding) as Excel shows it: whole pixels less the
    padding, in characters to two decimals (ECMA-376 18.3.1.13): 9.140625 shows 8.43."""
    pixels = math.trunc(stored * DIGIT_PIXELS + 0.5)
    return math.trunc((pixels - PADDING_PIXELS) / DIGIT_PIXELS * 100 + 0.5) / 100


_CELL = re.compile(r"<c\s([^>]*?)/?>")
_ATTRIBUTE = re.compile(r'\b(r|s)="([^"]*)"')
_COL = re.compile(r"<col\s([^>]*?)/?>")
_FORMAT_PR = re.compile(r"<sheetFormatPr\s([^>]*?)/?>")
_ANY_ATTRIBUTE = re.compile(r'\b([A-Za-z]+)="([^"]*)"')


def _layout(xml: str) -> SheetLayout:
    layout = SheetLayout()
    for match in _CELL.finditer(xml):
        attributes = dict(_ATTRIBUTE.findall(match.group(1)))
        style = attributes.get("s", "")
        if style.isdigit() and style != "0" and "r" in attributes:
            layout.styles[cell_position(attributes["r"])] = int(style)
    for match in _COL.finditer(xml):
        attributes = dict(_ANY_ATTRIBUTE.findall(match.group(1)))
        try:
            first, last, width = int(attributes["min"]), int(attributes["max"]), float(attributes["width"])
        except (KeyError, ValueError):
            continue
        if attributes.get("customWidth") in ("1", "true") or attributes.get("width"):
            layout.widths.append((first, last, width))
    found = _FORMAT_PR.search(xml)
    if found:
        attributes = dict(_ANY_ATTRIBUTE.findall(found.group(1)))
        try:
            if "defaultColWidth" in attributes:
                layout.default_width = float(attributes["defaultColWidth"])
            if "baseColWidth" in attributes:
                layout.base_width = int(attributes["baseColWidth"])
        except ValueError:
            pass
    return layout


def _styles(archive: zipfile.ZipFile, workbook_part: str) -> list[CellStyle]:
    parts = [t for t in _rels(archive, workbook_part).values() if t.endswith("styles.xml")]
    if not parts or parts[0] not in archive.namelist():
        return [CellStyle()]
    root = _xml(archive, parts[0])
    codes: dict[int, str] = dict(BUILTIN_FORMATS)
    codes.update({int(f.get("numFmtId", -1)): f.get("formatCode", "") for f in root.iter(f"{{{MAIN}}}numFmt")})
    styles = []
    for xfs in root.iter(f"{{{MAIN}}}cellXfs"):
        for xf in xfs.iter(f"{{{MAIN}}}xf"):
            alignment = xf.find(f"{{{MAIN}}}alignment")
            protection = xf.find(f"{{{MAIN}}}protection")
            locked = protection is None or protection.get("locked", "1") not in ("0", "false")
            styles.append(CellStyle(number_format=codes.get(int(xf.get("numFmtId", 0)), "General"),
                                    horizontal=alignment.get("horizontal", "general") if alignment is not None
                                    else "general", locked=locked))
    return styles or [CellStyle()]


def read_cell_formats(package: Package) -> CellFormats:
    """The cell styles and sheet layouts of ``package``, from its bytes."""
    with zipfile.ZipFile(io.BytesIO(package.data)) as archive:
        styles = _styles(archive, package.workbook_part)
        sheets = {}
        for sheet in package.sheets:
            xml = sheet.xml if sheet.xml is not None else archive.read(sheet.part).decode("utf-8")
            sheets[sheet.name.upper()] = _layout(xml)
    return CellFormats(styles, sheets)


_READ: dict[int, tuple[Any, CellFormats]] = {}


def cell_formats(package: Package) -> CellFormats:
    """:func:`read_cell_formats` of ``package``, read once per package."""
    found = _READ.get(id(package))
    if found is None or found[0] is not package:
        _READ.clear()  # one workbook at a time: the previous one's formats are not needed again
        found = _READ[id(package)] = (package, read_cell_formats(package))
    return found[1]
