"""Workbooks saved as "Strict Open XML Spreadsheet" (ISO/IEC 29500 Strict) are read, computed and
written back as Strict workbooks.

The Strict workbooks here are Transitional ones (openpyxl's) rewritten as Excel's Strict save writes
them: ECMA-376 names the same vocabularies twice, Transitional ``http://schemas.openxmlformats.org/
<area>/2006/<name>`` (Part 4) and Strict ``http://purl.oclc.org/ooxml/<area>/<name>`` (Part 1),
and the relationship types ``.../officeDocument/2006/relationships/<type>`` and
``http://purl.oclc.org/ooxml/officeDocument/relationships/<type>``; the extended properties are
``extended-properties`` in one and ``extendedProperties`` in the other. Packaging (Part 2) and
markup compatibility (Part 3) are the same in both. The Strict workbook part says
``conformance="strict"``, and date cells hold ISO 8601 text (``<c t="d"><v>2011-07-05</v></c>``).
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from openpyxl.utils.datetime import CALENDAR_MAC_1904
from openpyxl.workbook.defined_name import DefinedName

from xlrating.cli import main

STRICT = "http://purl.oclc.org/ooxml/"
# Transitional -> Strict, as Excel's Strict save names them
NAMESPACES = {
    "http://schemas.openxmlformats.org/spreadsheetml/2006/main": STRICT + "spreadsheetml/main",
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships": STRICT + "officeDocument/relationships",
    "http://schemas.openxmlformats.org/drawingml/2006/main": STRICT + "drawingml/main",
    "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties":
        STRICT + "officeDocument/extendedProperties",
    "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes": STRICT + "officeDocument/docPropsVTypes",
}
TYPES = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
STRICT_TYPES = STRICT + "officeDocument/relationships/"


def _strict_part(name: str, text: str, iso_dates: dict[str, str]) -> str:
    def declaration(match: re.Match[str]) -> str:
        return match.group(1) + NAMESPACES.get(match.group(2), match.group(2)) + '"'

    def relationship(match: re.Match[str]) -> str:
        kind = match.group(1)
        tail = kind[len(TYPES):].replace("extended-properties", "extendedProperties")
        return f'Type="{STRICT_TYPES + tail if kind.startswith(TYPES) else kind}"'

    text = re.sub(r'(xmlns(?::\w+)?=")([^"]*)"', declaration, text)
    if name.endswith(".rels"):
        text = re.sub(r'Type="([^"]*)"', relationship, text)
    if name == "xl/workbook.xml":
        text = re.sub(r"<workbook ", '<workbook conformance="strict" ', text, count=1)
    for cell, iso in iso_dates.items():  # a date cell as Strict holds it
        text = re.sub(rf'<c r="{cell}"([^>]*?) t="n"><v>[^<]*</v>', rf'<c r="{cell}"\1 t="d"><v>{iso}</v>', text)
    return text


def strict_copy(wb: openpyxl.Workbook, target: Path, iso_dates: dict[str, str] | None = None) -> Path:
    """``wb`` saved, then rewritten as Excel's "Strict Open XML Spreadsheet" save writes it;
    ``iso_dates``: cells (of the first sheet) whose number becomes that ISO 8601 date text."""
    buffer = io.BytesIO()
    wb.save(buffer)
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith((".xml", ".rels")):
                dates = iso_dates or {} if info.filename == "xl/worksheets/sheet1.xml" else {}
                data = _strict_part(info.filename, data.decode("utf-8"), dates).encode("utf-8")
            out.writestr(info, data)
    return target


def _transitional(path: Path, target: Path) -> Path:
    """A Strict workbook named back as Transitional, for openpyxl (which reads only Transitional)."""
    back = {strict: transitional for transitional, strict in NAMESPACES.items()}
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(target, "w") as out:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith((".xml", ".rels")):
                text = data.decode("utf-8")
                text = re.sub(r'(xmlns(?::\w+)?=")([^"]*)"', lambda m: m.group(1) + back.get(m.group(2), m.group(2)) + '"',
                              text)
                text = text.replace(STRICT_TYPES + "extendedProperties", TYPES + "extended-properties")
                data = text.replace(STRICT_TYPES, TYPES).encode("utf-8")
            out.writestr(info, data)
    return target


def _convert(*args: str) -> Any:
    return CliRunner().invoke(main, ["convert", *args])


def _book(mac: bool = False) -> openpyxl.Workbook:
    wb = openpyxl.Workbook()
    if mac:
        wb.epoch = CALENDAR_MAC_1904
    ws = wb.active
    ws.title = "Results"
    ws["A1"] = dt.date(2011, 7, 5)
    ws["A2"] = dt.datetime(2011, 7, 5, 18, 0)
    ws["B1"] = "=YEAR(A1)"
    ws["B2"] = '=TEXT(A2,"yyyy-mm-dd hh:mm")'
    ws["C1"] = "Dip Pouch"
    ws["C2"] = '=C1&" "&TEXT(A1,"d mmmm")'
    ws["D1"] = 3
    ws["D2"] = "=SUM(D1,Bonus)*2"
    other = wb.create_sheet("Other")
    other["A1"] = "=Results!D1*10"
    wb.defined_names["Bonus"] = DefinedName("Bonus", attr_text="Other!$A$1")
    return wb


def _declared(path: Path) -> set[str]:
    """Every namespace declared and relationship type named in the package's XML parts."""
    found: set[str] = set()
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if name.endswith((".xml", ".rels")):
                text = archive.read(name).decode("utf-8")
                found |= set(re.findall(r'xmlns(?::\w+)?="([^"]*)"', text)) | set(re.findall(r'Type="([^"]*)"', text))
    return found


@pytest.mark.parametrize("mac", [False, True], ids=["1900", "1904"])
def test_a_strict_workbook_is_computed(tmp_path: Path, mac: bool) -> None:
    source = strict_copy(_book(mac), tmp_path / "strict.xlsx", {"A1": "2011-07-05", "A2": "2011-07-05T18:00:00"})
    result = _convert(str(source), "-o", str(tmp_path / "out.xlsx"))
    assert result.exit_code == 0, result.output
    wb = openpyxl.load_workbook(_transitional(tmp_path / "out.xlsx", tmp_path / "plain.xlsx"), data_only=True)
    ws = wb["Results"]
    assert (ws["B1"].value, ws["B2"].value, ws["C2"].value, ws["D2"].value) == (
        2011, "2011-07-05 18:00", "Dip Pouch 5 July", 66)
    assert wb["Other"]["A1"].value == 30


def test_the_result_stays_a_strict_workbook(tmp_path: Path) -> None:
    source = strict_copy(_book(), tmp_path / "strict.xlsx", {"A1": "2011-07-05"})
    assert _convert(str(source), "-o", str(tmp_path / "out.xlsx")).exit_code == 0
    declared = _declared(tmp_path / "out.xlsx")
    assert declared == _declared(source)  # the user's Strict vocabulary, nothing Transitional added
    assert not [uri for uri in declared if uri.startswith("http://schemas.openxmlformats.org/")
                and not uri.startswith("http://schemas.openxmlformats.org/package/2006/")]
    with zipfile.ZipFile(tmp_path / "out.xlsx") as archive:
        assert 'conformance="strict"' in archive.read("xl/workbook.xml").decode("utf-8")
        sheet = archive.read("xl/worksheets/sheet1.xml").decode("utf-8")
    assert '<c r="A1" s="1" t="d"><v>2011-07-05</v></c>' in sheet  # its date cell as it was
    assert re.search(r'<c r="B1"[^>]*><f>YEAR\(A1\)</f><v>2011(?:\.0)?</v></c>', sheet)
    # converting the result again gives the same values: it reads as the workbook it was
    assert _convert(str(tmp_path / "out.xlsx"), "-o", str(tmp_path / "again.xlsx")).exit_code == 0
    again = openpyxl.load_workbook(_transitional(tmp_path / "again.xlsx", tmp_path / "plain.xlsx"), data_only=True)
    assert again["Results"]["D2"].value == 66


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_a_strict_workbook_converts_to_values(tmp_path: Path, fmt: str) -> None:
    source = strict_copy(_book(), tmp_path / "strict.xlsx", {"A1": "2011-07-05"})
    target = tmp_path / f"out.{fmt}"
    assert _convert(str(source), "-o", str(target)).exit_code == 0
    written = (target.with_name(f"out.Results.{fmt}") if fmt == "csv" else target).read_text(encoding="utf-8")
    assert "Dip Pouch 5 July" in written and "2011-07-05" in written


def test_a_transitional_workbook_with_iso_dates_reads_them_as_dates(tmp_path: Path) -> None:
    wb = openpyxl.Workbook(iso_dates=True)  # openpyxl then writes t="d" cells, as Strict does
    wb.active["A1"] = dt.date(2011, 7, 5)
    wb.active["B1"] = "=A1+1"
    wb.active["C1"] = '=TEXT(A1,"dd/mm/yyyy")'
    wb.save(tmp_path / "in.xlsx")
    assert _convert(str(tmp_path / "in.xlsx"), "-o", str(tmp_path / "out.xlsx")).exit_code == 0
    ws = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True).active
    assert (ws["B1"].value, ws["C1"].value) == (40730, "05/07/2011")


def test_a_date_cell_that_is_no_date_is_named(tmp_path: Path) -> None:
    source = strict_copy(_book(), tmp_path / "strict.xlsx", {"A1": "5 July 2011"})
    result = _convert(str(source), "-o", str(tmp_path / "out.xlsx"))
    assert result.exit_code != 0
    assert "strict.xlsx" in result.output and "'Results'" in result.output and "cell A1" in result.output
    assert "ISO 8601" in result.output
    assert not (tmp_path / "out.xlsx").exists()
