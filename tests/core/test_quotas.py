"""Championship quotas (xlrating.core.mers.quotas): one test per rule, each on a small ranking whose
seats are worked out by hand in the test (docs/rating-rules.md, "Championship quotas")."""

from __future__ import annotations

import random

import pytest

from xlrating.core.errors import InvalidArgument
from xlrating.core.mers.quotas import NoQuotaCountries, RankedPlayer, quotas

_ids: dict[str, int] = {}


def players(country: str | None, *totals: float) -> list[RankedPlayer]:
    """Ranked players of ``country`` with these totals, each with an EMA ID of its own."""
    made = []
    for total in totals:
        _ids[str(country)] = _ids.get(str(country), 0) + 1
        made.append(RankedPlayer(f"{country or 'NONE'}{_ids[str(country)]:05d}", country, total))
    return made


def seats_of(result, kind: str = "seats") -> dict[str, int]:
    return {row.country: getattr(row, kind) for row in result.countries}


def filler(n: int = 20) -> list[RankedPlayer]:
    """Ranked players of a country that is not an EMA member, at 0: they count in the average (so
    every member player below is above it and the caps are wide) and in nothing else."""
    return players("JPN", *[0.0] * n)


# --- Part A ---------------------------------------------------------------------------------------

def test_part_a_gives_each_member_country_with_a_ranked_player_one_seat_and_nobody_else_any():
    # France (written three ways), Germany: members; Japan and a player of no country: not members
    ranking = [*players("FRA", 500), *players("France", 400), *players("fra", 300), *players("GER", 300),
               *players("JPN", 650), *players(None, 600)]
    result = quotas(ranking, 5)
    assert set(seats_of(result, "member_seat")) == {"FRA", "GER"}
    assert seats_of(result, "member_seat") == {"FRA": 1, "GER": 1}
    assert seats_of(result, "ranked_players") == {"FRA": 3, "GER": 1}
    assert result.ranked_players == 6 and result.member_players == 4


def test_part_a_gives_a_seat_to_each_country_with_a_player_above_700_and_700_itself_is_not_above():
    ranking = [*players("FRA", 700.01, 650), *players("GER", 700.0, 650), *players("ITA", 300), *filler()]
    result = quotas(ranking, 10)
    assert seats_of(result, "seat_above_700") == {"FRA": 1, "GER": 0, "ITA": 0}
    assert seats_of(result, "above_700") == {"FRA": 1, "GER": 0, "ITA": 0}
    step = next(s for s in result.steps if s.kind == "above 700")
    assert step.country == "FRA" and "700.01" in step.reason


def test_part_a_gives_a_seat_to_each_of_the_three_best_countries_of_the_country_ranking():
    # country scores (average of the best 3, 0 for a missing player): FRA 600, GER 500, ITA 400,
    # NED 200 (one player of 600); the best three get a seat, NED does not
    ranking = [*players("FRA", 600, 600, 600), *players("GER", 500, 500, 500), *players("ITA", 400, 400, 400),
               *players("NED", 600), *filler(40)]
    result = quotas(ranking, 20)
    assert seats_of(result, "seat_best_countries") == {"FRA": 1, "GER": 1, "ITA": 1, "NED": 0}
    assert seats_of(result, "country_rank") == {"FRA": 1, "GER": 2, "ITA": 3, "NED": 4}
    assert [s.reason for s in result.steps if s.kind == "best countries"] == [
        "1st in the country ranking (score 600.00)", "2nd in the country ranking (score 500.00)",
        "3rd in the country ranking (score 400.00)"]


def test_a_tie_for_third_in_the_country_ranking_gives_both_countries_the_seat():
    ranking = [*players("FRA", 600, 600, 600), *players("GER", 500, 500, 500), *players("ITA", 400, 400, 400),
               *players("NED", 400, 400, 400), *filler(40)]
    result = quotas(ranking, 20)
    assert seats_of(result, "seat_best_countries") == {"FRA": 1, "GER": 1, "ITA": 1, "NED": 1}
    assert result.part_a == 8


def test_seats_fewer_than_part_a_are_refused_naming_seats_and_the_fixed_seats():
    # Part A: 2 member seats, 2 above 700, 2 of the best three = 6 (the caps are 3)
    ranking = [*players("FRA", 800, 600, 600), *players("GER", 750, 600, 600), *filler()]
    assert quotas(ranking, 6).part_a == 6
    with pytest.raises(InvalidArgument) as refused:
        quotas(ranking, 5)
    assert refused.value.argument == "seats"
    assert str(refused.value).startswith("seats: expected at least 6, the fixed seats of Part A")
    assert str(refused.value).endswith("got 5")


@pytest.mark.parametrize("seats", [0, -3, 2.5, "130", True])
def test_seats_that_are_not_a_whole_number_from_1_are_refused(seats):
    with pytest.raises(InvalidArgument, match="^seats: expected a whole number"):
        quotas(players("FRA", 500), seats)


def test_a_ranking_without_a_player_of_a_member_country_has_no_quotas():
    with pytest.raises(NoQuotaCountries, match="no ranked player of an EMA member country.*has 0 players"):
        quotas([], 10)
    with pytest.raises(NoQuotaCountries, match="has 3 players of no member country"):
        quotas([*players("JPN", 800), *players(None, 700, 600)], 10)


# --- Part B ---------------------------------------------------------------------------------------

def part_b_ranking() -> list[RankedPlayer]:
    """FRA 8 ranked players (2 above 700), GER 6 (1), NED 6 (1): N = 20, M = 4, so the shares are
    FRA (8/20 + 2/4) / 2 = 0.45, GER and NED (6/20 + 1/4) / 2 = 0.275. Country scores: FRA 716.67,
    NED 640, GER 636.67. Every member player is above the average (the filler is at 0): the caps
    (8, 6, 6) stay out of the way. Part A: 3 seats each (member, above 700, best three) = 9."""
    return [*players("FRA", 800, 750, *[600] * 6), *players("GER", 710, *[600] * 5),
            *players("NED", 720, *[600] * 5), *filler()]


def test_the_part_b_share_is_the_average_of_the_share_of_ranked_players_and_of_players_above_700():
    result = quotas(part_b_ranking(), 15)
    rows = {row.country: row for row in result.countries}
    assert rows["FRA"].share_ranked == pytest.approx(8 / 20) and rows["FRA"].share_above_700 == pytest.approx(2 / 4)
    assert {code: row.share for code, row in rows.items()} == pytest.approx({"FRA": 0.45, "GER": 0.275, "NED": 0.275})
    assert result.member_players == 20 and result.players_above_700 == 4


def test_part_b_gives_each_seat_to_the_largest_shortfall_of_share_times_seat_number_less_seats_held():
    # seat k: shortfall = share * k - Part B seats held
    # k=1: FRA .45, NED .275, GER .275                       -> FRA
    # k=2: FRA .90-1 = -.10, NED .55, GER .55 (tie)          -> NED (2nd in the country ranking, GER 3rd)
    # k=3: FRA 1.35-1 = .35, NED .825-1 = -.175, GER .825    -> GER
    # k=4: FRA 1.80-1 = .80, NED 1.10-1 = .10, GER .10       -> FRA
    # k=5: FRA 2.25-2 = .25, NED 1.375-1 = .375, GER .375    -> NED (tie, better place)
    # k=6: FRA 2.70-2 = .70, NED 1.65-2 = -.35, GER .65      -> FRA
    result = quotas(part_b_ranking(), 15)
    part_b = [s for s in result.steps if s.kind == "share"]
    assert [s.country for s in part_b] == ["FRA", "NED", "GER", "FRA", "NED", "FRA"]
    assert [s.shortfall for s in part_b] == pytest.approx([0.45, 0.55, 0.825, 0.80, 0.375, 0.70])
    assert [s.part_b_before for s in part_b] == [0, 0, 0, 1, 1, 2]
    assert [s.target for s in part_b] == pytest.approx([0.45, 0.55, 0.825, 1.80, 1.375, 2.70])
    assert "(a tie, won by the better place in the country ranking)" in part_b[1].reason
    assert seats_of(result, "part_b") == {"FRA": 3, "NED": 2, "GER": 1}
    assert seats_of(result) == {"FRA": 6, "NED": 5, "GER": 4}
    assert [row.country for row in result.countries] == ["FRA", "NED", "GER"]  # most seats first


def test_equal_shortfalls_go_to_the_better_country_then_the_code_first_in_the_alphabet():
    # two countries alike in every figure (share, score, place): the code first in the alphabet, SUI
    ranking = [*players("SWE", 600, 600, 600, 600), *players("SUI", 600, 600, 600, 600), *filler()]
    result = quotas(ranking, 5)  # Part A 2 + 2 (best three) = 4; one seat of Part B
    assert seats_of(result, "country_rank") == {"SUI": 1, "SWE": 1}
    assert [s.country for s in result.steps if s.kind == "share"] == ["SUI"]


def test_nobody_above_700_makes_the_share_the_share_of_ranked_players():
    ranking = [*players("FRA", *[600] * 3), *players("GER", 600), *filler()]
    result = quotas(ranking, 8)
    rows = {row.country: row for row in result.countries}
    assert rows["FRA"].share == pytest.approx(0.75) and rows["FRA"].share_above_700 is None
    assert rows["GER"].share == pytest.approx(0.25)


# --- the cap and the redistribution ------------------------------------------------------------

def test_the_cap_is_the_players_above_the_average_of_the_whole_ranking_and_at_least_1():
    # average of every total (900 800 100 750 100 200) = 475: FRA 2 above it, GER 1, ITA 0 (keeps 1)
    ranking = [*players("FRA", 900, 800, 100), *players("GER", 750, 100), *players("ITA", 200)]
    result = quotas(ranking, 8)
    assert result.average == pytest.approx(475)
    assert seats_of(result, "above_average") == {"FRA": 2, "GER": 1, "ITA": 0}
    assert seats_of(result, "cap") == {"FRA": 2, "GER": 1, "ITA": 1}
    # Part A: FRA member + above 700 + 1st = 3, GER 3 (2nd), ITA 2 (3rd): 8, no Part B; the cap
    # takes back 1 + 2 + 1 seats and nobody is below their cap: the 4 are left over
    assert seats_of(result, "part_a") == {"FRA": 3, "GER": 3, "ITA": 2}
    assert seats_of(result, "over_cap") == {"FRA": 1, "GER": 2, "ITA": 1}
    assert seats_of(result) == {"FRA": 2, "GER": 1, "ITA": 1}
    assert (result.over_cap, result.redistributed, result.left_over) == (4, 0, 4)
    taken = next(s for s in result.steps if s.kind == "over cap")
    assert taken.country == "FRA"
    assert taken.reason == ("France has 3 seats from Parts A and B, over its cap of 2 (2 players above the average "
                            "total): 1 seat taken back")
    assert result.steps[-1].kind == "left over"
    assert result.steps[-1].reason == "4 seats taken back not given: every country is at its cap"


def cap_ranking() -> list[RankedPlayer]:
    """FRA 800 750 (caps 2), GER 6 x 600 (cap 6), ITA 2 x 500 (cap 2), NED 4 x 400 (cap 4); every
    member player is above the average (the filler is at 0). Country ranking: GER 600, FRA 516.67,
    NED 400, ITA 333.33. Part A: FRA 3, GER 2, NED 2, ITA 1 = 8. N = 14, M = 2, so the shares are
    FRA (2/14 + 2/2) / 2 = 8/14, GER 3/14, NED 2/14, ITA 1/14."""
    return [*players("FRA", 800, 750), *players("GER", *[600] * 6), *players("ITA", 500, 500),
            *players("NED", *[400] * 4), *filler()]


def test_seats_over_the_cap_are_taken_back_after_part_b_and_given_down_the_country_ranking():
    # Part B, 4 seats (in 14ths): k=1 FRA 8; k=2 GER 6 (FRA 2); k=3 FRA 10 (NED 6); k=4 NED 8 (FRA 4)
    # before the cap FRA 5, GER 3, NED 3, ITA 1; FRA's cap is 2: 3 seats taken back, given one each
    # to GER (1st), NED (3rd; FRA, 2nd, is at its cap), ITA (4th)
    result = quotas(cap_ranking(), 12)
    assert seats_of(result, "country_rank") == {"GER": 1, "FRA": 2, "NED": 3, "ITA": 4}
    assert [s.country for s in result.steps if s.kind == "share"] == ["FRA", "GER", "FRA", "NED"]
    assert seats_of(result, "part_b") == {"FRA": 2, "GER": 1, "NED": 1, "ITA": 0}
    assert seats_of(result, "over_cap") == {"FRA": 3, "GER": 0, "NED": 0, "ITA": 0}
    assert [s.country for s in result.steps if s.kind == "redistributed"] == ["GER", "NED", "ITA"]
    assert seats_of(result, "redistributed") == {"FRA": 0, "GER": 1, "NED": 1, "ITA": 1}
    assert seats_of(result) == {"GER": 4, "NED": 4, "FRA": 2, "ITA": 2}
    assert (result.part_a, result.part_b, result.over_cap, result.redistributed, result.left_over) == (8, 4, 3, 3, 0)
    first = next(s for s in result.steps if s.kind == "redistributed")
    assert first.reason == ("seat 1 of the 3 taken back: Germany, 1st in the country ranking, is below cap of 6 "
                            "(6 players above the average total)")
    assert first.seats == 4


def test_the_redistribution_goes_round_the_country_ranking_again_while_seats_remain():
    # Part B, 6 seats: as above, then k=5 FRA 12/14; k=6 FRA and ITA 6/14, FRA the better place.
    # Before the cap FRA 7: 5 taken back; round 1 GER, NED, ITA (NED and ITA now at their caps);
    # round 2 GER; round 3 GER (now 6, its cap)
    result = quotas(cap_ranking(), 14)
    assert [s.country for s in result.steps if s.kind == "share"] == ["FRA", "GER", "FRA", "NED", "FRA", "FRA"]
    assert [s.country for s in result.steps if s.kind == "redistributed"] == ["GER", "NED", "ITA", "GER", "GER"]
    assert seats_of(result) == {"GER": 6, "NED": 4, "FRA": 2, "ITA": 2}
    assert result.left_over == 0 and all(row.at_cap for row in result.countries)


def test_seats_no_country_can_take_are_left_over_and_said_so():
    # Part B, 7 seats: k=7 GER and ITA 7/14, GER the better place; FRA 7 before the cap, 5 taken
    # back; GER takes 2 (to 6), NED 1, ITA 1; the 5th is left over: the caps sum to 14
    result = quotas(cap_ranking(), 15)
    assert seats_of(result) == {"GER": 6, "NED": 4, "FRA": 2, "ITA": 2}
    assert (result.over_cap, result.redistributed, result.left_over) == (5, 4, 1)
    assert result.summary()["quota_seats"] == 14
    assert result.steps[-1].kind == "left over"
    assert result.steps[-1].reason == "1 seat taken back not given: every country is at its cap"


# --- personal seats -------------------------------------------------------------------------------

def test_personal_seats_come_on_top_of_the_seats_and_of_the_country_quota():
    ranking = part_b_ranking()
    champion = ranking[8]  # GER's best
    without, with_ = quotas(ranking, 15), quotas(ranking, 15, [champion.player])
    assert seats_of(with_) == seats_of(without)  # the quota is unchanged
    assert seats_of(with_, "personal") == {"FRA": 0, "NED": 0, "GER": 1}
    assert seats_of(with_, "total_seats") == {"FRA": 6, "NED": 5, "GER": 5}
    assert [(p.player, p.country) for p in with_.personal] == [(champion.player, "GER")]
    assert with_.steps[-1].kind == "personal" and "in addition to Germany's quota" in with_.steps[-1].reason
    assert with_.part_a + with_.part_b == 15


def test_a_personal_seat_for_a_player_not_ranked_or_named_twice_is_refused():
    ranking = part_b_ranking()
    with pytest.raises(InvalidArgument, match="^personal: expected the EMA ID of a player of the ranking, got '99999999'"):
        quotas(ranking, 15, ["99999999"])
    with pytest.raises(InvalidArgument, match="^personal: expected each player once"):
        quotas(ranking, 15, [ranking[0].player, ranking[0].player])


def test_a_personal_seat_of_a_player_of_no_member_country_is_no_country_s():
    ranking = part_b_ranking()
    outsider = ranking[-1]  # JPN
    result = quotas(ranking, 15, [outsider.player])
    assert result.personal[0].country is None and sum(seats_of(result, "personal").values()) == 0
    assert "of no member country's quota" in result.steps[-1].reason


# --- the whole ------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(25))
def test_the_seats_sum_to_t_and_every_country_is_within_1_and_its_cap(seed):
    rng = random.Random(seed)
    codes = ["AUT", "BEL", "DEN", "FRA", "GER", "HUN", "ITA", "NED", "SWE", "ESP", "GBR"]
    ranking = [RankedPlayer(f"{i:08d}", rng.choice([*codes, "JPN", None]), rng.uniform(0, 950))
               for i in range(rng.randint(5, 300))]
    members = [p for p in ranking if p.country not in ("JPN", None)]
    if not members:
        return
    minimum = quotas(ranking, 1_000).part_a
    for seats in (minimum, minimum + rng.randint(0, 60), 1_000):
        result = quotas(ranking, seats)
        assert result.part_a + result.part_b == seats
        assert sum(row.seats for row in result.countries) == seats - result.left_over
        assert result.left_over == result.over_cap - result.redistributed
        average = sum(p.total for p in ranking) / len(ranking)
        for row in result.countries:
            above = sum(1 for p in members if p.country == row.country and p.total > average)
            assert row.cap == max(1, above)
            assert 1 <= row.seats <= row.cap
            assert row.seats == row.part_a + row.part_b - row.over_cap + row.redistributed
        if result.left_over:
            assert all(row.at_cap for row in result.countries)
        assert len([s for s in result.steps if s.kind == "share"]) == result.part_b


@pytest.mark.parametrize("ranking, fewest", [(part_b_ranking(), 9), (cap_ranking(), 8)])
def test_one_more_seat_never_takes_a_seat_from_a_country(ranking, fewest):
    before = seats_of(quotas(ranking, fewest))
    for seats in range(fewest + 1, fewest + 25):
        now = seats_of(quotas(ranking, seats))
        assert all(now[code] >= before[code] for code in before)
        before = now


def test_more_seats_than_a_championship_could_have_are_refused_naming_seats():
    with pytest.raises(InvalidArgument, match="^seats: expected at most 10,000 seats, got 10001"):
        quotas(part_b_ranking(), 10_001)
