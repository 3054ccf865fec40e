"""What if (xlrating.core.mers.whatif): a player's total and place with one hypothetical result, worked
out by hand from the 2018 rules (docs/rating-rules.md section 3), and the eras side by side."""

from __future__ import annotations

import datetime as dt

import pytest

from xlrating.core.errors import InvalidArgument
from xlrating.core.mers import Result, rankings
from xlrating.core.mers.whatif import HYPOTHETICAL, eras, moved_most, what_if

T1, T2 = dt.date(2025, 1, 10), dt.date(2025, 3, 1)
AS_OF = dt.date(2025, 6, 1)


def results() -> list[Result]:
    """Two tournaments of 11 players, weight 1, both under a year old on AS_OF (age factor 1):
    P 1st and 6th (base ranks 1000, 500), Q 2nd and 1st (900, 1000), R 3rd and 2nd (800, 900),
    S last twice (0, 0), U only 4th at T2 (700: one result, not ranked)."""
    rows = [("T1", T1, "P", 1), ("T1", T1, "Q", 2), ("T1", T1, "R", 3), ("T1", T1, "S", 11),
            ("T2", T2, "P", 6), ("T2", T2, "Q", 1), ("T2", T2, "R", 2), ("T2", T2, "S", 11), ("T2", T2, "U", 4)]
    return [Result(name, day, 11, 1.0, player, place, "MCR") for name, day, player, place in rows]


def test_the_hand_worked_example_before_and_after():
    # 2018 rules, n results padded with base rank 0 (weight 1) to 5; Part A the best
    # 5 + ceil(0.8 (n - 5)) = 5, Part B the best 4; total = (A + B) / 2.
    # P before: A = (1000 + 500) / 5 = 300, B = 1500 / 4 = 375: 337.5
    # Q: A 1900 / 5 = 380, B 1900 / 4 = 475: 427.5; R: 1700 / 5 = 340, 1700 / 4 = 425: 382.5; S: 0
    # P 3rd of 21 at weight 2: base rank (21 - 3) / 20 x 1000 = 900, counted twice over;
    # best first 1000 (w 1), 900 (w 2), 500, 0, 0: A = (1000 + 1800 + 500) / 6 = 550,
    # B = (1000 + 1800 + 500 + 0) / 5 = 660: 605, 1st, passing Q and R
    found = what_if(results(), "P", place=3, players=21, weight=2, date=AS_OF, ruleset="MCR")
    assert (found.rules, found.as_of, found.base_rank, found.age_factor) == ("2018", AS_OF, 900.0, 1.0)
    assert (found.before.rank, found.before.total, found.before.count, found.before.of) == (3, 337.5, 2, 4)
    assert (found.after.rank, found.after.total, found.after.count, found.after.of) == (1, 605.0, 3, 4)
    assert [(o.player, o.total, o.rank_before, o.rank_after) for o in found.passed] == [
        ("Q", 427.5, 1, 2), ("R", 382.5, 2, 3)]
    assert found.passed_by == ()
    assert found.data()["change"] == 267.5


def test_the_after_total_is_the_ranking_s_with_the_result_added():
    found = what_if(results(), "P", place=3, players=21, weight=2, date=AS_OF, ruleset="MCR")
    added = Result(HYPOTHETICAL, AS_OF, 21, 2.0, "P", 3, "MCR")
    board = {line.player: line.total for line in rankings([*results(), added], AS_OF)}
    assert found.after.total == board["P"]


def test_a_player_who_is_not_ranked_becomes_ranked():
    # U: 700 at T2 and 2nd of 5 (750): A = (750 + 700) / 5 = 290, B = 1450 / 4 = 362.5: 326.25,
    # 4th of 5 (behind Q 427.5, R 382.5, P 337.5); nobody is passed: U was nowhere
    found = what_if(results(), "U", place=2, players=5, weight=1, date=AS_OF, ruleset="MCR")
    assert (found.before.rank, found.before.total, found.before.count, found.before.of) == (None, None, 1, 4)
    assert (found.after.rank, found.after.total, found.after.of) == (4, 326.25, 5)
    assert found.passed == () and found.data()["change"] is None


def test_a_bad_result_can_lose_places():
    # P last of 21 at weight 2: 1000, 500, then 0 (w 2), 0, 0: A = 1500 / 6 = 250, B = 1500 / 5 = 300: 275
    found = what_if(results(), "P", place=21, players=21, weight=2, date=AS_OF, ruleset="MCR")
    assert (found.after.rank, found.after.total) == (3, 275.0)
    assert found.passed == () and found.passed_by == ()
    assert what_if(results(), "R", place=21, players=21, weight=5, date=AS_OF, ruleset="MCR").passed_by[0].player == "P"


def test_under_the_2005_rules_and_a_later_ranking_date():
    # 2005: the average of all, padded to 5; a result 2 years old counts half. On 2027-04-01 T1 and
    # T2 are over 2 years old (factor 0.5), the new result (2025-06-01) under 2 (factor 1):
    # P: (0.5 x 1000 + 0.5 x 500 + 2 x 900) / (0.5 + 0.5 + 2 + 1 + 1) = 2550 / 5 = 510
    found = what_if(results(), "P", place=3, players=21, weight=2, date=AS_OF, ruleset="MCR", as_of="2027-04-01",
                    rules="2005")
    assert (found.rules, found.age_factor, found.after.total) == ("2005", 1.0, 510.0)


@pytest.mark.parametrize(("arguments", "said"), [
    ({"place": 22, "players": 21}, "place: expected a place from 1 to players (21), got 22"),
    ({"place": 0}, "place: expected a place from 1 to players (21), got 0"),
    ({"players": 1, "place": 1}, "players: expected a whole number >= 2, got 1"),
    ({"weight": 0}, "weight: expected a weight > 0, got 0"),
    ({"date": "01/06/2025"}, "date"),
    ({"as_of": "2025-05-31"}, "as_of: expected a ranking date on or after the tournament's date (2025-06-01)"),
])
def test_bad_arguments_are_refused_naming_the_argument(arguments, said):
    given = {"place": 3, "players": 21, "weight": 2, "date": AS_OF} | arguments
    with pytest.raises(InvalidArgument) as refused:
        what_if(results(), "P", ruleset="MCR", **given)
    assert said in str(refused.value) and str(refused.value).startswith(said.split(":")[0])


def test_an_unknown_player_is_refused_naming_player():
    with pytest.raises(InvalidArgument, match="^player: expected a player with results, got 'Z'"):
        what_if(results(), "Z", place=1, players=5, weight=1, date=AS_OF, ruleset="MCR")


def test_the_eras_side_by_side_are_each_era_s_ranking():
    rows = eras(results(), AS_OF, ruleset="MCR")
    for rules in ("2005", "2010", "2018"):
        board = rankings(results(), AS_OF, rules)
        assert {row.player: row.totals[rules] for row in rows if row.totals[rules] is not None} == {
            line.player: line.total for line in board}
    # 2010: (all + best 3) / 2; Q: all 1900 / 5 = 380, best 3 1900 / 3 = 633.33: 506.67
    q = next(row for row in rows if row.player == "Q")
    assert q.totals["2010"] == pytest.approx((380 + 1900 / 3) / 2)
    assert [row.player for row in rows] == ["Q", "R", "P", "S"]
    assert all(row.spread == 0 for row in rows) and moved_most(rows) == []
