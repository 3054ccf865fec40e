"""A workbook from Excel in real LibreOffice with the add-in: the plain names compute in the current
release, and after `xlrating libreoffice prepare` in LibreOffice 7.4 too.

The workbook is the one of tests/hosts/test_libreoffice_calc.py (every function: ranges, spills,
errors, omitted arguments) stored as Excel stores it: plain names, the table functions as dynamic
arrays (``cm="1"`` and the metadata part), a defined name holding a call, and one call made through
a link to the add-in workbook (``[1]!DCI_K``, in the copy given to `prepare`). LibreOffice opens
it headless with the add-in installed in a private profile, recalculates, and reports the cells;
`xlrating convert` computes the same workbook. LibreOffice 25.2 (the system's soffice) saves it
again as .xlsx, whose formulas must still hold the plain names.

LibreOffice 7.4 runs when unpacked by .ci/libreoffice-7.4.sh (/opt/libreoffice-7.4, or the soffice
in $XLRATING_LIBREOFFICE_74); otherwise its tests are skipped, saying so.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from excel_stored import addin_link, dynamic_arrays
from openpyxl.utils import get_column_letter, range_boundaries
from openpyxl.workbook.defined_name import DefinedName
from shared_session import MISSING_74, install_addin, libreoffice_74, shared_session
from test_libreoffice_calc import _normal, differences, workbook, write_xlsx, xlsx_values

from xlrating.cli import main
from xlrating.engine import convert_file
from xlrating.engine.formula.function_names import our_function
from xlrating.functions import BY_NAME, call
from xlrating.hosts.libreoffice_install import office_environment

pytestmark = [pytest.mark.libreoffice,
              pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")]

DRIVER = Path(__file__).with_name("libreoffice_driver.py")
XLAM = r"file:///C:\Users\ann\AppData\Roaming\Microsoft\AddIns\xlrating.xlam"
NAMED = {"Scalars!R2": "=GP_K*2"}               # a defined name holding one of our functions
LINKED = {"Scalars!R3": '=[1]!DCI_K("competitive")'}  # a function taken from the add-in workbook


def formula_cells() -> list[str]:
    keys = []
    for spec in workbook():
        keys += [f"{spec['name']}!{a}" for a, v in spec["cells"].items() if isinstance(v, str) and v.startswith("=")]
        for area in spec["arrays"]:
            left, top, right, bottom = range_boundaries(area)
            keys += [f"{spec['name']}!{get_column_letter(c)}{r}" for r in range(top, bottom + 1)
                     for c in range(left, right + 1)]
    return keys + list(NAMED)


def excel_workbook(path: Path, linked: bool) -> Path:
    """The workbook as Excel stores it (see the module's docstring)."""
    wb = openpyxl.load_workbook(write_xlsx(workbook(), path))
    wb.defined_names["GP_K"] = DefinedName("GP_K", attr_text='DCI_K("grand prix")')
    for key, formula in (NAMED | (LINKED if linked else {})).items():
        sheet, address = key.split("!")
        wb[sheet][address] = formula
    out = io.BytesIO()
    wb.save(out)
    data = dynamic_arrays(out.getvalue())
    path.write_bytes(addin_link(data, XLAM, ["DCI_K"]) if linked else data)
    return path


def _open(office: Any, profile: Path, files: list[dict[str, Any]]) -> dict[str, Any]:
    job = {"soffice": str(office.soffice), "profile": profile.resolve().as_uri(), "open": files}
    ran = subprocess.run([str(office.python), str(DRIVER)], input=json.dumps(job), capture_output=True, text=True,
                         timeout=300, check=False, env=office_environment(office))
    assert ran.returncode == 0, ran.stderr[-3000:]
    opened: dict[str, Any] = json.loads(ran.stdout)["opened"]
    return {path: {k: _normal(v) for k, v in found["values"].items()} for path, found in opened.items()}


def run_session(folder: Path) -> dict[str, Any]:
    office = install_addin(folder)
    plain = excel_workbook(folder / "from excel.xlsx", linked=False)
    linked = excel_workbook(folder / "from excel with the add-in workbook.xlsx", linked=True)
    prepared = folder / "prepared.xlsx"
    done = CliRunner().invoke(main, ["libreoffice", "prepare", str(linked), "-o", str(prepared)])
    assert done.exit_code == 0, done.output
    warnings: list[str] = []
    converted = convert_file(plain, folder / "converted.xlsx", warnings=warnings)[0]
    cells = formula_cells()
    saved = folder / "saved by libreoffice.xlsx"
    current = _open(office, folder / "profile",
                    [{"path": str(plain), "cells": cells, "save": str(saved)},
                     {"path": str(prepared), "cells": cells + list(LINKED)}])
    result: dict[str, Any] = {
        "convert": xlsx_values(converted, cells), "warnings": warnings, "saved": str(saved),
        "current": {"plain": current[str(plain)], "prepared": current[str(prepared)]},
        "prepare output": done.output}
    soffice_74 = libreoffice_74()
    if soffice_74 is not None:
        old = install_addin(folder, soffice_74, "profile74")
        opened = _open(old, folder / "profile74",
                       [{"path": str(plain), "cells": cells}, {"path": str(prepared), "cells": cells + list(LINKED)}])
        result["7.4"] = {"plain": opened[str(plain)], "prepared": opened[str(prepared)]}
    return result


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> dict[str, Any]:
    return shared_session(tmp_path_factory, worker_id, "libreoffice_excel_names", run_session)


def _linked_value() -> float:
    return float(call("DCI_K", ["competitive"]))


def test_the_workbook_holds_every_function_by_its_plain_name(tmp_path: Path) -> None:
    path = excel_workbook(tmp_path / "book.xlsx", linked=False)
    with zipfile.ZipFile(path) as archive:
        formulas = " ".join(re.findall(r"<f[^>]*>([^<]*)</f>", b"".join(archive.read(n) for n in archive.namelist()
                                                                           if n.startswith("xl/worksheets/")).decode()))
        workbook_xml = archive.read("xl/workbook.xml").decode()
        sheet2 = archive.read("xl/worksheets/sheet2.xml").decode()
    assert {name for name in BY_NAME if f"{name}(" in formulas} == set(BY_NAME)
    assert "xlrating." not in formulas.lower() and "_xll" not in formulas.lower()
    assert re.search(r'<c r="I1"[^>]* cm="1"><f t="array" ref="I1:[A-Z]+\d+">DIPPOUCH_RATINGS\(', sheet2)
    assert 'DCI_K(&quot;grand prix&quot;)</definedName>' in workbook_xml or 'DCI_K("grand prix")</definedName>' in workbook_xml


def test_libreoffice_25_computes_the_plain_names_as_xlrating_convert(session: dict[str, Any]) -> None:
    theirs = session["current"]["plain"]
    assert session["warnings"] == []
    assert len(theirs) > 80 and "#NAME?" not in theirs.values()
    assert differences(session["convert"], theirs) == {}
    assert theirs["Scalars!R2"] == 2 * float(call("DCI_K", ["grand prix"]))  # through the defined name


def test_saved_again_by_libreoffice_25_the_formulas_keep_the_plain_names(session: dict[str, Any]) -> None:
    with zipfile.ZipFile(session["saved"]) as archive:
        xml = b"".join(archive.read(n) for n in archive.namelist() if n.endswith(".xml")).decode()
    texts = re.findall(r"<f[^>]*>([^<]*)</f>", xml) + re.findall(r"<definedName[^>]*>([^<]*)</definedName>", xml)
    called = {name for text in texts for name in re.findall(r"([A-Za-z_][A-Za-z0-9_.]*)\(", text)}
    ours = {name for name in called if our_function(name) is not None}
    assert ours == set(BY_NAME)        # each of the twelve, and under no other spelling
    assert 'DCI_K(&quot;grand prix&quot;)' in xml or 'DCI_K("grand prix")' in xml


def test_libreoffice_25_computes_the_prepared_workbook_too(session: dict[str, Any]) -> None:
    theirs = session["current"]["prepared"]
    assert differences(session["convert"], {k: theirs[k] for k in session["convert"]}) == {}
    assert theirs["Scalars!R3"] == _linked_value()  # was [1]!DCI_K, through the add-in workbook
    assert "removed the link to the add-in" in session["prepare output"]


def _needs_74(session: dict[str, Any]) -> dict[str, Any]:
    if "7.4" not in session:
        pytest.skip(MISSING_74)
    found: dict[str, Any] = session["7.4"]
    return found


def test_libreoffice_74_shows_the_plain_names_as_name_errors(session: dict[str, Any]) -> None:
    plain = _needs_74(session)["plain"]
    assert plain["Scalars!I2"] == "#NAME?" and plain["Scalars!J2"] == "#NAME?" and plain["Scalars!R2"] == "#NAME?"


def test_libreoffice_74_computes_the_prepared_workbook_as_xlrating_convert(session: dict[str, Any]) -> None:
    prepared = _needs_74(session)["prepared"]
    assert differences(session["convert"], {k: prepared[k] for k in session["convert"]}) == {}
    assert prepared["Scalars!R3"] == _linked_value()
