"""The add-in in real LibreOffice: every function, typed into Calc, gives `xlrating convert`'s values.

One headless LibreOffice session (a private profile where `xlrating libreoffice install` put the
add-in) types the workbook below (ranges, spills, errors, omitted arguments), recalculates,
reports every formula cell and the Function Wizard's entries, and saves the workbook as .xlsx.
The same workbook built with openpyxl goes through `xlrating convert`; the cells must agree. The
.xlsx LibreOffice saved must convert too, its functions named as `xlrating convert` reads them.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from openpyxl.worksheet.formula import ArrayFormula
from shared_session import install_addin, shared_session

from xlrating.cli import main
from xlrating.engine import convert_file
from xlrating.engine.formula.function_names import our_function
from xlrating.functions import BY_NAME, FUNCTIONS, call
from xlrating.hosts.libreoffice import SERVICE_NAME
from xlrating.hosts.libreoffice_install import office_environment

pytestmark = [pytest.mark.libreoffice,
              pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")]

DRIVER = Path(__file__).with_name("libreoffice_driver.py")
FUNCTION_WIZARD_ADDIN = 11  # com.sun.star.sheet.FunctionCategory.ADDIN: Calc puts add-in functions there


def d(text: str) -> list[str]:
    return ["date", text]


SCALARS: dict[str, Any] = {
    "A1": "players", "B1": "place", "A2": 10, "B2": 3, "A3": 21, "B3": 1, "A4": 35, "B4": 35, "A5": 7, "B5": 8,
    "D2": "=DIPPOUCH_PERCENTILE(A2,B2)",
    "D3": "=DIPPOUCH_PERCENTILE(10,11)",
    "D4": "=DIPPOUCH_PERCENTILE(NA(),3)",
    "D5": "=ISNA(DIPPOUCH_PERCENTILE(NA(),3))",
    "D6": '=IFERROR(DIPPOUCH_PERCENTILE(10,11),"bad")',
    "E2": "=DIPPOUCH_VALUE(21,7)",
    "E3": "=DIPPOUCH_VALUE(21,1,TRUE)",
    "E4": "=DIPPOUCH_VALUE(21,7,FALSE,1999)",
    "E5": "=DIPPOUCH_VALUE(21,7,,2005)",
    "F2": "=DIPPOUCH_NEW_RATING(40,75,5)",
    "G2": "=DCI_WIN_PROBABILITY(1600,1700)",
    "G3": '=DCI_WIN_PROBABILITY(1600,1700,"table")',
    "G4": '=DCI_WIN_PROBABILITY(1600,1700,"bogus")',
    "H2": '=DCI_DELTA(1600,1700,"W")',
    "H3": "=DCI_DELTA(1600,1700,0.5,32)",
    "H4": '=DCI_DELTA(1600,1700,"L","pro tour")',
    "H5": '=DCI_DELTA(1600,1700,"X")',
    "I2": '=DCI_K("competitive")',
    "I3": '=DCI_K("nope")',
    "I4": '=ISERROR(DCI_K("nope"))',
    "J2": "=MERS_BASE_RANK(20,5)",
    "J3": '=MERS_BASE_RANK(20,5,"round")',
    "J4": "=MERS_BASE_RANK(1,1)",
    "J5": '=MERS_BASE_RANK(20,5,"truncate")',
    "K2": "=MERS_WEIGHT(2,60,7)",
    "K3": "=MERS_WEIGHT(3,100,12,TRUE)",
    "K4": "=MERS_WEIGHT(-1,100,12)",
    "M1": "base_rank", "N1": "weight", "O1": "date",
    "M2": 900, "N2": 1, "O2": d("2023-03-01"),
    "M3": 500, "N3": 2, "O3": d("2023-09-10"),
    "M4": 750, "N4": 1.5, "O4": d("2024-02-01"),
    "L2": "=MERS_RANKING(M2:M4,N2:N4,O2:O4)",
    "L3": '=MERS_RANKING(M2:M4,N2:N4,O2:O4,DATE(2024,6,30),"2018")',
    "L4": "=MERS_RANKING(M2:M2,N2:N2,O2:O2)",
    "L5": "=MERS_RANKING(M2:M4,N2:N3,O2:O4)",
    "L6": '=IF(ISNA(MERS_RANKING(M2:M2,N2:N2,O2:O2)),"not ranked","ranked")',
}
SCALAR_ARRAYS = {
    "C2:C5": "=DIPPOUCH_PERCENTILE(A2:A5,B2:B5)",    # one value per row, an error among them
    "F3:F5": "=DIPPOUCH_NEW_RATING(40,C2:C4,5)",       # a scalar beside a range
    "P2:Q2": '=DCI_K({"casual","pro tour"})',           # an inline array
}

DIPPOUCH = [["event", "date", "players", "rounds", "player", "place", "world_championship"],
            ["Spring", d("2019-04-01"), 14, 3, "Ann", 1, False],
            ["Spring", d("2019-04-01"), 14, 3, "Bob", 2, False],
            ["Spring", d("2019-04-01"), 14, 3, "Cid", 3, False],
            ["Worlds", d("2019-08-10"), 40, 7, "Bob", 1, True],
            ["Worlds", d("2019-08-10"), 40, 7, "Ann", 5, True],
            ["Worlds", d("2019-08-10"), 40, 7, "Dee", 9, True]]
DCI = [["date", "round", "player", "opponent", "result"],
       [d("2010-05-01"), 1, "Ann", "Bob", "W"],
       [d("2010-05-01"), 1, "Cid", "Dee", "D"],
       [d("2010-05-01"), 2, "Ann", "Cid", "L"],
       [d("2010-05-01"), 2, "Bob", "Dee", "W"]]
MERS = [["tournament", "date", "players", "weight", "player", "place"],
        ["Open A", d("2023-03-05"), 20, 1, "01000001", 1],
        ["Open A", d("2023-03-05"), 20, 1, "01000002", 7],
        ["Open A", d("2023-03-05"), 20, 1, "01000003", 20],
        ["Cup B", d("2023-10-01"), 40, 2, "01000001", 12],
        ["Cup B", d("2023-10-01"), 40, 2, "01000002", 3],
        ["Cup C", d("2024-01-20"), 24, 1.5, "01000003", 2]]


def _block(rows: list[list[Any]], top: int, left: int) -> tuple[dict[str, Any], str]:
    cells = {}
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            cells[f"{openpyxl.utils.get_column_letter(left + j)}{top + i}"] = value
    last = f"{openpyxl.utils.get_column_letter(left + len(rows[0]) - 1)}{top + len(rows) - 1}"
    return cells, f"{openpyxl.utils.get_column_letter(left)}{top}:{last}"


def _host(value: Any) -> Any:
    if isinstance(value, list) and value[:1] == ["date"]:
        return dt.date.fromisoformat(value[1])
    return value


def _spill(name: str, table: list[list[Any]], top: int, left: int, *args: Any, extra_rows: int = 0) -> tuple[str, int]:
    """The array area a table function fills (as computed by the function table), plus extra rows."""
    result = call(name, [[[_host(v) for v in row] for row in table], *args])
    assert isinstance(result, list), result
    bottom = top + len(result) - 1 + extra_rows
    right = openpyxl.utils.get_column_letter(left + len(result[0]) - 1)
    return f"{openpyxl.utils.get_column_letter(left)}{top}:{right}{bottom}", len(result)


def tables_sheet() -> dict[str, Any]:
    cells: dict[str, Any] = {}
    arrays: dict[str, str] = {}
    dip, dip_area = _block(DIPPOUCH, 1, 1)        # A1:G7
    dci, dci_area = _block(DCI, 10, 1)            # A10:E14
    mers, mers_area = _block(MERS, 17, 1)         # A17:F23
    cells.update(dip | dci | mers)
    area, _ = _spill("DIPPOUCH_RATINGS", DIPPOUCH, 1, 9)
    arrays[area] = f"=DIPPOUCH_RATINGS({dip_area})"
    area, _ = _spill("DIPPOUCH_RATINGS", DIPPOUCH, 1, 13, "average")
    arrays[area] = f'=DIPPOUCH_RATINGS({dip_area},"average")'
    area, _ = _spill("DCI_RATINGS", DCI, 10, 9)
    arrays[area] = f"=DCI_RATINGS({dci_area})"
    area, _ = _spill("DCI_RATINGS", DCI, 10, 13, None, "table")
    arrays[area] = f'=DCI_RATINGS({dci_area},,"table")'
    area, _ = _spill("MERS_RANKINGS", MERS, 17, 9, dt.date(2024, 6, 30))
    arrays[area] = f"=MERS_RANKINGS({mers_area},DATE(2024,6,30))"
    area, _ = _spill("MERS_RANKINGS", MERS, 17, 13, None, "2018", extra_rows=1)  # one row too many: #N/A
    arrays[area] = f'=MERS_RANKINGS({mers_area},,"2018")'
    cells["Q1"] = "=DIPPOUCH_RATINGS(A1:B7)"                       # a table without its columns
    cells["Q2"] = f'=DCI_RATINGS({dci_area},"Vintage")'            # no such category: empty board
    cells["Q3"] = f'=MERS_RANKINGS({mers_area},DATE(2024,6,30),"2005","MCR","best")'
    return {"name": "Tables", "cells": cells, "arrays": arrays}


def workbook() -> list[dict[str, Any]]:
    return [{"name": "Scalars", "cells": SCALARS, "arrays": SCALAR_ARRAYS}, tables_sheet()]


def calc_formula(formula: str) -> str:
    """An Excel formula with Calc's API separators (';' between arguments and in inline arrays)."""
    parts = re.split(r'("(?:[^"]|"")*")', formula)
    return "".join(p if p.startswith('"') else p.replace(",", ";") for p in parts)


def write_xlsx(sheets: list[dict[str, Any]], path: Path) -> Path:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for spec in sheets:
        ws = wb.create_sheet(spec["name"])
        for address, value in spec["cells"].items():
            ws[address] = _host(value)
            if isinstance(value, list):
                ws[address].number_format = "yyyy-mm-dd"
        for area, formula in spec["arrays"].items():
            ws[area.split(":")[0]] = ArrayFormula(area, formula)
    wb.save(path)
    return path


def _normal(value: Any) -> Any:
    if isinstance(value, dict):
        return value["error"]
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int):
        return float(value)
    if value is None:
        return ""
    return value


def xlsx_values(path: Path, cells: list[str]) -> dict[str, Any]:
    wb = openpyxl.load_workbook(path, data_only=True)
    out = {}
    for key in cells:
        sheet, address = key.split("!")
        out[key] = _normal(wb[sheet][address].value)
    return out


def differences(ours: dict[str, Any], theirs: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    diff = {}
    for key, value in ours.items():
        other = theirs.get(key)
        if isinstance(value, float) and isinstance(other, float):
            if math.isclose(value, other, rel_tol=1e-9, abs_tol=1e-9):
                continue
        elif value == other:
            continue
        diff[key] = (value, other)
    return diff


def run_session(folder: Path) -> dict[str, Any]:
    """Install the add-in into a private profile, type the workbook in LibreOffice, convert it too."""
    office = install_addin(folder)
    sheets = workbook()
    job = {"soffice": str(office.soffice), "profile": (folder / "profile").resolve().as_uri(),
           "xlsx": str(folder / "saved_by_libreoffice.xlsx"), "functions": [f.name for f in FUNCTIONS],
           "sheets": [{"name": s["name"],
                       "cells": {a: calc_formula(v) if isinstance(v, str) and v.startswith("=") else v
                                 for a, v in s["cells"].items()},
                       "arrays": {a: calc_formula(f) for a, f in s["arrays"].items()}} for s in sheets]}
    ran = subprocess.run([office.python, str(DRIVER)], input=json.dumps(job), capture_output=True, text=True,
                         timeout=300, check=False, env=office_environment(office))
    assert ran.returncode == 0, ran.stderr[-3000:]
    warnings: list[str] = []
    converted = convert_file(write_xlsx(sheets, folder / "typed.xlsx"), folder / "converted.xlsx",
                             warnings=warnings)[0]
    return {"folder": str(folder), "report": json.loads(ran.stdout), "converted": str(converted),
            "warnings": warnings, "saved": job["xlsx"]}


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> dict[str, Any]:
    result = shared_session(tmp_path_factory, worker_id, "libreoffice_addin", run_session)
    for key in ("folder", "converted", "saved"):
        result[key] = Path(result[key])
    return result


def test_every_function_is_typed_into_the_workbook() -> None:
    text = json.dumps(workbook())
    assert all(f"{f.name}(" in text for f in FUNCTIONS)


def test_libreoffice_computes_what_xlrating_convert_computes_cell_for_cell(session: dict[str, Any]) -> None:
    theirs = {key: _normal(value) for key, value in session["report"]["values"].items()}
    ours = xlsx_values(session["converted"], list(theirs))
    assert session["warnings"] == []
    assert len(theirs) > 80
    assert differences(ours, theirs) == {}  # F(a,,c) included: both use the default for the middle one


def test_an_argument_left_empty_between_others_is_the_default_in_libreoffice(session: dict[str, Any]) -> None:
    values = session["report"]["values"]
    board = call("MERS_RANKINGS", [[[_host(v) for v in row] for row in MERS], None, "2018"])
    assert [[_normal(values[f"Tables!{col}{17 + i}"]) for col in "MNO"] for i in range(len(board))] == \
        [[_normal(v) for v in row] for row in board]


def test_an_argument_left_empty_between_others_is_the_default_in_convert(session: dict[str, Any]) -> None:
    theirs = {key: _normal(value) for key, value in session["report"]["values"].items()}
    ours = xlsx_values(session["converted"], list(theirs))
    left_empty = {key for key in theirs if key.startswith("Tables!") and key[7] in "MNO"}
    assert left_empty and {key: ours[key] for key in left_empty} == {key: theirs[key] for key in left_empty}


def test_errors_are_libreoffices_own_error_values(session: dict[str, Any]) -> None:
    values = session["report"]["values"]
    assert values["Scalars!D3"] == {"error": "#NUM!"}
    assert values["Scalars!D4"] == {"error": "#N/A"}          # an input's error propagates
    assert values["Scalars!D5"] == 1.0                        # ISNA sees Calc's #N/A
    assert values["Scalars!D6"] == "bad"                      # IFERROR catches ours
    assert values["Scalars!G4"] == {"error": "#VALUE!"}
    assert values["Scalars!L4"] == {"error": "#N/A"}          # not ranked
    assert values["Scalars!L6"] == "not ranked"


def test_the_function_wizard_shows_the_function_tables_descriptions(session: dict[str, Any]) -> None:
    wizard = session["report"]["descriptions"]
    assert set(wizard) == set(BY_NAME)
    for function in FUNCTIONS:
        entry = wizard[function.name]
        assert entry["description"] == function.doc
        assert entry["category"] == FUNCTION_WIZARD_ADDIN
        assert entry["arguments"] == [[a.name, a.doc, a.optional] for a in function.arguments]


def test_a_workbook_saved_by_libreoffice_names_the_functions_as_convert_reads_them(session: dict[str, Any]) -> None:
    wb = openpyxl.load_workbook(session["saved"])
    names = set()
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                text = cell.value.text if isinstance(cell.value, ArrayFormula) else cell.value
                if isinstance(text, str) and text.startswith("="):
                    names.update(re.findall(r"([A-Za-z_][A-Za-z0-9_.]*)\(", text))
    ours = {name for name in names if our_function(name) is not None}
    assert {our_function(name).name for name in ours} == set(BY_NAME)  # type: ignore[union-attr]
    # LibreOffice 7.4 writes SERVICE.NAME; versions mapping compatibility names write NAME (as Excel does)
    assert all(name.upper() in BY_NAME or name.upper().startswith(SERVICE_NAME.upper() + ".") for name in ours)


def test_a_workbook_saved_by_libreoffice_converts_to_the_same_values(session: dict[str, Any]) -> None:
    warnings: list[str] = []
    converted = convert_file(session["saved"], session["folder"] / "reconverted.xlsx", warnings=warnings)[0]
    theirs = {key: _normal(value) for key, value in session["report"]["values"].items()}
    assert warnings == []
    assert differences(xlsx_values(converted, list(theirs)), theirs) == {}
    # ... and names the functions as the xlwings add-in registers them (and Excel stores them)
    names = set()
    for ws in openpyxl.load_workbook(converted).worksheets:
        for row in ws.iter_rows():
            for cell in row:
                text = cell.value.text if isinstance(cell.value, ArrayFormula) else cell.value
                if isinstance(text, str) and text.startswith("="):
                    names.update(name.upper() for name in re.findall(r"([A-Za-z_][A-Za-z0-9_.]*)\(", text))
    assert set(BY_NAME) <= names and not {name for name in names if name.startswith("XLRATING.")}


def test_uninstall_removes_the_add_in_from_the_profile(session: dict[str, Any]) -> None:
    profile = str(session["folder"] / "profile")
    removed = CliRunner().invoke(main, ["libreoffice", "uninstall", "--profile", profile])
    assert removed.exit_code == 0, removed.output
    assert "removed org.xlrating.functions" in removed.output


if __name__ == "__main__":  # pragma: no cover - print the workbook for a look
    json.dump(workbook(), sys.stdout, indent=1)
