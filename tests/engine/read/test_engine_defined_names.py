"""Defined names as Excel resolves them: a name local to a sheet (``<definedName localSheetId="1">``)
is what that sheet's formulas see first, the workbook's name everywhere else; ``Sheet2!Name`` is
the name as Sheet2 sees it (its local one, else the workbook's: Microsoft KB Q107197, "=Sheet3!Sales"
for the global Sales when Sheet3 has no local one); names may stand for references with ``$`` on
other sheets, constants, formulas (``=Rate*2``) and other names; a name nothing defines is #NAME?.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from openpyxl.workbook.defined_name import DefinedName

from xlrating.cli import main


def _book(path: Path) -> Path:
    wb = openpyxl.Workbook()
    first = wb.active
    first.title = "Sheet1"
    second = wb.create_sheet("Sheet2")
    data = wb.create_sheet("Data Sheet")
    for row in range(1, 6):
        data.cell(row, 1, row * 10)
    first["A1"], second["A1"], data["B1"] = 5, 7, 100
    names = {"Rate": "0.25", "Double": "Rate*2", "Values": "'Data Sheet'!$A$1:$A$5", "Alias": "Values",
             "Total": "SUM(Values)", "Top": "'Data Sheet'!$A$1", "Local": "Sheet1!$A$1"}
    for name, text in names.items():
        wb.defined_names[name] = DefinedName(name, attr_text=text)
    local = {"Local": "Sheet2!$A$1", "Factor": "3", "Scaled": "Factor*Rate", "Mine": "Local*2"}
    for name, text in local.items():  # local to Sheet2 (localSheetId="1")
        second.defined_names[name] = DefinedName(name, attr_text=text)
    data.defined_names["Rate"] = DefinedName("Rate", attr_text="'Data Sheet'!$B$1")  # hides the 0.25 there
    formulas = {
        "B1": "=Rate", "B2": "=Double", "B3": "=SUM(Values)", "B4": "=SUM(Alias)", "B5": "=Total",
        "B6": "=Top+1", "B7": "=Local", "B8": "=Sheet2!Local", "B9": "=Sheet2!Factor", "B10": "=NoSuchName",
        "B11": "=NoSuchName+1", "B12": "=Sheet2!Scaled", "B13": "=ROWS(Values)", "B14": "=INDEX(Alias,2)",
        "B15": "=Factor", "B16": "=Sheet2!Mine", "B17": "='Data Sheet'!Rate", "B18": "=Sheet2!Rate",
        "B19": "=SUM(Sheet2!Local,Sheet2!A1)",
    }
    for cell, formula in formulas.items():
        first[cell] = formula
    for cell, formula in {"B1": "=Local", "B2": "=Factor", "B3": "=Scaled", "B4": "=Sheet1!Local",
                          "B5": "=Rate*Factor", "B6": "=Double+Factor", "B7": "=Mine"}.items():
        second[cell] = formula
    data["C1"] = "=Rate"
    data["C2"] = "=Sheet1!Rate"
    wb.save(path)
    return path


@pytest.fixture(scope="module")
def computed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("names")
    result = CliRunner().invoke(main, ["convert", str(_book(folder / "names.xlsx")), "-o", str(folder / "out.json")])
    assert result.exit_code == 0, result.output
    sheets = json.loads((folder / "out.json").read_text(encoding="utf-8"))["sheets"]
    return {sheet["name"]: {f"{chr(65 + c)}{r + 1}": value for r, row in enumerate(sheet["rows"])
                            for c, value in enumerate(row)} for sheet in sheets}


def test_workbook_names_of_constants_formulas_references_and_other_names(computed: dict[str, dict[str, Any]]) -> None:
    first = computed["Sheet1"]
    assert [first[f"B{r}"] for r in range(1, 8)] == [0.25, 0.5, 150, 150, 150, 11, 5]
    assert (first["B13"], first["B14"]) == (5, 20)


def test_a_name_nothing_defines_is_a_name_error(computed: dict[str, dict[str, Any]]) -> None:
    assert (computed["Sheet1"]["B10"], computed["Sheet1"]["B11"]) == ("#NAME?", "#NAME?")
    assert computed["Sheet1"]["B15"] == "#NAME?"  # Factor is Sheet2's own


def test_a_sheet_sees_its_own_names_first(computed: dict[str, dict[str, Any]]) -> None:
    second = computed["Sheet2"]
    assert [second[f"B{r}"] for r in (1, 2, 3, 5, 6, 7)] == [7, 3, 0.75, 0.75, 3.5, 14]
    assert computed["Data Sheet"]["C1"] == 100  # its local Rate, not the workbook's 0.25


def test_a_name_qualified_by_a_sheet_is_the_name_that_sheet_sees(computed: dict[str, dict[str, Any]]) -> None:
    first = computed["Sheet1"]
    assert (first["B8"], first["B9"], first["B12"], first["B19"]) == (7, 3, 0.75, 14)
    assert first["B16"] == 14  # Sheet2's Mine uses Sheet2's Local, wherever it is used
    assert first["B17"] == 100  # the Data Sheet's own Rate
    assert first["B18"] == 0.25  # Sheet2 has no Rate of its own: the workbook's
    assert computed["Sheet2"]["B4"] == 5  # Sheet1 has no Local of its own: the workbook's
    assert computed["Data Sheet"]["C2"] == 0.25  # the workbook's Rate, where a local one hides it
