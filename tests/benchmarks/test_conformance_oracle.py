"""The conformance benchmark's oracle reads the errors Excel 365 saves as rich values: a cell Excel
shows as #CALC! or #SPILL! is saved as ``<v>#VALUE!</v>`` (what older readers show) with a ``vm``
naming a rich value of type ``_error``; the oracle must expect the error Excel shows."""

from __future__ import annotations

import importlib.util
import io
import re
import sys
import zipfile
from pathlib import Path

import openpyxl

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "conformance.py"
RICH = "http://schemas.microsoft.com/office/2017/06/relationships/"
METADATA = ('<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            'xmlns:xlrd="http://schemas.microsoft.com/office/spreadsheetml/2017/richdata">'
            '<metadataTypes count="1"><metadataType name="XLRICHVALUE" minSupportedVersion="120000"/></metadataTypes>'
            '<futureMetadata name="XLRICHVALUE" count="2"><bk><extLst><ext uri="{3e2802c4-a4d2-4d8b-9148-e3be6c30e623}">'
            '<xlrd:rvb i="0"/></ext></extLst></bk><bk><extLst><ext uri="{3e2802c4-a4d2-4d8b-9148-e3be6c30e623}">'
            '<xlrd:rvb i="1"/></ext></extLst></bk></futureMetadata>'
            '<valueMetadata count="2"><bk><rc t="1" v="0"/></bk><bk><rc t="1" v="1"/></bk></valueMetadata></metadata>')
VALUES = ('<rvData xmlns="http://schemas.microsoft.com/office/spreadsheetml/2017/richdata" count="2">'
          '<rv s="0"><v>13</v><v>3</v></rv><rv s="1"><v>ciao</v><v>2</v><v>5</v></rv></rvData>')
STRUCTURES = ('<rvStructures xmlns="http://schemas.microsoft.com/office/spreadsheetml/2017/richdata" count="2">'
              '<s t="_error"><k n="errorType" t="i"/><k n="subType" t="i"/></s>'
              '<s t="_error"><k n="argument" t="s"/><k n="errorType" t="i"/><k n="subType" t="i"/></s></rvStructures>')


def load_conformance():
    spec = importlib.util.spec_from_file_location("conformance_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def saved_with_rich_errors(path: Path) -> Path:
    """A workbook of three formula cells as Excel 365 saves them: A1 #CALC! (errorType 13), A2 a
    #VALUE! with its argument (errorType 2), A3 a plain #DIV/0!."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["A2"], ws["A3"] = "=DROP(B1:B3,3)", '=VALUE("ciao")', "=1/0"
    buffer = io.BytesIO()
    wb.save(buffer)
    with zipfile.ZipFile(buffer) as source, zipfile.ZipFile(path, "w") as out:
        for info in source.infolist():
            data = source.read(info).decode("utf-8")
            if info.filename == "xl/worksheets/sheet1.xml":
                for cell, vm in (("A1", ' vm="1"'), ("A2", ' vm="2"'), ("A3", "")):
                    data = re.sub(rf'<c r="{cell}"([^>]*)><f>([^<]*)</f><v>[^<]*</v></c>',
                                  lambda m, vm=vm, cell=cell: f'<c r="{cell}"{m.group(1)} t="e"{vm}><f>{m.group(2)}</f>'
                                  f'<v>{"#DIV/0!" if cell == "A3" else "#VALUE!"}</v></c>', data)
            if info.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace("</Relationships>",
                                    '<Relationship Id="rId90" Type="http://schemas.openxmlformats.org/officeDocument/'
                                    '2006/relationships/sheetMetadata" Target="metadata.xml"/>'
                                    f'<Relationship Id="rId91" Type="{RICH}rdRichValue" Target="richData/rdrichvalue.xml"/>'
                                    f'<Relationship Id="rId92" Type="{RICH}rdRichValueStructure" '
                                    'Target="richData/rdrichvaluestructure.xml"/></Relationships>')
            out.writestr(info, data)
        out.writestr("xl/metadata.xml", METADATA)
        out.writestr("xl/richData/rdrichvalue.xml", VALUES)
        out.writestr("xl/richData/rdrichvaluestructure.xml", STRUCTURES)
    return path


def test_the_oracle_expects_the_error_excel_shows(tmp_path: Path) -> None:
    conformance = load_conformance()
    oracle = {cell.cell: cell.expected for cell in conformance.read_oracle(saved_with_rich_errors(tmp_path / "b.xlsx"))}
    assert oracle["A1"] == conformance.Cached("error", "#CALC!")
    assert oracle["A2"] == conformance.Cached("error", "#VALUE!")
    assert oracle["A3"] == conformance.Cached("error", "#DIV/0!")
