"""A MERS total explained: every result of the player in the ruleset with its base rank, weight and
age factor, whether it counts, where it comes in the list sorted best first, and whether it is in
the parts the era averages (2005: all; 2010: all and the best 3; 2018: Part A and Part B), then the
padding to five results (docs/rating-rules.md section 3). The total and the parts are the
leaderboard's (:func:`xlrating.core.mers.rankings`, as ``rank mers`` calls it)."""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter
from typing import TYPE_CHECKING, Any

from xlrating.core import mers
from xlrating.core.errors import RatingError
from xlrating.core.explanation import Column, Explanation, PlayerNotFound, close_matches
from xlrating.core.names import fold
from xlrating.core.placement import tie_policy

if TYPE_CHECKING:
    from xlrating.store.sqlite import SQLiteStore

INPUTS = (Column("number", "#", "whole", True, False), Column("tournament", "Tournament", "text", True),
          Column("date", "Date", "date", True), Column("effective_date", "Effective date", "date", True, False),
          Column("players", "Players", "whole", True), Column("place", "Place", "whole", True),
          Column("tied", "Players at this place", "whole", True, False),
          Column("given_base_rank", "Base rank given", "number", True, False),
          Column("weight", "Weight", "number", True))
DERIVED = (Column("base_rank", "Base rank"), Column("counted_base_rank", "Base rank counted"),
           Column("age_factor", "Age factor", decimals=3), Column("counts", "Counts", "flag", brief=False),
           Column("weight_x_age", "Weight x age", brief=False), Column("order", "Best-first order", "whole"))
PART_COLUMNS = {"2005": (Column("in_all", "In all", "flag"),),
                "2010": (Column("in_all", "In all", "flag"), Column("in_best_3", "In best 3", "flag")),
                "2018": (Column("in_part_a", "In Part A", "flag"), Column("in_part_b", "In Part B", "flag"))}
STATUS = Column("status", "Status", "text")
PART_LABELS = {"all": "Weighted average of all", "best_3": "Weighted average of the best 3",
               "part_a": "Part A", "part_b": "Part B"}


def explain(records: list[mers.Result], player: str, source: str, stored: SQLiteStore | None,
            options: dict[str, Any], names: dict[str, str] | None = None) -> Explanation:
    as_of: dt.date = options.get("as_of") or dt.date.today()
    era = mers.era_of(options.get("rules"), as_of)
    ties = tie_policy(options.get("ties") or "best")
    player = _ema_id(records, player, names or {})
    ruleset = _ruleset(records, player, options.get("ruleset"), source, names or {})
    items = [r for r in records if ruleset is None or r.ruleset == ruleset]
    board = mers.rankings(records, as_of, era.name, ruleset_name=ruleset, ties=ties, with_breakdown=True)
    line = next((line for line in board if line.player == player), None)
    tied = Counter((r.date, r.tournament, r.place) for r in items)
    own = sorted((r for r in items if r.player == player), key=lambda r: (r.date, r.tournament))
    rows = [_result_row(i, r, tied[r.date, r.tournament, r.place] if r.place is not None else None, ties, as_of, era)
            for i, r in enumerate(own, start=1)]
    counted = sum(1 for row in rows if row["counts"])
    pads = max(mers.PADDED_RESULTS - counted, 0)
    rows += [_padding_row(len(own) + k) for k in range(1, pads + 1)]
    _order(rows, counted, era.name)
    in_force = mers.rules_in_force(as_of)
    settings = (("ruleset", "Ruleset", ruleset or (own[0].ruleset if own else None)),
                ("as_of", "Ranking date", as_of), ("rules", "Rules", era.name), ("ties", "Ties", ties))
    breakdown = line.breakdown if line is not None else None
    parts = tuple((key, PART_LABELS[key], (breakdown.parts.get(key) if breakdown else None))
                  for key in _part_keys(era.name))
    not_ranked = None if line is not None else (
        f"not ranked: {counted} result{'' if counted == 1 else 's'} count on {as_of.isoformat()}, "
        f"at least {mers.MINIMUM_RESULTS} needed")
    named = options.get("rules")
    return Explanation(
        "mers", "MERS", player, "total", line.total if line is not None else None, counted,
        (*INPUTS, *DERIVED, *PART_COLUMNS[era.name], STATUS), tuple(rows), settings, parts, _rule(era.name, counted),
        (names or {}).get(player) or None, not_ranked,
        {"rules_named": named, "rules_in_force": in_force, "part_a_size": mers.part_a_size(counted)})


def _ruleset(records: list[mers.Result], player: str, chosen: str | None, source: str,
             names: dict[str, str]) -> str | None:
    """The ruleset the explanation ranks: the one chosen, else (when the records hold both) the one
    the player played; the player must have results in it."""
    present = sorted({r.ruleset for r in records})
    played = sorted({r.ruleset for r in records if r.player == player})
    if not played:
        raise _not_found(records, player, source, names)
    if chosen is not None:
        chosen = mers.ruleset(chosen)
        if chosen not in played:
            raise RatingError(f"{player} has no {chosen} results in {source}, only {' and '.join(played)}")
        return chosen
    if len(played) > 1:
        raise RatingError(f"{player} has {' and '.join(played)} results in {source}; choose one with --ruleset")
    return played[0] if len(present) > 1 else None


def _ema_id(records: list[mers.Result], player: str, names: dict[str, str]) -> str:
    """The EMA ID of ``player``: itself when the records hold it, else the one player whose name
    (as ``rank`` shows it from the store; accents and capitals aside) is ``player``."""
    ids = {r.player for r in records if r.player is not None}
    wanted = player.strip()
    if wanted in ids:
        return wanted
    named = sorted(ema_id for ema_id, name in names.items() if ema_id in ids and name and fold(name) == fold(wanted))
    if len(named) > 1:
        raise RatingError(f"{len(named)} players are named {wanted!r} ({', '.join(named)}); name one by its EMA ID")
    return named[0] if named else wanted


def _not_found(records: list[mers.Result], player: str, source: str, names: dict[str, str]) -> PlayerNotFound:
    ids = {r.player for r in records if r.player is not None}
    close = list(close_matches(player, ids))
    by_name = {name: ema_id for ema_id, name in names.items() if ema_id in ids and name}
    close += [by_name[name] for name in close_matches(player, by_name) if by_name[name] not in close]
    shown = tuple(f"{ema_id} ({names[ema_id]})" if names.get(ema_id) else ema_id for ema_id in close[:5])
    return PlayerNotFound(player, source, shown, what="player (EMA ID or name)")


def _result_row(number: int, r: mers.Result, tied: int | None, ties: str, as_of: dt.date, era: mers.Era) -> dict[str, Any]:
    """One result as the leaderboard counts it (:func:`xlrating.core.mers.rankings`' operations)."""
    if r.base_rank is None:
        place = float(r.place or 0) + ((tied or 1) - 1) / 2 if ties == "average" else float(r.place or 0)
        base = (r.players - place) * 1000.0 / max(r.players - 1, 1)
    else:
        base = float(r.base_rank)
    counted_base = float(math.floor(base + 0.5)) if era.integer_base_ranks else base
    factor = 0.0 if r.date > as_of else mers.aged_factor(r.effective_date or r.date, as_of, era)
    if r.date > as_of:
        status = "played after the ranking date"
    elif factor == 0:
        years = next(years for years, step in era.age_steps if step == 0)
        status = f"over {years} years old"
    else:
        status = "counted"
    return {"number": number, "kind": "result", "tournament": r.tournament, "date": r.date,
            "effective_date": r.effective_date, "players": r.players, "place": r.place, "tied": tied,
            "given_base_rank": r.base_rank, "weight": float(r.weight), "base_rank": base,
            "counted_base_rank": counted_base, "age_factor": factor, "counts": factor > 0,
            "weight_x_age": float(r.weight) * factor if factor > 0 else 0.0, "status": status}


def _padding_row(number: int) -> dict[str, Any]:
    return {"number": number, "kind": "padding", "tournament": "(padding)", "date": None, "effective_date": None,
            "players": None, "place": None, "tied": None, "given_base_rank": 0.0, "weight": 1.0, "base_rank": 0.0,
            "counted_base_rank": 0.0, "age_factor": 1.0, "counts": True, "weight_x_age": 1.0,
            "status": "padding to 5 results"}


def _order(rows: list[dict[str, Any]], counted: int, era: str) -> None:
    """Each counted row's place in the list sorted best first (base rank, then weight x age; the
    results before the padding among equals, as the leaderboard sorts), and the parts it is in."""
    listed = sorted((row for row in rows if row["counts"]),
                    key=lambda row: (-row["counted_base_rank"], -row["weight_x_age"], row["number"]))
    for position, row in enumerate(listed, start=1):
        row["order"] = position
    size_a = mers.part_a_size(counted)
    for row in rows:
        order = row.get("order")
        row.setdefault("order", None)
        inside = {"in_all": True, "in_best_3": 3, "in_part_a": size_a, "in_part_b": 4}
        for column in PART_COLUMNS[era]:
            limit = inside[column.key]
            row[column.key] = order is not None and (limit is True or order <= limit)


def _part_keys(era: str) -> tuple[str, ...]:
    return {"2005": ("all",), "2010": ("all", "best_3"), "2018": ("part_a", "part_b")}[era]


def _rule(era: str, counted: int) -> str:
    average = "the weighted average sum(weight x age x base rank) / sum(weight x age)"
    pads = (f"; with {counted} result{'' if counted == 1 else 's'} counted, "
            f"{max(mers.PADDED_RESULTS - counted, 0)} padding result{'' if mers.PADDED_RESULTS - counted == 1 else 's'} "
            f"of base rank 0 and weight 1 make five" if counted < mers.PADDED_RESULTS else "")
    if era == "2005":
        return f"2005 rules: the total is {average} of every counted result{pads}."
    if era == "2010":
        return (f"2010 rules: the total is 0.5 x {average} of every counted result + 0.5 x that of the best 3 "
                f"(best first: base rank, then weight x age){pads}.")
    return (f"2018 rules: base ranks are rounded to whole numbers; the total is 0.5 x Part A + 0.5 x Part B, "
            f"Part A {average} of the best {mers.part_a_size(counted)} (ceil(5 + 0.8 x max(n - 5, 0)) for n = "
            f"{counted} counted), Part B that of the best 4{pads}.")
