"""The function table: what every host (xlwings, headless engine, VBA) calls."""

import datetime as dt
import json
from pathlib import Path

import pytest

from xlrating import dci, dippouch, mers
from xlrating.functions import BY_NAME, FUNCTIONS, ExcelError, call

# The Excel functions of docs/interfaces.md with their arguments in order ([x]: optional).
INTERFACE = json.loads((Path(__file__).parent / "data" / "interface_functions.json").read_text())["functions"]


@pytest.mark.parametrize("name, arguments", INTERFACE.items())
def test_every_interface_function_is_in_the_table_with_its_arguments_first(name, arguments):
    fn = BY_NAME[name]
    listed = [f"[{a.name}]" if a.optional else a.name for a in fn.arguments]
    assert listed[: len(arguments)] == arguments
    assert all(a.optional for a in fn.arguments[len(arguments):])  # extras never break old formulas


def test_the_table_has_no_function_outside_the_interface():
    assert {f.name for f in FUNCTIONS} == set(INTERFACE)


def test_scalar_function_equals_the_python_api():
    assert call("DIPPOUCH_PERCENTILE", [65, 8]) == dippouch.percentile(65, 8)
    assert call("MERS_BASE_RANK", [100, 75, "truncate"]) == 252
    assert call("DCI_WIN_PROBABILITY", [1700, 1600, "table"]) == 0.64


def test_names_are_case_insensitive_from_hosts():
    assert call("mers_weight", [2, 60, 7, True]) == 4.0


def test_optional_arguments_take_their_defaults_when_missing_or_empty():
    assert call("DCI_DELTA", [1600, 1600, "W"]) == pytest.approx(8)
    assert call("DCI_DELTA", [1600, 1600, "W", None]) == pytest.approx(8)
    assert call("DIPPOUCH_VALUE", [65, 3, None, None]) == 15


def test_the_k_default_the_function_wizard_shows_is_the_dci_default():
    (k,) = [a for a in BY_NAME["DCI_DELTA"].arguments if a.name == "k"]
    assert k.default == dci.DEFAULT_K


def test_every_core_function_the_table_names_exists():
    # the table names its core functions lazily (a system loads at its first call): each name must
    # resolve to the system function of that name
    import importlib

    for fn in FUNCTIONS:
        system, name = getattr(fn.compute, "system", None), getattr(fn.compute, "name", None)
        if system is not None:
            assert getattr(importlib.import_module(f"xlrating.core.{system}"), name) is not None, fn.name


def test_k_accepts_a_tier_name():
    assert call("DCI_DELTA", [1600, 1600, "W", "Grand Prix"]) == pytest.approx(20)


def test_numbers_typed_as_text_are_read_as_numbers():
    assert call("MERS_BASE_RANK", ["100", "25"]) == pytest.approx(757.5757575)


def test_a_range_in_a_scalar_argument_returns_one_value_per_cell():
    out = call("MERS_BASE_RANK", [[[100], [100], [100]], [[1], [25], [100]], "round"])
    assert out == [[1000.0], [758.0], [0.0]]


def test_a_single_cell_broadcasts_against_a_range():
    assert call("DIPPOUCH_PERCENTILE", [10, [[1, 10]]]) == [[95.0, 5.0]]


def test_ranges_of_different_shapes_are_a_value_error():
    out = call("DIPPOUCH_PERCENTILE", [[[10, 10]], [[1], [2]]])
    assert isinstance(out, ExcelError) and out.code == "#VALUE!"


def test_a_bad_cell_in_a_range_errors_alone():
    out = call("DIPPOUCH_PERCENTILE", [10, [[1], [11], ["x"]]])
    assert out[0][0] == 95.0
    assert out[1][0].code == "#NUM!" and "place" in out[1][0].reason
    assert out[2][0].code == "#VALUE!"


def test_an_error_input_propagates():
    assert call("DIPPOUCH_PERCENTILE", [ExcelError("#DIV/0!"), 1]) == ExcelError("#DIV/0!")
    assert call("DIPPOUCH_PERCENTILE", ["#N/A", 1]).code == "#N/A"


def test_an_error_inside_a_table_argument_propagates():
    table = [["event", "date", "players", "rounds", "player", "place"], ["A", "2020-01-01", 10, 2, "x", ExcelError("#REF!")]]
    assert call("DIPPOUCH_RATINGS", [table]).code == "#REF!"


def test_missing_required_argument_names_it():
    out = call("MERS_WEIGHT", [1, 40])
    assert out.code == "#VALUE!" and "countries" in out.reason


def test_an_empty_required_cell_names_the_argument():
    out = call("MERS_BASE_RANK", [None, 3])
    assert out.code == "#VALUE!" and "players" in out.reason


def test_out_of_range_is_num_and_wrong_kind_is_value():
    assert call("MERS_BASE_RANK", [10, 11]).code == "#NUM!"
    assert call("MERS_BASE_RANK", [10, "first"]).code == "#VALUE!"


def test_too_few_results_is_not_ranked_na_not_zero():
    out = call("MERS_RANKING", [[[900]], [[1]], [[dt.date(2024, 1, 1)]]])
    assert out.code == "#N/A" and "not ranked" in out.reason


def test_mers_ranking_skips_fully_empty_rows_and_defaults_as_of_to_the_latest_date():
    ranks = [[800], [600], [None]]
    weights = [[1], [2], [None]]
    dates = [[dt.date(2024, 1, 1)], [45292 + 31], [None]]  # a date cell and an Excel serial (2024-02-01)
    expected = mers.ranking([(800, 1, dt.date(2024, 1, 1)), (600, 2, dt.date(2024, 2, 1))], dt.date(2024, 2, 1))
    assert call("MERS_RANKING", [ranks, weights, dates]) == pytest.approx(expected)


def test_mers_ranking_half_filled_row_names_the_cell():
    out = call("MERS_RANKING", [[[800], [600]], [[1], [None]], [["2024-01-01"], ["2024-02-01"]]])
    assert out.code == "#VALUE!" and "weights[2]" in out.reason


def test_table_functions_spill_a_header_and_one_row_per_player():
    table = [["event", "date", "players", "rounds", "player", "place"],
             ["A", "2020-01-01", 10, 2, "x", 1], ["A", "2020-01-01", 10, 2, "y", 2]]
    out = call("DIPPOUCH_RATINGS", [table])
    assert out[0] == ["player", "rating", "events"]
    assert [row[0] for row in out[1:]] == ["x", "y"]
    assert out[1][1] == pytest.approx(dippouch.ratings(dippouch.results_from_table(table))[0].rating)


def test_dci_ratings_with_several_categories_asks_for_one():
    table = [["date", "round", "player", "opponent", "result", "category"],
             ["2009-01-01", 1, "a", "b", "W", "Limited"], ["2009-01-02", 1, "a", "b", "W", "Constructed"]]
    assert call("DCI_RATINGS", [table]).code == "#VALUE!"
    out = call("DCI_RATINGS", [table, "Limited"])
    assert out[1] == ["a", dci.STARTING_RATING + 8, 1]


def test_mers_rankings_with_both_rulesets_asks_for_one():
    table = [["tournament", "date", "players", "weight", "ruleset", "player", "place"],
             ["T", "2024-01-01", 2, 1, "MCR", "a", 1], ["U", "2024-01-01", 2, 1, "Riichi", "a", 1]]
    assert call("MERS_RANKINGS", [table]).code == "#VALUE!"
    assert call("MERS_RANKINGS", [table, None, "2005", "MCR"]) == [["player", "total", "counted"]]


def test_a_bad_table_cell_is_a_value_error_naming_row_and_column():
    table = [["event", "date", "players", "rounds", "player", "place"], ["A", "someday", 10, 2, "x", 1]]
    out = call("DIPPOUCH_RATINGS", [table])
    assert out.code == "#VALUE!" and "row 2" in out.reason and "date" in out.reason


def test_too_many_arguments_is_a_value_error():
    assert call("DCI_K", ["casual", 1]).code == "#VALUE!"


def test_text_that_python_but_not_a_spreadsheet_reads_as_a_number_is_refused():
    assert call("MERS_BASE_RANK", ["1_000", 1]).code == "#VALUE!"
    assert call("MERS_BASE_RANK", ["inf", 1]).code == "#VALUE!"
