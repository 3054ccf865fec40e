"""MERS rules (docs/rating-rules.md section 3), one test per rule or edge."""

import datetime as dt

import pytest

from xlrating import mers
from xlrating.core.errors import InvalidArgument, NotRanked, TableError

D = dt.date


def test_defaults_are_pinned():
    assert mers.MINIMUM_RESULTS == 2 and mers.PADDED_RESULTS == 5
    assert mers.RULES == ("2005", "2010", "2018")
    assert mers.ranking.__defaults__ == (None,)  # the era in force on the ranking date
    assert [mers.rules_in_force(d) for d in (D(2010, 7, 11), D(2010, 7, 12), D(2017, 12, 31), D(2018, 1, 1))] \
        == ["2005", "2010", "2010", "2018"]
    assert mers.base_rank.__defaults__ == ("none",)


def test_winner_scores_1000_and_last_scores_0():
    assert mers.base_rank(37, 1) == 1000 and mers.base_rank(37, 37) == 0


def test_two_players_is_the_smallest_event():
    assert mers.base_rank(2, 1) == 1000 and mers.base_rank(2, 2) == 0
    with pytest.raises(InvalidArgument, match="players"):
        mers.base_rank(1, 1)


def test_base_rank_is_unrounded_by_default():
    assert mers.base_rank(100, 75) == pytest.approx(252.5252525)


def test_older_text_truncates_25th_of_100_to_757_and_75th_to_252():
    assert mers.base_rank(100, 25, "truncate") == 757
    assert mers.base_rank(100, 75, "truncate") == 252


def test_current_data_rounds_to_nearest_252_53_to_253():
    assert mers.base_rank(100, 75, "round") == 253
    assert mers.base_rank(100, 25, "round") == 758


def test_rounding_half_goes_up():
    assert mers.round_base_rank(500.5, "round") == 501


def _exact_halves(largest_n: int) -> list[tuple[int, int]]:
    """(N, place) whose base rank is exactly k + 0.5: 2000 * (N - place) is an odd multiple of N - 1."""
    return [(n, p) for n in range(2, largest_n + 1) for p in range(1, n + 1)
            if (2000 * (n - p)) % (n - 1) == 0 and (2000 * (n - p) // (n - 1)) % 2 == 1]


def test_a_base_rank_that_is_exactly_a_half_rounds_up_like_a_spreadsheet_round():
    # 198th of 401 is 507.5 exactly; computed as (N - place) / (N - 1) * 1000 it was 507.49999999999994
    # and rounded to 507, where Excel's and LibreOffice's ROUND give 508
    assert mers.base_rank(401, 198) == 507.5
    assert mers.base_rank(401, 198, "round") == 508
    halves = _exact_halves(2001)
    assert len(halves) > 20
    for n, p in halves:
        assert mers.base_rank(n, p) == (2000 * (n - p) // (n - 1)) / 2, (n, p)
        assert mers.base_rank(n, p, "round") == (2000 * (n - p) // (n - 1) + 1) // 2, (n, p)


def test_the_leaderboard_rounds_an_exact_half_up_in_the_2018_era_as_base_rank_does():
    rows = [HEADER] + [[f"T{i}", "2024-01-01", 401, 1, "MCR", "a", 198] for i in range(5)]
    [line] = mers.rankings(mers.results_from_table(rows), D(2024, 6, 1), "2018")
    assert line.total == mers.base_rank(401, 198, "round") == 508


@pytest.mark.parametrize("days, players, countries, qualification, weight", [
    (1, 40, 5, False, 1.0), (2, 40, 5, False, 2.0), (3, 40, 5, False, 3.0), (4, 40, 5, False, 3.0),
    (1, 41, 5, False, 1.5), (1, 80, 5, False, 1.5), (1, 81, 5, False, 2.0),
    (1, 40, 6, False, 1.5), (1, 40, 9, False, 1.5), (1, 40, 10, False, 2.0),
    (1, 40, 5, True, 2.0), (3, 150, 20, True, 6.0)])
def test_2018_weight_sums_days_players_countries_and_qualification(days, players, countries, qualification, weight):
    assert mers.tournament_weight(days, players, countries, qualification) == weight


@pytest.mark.parametrize("rules, as_of, factor", [
    ("2005", D(2022, 6, 1), 1.0), ("2005", D(2022, 6, 2), 0.5), ("2005", D(2024, 6, 1), 0.5),
    ("2005", D(2024, 6, 2), 0.0),
    ("2010", D(2021, 6, 1), 1.0), ("2010", D(2021, 6, 2), 2 / 3), ("2010", D(2022, 6, 2), 1 / 3),
    ("2010", D(2023, 6, 2), 0.0),
    ("2018", D(2021, 6, 1), 1.0), ("2018", D(2021, 6, 2), 0.5), ("2018", D(2022, 6, 1), 0.5),
    ("2018", D(2022, 6, 2), 0.0)])
def test_age_factor_steps_the_day_after_each_anniversary(rules, as_of, factor):
    assert mers.age_factor(D(2020, 6, 1), as_of, rules) == pytest.approx(factor)


def test_a_leap_day_result_ages_on_28_february():
    assert mers.age_factor(D(2020, 2, 29), D(2021, 2, 28), "2018") == 1.0
    assert mers.age_factor(D(2020, 2, 29), D(2021, 3, 1), "2018") == 0.5


def test_results_after_the_ranking_date_do_not_count():
    assert mers.age_factor(D(2024, 1, 2), D(2024, 1, 1)) == 0.0  # under the rules in force (2018) as under any


def test_2005_total_is_the_weighted_average_padded_to_five():
    results = [(1000, 1, D(2024, 1, 1)), (500, 2, D(2023, 1, 1))]
    # (1000*1 + 500*2 + 0*3) / (1 + 2 + 3)
    assert mers.ranking(results, D(2024, 6, 1), "2005") == pytest.approx(2000 / 6)


def test_a_player_with_exactly_two_results_is_ranked_and_one_is_not():
    two = [(800, 1, D(2024, 1, 1)), (600, 1, D(2024, 2, 1))]
    assert mers.ranking(two, D(2024, 6, 1), "2005") == pytest.approx(1400 / 5)
    with pytest.raises(NotRanked) as err:
        mers.ranking(two[:1], D(2024, 6, 1), "2005")
    assert err.value.counted == 1


def test_results_with_age_factor_zero_count_neither_in_total_nor_towards_the_minimum():
    results = [(900, 1, D(2024, 1, 1)), (900, 1, D(2015, 1, 1))]
    with pytest.raises(NotRanked):
        mers.ranking(results, D(2024, 6, 1), "2005")


def test_five_or_more_results_are_not_padded():
    results = [(b, 1, D(2024, 1, 1)) for b in (100, 200, 300, 400, 500, 600)]
    assert mers.ranking(results, D(2024, 6, 1), "2005") == pytest.approx(350)


def test_age_factor_halves_a_result_weight_in_the_average():
    results = [(1000, 1, D(2024, 1, 1))] * 4 + [(0, 1, D(2021, 1, 1))]
    # 2005: the old result is over 2 years old: weight 0.5
    assert mers.ranking(results, D(2024, 6, 1), "2005") == pytest.approx(4000 / 4.5)


def test_2010_total_mixes_all_results_with_the_best_three_of_the_padded_list():
    results = [(900, 1, D(2016, 1, 1)), (600, 2, D(2016, 1, 1)), (300, 1, D(2016, 1, 1))]
    padded_all = (900 + 1200 + 300) / (1 + 2 + 1 + 2)
    best3 = (900 + 1200 + 300) / 4
    assert mers.ranking(results, D(2016, 6, 1), "2010") == pytest.approx(0.5 * padded_all + 0.5 * best3)


@pytest.mark.parametrize("counted, size", [(2, 5), (5, 5), (6, 6), (7, 7), (10, 9), (11, 10), (15, 13), (20, 17)])
def test_2018_part_a_takes_ceil_5_plus_0_8_times_results_beyond_5(counted, size):
    assert mers.part_a_size(counted) == size


def test_2018_total_is_half_part_a_plus_half_part_b():
    base = [1000, 900, 800, 700, 600, 500, 400, 300, 200, 100]
    results = [(b, 1, D(2019, 1, 1)) for b in base]
    part_a = sum(base[:9]) / 9
    part_b = sum(base[:4]) / 4
    assert mers.ranking(results, D(2019, 6, 1), "2018") == pytest.approx(0.5 * part_a + 0.5 * part_b)


def test_2018_parts_come_from_the_padded_list():
    results = [(800, 1, D(2019, 1, 1)), (600, 1, D(2019, 1, 1))]
    part_a = 1400 / 5
    part_b = 1400 / 4
    assert mers.ranking(results, D(2019, 6, 1), "2018") == pytest.approx(0.5 * part_a + 0.5 * part_b)


def test_2018_rounds_base_ranks_to_integers_before_aggregating():
    results = [(252.53, 1, D(2019, 1, 1)), (757.4, 1, D(2019, 1, 1))]
    assert mers.ranking(results, D(2019, 6, 1), "2018") == pytest.approx(0.5 * 1010 / 5 + 0.5 * 1010 / 4)


def test_an_effective_date_replaces_the_event_date_for_ageing():
    frozen = [(1000, 1, D(2019, 12, 1), D(2022, 6, 1)), (1000, 1, D(2022, 6, 1))]
    assert mers.ranking(frozen, D(2022, 12, 1), "2018") == pytest.approx(1000 * 0.5 * (2 / 5 + 2 / 4))


def test_bad_items_name_the_item_and_field():
    with pytest.raises(InvalidArgument, match=r"results\[1\]\.base_rank"):
        mers.ranking([(100, 1, D(2024, 1, 1)), (1200, 1, D(2024, 1, 1))], D(2024, 6, 1))


HEADER = ["tournament", "date", "players", "weight", "ruleset", "player", "place"]


def test_players_without_an_ema_id_shape_base_ranks_but_are_not_ranked():
    rows = [HEADER, ["T1", "2024-01-01", 3, 1, "MCR", "-", 1], ["T1", "2024-01-01", 3, 1, "MCR", "01000001", 2],
            ["T2", "2024-02-01", 3, 1, "MCR", "", 1], ["T2", "2024-02-01", 3, 1, "MCR", "01000001", 3]]
    board = mers.rankings(mers.results_from_table(rows), D(2024, 6, 1), "2005")
    assert [(r.player, r.count) for r in board] == [("01000001", 2)]
    assert board[0].total == pytest.approx(500 / 5)


def test_each_ruleset_is_ranked_from_its_own_tournaments():
    rows = [HEADER] + [[f"M{i}", "2024-01-01", 2, 1, "MCR", "a", 1] for i in range(2)] + [
        [f"R{i}", "2024-01-01", 2, 1, "riichi", "a", 2] for i in range(2)]
    results = mers.results_from_table(rows)
    assert mers.rankings(results, D(2024, 6, 1), "2005", ruleset_name="MCR")[0].total == pytest.approx(400)
    assert mers.rankings(results, D(2024, 6, 1), "2005", ruleset_name="Riichi")[0].total == 0


def test_average_tie_policy_scores_a_three_way_tie_for_26th_as_27th():
    rows = [HEADER] + [["T", "2024-01-01", 40, 1, "MCR", p, 26] for p in "abc"]
    rows += [[f"U{p}", "2024-01-01", 2, 1, "MCR", p, 1] for p in "abc"]
    best = mers.rankings(mers.results_from_table(rows), D(2024, 6, 1), "2005", ties="best")[0]
    average = mers.rankings(mers.results_from_table(rows), D(2024, 6, 1), "2005", ties="average")[0]
    assert best.total == pytest.approx((mers.base_rank(40, 26) + 1000) / 5)
    assert average.total == pytest.approx((mers.base_rank(40, 27) + 1000) / 5)


def test_table_needs_place_or_base_rank():
    rows = [["tournament", "date", "players", "weight", "player", "base_rank"], ["T", "2024-01-01", 10, 1, "a", None]]
    with pytest.raises(TableError, match="row 2"):
        mers.results_from_table(rows)


def test_table_unknown_ruleset_is_named():
    with pytest.raises(TableError, match="ruleset"):
        mers.results_from_table([HEADER, ["T", "2024-01-01", 10, 1, "Zung Jung", "a", 1]])


def test_table_excel_date_serials_are_read_as_dates():
    (r,) = mers.results_from_table([HEADER, ["T", 45292, 10, 1, "MCR", "a", 1]])
    assert r.date == D(2024, 1, 1)


def test_table_dates_read_iso_and_european_dotted_but_not_ambiguous_slashes():
    (r,) = mers.results_from_table([HEADER, ["T", "16.03.2024", 10, 1, "MCR", "a", 1]])
    assert r.date == D(2024, 3, 16)
    with pytest.raises(TableError, match="DD.MM.YYYY"):
        mers.results_from_table([HEADER, ["T", "03/06/2024", 10, 1, "MCR", "a", 1]])


def test_a_result_played_before_the_ranking_date_counts_even_if_its_effective_date_is_later():
    # The pandemic freeze moved effective dates forward; the result was still played.
    results = [(1000, 1, D(2020, 3, 1), D(2022, 3, 1)), (1000, 1, D(2020, 9, 1), D(2022, 9, 1))]
    assert mers.ranking(results, D(2021, 6, 1), "2005") == pytest.approx(2000 / 5)


def test_a_result_played_after_the_ranking_date_never_counts_whatever_its_effective_date():
    results = [(1000, 1, D(2021, 7, 1), D(2020, 1, 1)), (1000, 1, D(2021, 1, 1))]
    with pytest.raises(NotRanked):
        mers.ranking(results, D(2021, 6, 1), "2005")


def test_leaderboard_applies_effective_dates_like_the_single_player_total():
    rows = [HEADER + ["effective_date"],
            ["T1", "2020-03-01", 2, 1, "MCR", "a", 1, "2022-03-01"],
            ["T2", "2020-09-01", 2, 1, "MCR", "a", 1, "2022-09-01"]]
    (line,) = mers.rankings(mers.results_from_table(rows), D(2021, 6, 1), "2005")
    assert line.total == pytest.approx(2000 / 5)


def test_a_yearly_tournament_keeps_its_name_from_one_edition_to_the_next():
    rows = [HEADER, ["Dutch Open", "2023-05-01", 10, 1, "MCR", "a", 1], ["Dutch Open", "2023-05-01", 10, 1, "MCR", "b", 2],
            ["Dutch Open", "2024-05-01", 12, 2, "MCR", "a", 3], ["Dutch Open", "2024-05-01", 12, 2, "MCR", "b", 1]]
    board = {r.player: r for r in mers.rankings(mers.results_from_table(rows), D(2024, 6, 1), "2005")}
    expected = (1000 * 1 + mers.base_rank(12, 3) * 2) / (1 + 2 + 3)
    assert board["a"].count == 2 and board["a"].total == pytest.approx(expected)


@pytest.mark.parametrize("cell, repaired", [(4060059, "04060059"), (4060059.0, "04060059"), ("4060059", "04060059")])
def test_an_ema_id_that_lost_its_leading_zero_is_an_error_naming_the_repaired_id(cell, repaired):
    with pytest.raises(TableError, match=repaired) as err:
        mers.results_from_table([HEADER, ["T", "2024-01-01", 10, 1, "MCR", cell, 1]])
    assert err.value.row == 2 and err.value.column == "player"


def test_an_eight_digit_text_id_and_a_dash_for_no_id_are_read_as_they_are():
    rows = [HEADER, ["T", "2024-01-01", 10, 1, "MCR", "04060059", 1], ["T", "2024-01-01", 10, 1, "MCR", "-", 2]]
    assert [r.player for r in mers.results_from_table(rows)] == ["04060059", None]


def test_an_eight_digit_id_stored_as_a_number_is_the_same_id():
    (r,) = mers.results_from_table([HEADER, ["T", "2024-01-01", 10, 1, "MCR", 11010023, 1]])
    assert r.player == "11010023"


def test_a_huge_header_without_a_required_column_is_named_briefly():
    # a CSV header of 1,000 long cells must not become a 32 MB message
    header = ["tournament", "date", "weight", "player", "place"] + [f"{i}" * 5000 for i in range(1000)]
    with pytest.raises(TableError) as err:
        mers.results_from_table([header, ["T", "2024-01-01", 1, "a", 1] + [""] * 1000])
    message = str(err.value)
    assert "a column headed 'players'" in message and "tournament, date" in message
    assert len(message) < 2000 and "and 975 more" in message
