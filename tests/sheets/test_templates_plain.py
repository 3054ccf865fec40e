"""The plain-formula calculator templates as files: committed and current, free of xlrating's
functions, built only from functions every spreadsheet has, laid out as their siblings.

What they compute is checked in LibreOffice without any add-in: test_templates_plain_libreoffice.py.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner

from xlrating.cli import main
from xlrating.core import dci
from xlrating.functions import BY_NAME
from xlrating.sheets.templates import TEMPLATES, build, calculators, plain_calculators

COMMITTED = Path(__file__).resolve().parents[2] / "workbook_templates"
SIBLINGS = {plain_calculators.DIPPOUCH_FILE: calculators.DIPPOUCH_FILE,
            plain_calculators.DCI_FILE: calculators.DCI_FILE,
            plain_calculators.MERS_FILE: calculators.MERS_FILE}
# In Excel 2010 (stored without an _xlfn. prefix), LibreOffice 7 and Google Sheets alike.
EVERY_SPREADSHEET = {"IF", "AND", "OR", "IFERROR", "ISERROR", "ISNUMBER", "ISTEXT", "ISLOGICAL", "TRIM", "LOWER",
                     "UPPER", "SUBSTITUTE", "CHAR", "LEFT", "RIGHT", "INT", "ABS", "ROUND", "MIN", "MAX", "SUM",
                     "COUNT", "SUMPRODUCT", "INDEX", "MATCH", "YEAR", "DATE", "EDATE", "NA"}


def _workbook(name: str) -> Any:
    return openpyxl.load_workbook(io.BytesIO(build(name)))


def _formulas(wb: Any) -> dict[str, str]:
    """Every formula of the workbook (cells, data validations, defined names) by where it is."""
    found = {f"{ws.title}!{c.coordinate}": c.value for ws in wb.worksheets for row in ws.iter_rows() for c in row
             if isinstance(c.value, str) and c.value.startswith("=")}
    for ws in wb.worksheets:
        for rule in ws.data_validations.dataValidation:
            found.update({f"{ws.title} validation {rule.sqref}": f"{rule.formula1} {rule.formula2}"})
    found.update({f"name {n}": str(d.value) for n, d in wb.defined_names.items()})
    return found


def _functions(formula: str) -> set[str]:
    return set(re.findall(r"([A-Za-z_][A-Za-z0-9_.]*)\(", re.sub(r'"[^"]*"', '""', formula)))


@pytest.mark.parametrize("name", list(plain_calculators.TEMPLATES))
def test_the_template_is_committed_as_the_generator_builds_it(name: str) -> None:
    assert name in TEMPLATES
    assert (COMMITTED / name).read_bytes() == build(name), f"{name} is stale: run `xlrating templates`"


def test_xlrating_templates_check_finds_every_generated_file_current() -> None:
    result = CliRunner().invoke(main, ["templates", "--check"])
    assert result.exit_code == 0, result.output
    assert "up to date" in result.output


@pytest.mark.parametrize("name", list(plain_calculators.TEMPLATES))
def test_the_template_calls_none_of_xlratings_functions(name: str) -> None:
    formulas = _formulas(_workbook(name))
    assert len(formulas) > 10
    ours = {where: f for where, f in formulas.items()
            if any(n in f.upper() for n in BY_NAME) or re.search(r"_xl(fn|l|udf)", f, re.IGNORECASE)}
    assert ours == {}


@pytest.mark.parametrize("name", list(plain_calculators.TEMPLATES))
def test_the_template_uses_only_functions_every_spreadsheet_has(name: str) -> None:
    used = set().union(*(_functions(f) for f in _formulas(_workbook(name)).values()))
    assert used - EVERY_SPREADSHEET == set()
    assert {"IF", "SUMPRODUCT" if name != plain_calculators.DIPPOUCH_FILE else "MIN"} <= used


@pytest.mark.parametrize("name", list(plain_calculators.TEMPLATES))
def test_the_template_is_one_sheet_without_add_in_settings(name: str) -> None:
    wb = _workbook(name)
    assert len(wb.sheetnames) == 1 and "xlwings.conf" not in wb.sheetnames
    assert "No add-in needed" in wb.worksheets[0]["A3"].value


@pytest.mark.parametrize("name", list(plain_calculators.TEMPLATES))
def test_the_template_keeps_its_siblings_layout(name: str) -> None:
    plain, sibling = _workbook(name).worksheets[0], _workbook(SIBLINGS[name]).worksheets[0]
    assert plain.title == sibling.title and plain["A1"].value == sibling["A1"].value
    moved = []
    for row in sibling.iter_rows():
        for cell in row:
            other = plain[cell.coordinate]
            if isinstance(cell.value, str) and cell.value.startswith("="):
                if not (isinstance(other.value, str) and other.value.startswith("=")):
                    moved.append(cell.coordinate)  # a computed cell is computed in the same place
            elif cell.value is not None and not cell.font.i and other.value != cell.value:
                moved.append(cell.coordinate)  # labels, headers, the tier table (help notes may differ)
            elif cell.fill.fill_type and cell.fill.fgColor.rgb != other.fill.fgColor.rgb:
                moved.append(cell.coordinate)  # input (yellow) and result (grey) cells
    assert moved == []
    rules = {str(r.sqref): (r.type, r.formula1) for r in sibling.data_validations.dataValidation}
    assert rules.items() <= {str(r.sqref): (r.type, r.formula1) for r in plain.data_validations.dataValidation}.items()


def test_the_dci_tier_names_are_the_ones_xlrating_accepts() -> None:
    ws = _workbook(plain_calculators.DCI_FILE)["Match"]
    first = plain_calculators.NAMES_FIRST
    names = {ws.cell(r, 13).value: ws.cell(r, 14).value for r in range(first, ws.max_row + 1) if ws.cell(r, 13).value}
    assert names == dci.K_BY_TIER
    assert "B8" in ws["B8"].coordinate and "SUMPRODUCT" in ws["P5"].value  # looked up without wildcards


def test_the_fide_table_on_the_sheet_gives_xlratings_p_for_every_gap() -> None:
    ws = _workbook(plain_calculators.DCI_FILE)["Match"]
    first, last = plain_calculators.FIDE_FIRST, plain_calculators.FIDE_FIRST + len(plain_calculators.fide_rows()) - 1
    table = [(ws[f"H{r}"].value, ws[f"J{r}"].value, ws[f"K{r}"].value) for r in range(first, last + 1)]
    wrong = []
    for gap in [*range(800), 1000, 10**6]:
        row = max(i for i, (lowest, _, _) in enumerate(table) if lowest <= gap)  # MATCH(gap, H:H, 1)
        if (table[row][1], table[row][2]) != (dci.win_probability(gap, 0, "table"), dci.win_probability(0, gap, "table")):
            wrong.append(gap)
    assert wrong == []


def test_the_mers_working_columns_are_hidden_and_outside_the_printed_page() -> None:
    ws = _workbook(plain_calculators.MERS_FILE)["Ranking"]
    assert ws.column_dimensions["L"].hidden
    assert ws.print_area == "'Ranking'!$A$1:$J$49"
    assert [ws[f"H{r}"].value for r in (5, 6, 7)] == ["2005 rules", "2010 rules", "2018 rules"]
