"""Leaderboards at scale: ours against a straightforward record-by-record Python loop.

    python benchmarks/bench_leaderboards.py [--scale 1.0]

Builds (deterministically) 100k Dip Pouch results, 1M DCI matches and 100k MERS results over 10k
players, times each leaderboard in-process after loading (best of 3), times the reference loop
once, asserts both give the same answers and prints the ratio. Target: each of ours under 1 s on
a 2-core machine. Absolute times are context; the ratio is the figure to compare across machines.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import random
import time
from collections.abc import Callable
from typing import Any

from xlrating.core import dci, dippouch, mers

START = dt.date(2015, 1, 3)


def best_of(n: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    best, result = math.inf, None
    for _ in range(n):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    return best_of(1, fn)


# --- Dip Pouch ------------------------------------------------------------------------------------

def dippouch_data(n_results: int, rng: random.Random) -> list[dippouch.Result]:
    results = []
    event = 0
    while len(results) < n_results:
        players = rng.randrange(14, 90)
        listed = rng.sample(range(5000), min(players, 60))
        date = START + dt.timedelta(days=rng.randrange(3650))
        rounds = rng.choice([1, 2, 3, 4])
        wc = rng.random() < 0.01
        for place, p in enumerate(listed, start=1):
            results.append(dippouch.Result(f"event {event}", date, players, rounds, f"player {p}", place, wc))
        event += 1
    return results[:n_results] if len(results) == n_results else results


def dippouch_reference(results: list[dippouch.Result]) -> dict[str, float]:
    rating: dict[str, float] = {}
    for r in sorted(results, key=lambda r: (r.date, r.event)):
        if r.world_championship:
            value = 20.0
        elif r.date.year < 2001:
            value = 0.0
        else:
            value = min(15.0, r.players / 7 + 2 if r.rounds == 1 else r.players / 3.5 + 2)
        old = rating.get(r.player, 40.0)
        pct = (r.players + 0.5 - r.place) / r.players * 100
        rating[r.player] = old + value / 100 * (pct - old)
    return rating


# --- DCI ------------------------------------------------------------------------------------------

def dci_data(n_matches: int, rng: random.Random) -> list[dci.Match]:
    """Events of 64 players, 8 rounds (Swiss-like random pairings), several events a day with
    disjoint fields, two categories."""
    matches: list[dci.Match] = []
    event = 0
    day = START
    while len(matches) < n_matches:
        pool = rng.sample(range(10_000), 64 * 8)
        category = rng.choice(["Constructed", "Limited"])
        for e in range(8):
            field = pool[e * 64:(e + 1) * 64]
            k = rng.choice([8, 16, 24, 32, 40, 48])
            for rnd in range(1, 9):
                rng.shuffle(field)
                for i in range(0, 64, 2):
                    matches.append(dci.Match(day, rnd, f"p{field[i]}", f"p{field[i + 1]}",
                                             rng.choice([0.0, 0.5, 1.0, 1.0, 0.0]), f"event {event}", k, category))
            event += 1
        day += dt.timedelta(days=1)
    return matches[:n_matches]


def dci_reference(matches: list[dci.Match]) -> dict[tuple[str, str], float]:
    rating: dict[tuple[str, str], float] = {}
    for m in sorted(matches, key=lambda m: (m.date, m.event, m.round)):
        a, b = (m.category, m.player), (m.category, m.opponent or "")
        ra, rb = rating.get(a, 1600.0), rating.get(b, 1600.0)
        change = m.k * (m.result - 1 / (1 + 10 ** ((rb - ra) / 400)))
        rating[a], rating[b] = ra + change, rb - change
    return rating


# --- MERS -----------------------------------------------------------------------------------------

def mers_data(n_results: int, rng: random.Random) -> list[mers.Result]:
    results: list[mers.Result] = []
    t = 0
    while len(results) < n_results:
        players = rng.randrange(24, 160)
        listed = rng.sample(range(10_000), min(players, 50))
        date = START + dt.timedelta(days=rng.randrange(6 * 365))
        weight = rng.choice([1.0, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0])
        for place, p in enumerate(listed, start=1):
            results.append(mers.Result(f"T{t}", date, players, weight, f"{p:08d}", place))
        t += 1
    return results[:n_results]


def mers_reference(results: list[mers.Result], as_of: dt.date, rules: str) -> dict[str, float]:
    steps = {"2005": ((2, 0.5), (4, 0.0)), "2010": ((1, 2 / 3), (2, 1 / 3), (3, 0.0)), "2018": ((1, 0.5), (2, 0.0))}
    per: dict[str, list[tuple[float, float, float]]] = {}
    for r in results:
        b = (r.players - r.place) / (r.players - 1) * 1000
        if rules == "2018":
            b = math.floor(b + 0.5)
        a = 1.0 if r.date <= as_of else 0.0
        for years, factor in steps[rules]:
            try:
                edge = r.date.replace(year=r.date.year + years)
            except ValueError:
                edge = r.date.replace(year=r.date.year + years, day=28)
            if as_of > edge:
                a = factor
        if a > 0:
            per.setdefault(r.player, []).append((b, r.weight, a))
    totals = {}
    for player, items in per.items():
        n = len(items)
        if n < 2:
            continue
        items = items + [(0.0, 1.0, 1.0)] * max(0, 5 - n)

        def avg(xs: list[tuple[float, float, float]]) -> float:
            return sum(b * w * a for b, w, a in xs) / sum(w * a for _, w, a in xs)

        best = sorted(items, key=lambda x: (-x[0], -x[1] * x[2]))
        if rules == "2005":
            totals[player] = avg(items)
        elif rules == "2010":
            totals[player] = 0.5 * avg(items) + 0.5 * avg(best[:3])
        else:
            totals[player] = 0.5 * avg(best[:5 + math.ceil(0.8 * max(n - 5, 0) - 1e-9)]) + 0.5 * avg(best[:4])
    return totals


def close(ours: dict[Any, float], reference: dict[Any, float]) -> None:
    assert ours.keys() == reference.keys(), "different players"
    worst = max(abs(ours[k] - reference[k]) for k in ours)
    assert worst < 1e-6, f"answers differ by {worst}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the full data sizes")
    args = parser.parse_args()
    rng = random.Random(2026)
    rows = []

    # "After loading" means the table is in memory as columns (what the readers produce); the
    # record-object paths, which include that conversion, are timed too and printed as context.
    context = []
    results = dippouch_data(int(100_000 * args.scale), rng)
    dcols = dippouch.ResultColumns.from_results(results)
    ours_t, board = best_of(3, lambda: dippouch.ratings_from_columns(dcols))
    context.append(("Dip Pouch", timed(lambda: dippouch.ratings(results))[0]))
    ref_t, ref = timed(lambda: dippouch_reference(results))
    close({r.player: r.rating for r in board}, ref)
    rows.append((f"Dip Pouch, {len(results):,} results", ours_t, ref_t))

    matches = dci_data(int(1_000_000 * args.scale), rng)
    columns = dci.MatchColumns.from_matches(matches)
    ours_t, board = best_of(3, lambda: dci.ratings_from_columns(columns))
    context.append(("DCI", timed(lambda: dci.ratings(matches))[0]))
    ref_t, ref = timed(lambda: dci_reference(matches))
    close({(r.category, r.player): r.rating for r in board}, ref)
    rows.append((f"DCI, {len(matches):,} matches", ours_t, ref_t))

    mres = mers_data(int(100_000 * args.scale), rng)
    as_of = START + dt.timedelta(days=6 * 365)
    mcols = mers.ResultColumns.from_results(mres)
    context.append(("MERS 2018", timed(lambda: mers.rankings(mres, as_of, "2018"))[0]))
    for rules in mers.RULES:
        ours_t, board = best_of(3, lambda rules=rules: mers.rankings_from_columns(mcols, as_of, rules))
        ref_t, ref = timed(lambda rules=rules: mers_reference(mres, as_of, rules))
        close({r.player: r.total for r in board}, ref)
        rows.append((f"MERS {rules}, {len(mres):,} results, {len({r.player for r in mres}):,} players",
                     ours_t, ref_t))

    print(f"{'leaderboard':<48} {'ours (s)':>9} {'loop (s)':>9} {'loop/ours':>10}  target <1 s")
    for name, ours_s, ref_s in rows:
        flag = "ok" if ours_s < 1.0 else "OVER"
        print(f"{name:<48} {ours_s:9.3f} {ref_s:9.3f} {ref_s / ours_s:9.1f}x  {flag}")
    print("From record objects, including their conversion to columns: "
          + ", ".join(f"{name} {t:.3f} s" for name, t in context))


if __name__ == "__main__":
    main()
