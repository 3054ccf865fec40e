"""workbook_templates/: generated, committed, and usable as the tools they claim to be."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest

from xlrating.functions import BY_NAME
from xlrating.gate.safe_open import load_workbook
from xlrating.sheets.templates import (
    BUTTONS_BAS,
    TEMPLATES,
    build,
    build_all,
    buttons_module,
    ema_results,
    mers_formulas,
    plain_calculators,
)
from xlrating.sheets.templates.style import FONT

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "workbook_templates"
EXCEL_BUILTINS = {"IF", "OR", "AND", "COUNT", "YEAR", "ISTEXT", "LEN", "TEXT", "DATE", "IFERROR", "ROUND", "MIN",
                  # the plain-formula calculators (tests/sheets/test_templates_plain.py)
                  "ISERROR", "ISNUMBER", "ISLOGICAL", "TRIM", "LOWER", "UPPER", "SUBSTITUTE", "CHAR", "LEFT",
                  "RIGHT", "INT", "ABS", "MAX", "SUM", "SUMPRODUCT", "INDEX", "MATCH", "EDATE", "NA"}
NEEDS_NO_ADD_IN = {ema_results.FILE_NAME, *plain_calculators.TEMPLATES}


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("templates")
    return {path.name: load_workbook(path) for path in build_all(folder)}


def _calls(formula: str) -> list[tuple[str, int]]:
    """(function name, number of arguments) for every call in an Excel formula."""
    calls = []
    for match in re.finditer(r"([A-Z][A-Z0-9_]*)\(", formula):
        depth, args, i, quoted = 1, 1, match.end(), False
        if formula[i] == ")":
            args = 0
        while depth:
            ch = formula[i]
            if ch == '"':
                quoted = not quoted
            elif not quoted and ch == "(":
                depth += 1
            elif not quoted and ch == ")":
                depth -= 1
            elif not quoted and ch == "," and depth == 1:
                args += 1
            i += 1
        calls.append((match.group(1), args))
    return calls


def _formulas(wb: Any) -> list[tuple[str, str]]:
    return [(f"{ws.title}!{cell.coordinate}", cell.value) for ws in wb.worksheets for row in ws.iter_rows()
            for cell in row if isinstance(cell.value, str) and cell.value.startswith("=")]


# --- generated and committed ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_committed_template_equals_the_generator_output(name: str) -> None:
    assert (COMMITTED / name).read_bytes() == build(name), f"{name} is stale: run `xlrating templates`"


def test_every_committed_xlsx_has_a_generator() -> None:
    assert {p.name for p in COMMITTED.glob("*.xlsx")} == set(TEMPLATES)


def test_committed_buttons_module_is_the_package_copy() -> None:
    # the source is xlrating/sheets/templates/xlrating_buttons.bas (it ships in the wheel); edit it there
    assert (REPO / "macros" / BUTTONS_BAS).read_bytes() == buttons_module(), \
        f"macros/{BUTTONS_BAS} differs from xlrating/sheets/templates/{BUTTONS_BAS}: run `xlrating templates`"
    assert buttons_module().startswith(b'Attribute VB_Name = "xlrating_buttons"\r\n')


def test_building_twice_gives_identical_bytes() -> None:
    name = ema_results.FILE_NAME
    assert build(name) == build(name)


# --- formulas -------------------------------------------------------------------------------------------

def test_every_formula_calls_known_functions_with_a_valid_number_of_arguments(workbooks: dict[str, Any]) -> None:
    for name, wb in workbooks.items():
        for where, formula in _formulas(wb):
            for function, count in _calls(formula):
                assert function in BY_NAME or function in EXCEL_BUILTINS, f"{name} {where}: {function}"
                if function in BY_NAME:
                    arguments = BY_NAME[function].arguments
                    required = sum(not a.optional for a in arguments)
                    assert required <= count <= len(arguments), f"{name} {where}: {formula}"


def test_every_calculator_uses_xlrating_functions_and_names_the_udf_module(workbooks: dict[str, Any]) -> None:
    for name, wb in workbooks.items():
        if name in NEEDS_NO_ADD_IN:
            continue  # plain formulas: tests/sheets/test_ema_template_native.py, test_templates_plain*.py
        assert any(f in BY_NAME for _, formula in _formulas(wb) for f, _ in _calls(formula)), name
        conf = wb["xlwings.conf"]
        assert (conf["A1"].value, conf["B1"].value) == ("UDF Modules", "xlrating.hosts.xlwings_udfs"), name


def test_computed_cells_are_guarded_so_empty_rows_stay_blank(workbooks: dict[str, Any]) -> None:
    for name, wb in workbooks.items():
        for where, formula in _formulas(wb):
            if any(f in BY_NAME for f, _ in _calls(formula)):
                assert formula.startswith("=IF("), f"{name} {where}: {formula}"


# --- the EMA results reporting sheet -----------------------------------------------------------------------

def _ema(workbooks: dict[str, Any]) -> Any:
    return workbooks[ema_results.FILE_NAME]["Results"]


def test_ema_block_has_the_standard_labels_with_input_cells_beside_them(workbooks: dict[str, Any]) -> None:
    ws = _ema(workbooks)
    labels = ["Tournament name", "Ruleset", "City", "Country", "Start date", "End date", "Days", "Players",
              "Countries", "MERS weight", "Qualification required"]
    assert [ws.cell(4 + i, 1).value for i in range(len(labels))] == labels
    for i in range(len(labels)):
        assert ws.cell(4 + i, 2).fill.fgColor.rgb.endswith("FFF2CC")
    assert ws["B8"].number_format == ws["B9"].number_format == "yyyy-mm-dd"


def test_ema_results_header_and_base_rank_formula(workbooks: dict[str, Any]) -> None:
    ws = _ema(workbooks)
    assert [c.value for c in ws[16]][:8] == ["Position", "EMA ID", "Last name", "First name", "Country",
                                            "Table points", "Score", "Base rank"]
    assert ws["H17"].value == "=" + mers_formulas.base_rank("$B$11", "$A17")
    assert ws["H17"].value.startswith('=IF(OR($A17="",$B$11=""),"",')  # an unused row stays empty
    last = ema_results.LAST_ROW
    assert ws[f"H{last}"].value == "=" + mers_formulas.base_rank("$B$11", f"$A{last}")


def test_ema_2018_weight_is_computed_beside_the_mers_weight(workbooks: dict[str, Any]) -> None:
    cell = _ema(workbooks)[ema_results.WEIGHT_2018_CELL]
    assert ema_results.WEIGHT_2018_CELL == "C13"
    assert cell.value == "=" + mers_formulas.tournament_weight("B10", "B11", "B12", 'B14="Yes"')
    assert cell.number_format == '"2018 rules: "General'


def _rule_for(ws: Any, cell: str) -> Any:
    [rule] = [dv for dv in ws.data_validations.dataValidation if cell in dv.sqref]
    return rule


def test_ema_ids_are_text_cells_validated_as_eight_digits(workbooks: dict[str, Any]) -> None:
    ws = _ema(workbooks)
    assert all(ws[f"B{r}"].number_format == "@" for r in range(17, ema_results.LAST_ROW + 1))
    rule = _rule_for(ws, "B17")
    assert rule.type == "custom"
    assert rule.formula1 == 'OR(B17="-",AND(ISTEXT(B17),LEN(B17)=8,TEXT(--B17,"00000000")=B17))'
    assert rule.showInputMessage and "04060059" in rule.prompt
    assert f"B{ema_results.LAST_ROW}" in rule.sqref


def test_ema_positions_are_whole_numbers_up_to_the_declared_players(workbooks: dict[str, Any]) -> None:
    rule = _rule_for(_ema(workbooks), "A17")
    assert (rule.type, rule.operator, rule.formula1) == ("whole", "between", "1")
    assert rule.formula2 == 'IF($B$11="",10000,$B$11)'


def test_ema_ruleset_is_a_drop_down_of_mcr_and_riichi(workbooks: dict[str, Any]) -> None:
    rule = _rule_for(_ema(workbooks), "B5")
    assert (rule.type, rule.formula1) == ("list", '"MCR,Riichi"')


def test_every_input_cell_has_an_input_message(workbooks: dict[str, Any]) -> None:
    for name, wb in workbooks.items():
        for ws in wb.worksheets:
            for rule in ws.data_validations.dataValidation:
                assert rule.showInputMessage and rule.prompt and rule.promptTitle, f"{name} {ws.title} {rule.sqref}"


def test_sheets_freeze_their_header_and_print_sensibly(workbooks: dict[str, Any]) -> None:
    ws = _ema(workbooks)
    assert ws.freeze_panes == "A17"
    assert ws.print_title_rows == "$16:$16"
    assert ws.print_area == f"'Results'!$A$1:$H${ema_results.LAST_ROW}"
    for name, wb in workbooks.items():
        main = wb.worksheets[0]
        assert main.freeze_panes, name
        assert main.print_area, name
        assert main.page_setup.fitToWidth == 1, name


def test_headers_use_the_named_font(workbooks: dict[str, Any]) -> None:
    assert _ema(workbooks)["A16"].font.name == FONT


def test_filled_in_ema_template_passes_the_validator(tmp_path: Path) -> None:
    validator = pytest.importorskip("xlrating.sheets.validate.ema.sheet")
    path = tmp_path / "open.xlsx"
    path.write_bytes(build(ema_results.FILE_NAME))
    wb = load_workbook(path)
    ws = wb["Results"]
    block = {"B4": "Vienna Open", "B5": "Riichi", "B6": "Vienna", "B7": "AUT", "B8": dt.date(2026, 5, 2),
             "B9": dt.date(2026, 5, 3), "B10": 2, "B11": 3, "B12": 2, "B13": 1, "B14": "No"}
    for ref, value in block.items():
        ws[ref] = value
    players = [(1, "01010001", "Huber", "Anna", "AUT"), (2, "04060059", "Martin", "Paul", "FRA"),
               (3, "-", "Smith", "Jo", "USA")]
    for row, (place, ema_id, last, first, country) in enumerate(players, start=17):
        ws[f"A{row}"], ws[f"B{row}"], ws[f"C{row}"], ws[f"D{row}"], ws[f"E{row}"] = place, ema_id, last, first, country
        ws[f"F{row}"], ws[f"G{row}"] = 4 - place, 100 * (2 - place)
    wb.save(path)
    result = validator.validate_file(path)
    errors = [f for f in result.findings if f.severity == "error"]
    assert errors == []
    assert result.submission.tournament.name == "Vienna Open"
    assert [p.ema_id for p in result.submission.players] == ["01010001", "04060059", None]
