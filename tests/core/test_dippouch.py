"""Dip Pouch rules (docs/rating-rules.md section 1), one test per rule or edge."""

import datetime as dt
import random

import pytest

from xlrating import dippouch
from xlrating.core.errors import InvalidArgument, TableError

D = dt.date


def test_defaults_are_pinned():
    assert dippouch.STARTING_RATING == 40
    assert dippouch.WORLD_CHAMPIONSHIP_VALUE == 20
    assert dippouch.VALUE_CAP == 15
    assert dippouch.CUTOFF_YEAR == 2001


def test_worked_example_55_rated_player_8th_of_65_multi_round():
    pct = dippouch.percentile(65, 8)
    value = dippouch.tournament_value(65, 3)
    assert round(pct, 2) == 88.46
    assert round(65 / 3.5 + 2, 2) == 20.57 and value == 15
    assert round(dippouch.new_rating(55, pct, value), 3) == 60.019


@pytest.mark.parametrize("players, place, expected", [(10, 1, 95.0), (10, 10, 5.0), (1, 1, 50.0), (7, 4, 50.0)])
def test_percentile_is_n_plus_half_minus_place_over_n(players, place, expected):
    assert dippouch.percentile(players, place) == pytest.approx(expected)


@pytest.mark.parametrize("place", [0, 11, 2.5])
def test_percentile_rejects_places_outside_1_to_n(place):
    with pytest.raises(InvalidArgument, match="place"):
        dippouch.percentile(10, place)


def test_percentile_rejects_a_non_number_naming_the_argument():
    with pytest.raises(InvalidArgument) as err:
        dippouch.percentile("ten", 1)
    assert err.value.argument == "players" and err.value.received == "ten"


def test_world_championship_is_worth_20_whatever_its_size_or_year():
    assert dippouch.tournament_value(7, 1, world_championship=True, year=1990) == 20
    assert dippouch.tournament_value(300, 7, world_championship=True) == 20


def test_one_round_event_value_is_n_over_7_plus_2():
    assert dippouch.tournament_value(21, 1) == pytest.approx(5.0)


def test_multi_round_event_value_is_n_over_3_5_plus_2():
    assert dippouch.tournament_value(21, 2) == pytest.approx(8.0)


@pytest.mark.parametrize("players, rounds, expected", [
    (45, 2, 45 / 3.5 + 2), (46, 2, 15.0), (91, 1, 15.0), (90, 1, 90 / 7 + 2), (500, 1, 15.0)])
def test_value_is_capped_at_15_exactly_at_the_boundary(players, rounds, expected):
    assert dippouch.tournament_value(players, rounds) == pytest.approx(expected)


def test_events_before_2001_are_worth_nothing_and_2001_counts():
    assert dippouch.tournament_value(30, 3, year=2000) == 0
    assert dippouch.tournament_value(30, 3, year=2001) > 0


def test_cutoff_year_is_a_parameter():
    assert dippouch.tournament_value(30, 3, year=2004, cutoff_year=2005) == 0


def test_new_rating_moves_value_percent_of_the_way_to_the_percentile():
    assert dippouch.new_rating(40, 90, 10) == pytest.approx(45)
    assert dippouch.new_rating(60, 20, 20) == pytest.approx(52)


def _result(event, date, players, rounds, player, place, wc=False):
    return dippouch.Result(event, date, players, rounds, player, place, wc)


def test_every_player_starts_at_40():
    board = dippouch.ratings([_result("A", D(2020, 1, 1), 7, 1, "x", 4)])
    # percentile of 4th of 7 is exactly 50; value 3: 40 + 0.03 * 10
    assert board[0].rating == pytest.approx(40.3)


def test_events_are_replayed_in_date_order_whatever_the_row_order():
    rows = [
        _result("Late", D(2022, 5, 1), 30, 3, "x", 30),
        _result("Early", D(2021, 5, 1), 30, 3, "x", 1),
    ]
    expected = 40.0
    for place in (1, 30):
        value = dippouch.tournament_value(30, 3)
        expected = dippouch.new_rating(expected, dippouch.percentile(30, place), value)
    assert dippouch.ratings(rows)[0].rating == pytest.approx(expected)
    assert dippouch.ratings(list(reversed(rows)))[0].rating == pytest.approx(expected)


def test_declared_player_count_is_used_and_missing_rows_never_renumber():
    # Only 2 of the 50 declared players are listed; place 40 stays place 40.
    board = dippouch.ratings([_result("A", D(2020, 1, 1), 50, 2, "x", 1), _result("A", D(2020, 1, 1), 50, 2, "y", 40)])
    y = next(r for r in board if r.player == "y")
    assert y.rating == pytest.approx(dippouch.new_rating(40, dippouch.percentile(50, 40), 15))


def test_tie_policy_best_keeps_the_shared_place_and_average_uses_the_mean_place():
    rows = [_result("A", D(2020, 1, 1), 40, 3, p, 26) for p in "abc"]
    best = dippouch.ratings(rows, ties="best")[0].rating
    average = dippouch.ratings(rows, ties="average")[0].rating
    value = dippouch.tournament_value(40, 3)
    assert best == pytest.approx(40 + value / 100 * ((40.5 - 26) / 40 * 100 - 40))
    assert average == pytest.approx(40 + value / 100 * ((40.5 - 27) / 40 * 100 - 40))


def test_a_player_listed_twice_at_one_event_is_an_error_naming_the_row():
    rows = [["event", "date", "players", "rounds", "player", "place"],
            ["A", "2020-01-01", 10, 2, "x", 1], ["A", "2020-01-01", 10, 2, "x", 2]]
    with pytest.raises(TableError) as err:
        dippouch.ratings(dippouch.results_from_table(rows))
    assert err.value.row == 3 and err.value.column == "player"


def test_table_headers_match_case_insensitively_and_extra_columns_are_ignored():
    rows = [["Event", "DATE", "Players", "Rounds", "Player", "Place", "World Championship", "notes"],
            ["WDC", "2019-08-04", 80, 5, "x", 1, "TRUE", "final board"]]
    (result,) = dippouch.results_from_table(rows)
    assert result.world_championship is True and result.players == 80


def test_table_place_beyond_declared_players_names_row_and_column():
    rows = [["event", "date", "players", "rounds", "player", "place"], ["A", "2020-01-01", 10, 2, "x", 11]]
    with pytest.raises(TableError, match=r"row 2, column 'place'"):
        dippouch.results_from_table(rows)


def test_table_missing_column_names_it():
    with pytest.raises(TableError, match="rounds"):
        dippouch.results_from_table([["event", "date", "players", "player", "place"]])


def test_leaderboard_counts_events_and_ranks_best_first():
    rng = random.Random(7)
    rows = []
    for e in range(20):
        players = rng.sample(range(40), 12)
        for place, p in enumerate(players, start=1):
            rows.append(_result(f"E{e}", D(2020, 1, 1) + dt.timedelta(days=7 * e), 12, 3, f"p{p}", place))
    board = dippouch.ratings(rows)
    assert [r.rating for r in board] == sorted((r.rating for r in board), reverse=True)
    assert sum(r.events for r in board) == len(rows)
