"""Which Excel saved a workbook, read from its docProps/app.xml: the character set of CHAR and CODE.

Excel for Windows writes ``<Application>Microsoft Excel</Application>``, Excel for the Mac
``Microsoft Macintosh Excel``; anything else, or nothing, is taken for Windows, and a part that
cannot be read never stops the workbook from being read.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import openpyxl
import pytest

from xlrating.engine.read.character_set import MAC, WINDOWS, of_application
from xlrating.engine.read.package import _character_set, read_package

EXTENDED = "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"
STRICT = "http://purl.oclc.org/ooxml/officeDocument/extendedProperties"


def _app_xml(application: str, namespace: str = EXTENDED) -> str:
    # as Excel writes it (its other elements left out)
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Properties xmlns="{namespace}" '
            'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
            f"<Application>{application}</Application><DocSecurity>0</DocSecurity>"
            "<AppVersion>16.0300</AppVersion></Properties>")


def _book(path: Path, app_xml: str | bytes | None) -> Path:
    """A workbook with ``app_xml`` as its docProps/app.xml (None: without one)."""
    wb = openpyxl.Workbook()
    wb.active["A1"] = "=CHAR(128)"
    buffer = io.BytesIO()
    wb.save(buffer)
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            if info.filename != "docProps/app.xml":
                target.writestr(info, source.read(info))
            elif app_xml is not None:
                target.writestr(info, app_xml)
    return path


@pytest.mark.parametrize(("app_xml", "expected"), [
    (_app_xml("Microsoft Macintosh Excel"), MAC),
    (_app_xml("Microsoft Macintosh Excel", STRICT), MAC),  # Strict Open XML's namespace
    (_app_xml("Microsoft Excel"), WINDOWS),
    (_app_xml("Microsoft Excel Online"), WINDOWS),
    (_app_xml("LibreOffice/26.2.2.2$MacOSX_AARCH64 LibreOffice_project/1f77d10"), WINDOWS),  # not Excel
    (None, WINDOWS),  # no app.xml
    ('<Properties xmlns="' + EXTENDED + '"><AppVersion>16.0300</AppVersion></Properties>', WINDOWS),
    ('<Properties xmlns="' + EXTENDED + '"><Application/></Properties>', WINDOWS),
    ("<Other><Properties><Application>Microsoft Macintosh Excel</Application></Properties></Other>", WINDOWS),
], ids=["mac", "mac-strict", "windows", "excel-online", "libreoffice", "missing", "no-application",
        "empty-application", "elsewhere"])
def test_the_package_names_the_character_set_of_the_excel_that_saved_it(tmp_path: Path, app_xml: str | None,
                                                                         expected: str) -> None:
    assert read_package(str(_book(tmp_path / "book.xlsx", app_xml))).character_set == expected


@pytest.mark.parametrize("app_xml", [b"", b"<Properties><Application>Microsoft Macintosh Excel</Application>",
                                     b"\x00\xff not XML"], ids=["empty", "unclosed", "binary"])
def test_an_app_xml_that_cannot_be_parsed_is_windows(app_xml: bytes) -> None:
    # the package gate refuses such a part before the reader sees it (as any part that is not XML);
    # the reader would not fail on it either
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("docProps/app.xml", app_xml)
    with zipfile.ZipFile(buffer) as archive:
        assert _character_set(archive) == WINDOWS


def test_only_excel_for_the_mac_is_the_mac() -> None:
    assert of_application(" Microsoft Macintosh Excel\n") == MAC
    assert [of_application(a) for a in ("Microsoft Excel", "Excel Android", "", None)] == [WINDOWS] * 4
