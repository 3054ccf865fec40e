"""The leaderboards without numpy give what the column engines give: the same doubles, the same
order, the same error for the same row. Random tables (valid ones and broken ones) and the example
tables are ranked by both and compared exactly. That holds on any machine because both compute with
IEEE-exact operations in the same order and take DCI's ``10 ** x`` from the one scalar power
(test_powers.py checks that they do)."""

from __future__ import annotations

import csv
import datetime as dt
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from xlrating.core import dci, dippouch, mers
from xlrating.core.dci import replay as dci_replay
from xlrating.core.dippouch import replay as dippouch_replay
from xlrating.core.errors import RatingError
from xlrating.core.mers import replay as mers_replay

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "tables"
DAY = dt.date(2023, 3, 4)
NAMES = ["ann", "bob", "cy", "dee", "eve", "fay", "gus"]


@pytest.fixture
def engine() -> str:
    """Both engines are called explicitly here (overrides the conftest's run without numpy)."""
    return "both"


def outcome(engine: Callable[..., Any], *args: Any, **options: Any) -> Any:
    try:
        board = engine(*args, **options)
    except (RatingError, ValueError) as exc:
        return type(exc).__name__, str(exc)
    return [(r, getattr(r, "breakdown", None)) for r in board]  # a MERS breakdown is not part of ==


def same(columns: Callable[..., Any], replay: Callable[..., Any], *args: Any, **options: Any) -> None:
    expected, got = outcome(columns, *args, **options), outcome(replay, *args, **options)
    assert got == expected
    if isinstance(expected, list):  # == on floats is exact; repr tells -0.0 and 0.0 apart too
        assert repr(got) == repr(expected)


def dci_columns(matches: list[dci.Match], **options: Any) -> list[dci.Rating]:
    return dci.ratings_from_columns(dci.MatchColumns.from_matches(matches), **options)


def dippouch_columns(results: list[dippouch.Result], **options: Any) -> list[dippouch.Rating]:
    return dippouch.ratings_from_columns(dippouch.ResultColumns.from_results(results), **options)


def mers_columns(results: list[mers.Result], *args: Any, **options: Any) -> list[mers.Ranking]:
    return mers.rankings_from_columns(mers.ResultColumns.from_results(results), *args, **options)


# --- DCI -------------------------------------------------------------------------------------------

def dci_matches(rng: random.Random, broken: bool) -> list[dci.Match]:
    matches: list[dci.Match] = []
    for day in range(rng.randint(1, 3)):
        for event in rng.sample(["", "GP", "PTQ"], rng.randint(1, 3)):
            field = rng.sample(NAMES, rng.randint(2, len(NAMES)))
            category = rng.choice(["Composite", "Limited"])
            k = rng.choice([8.0, 16.0, 48.0])
            for rnd in range(1, rng.randint(2, 4)):
                rng.shuffle(field)
                for i in range(0, len(field), 2):
                    player, opponent = field[i], field[i + 1] if i + 1 < len(field) else None
                    result = rng.choice([0.0, 0.5, 1.0])
                    date = DAY + dt.timedelta(days=day)
                    matches.append(dci.Match(date, rnd, player, opponent, result, event, k, category))
                    if opponent is not None and rng.random() < 0.3:  # listed from the other side too
                        matches.append(dci.Match(date, rnd, opponent, player, 1.0 - result, event, k, category))
    if broken:
        for _ in range(rng.randint(1, 2)):
            m = rng.choice(matches)
            change = rng.choice(["player", "opponent", "result", "round", "copy"])
            if change == "copy":
                matches.insert(rng.randrange(len(matches) + 1), m)
            else:
                value = {"player": rng.choice(NAMES), "opponent": rng.choice([*NAMES, None]),
                         "result": rng.choice([0.0, 0.5, 1.0]), "round": rng.randint(1, 3)}[change]
                matches[matches.index(m)] = dci.Match(**{**m.__dict__, change: value})
    rng.shuffle(matches)
    return [dci.Match(**{**m.__dict__, "row": i + 2}) for i, m in enumerate(matches)]


@pytest.mark.parametrize("seed", range(300))
def test_dci_replay_equals_the_column_engine(seed: int) -> None:
    rng = random.Random(seed)
    matches = dci_matches(rng, broken=seed % 3 == 0)
    for method in dci.METHODS:
        same(dci_columns, dci_replay.ratings, matches, method=method)


# --- Dip Pouch ------------------------------------------------------------------------------------

def dippouch_results(rng: random.Random, broken: bool) -> list[dippouch.Result]:
    results = []
    for e in range(rng.randint(1, 6)):
        date = dt.date(rng.choice([1999, 2000, 2001, 2010]), rng.randint(1, 3), 1)
        players, rounds, wc = rng.randint(7, 120), rng.randint(1, 3), rng.random() < 0.2
        for place, player in enumerate(rng.sample(NAMES, rng.randint(1, len(NAMES))), start=1):
            if rng.random() < 0.3:
                place = max(place - 1, 1)  # a tie
            results.append(dippouch.Result(f"event {e % 3}", date, players, rounds, player, place, wc))
    if broken:
        r = rng.choice(results)
        change = rng.choice(["place", "players", "rounds", "player"])
        value = {"place": rng.choice([0, r.players + 1, r.place]), "players": r.players + 1,
                 "rounds": r.rounds + 1, "player": rng.choice(NAMES)}[change]
        results.append(dippouch.Result(**{**r.__dict__, change: value}))
    rng.shuffle(results)
    return [dippouch.Result(**{**r.__dict__, "row": i + 2}) for i, r in enumerate(results)]


@pytest.mark.parametrize("seed", range(300))
def test_dippouch_replay_equals_the_column_engine(seed: int) -> None:
    rng = random.Random(seed)
    results = dippouch_results(rng, broken=seed % 3 == 0)
    for ties in ("best", "average"):
        for cutoff in (2001, 1990):
            same(dippouch_columns, dippouch_replay.ratings, results, ties=ties, cutoff_year=cutoff)


# --- MERS -----------------------------------------------------------------------------------------

def mers_results(rng: random.Random, broken: bool) -> list[mers.Result]:
    results = []
    for t in range(rng.randint(1, 9)):
        date = dt.date(rng.choice([2019, 2021, 2022, 2023, 2024]), rng.randint(1, 12), rng.randint(1, 28))
        effective = dt.date(2022, 6, 1) if date.year == 2021 and rng.random() < 0.5 else None
        players, weight = rng.randint(4, 401), rng.choice([1.0, 1.5, 2.0, 2.5, 5.0])
        ruleset, given = rng.choice(mers.RULESETS), rng.random() < 0.2
        for place, player in enumerate(rng.sample([*NAMES, None, None], rng.randint(2, 9)), start=1):
            if rng.random() < 0.3:
                place = max(place - 1, 1)  # a tie
            base_rank = round(rng.uniform(0, 1000), rng.choice([0, 2])) if given else None
            results.append(mers.Result(f"T{t % 4}", date, players, weight, player, None if given else place,
                                       ruleset, effective, base_rank))
    if broken:
        r = rng.choice(results)
        change = rng.choice(["players", "weight", "player"])
        value = {"players": r.players + 1, "weight": r.weight + 1, "player": rng.choice(NAMES)}[change]
        results.append(mers.Result(**{**r.__dict__, change: value}))
    rng.shuffle(results)
    return [mers.Result(**{**r.__dict__, "row": i + 2}) for i, r in enumerate(results)]


@pytest.mark.parametrize("seed", range(300))
def test_mers_replay_equals_the_column_engine(seed: int) -> None:
    rng = random.Random(seed)
    results = mers_results(rng, broken=seed % 3 == 0)
    as_of = rng.choice([dt.date(2023, 6, 30), dt.date(2024, 12, 31), dt.date(2026, 1, 1)])
    for rules in mers.RULES:
        for ruleset_name in (None, "MCR", "riichi"):
            for ties in ("best", "average"):
                same(mers_columns, mers_replay.rankings, results, as_of, rules, ruleset_name=ruleset_name,
                     ties=ties, with_breakdown=True)


# --- the example tables ---------------------------------------------------------------------------

def _rows(name: str) -> list[list[str]]:
    with open(EXAMPLES / name, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def test_the_example_tables_rank_the_same_without_numpy() -> None:
    matches = dci.matches_from_table(_rows("dci_matches.csv"))
    for method in dci.METHODS:
        same(dci_columns, dci_replay.ratings, matches, method=method)
    results = dippouch.results_from_table(_rows("dippouch_results.csv"))
    for ties in ("best", "average"):
        same(dippouch_columns, dippouch_replay.ratings, results, ties=ties)
    mres = mers.results_from_table(_rows("mers_results.csv"))
    for as_of in ("2025-06-30", "2027-05-20"):
        for rules in mers.RULES:
            for ruleset_name in mers.RULESETS:
                same(mers_columns, mers_replay.rankings, mres, as_of, rules, ruleset_name=ruleset_name,
                     with_breakdown=True)

