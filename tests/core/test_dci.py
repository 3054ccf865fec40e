"""DCI rules (docs/rating-rules.md section 2), one test per rule or edge."""

import datetime as dt
import random

import pytest

from xlrating import dci
from xlrating.core.errors import InvalidArgument, TableError

D = dt.date


def test_defaults_are_pinned():
    assert dci.STARTING_RATING == 1600
    assert dci.DEFAULT_K == 16
    assert dict(dci.TIERS) == {"casual": 8, "regular": 16, "competitive": 24, "professional": 32,
                               "grand prix": 40, "pro tour": 48}


def test_higher_rated_player_in_a_100_point_gap_expects_about_0_64():
    assert dci.win_probability(1700, 1600) == pytest.approx(0.640065, abs=1e-6)
    assert dci.win_probability(1600, 1700) == pytest.approx(1 - 0.640065, abs=1e-6)


def test_equal_ratings_expect_one_half_by_both_methods():
    assert dci.win_probability(1600, 1600) == 0.5
    assert dci.win_probability(1600, 1600, "table") == 0.5


@pytest.mark.parametrize("gap, high, low", [
    (0, .50, .50), (3, .50, .50), (4, .51, .49), (100, .64, .36), (106, .64, .36), (107, .65, .35),
    (400, .92, .08), (735, .99, .01), (736, 1.0, 0.0), (3.4, .50, .50), (3.5, .51, .49)])
def test_table_method_reads_h_and_l_columns_by_rounded_gap(gap, high, low):
    assert dci.win_probability(1600 + gap, 1600, "table") == high
    assert dci.win_probability(1600, 1600 + gap, "table") == low


def test_table_method_stays_within_two_hundredths_of_the_formula():
    for gap in range(0, 700, 7):
        assert abs(dci.win_probability(1600 + gap, 1600, "table") - dci.win_probability(1600 + gap, 1600)) <= 0.02  # the table follows a normal curve, the formula a logistic one


def test_unknown_method_is_named():
    with pytest.raises(InvalidArgument, match="method"):
        dci.win_probability(1600, 1600, "lookup")


@pytest.mark.parametrize("result, w", [(1, 1.0), (0.5, 0.5), (0, 0.0), ("W", 1.0), ("d", 0.5), ("L", 0.0), ("1", 1.0)])
def test_results_are_1_half_0_or_w_d_l(result, w):
    assert dci.score(result) == w


@pytest.mark.parametrize("result", ["X", 2, 0.25, None, True])
def test_other_results_are_refused(result):
    with pytest.raises(InvalidArgument, match="result"):
        dci.score(result)


def test_delta_is_k_times_w_minus_p():
    assert dci.delta(1600, 1600, "W") == pytest.approx(8)
    assert dci.delta(1600, 1600, "L", k=40) == pytest.approx(-20)
    assert dci.delta(1700, 1600, 0.5, k=32) == pytest.approx(32 * (0.5 - 0.640065), abs=1e-5)


def test_delta_is_zero_sum():
    for rating, opponent, result in [(1820, 1610, "W"), (1500, 1750, "D"), (1600, 1601, "L")]:
        mirrored = {"W": "L", "L": "W", "D": "D"}[result]
        assert dci.delta(rating, opponent, result, 24) == pytest.approx(-dci.delta(opponent, rating, mirrored, 24))


@pytest.mark.parametrize("tier, k", [("Friday Night Magic", 8), ("FNM", 8), ("casual", 8), ("regular", 16),
                                     ("competitive", 24), ("rel-3", 32), ("Grand Prix", 40), ("nationals", 40),
                                     ("Pro_Tour", 48), ("Worlds", 48)])
def test_k_value_by_event_tier(tier, k):
    assert dci.k_value(tier) == k


def test_unknown_tier_lists_the_known_ones():
    with pytest.raises(InvalidArgument, match="grand prix"):
        dci.k_value("local")


def M(date, rnd, player, opponent, result, event="E", k=16, category="Constructed", row=None):
    return dci.Match(date, rnd, player, opponent, result, event, k, category, row)


def test_new_players_start_at_1600_and_a_win_between_equals_moves_k_over_2():
    board = {r.player: r for r in dci.ratings([M(D(2009, 1, 1), 1, "a", "b", 1.0)])}
    assert board["a"].rating == 1608 and board["b"].rating == 1592


def test_byes_are_not_rated():
    board = dci.ratings([M(D(2009, 1, 1), 1, "a", None, 1.0)])
    assert board == []


def test_a_match_listed_from_both_sides_counts_once():
    once = dci.ratings([M(D(2009, 1, 1), 1, "a", "b", 1.0)])
    twice = dci.ratings([M(D(2009, 1, 1), 1, "a", "b", 1.0), M(D(2009, 1, 1), 1, "b", "a", 0.0)])
    assert once == twice and twice[0].matches == 1


def test_both_sides_that_disagree_are_an_error_naming_both_rows():
    with pytest.raises(TableError, match="row 2"):
        dci.ratings([M(D(2009, 1, 1), 1, "a", "b", 1.0, row=2), M(D(2009, 1, 1), 1, "b", "a", 1.0, row=3)])


def test_a_player_in_two_matches_of_one_round_is_an_error():
    with pytest.raises(TableError, match="one match per round"):
        dci.ratings([M(D(2009, 1, 1), 1, "a", "b", 1.0), M(D(2009, 1, 1), 1, "a", "c", 1.0)])


def test_ratings_are_kept_per_player_and_category():
    board = dci.ratings([M(D(2009, 1, 1), 1, "a", "b", 1.0, category="Limited"),
                         M(D(2009, 1, 2), 1, "a", "b", 1.0, category="Constructed")])
    assert {(r.category, r.player): r.rating for r in board} == {
        ("Constructed", "a"): 1608, ("Constructed", "b"): 1592, ("Limited", "a"): 1608, ("Limited", "b"): 1592}


def test_matches_are_rated_by_date_then_round_not_by_row_order():
    late = M(D(2009, 2, 1), 1, "a", "c", 0.0)
    early = M(D(2009, 1, 1), 2, "a", "b", 1.0)
    earliest = M(D(2009, 1, 1), 1, "b", "c", 0.5)
    assert dci.ratings([late, early, earliest]) == dci.ratings([earliest, early, late])


def _sequential(matches):
    """Reference: the rules applied literally, one match at a time in order."""
    rating = {}
    for m in sorted(matches, key=lambda m: (m.date, m.event, m.round)):
        if m.opponent is None:
            continue
        a, b = (m.category, m.player), (m.category, m.opponent)
        ra, rb = rating.get(a, 1600.0), rating.get(b, 1600.0)
        change = m.k * (m.result - 1 / (1 + 10 ** ((rb - ra) / 400)))
        rating[a], rating[b] = ra + change, rb - change
    return rating


@pytest.mark.parametrize("seed", range(5))
def test_rating_a_round_as_one_vector_step_equals_rating_match_by_match(seed):
    rng = random.Random(seed)
    matches = []
    for e in range(6):
        date = D(2009, 1, 1) + dt.timedelta(days=rng.randrange(3))
        players = rng.sample(range(30), 10)
        for rnd in range(1, 5):
            rng.shuffle(players)
            for i in range(0, 10, 2):
                matches.append(M(date, rnd, f"p{players[i]}", f"p{players[i + 1]}",
                                 rng.choice([0.0, 0.5, 1.0]), f"E{e}", rng.choice([8, 16, 40])))
    expected = _sequential(matches)
    got = {(r.category, r.player): r.rating for r in dci.ratings(matches)}
    assert got == pytest.approx(expected)
    assert sum(got.values()) == pytest.approx(1600 * len(got))  # zero-sum


def test_table_from_file_columns_with_tier_and_bye():
    rows = [["date", "round", "player", "opponent", "result", "tier"],
            ["2009-01-01", 1, "a", "b", "W", "Grand Prix"], ["2009-01-01", 1, "c", "BYE", "W", "Grand Prix"]]
    matches = dci.matches_from_table(rows)
    assert matches[0].k == 40 and matches[1].opponent is None


def test_table_bad_result_names_row_and_column():
    rows = [["date", "round", "player", "opponent", "result"], ["2009-01-01", 1, "a", "b", "won"]]
    with pytest.raises(TableError, match=r"row 2, column 'result'"):
        dci.matches_from_table(rows)
