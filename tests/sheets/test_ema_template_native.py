"""The EMA results template needs no add-in: its computed cells are plain spreadsheet formulas.

Filled in with each example submission (as the validator reads it) and recalculated by LibreOffice
with a fresh profile (no add-in installed), and by ``xlrating convert``, the template shows no error
cell; every row's base rank is ``mers.base_rank(players, place, "round")`` of the validator's row
(a tie shares its base rank), unused rows stay empty, and the 2018 weight beside the MERS weight is
``mers.tournament_weight``. A grid of awkward inputs (numbers typed as text, TRUE, spaces, places
out of range, exact halves, errors in the input) gives the same value or error value as xlrating's
own ``MERS_BASE_RANK``/``MERS_WEIGHT`` would in the same cells.
"""

from __future__ import annotations

import io
import itertools
import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner

from xlrating.cli import main
from xlrating.core import mers
from xlrating.engine import libreoffice
from xlrating.sheets.templates import build, ema_results, mers_formulas
from xlrating.sheets.validate.ema.sheet import validate_file
from xlrating.sheets.validate.ema.submission import Submission

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.xlsx"))
ERROR_VALUES = {"#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A", "#GETTING_DATA"}
GRID = "grid.xlsx"
BLOCK_FIELDS = {"Tournament name": "name", "Ruleset": "ruleset", "City": "city", "Country": "country",
                "Start date": "start_date", "End date": "end_date", "Days": "days", "Players": "players",
                "Countries": "countries", "MERS weight": "weight"}

no_libreoffice = pytest.mark.skipif(libreoffice.soffice() is None, reason="LibreOffice (soffice) is not installed")


# --- filling the template -----------------------------------------------------------------------------

def fill_template(submission: Submission, path: Path) -> Path:
    """The EMA template with ``submission``'s tournament block and rows typed in, saved at ``path``."""
    wb = openpyxl.load_workbook(io.BytesIO(build(ema_results.FILE_NAME)))
    ws = wb["Results"]
    t = submission.tournament
    for label, attribute in BLOCK_FIELDS.items():
        ws[f"B{ema_results.ROW_OF[label]}"] = getattr(t, attribute)
    if t.qualification is not None:
        ws[f"B{ema_results.ROW_OF['Qualification required']}"] = "Yes" if t.qualification else "No"
    assert len(submission.players) <= ema_results.PLAYER_ROWS
    for row, player in enumerate(submission.players, start=ema_results.FIRST_ROW):
        values = (player.place, player.ema_id or "-", player.last_name, player.first_name, player.country,
                  player.table_points, player.score)
        for column, value in enumerate(values, start=1):
            ws.cell(row, column, value)
    wb.save(path)
    return path


def expected_base_ranks(submission: Submission) -> list[float | None]:
    """Column H of every table row: the validator's rows first, then the unused rows (empty)."""
    n = submission.tournament.players
    assert n is not None
    ranks: list[float | None] = [None if p.place is None else mers.base_rank(n, p.place, "round")
                                 for p in submission.players]
    return ranks + [None] * (ema_results.PLAYER_ROWS - len(ranks))


def expected_weight(submission: Submission) -> float:
    t = submission.tournament
    assert t.days is not None and t.players is not None and t.countries is not None
    return mers.tournament_weight(t.days, t.players, t.countries, bool(t.qualification))


def _blank(value: Any) -> Any:
    return None if value == "" else value


def computed_cells(path: Path) -> tuple[list[Any], Any]:
    """(base ranks of every table row, the 2018 weight) as cached in a recalculated workbook."""
    ws = openpyxl.load_workbook(path, data_only=True)["Results"]
    ranks = [_blank(ws[f"H{row}"].value) for row in range(ema_results.FIRST_ROW, ema_results.LAST_ROW + 1)]
    return ranks, _blank(ws[ema_results.WEIGHT_2018_CELL].value)


def error_cells(path: Path) -> list[str]:
    wb = openpyxl.load_workbook(path, data_only=True)
    return [f"{ws.title}!{cell.coordinate}={cell.value}" for ws in wb.worksheets for row in ws.iter_rows()
            for cell in row if isinstance(cell.value, str) and (cell.value in ERROR_VALUES
                                                                or cell.value.startswith("Err:"))]


def convert_with_xlrating(sources: list[Path], out_dir: Path) -> dict[str, Path]:
    """``xlrating convert SOURCES -o OUT --strict``: every cell computed, none left for Excel."""
    result = CliRunner().invoke(main, ["convert", *map(str, sources), "-o", str(out_dir), "--strict"])
    assert result.exit_code == 0, result.output
    return {source.name: out_dir / source.name for source in sources}


def recalculate_in_libreoffice(sources: list[Path], out_dir: Path, profile: Path) -> dict[str, Path]:
    """Every source opened by one LibreOffice run (as ``engine.libreoffice.convert`` opens one) and
    saved as .xlsx with the values it computed."""
    executable = libreoffice.soffice()
    assert executable is not None
    command = [executable, f"-env:UserInstallation={profile.resolve().as_uri()}", "--headless", "--norestore",
               "--convert-to", "xlsx", "--outdir", str(out_dir), *map(str, sources)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return {source.name: out_dir / source.name for source in sources}


@pytest.fixture(scope="module")
def submissions() -> dict[str, Submission]:
    assert len(EXAMPLES) >= 6
    return {path.name: validate_file(path).submission for path in EXAMPLES}


@pytest.fixture(scope="module")
def workbooks(submissions: dict[str, Submission], tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The template filled with each example, and the grid of awkward inputs (``grid.xlsx``)."""
    folder = tmp_path_factory.mktemp("filled")
    filled = [fill_template(submission, folder / name) for name, submission in submissions.items()]
    return [*filled, _grid(folder / GRID)]


@pytest.fixture(scope="module")
def by_xlrating(workbooks: list[Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return convert_with_xlrating(workbooks, tmp_path_factory.mktemp("xlrating"))


@pytest.fixture(scope="module")
def by_libreoffice(workbooks: list[Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    work = tmp_path_factory.mktemp("libreoffice")
    profile = libreoffice.make_profile(work / "profile")  # fresh: no add-in, every formula recalculated
    return recalculate_in_libreoffice(workbooks, work / "out", profile)


# --- the template itself ---------------------------------------------------------------------------------

def test_the_ema_template_calls_only_functions_every_spreadsheet_has() -> None:
    wb = openpyxl.load_workbook(io.BytesIO(build(ema_results.FILE_NAME)))
    formulas = [cell.value for ws in wb.worksheets for row in ws.iter_rows() for cell in row
                if isinstance(cell.value, str) and cell.value.startswith("=")]
    assert len(formulas) == ema_results.PLAYER_ROWS + 1
    for formula in formulas:
        assert "MERS_" not in formula and "_xldudf" not in formula, formula
    assert "xlwings.conf" not in wb.sheetnames


def test_a_tie_in_the_examples_shares_its_base_rank(submissions: dict[str, Submission]) -> None:
    # the Lyon example has two players tied for 23rd of 24: both get the base rank of 23rd
    lyon = next(s for name, s in submissions.items() if name.startswith("01_"))
    tied = [p for p in lyon.players if p.place == 23]
    assert len(tied) == 2
    ranks = expected_base_ranks(lyon)
    assert [ranks[lyon.players.index(p)] for p in tied] == [43, 43]  # (24 - 23) / 23 * 1000 = 43.48


# --- every example, recalculated ---------------------------------------------------------------------------

@pytest.mark.parametrize("example", [p.name for p in EXAMPLES])
def test_xlrating_convert_computes_the_filled_template(example: str, submissions: dict[str, Submission],
                                                       by_xlrating: dict[str, Path]) -> None:
    out = by_xlrating[example]
    assert error_cells(out) == []
    ranks, weight = computed_cells(out)
    assert ranks == expected_base_ranks(submissions[example])
    assert weight == expected_weight(submissions[example])


@pytest.mark.libreoffice
@no_libreoffice
@pytest.mark.parametrize("example", [p.name for p in EXAMPLES])
def test_libreoffice_without_add_in_computes_the_filled_template(
        example: str, submissions: dict[str, Submission], by_libreoffice: dict[str, Path]) -> None:
    out = by_libreoffice[example]
    assert error_cells(out) == []
    ranks, weight = computed_cells(out)
    assert ranks == expected_base_ranks(submissions[example])
    assert weight == expected_weight(submissions[example])


@pytest.mark.libreoffice
@no_libreoffice
@pytest.mark.parametrize("example", [p.name for p in EXAMPLES])
def test_the_validator_reads_the_template_libreoffice_saved_as_it_read_the_example(
        example: str, submissions: dict[str, Submission], by_libreoffice: dict[str, Path]) -> None:
    result = validate_file(by_libreoffice[example])
    original = submissions[example]
    assert "FORMULA_NO_VALUE" not in {f.code for f in result.findings}
    assert [(p.place, p.last_name) for p in result.submission.players] == [
        (p.place, p.last_name) for p in original.players]
    if validate_file(next(p for p in EXAMPLES if p.name == example)).valid:
        assert result.findings == []


# --- awkward inputs: the same value or error as xlrating's functions ---------------------------------------

PLACES = [1, 2, 23, 24, 198, 200, 401, 0, -1, 25, 402, 2.5, "3", " 7 ", "2.0", "1e1", " ", "x", "=NA()", '=""',
          None]
# every place with valid players; invalid players (checked first, as xlrating does) with a few places
BASE_RANK_CASES = [*itertools.product([24, 401, "20", " 20 "], PLACES),
                   *itertools.product([2, 1, 2.5, "x", " ", "=NA()"], [1, 2, 0, 2.5, "3", "x", "=NA()", None])]
# (players, place, what the spreadsheet formula gives) where xlrating's function says #VALUE! (see
# mers_formulas): TRUE/FALSE read as 1/0, and spaces for a place beside an invalid Players count
KNOWN_DIFFERENCES = [(24, True, 1000), (24, False, "#NUM!"), (True, 1, "#NUM!"), (True, "x", "#NUM!"),
                     (1, " ", "#NUM!"), (2.5, " ", "#NUM!")]
DAYS = [1, 2, 3, 4, 0, 2.5, "2", None]
COUNTS = [(2, 1), (40, 5), (41, 5), (80, 6), (81, 9), (90, 10), (1, 0), (60.5, 7.5)]
QUALIFICATION = ["Yes", "No", "yes", None, "=NA()"]
WEIGHT_CASES = [(days, players, countries, QUALIFICATION[i % 4])  # an error in qualification: valid counts only
                for i, (days, (players, countries)) in enumerate(itertools.product(DAYS, COUNTS))]
WEIGHT_CASES += [(d, 50, 7, q) for d in (1, 3) for q in QUALIFICATION] + [(1, 41, 5, "No"), (4, 81, 10, "Yes")]


def _grid(path: Path) -> Path:
    """Inputs beside the template's native formula and the same cell with xlrating's function."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "BaseRank"
    ws.append(["players", "place", "native", "xlrating"])
    for players, place in [*BASE_RANK_CASES, *((n, p) for n, p, _ in KNOWN_DIFFERENCES)]:
        row = ws.max_row + 1
        ws.append([players, place, "=" + mers_formulas.base_rank(f"$A{row}", f"$B{row}"),
                   f'=IF(OR($B{row}="",$A{row}=""),"",MERS_BASE_RANK($A{row},$B{row},"round"))'])
    ws = wb.create_sheet("Weight")
    ws.append(["days", "players", "countries", "qualification", "native", "xlrating"])
    for days, players, countries, qualification in WEIGHT_CASES:
        row = ws.max_row + 1
        ws.append([days, players, countries, qualification,
                   "=" + mers_formulas.tournament_weight(f"A{row}", f"B{row}", f"C{row}", f'D{row}="Yes"'),
                   f'=IF(COUNT(A{row},B{row},C{row})=3,MERS_WEIGHT(A{row},B{row},C{row},D{row}="Yes"),"")'])
    wb.save(path)
    return path


def _columns(path: Path, sheet: str, native: int, ours: int) -> list[tuple[list[Any], Any, Any]]:
    """(inputs, native formula's value, xlrating function's value) for every case, in case order."""
    ws = openpyxl.load_workbook(path, data_only=True)[sheet]
    inputs = openpyxl.load_workbook(path)[sheet]
    rows = [([c.value for c in inputs[r][:native - 1]], _blank(ws.cell(r, native).value), _blank(ws.cell(r, ours).value))
            for r in range(2, ws.max_row + 1)]
    return rows[:len(BASE_RANK_CASES)] if sheet == "BaseRank" else rows


def _known_differences(path: Path) -> list[tuple[Any, Any]]:
    """(native formula's value, xlrating function's value) for each of KNOWN_DIFFERENCES."""
    ws = openpyxl.load_workbook(path, data_only=True)["BaseRank"]
    first = 2 + len(BASE_RANK_CASES)
    return [(ws.cell(r, 3).value, ws.cell(r, 4).value) for r in range(first, first + len(KNOWN_DIFFERENCES))]


@pytest.mark.parametrize("sheet, native, ours, some_values", [
    ("BaseRank", 3, 4, {None, "#VALUE!", "#NUM!", "#N/A", 1000, 508, 0}),
    ("Weight", 5, 6, {None, "#NUM!", "#N/A", 1, 1.5, 2.5, 4, 6})])  # 6: 3 + 1 + 1 + 1
def test_native_formulas_equal_xlrating_functions_on_awkward_inputs(by_xlrating: dict[str, Path], sheet: str,
                                                                    native: int, ours: int, some_values: set[Any]) -> None:
    rows = _columns(by_xlrating[GRID], sheet, native, ours)
    assert len(rows) > 50
    differ = [(inputs, n, o) for inputs, n, o in rows if n != o]
    assert differ == []
    assert {o for _, _, o in rows} >= some_values


@pytest.mark.libreoffice
@no_libreoffice
@pytest.mark.parametrize("sheet, native, ours", [("BaseRank", 3, 4), ("Weight", 5, 6)])
def test_libreoffice_computes_the_native_formulas_as_xlrating_on_awkward_inputs(
        by_xlrating: dict[str, Path], by_libreoffice: dict[str, Path], sheet: str, native: int, ours: int) -> None:
    libreoffice_rows = _columns(by_libreoffice[GRID], sheet, native, ours)
    xlrating_rows = _columns(by_xlrating[GRID], sheet, native, ours)
    assert len(libreoffice_rows) == len(xlrating_rows)
    differ = [(inputs, lo, o) for (inputs, lo, _), (_, _, o) in zip(libreoffice_rows, xlrating_rows) if lo != o]
    assert differ == []


def test_true_false_and_spaces_beside_invalid_players_are_the_known_differences(by_xlrating: dict[str, Path]) -> None:
    assert _known_differences(by_xlrating[GRID]) == [(native, "#VALUE!") for _, _, native in KNOWN_DIFFERENCES]


@pytest.mark.libreoffice
@no_libreoffice
def test_libreoffice_shows_the_known_differences_as_xlrating_convert_does(by_libreoffice: dict[str, Path]) -> None:
    assert [native for native, _ in _known_differences(by_libreoffice[GRID])] == [
        native for _, _, native in KNOWN_DIFFERENCES]
