"""The ONE table of xlrating's Excel functions, read by every host.

Each :class:`ExcelFunction` says its name, its arguments (kind, default, doc), what it returns and
which core function computes it. Hosts (the xlwings UDF module, the headless formula engine, the
VBA wrapper generator, ``xlrating functions``) only translate their own cell values to the plain
Python values described here and call :func:`call`; argument coercion, broadcasting over ranges and
error mapping are declared here once.

Values crossing this boundary:

- a number (``float``/``int``), text (``str``), ``bool``, ``datetime.date``, ``None`` (empty cell);
- :class:`ExcelError` for an error cell (``#N/A`` ...), which propagates;
- a range: a list of rows (``list[list[value]]``).

Adding a function is one entry in :data:`FUNCTIONS`.
"""

from __future__ import annotations

import datetime as dt
import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from xlrating.core.dates import as_date
from xlrating.core.errors import InvalidArgument, NotRanked, RatingError, TableError
from xlrating.core.tables import is_blank, number_from_text
from xlrating.excel_errors import ERROR_CODES, ExcelError

__all__ = ["BY_NAME", "ERROR_CODES", "FUNCTIONS", "Argument", "ExcelError", "ExcelFunction", "as_error", "call",
           "error_value"]

_REQUIRED = object()


@dataclass(frozen=True)
class Argument:
    """One argument of an Excel function.

    ``kind``: ``number``, ``text``, ``flag``, ``date``, ``any`` (scalars, which also accept a range
    and then broadcast), ``table`` (a range with a header row) or ``column`` (a range of values).
    """

    name: str
    kind: str
    doc: str
    default: Any = _REQUIRED

    @property
    def optional(self) -> bool:
        return self.default is not _REQUIRED

    @property
    def is_range(self) -> bool:
        return self.kind in ("table", "column")


@dataclass(frozen=True)
class ExcelFunction:
    """One Excel function: its signature, documentation and the core function behind it."""

    name: str
    system: str
    arguments: tuple[Argument, ...]
    returns: str  # "number" (one value, or an array when a scalar argument is a range) or "table"
    doc: str
    compute: Callable[..., Any]

    @property
    def signature(self) -> str:
        """``NAME(required, [optional])`` as Excel's function wizard shows it."""
        parts = [f"[{a.name}]" if a.optional else a.name for a in self.arguments]
        return f"{self.name}({', '.join(parts)})"

    @property
    def spills(self) -> bool:
        return self.returns == "table"

    @property
    def broadcasts(self) -> bool:
        """Scalar arguments given a range return one value per cell (all arguments are scalars)."""
        return not any(a.is_range for a in self.arguments)


# --- table functions: range in, table (with a header row) out -----------------------------------

def _dippouch_ratings(results: list[list[Any]], ties: str) -> list[list[Any]]:
    from xlrating.core import dippouch

    board = dippouch.ratings(dippouch.results_from_table(results), ties=ties)  # type: ignore[arg-type]
    return [["player", "rating", "events"], *([r.player, r.rating, r.events] for r in board)]


def _dci_ratings(matches: list[list[Any]], category: str | None, method: str) -> list[list[Any]]:
    from xlrating.core import dci

    records = dci.matches_from_table(matches)
    categories = sorted({m.category for m in records})
    if category is None and len(categories) > 1:
        raise InvalidArgument("category", "a category, since the matches hold several: " + ", ".join(categories),
                              None)
    board = [r for r in dci.ratings(records, method=method) if category is None or r.category == category]
    return [["player", "rating", "matches"], *([r.player, r.rating, r.matches] for r in board)]


def _latest_date(dates: Sequence[dt.date], argument: str) -> dt.date:
    if not dates:
        raise InvalidArgument(argument, "at least one dated result", None)
    return max(dates)


def _mers_rankings(results: list[list[Any]], as_of: Any, rules: str | None, ruleset: str | None,
                   ties: str) -> list[list[Any]]:
    from xlrating.core import mers

    records = mers.results_from_table(results)
    present = sorted({r.ruleset for r in records})
    if ruleset is None and len(present) > 1:
        raise InvalidArgument("ruleset", "MCR or Riichi, since the results hold both", None)
    day = as_date("as_of", as_of) if as_of is not None else _latest_date([r.date for r in records], "results")
    board = mers.rankings(records, day, rules, ruleset_name=ruleset, ties=ties)  # type: ignore[arg-type]
    return [["player", "total", "counted"], *([r.player, r.total, r.count] for r in board)]


def _mers_ranking(base_ranks: list[Any], weights: list[Any], dates: list[Any], as_of: Any,
                  rules: str | None) -> float:
    from xlrating.core import mers

    if not len(base_ranks) == len(weights) == len(dates):
        raise InvalidArgument("weights", f"ranges of the same size as base_ranks ({len(base_ranks)} cells)",
                              f"{len(weights)} weights and {len(dates)} dates")
    items = []
    for i, (b, w, d) in enumerate(zip(base_ranks, weights, dates)):
        if is_blank(b) and is_blank(w) and is_blank(d):
            continue  # unused rows of a fixed-size input block
        for name, value in (("base_ranks", b), ("weights", w), ("dates", d)):
            if is_blank(value):
                raise InvalidArgument(f"{name}[{i + 1}]", "a value (the other two ranges have one here)", None)
        items.append((number_from_text(b), number_from_text(w), as_date(f"dates[{i + 1}]", d)))
    day = as_date("as_of", as_of) if as_of is not None else _latest_date([d for _, _, d in items], "dates")
    return mers.ranking(items, day, rules)


def _dci_delta(rating: Any, opponent: Any, result: Any, k: Any) -> float:
    from xlrating.core import dci

    return dci.delta(rating, opponent, result, dci.k_value(k))


class _Core:
    """The core function ``name`` of ``system`` (``xlrating.core.<system>``), imported at its first
    call: a workbook that uses one system's functions loads that system's maths only (the three
    together take about 30 ms to import)."""

    __slots__ = ("_function", "name", "system")

    def __init__(self, system: str, name: str):
        self.system, self.name = system, name
        self._function: Callable[..., Any] | None = None

    def __call__(self, *args: Any) -> Any:
        if self._function is None:
            self._function = getattr(importlib.import_module(f"xlrating.core.{self.system}"), self.name)
        return self._function(*args)

    def __repr__(self) -> str:
        return f"xlrating.core.{self.system}.{self.name}"


def _a(name: str, kind: str, doc: str, default: Any = _REQUIRED) -> Argument:
    return Argument(name, kind, doc, default)


FUNCTIONS: tuple[ExcelFunction, ...] = (
    ExcelFunction(
        "DIPPOUCH_PERCENTILE", "Dip Pouch",
        (_a("players", "number", "declared number of players N"), _a("place", "number", "placement, 1 is best")),
        "number", "Percentile of a placement: (N + 0.5 - place) / N * 100.", _Core("dippouch", "percentile")),
    ExcelFunction(
        "DIPPOUCH_VALUE", "Dip Pouch",
        (_a("players", "number", "declared number of players N"),
         _a("rounds", "number", "number of rounds played"),
         _a("world_championship", "flag", "TRUE for a World Championship (value 20)", False),
         _a("year", "number", "event year; events before 2001 are worth 0", None)),
        "number", "Tournament value in percent: N/7+2 (one round) or N/3.5+2, capped at 15; WC 20.",
        _Core("dippouch", "tournament_value")),
    ExcelFunction(
        "DIPPOUCH_NEW_RATING", "Dip Pouch",
        (_a("rating", "number", "rating before the event (40 for a new player)"),
         _a("percentile", "number", "percentile of the placement"),
         _a("value", "number", "tournament value in percent")),
        "number", "Rating after one event: rating + value/100 * (percentile - rating).", _Core("dippouch", "new_rating")),
    ExcelFunction(
        "DIPPOUCH_RATINGS", "Dip Pouch",
        (_a("results", "table", "results table with header: event, date, players, rounds, player, place "
                                 "[, world_championship]"),
         _a("ties", "text", 'tie policy: "best" (default) or "average"', "best")),
        "table", "Leaderboard after replaying all events in date order: player, rating, events.",
        _dippouch_ratings),
    ExcelFunction(
        "DCI_WIN_PROBABILITY", "DCI",
        (_a("rating", "number", "the player's rating"), _a("opponent", "number", "the opponent's rating"),
         _a("method", "text", '"formula" (default) or "table" (FIDE Table 8.1(b))', "formula")),
        "number", "Expected score p = 1 / (1 + 10^((opponent - rating) / 400)).", _Core("dci", "win_probability")),
    ExcelFunction(
        "DCI_DELTA", "DCI",
        (_a("rating", "number", "the player's rating"), _a("opponent", "number", "the opponent's rating"),
         _a("result", "any", '1 / 0.5 / 0 or "W" / "D" / "L", from the player\'s side'),
         _a("k", "any", "K-value (a number or a tier name); default 16", 16.0)),  # dci.DEFAULT_K
        "number", "Rating change K * (W - p); the opponent changes by the negative.",
        _dci_delta),
    ExcelFunction(
        "DCI_K", "DCI",
        (_a("event_tier", "any", "tier name: casual, regular, competitive, professional, grand prix, pro tour"),),
        "number", "K-value of an event tier: 8, 16, 24, 32, 40 or 48.", _Core("dci", "k_value")),
    ExcelFunction(
        "DCI_RATINGS", "DCI",
        (_a("matches", "table", "match table with header: date, round, player, opponent, result "
                                 "[, event, k or tier, category]"),
         _a("category", "text", "the category to list when the matches hold several", None),
         _a("method", "text", '"formula" (default) or "table"', "formula")),
        "table", "Ratings after replaying all matches in order (from 1600): player, rating, matches.",
        _dci_ratings),
    ExcelFunction(
        "MERS_BASE_RANK", "MERS",
        (_a("players", "number", "declared number of players N (at least 2)"),
         _a("place", "number", "placement, 1 is best"),
         _a("rounding", "text", '"none" (default), "round" or "truncate"', "none")),
        "number", "Base rank of a placement: (N - place) / (N - 1) * 1000.", _Core("mers", "base_rank")),
    ExcelFunction(
        "MERS_WEIGHT", "MERS",
        (_a("days", "number", "number of days"), _a("players", "number", "number of players"),
         _a("countries", "number", "number of countries"),
         _a("qualification", "flag", "TRUE if qualification was required", False)),
        "number", "2018-rules tournament weight from days, players, countries and qualification.",
        _Core("mers", "tournament_weight")),
    ExcelFunction(
        "MERS_RANKING", "MERS",
        (_a("base_ranks", "column", "the player's base ranks"),
         _a("weights", "column", "tournament weights, same size"),
         _a("dates", "column", "tournament dates (last day), same size"),
         _a("as_of", "date", "ranking date; default: the latest result date", None),
         _a("rules", "text", '"2005", "2010" or "2018"; default: the era in force on as_of', None)),
        "number", "One player's MERS total; #N/A when fewer than 2 results count.", _mers_ranking),
    ExcelFunction(
        "MERS_RANKINGS", "MERS",
        (_a("results", "table", "results table with header: tournament, date, players, weight, player, place "
                                 "[, ruleset, effective_date, base_rank]"),
         _a("as_of", "date", "ranking date; default: the latest result date", None),
         _a("rules", "text", '"2005", "2010" or "2018"; default: the era in force on as_of', None),
         _a("ruleset", "text", "MCR or Riichi, when the results hold both", None),
         _a("ties", "text", '"best" (default) or "average"', "best")),
        "table", "Leaderboard of ranked players, best first: player, total, counted.", _mers_rankings),
)

BY_NAME: dict[str, ExcelFunction] = {f.name: f for f in FUNCTIONS}


# --- calling a function from a host ---------------------------------------------------------------

def error_value(exc: Exception) -> ExcelError:
    """The Excel error a host shows for a rating error, with its message as the reason."""
    if isinstance(exc, NotRanked):
        return ExcelError("#N/A", str(exc))
    if isinstance(exc, InvalidArgument):
        return ExcelError(exc.excel_error, str(exc))
    if isinstance(exc, (TableError, RatingError, ValueError, TypeError)):
        return ExcelError("#VALUE!", str(exc))
    raise exc


def as_error(value: Any) -> ExcelError | None:
    """``value`` as an :class:`ExcelError` if it is one (or its text, e.g. ``"#N/A"``), else None."""
    if isinstance(value, ExcelError):
        return value
    if isinstance(value, str) and value.strip().upper() in ERROR_CODES:
        return ExcelError(value.strip().upper())
    return None


def _cells(value: Any) -> list[list[Any]]:
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(row, (list, tuple)) for row in value):
            return [list(row) for row in value]
        return [[v] for v in value]
    return [[value]]


def _first_error(rows: list[list[Any]]) -> ExcelError | None:
    for row in rows:
        for cell in row:
            error = as_error(cell)
            if error is not None:
                return error
    return None


def _scalar(argument: Argument, value: Any) -> Any:
    """Coerce one scalar argument; empty means 'use the default' (or a missing required value)."""
    if is_blank(value):
        if argument.optional:
            return argument.default
        raise InvalidArgument(argument.name, f"a value for {argument.name}", None)
    if argument.kind == "number" and isinstance(value, str):
        return number_from_text(value)
    return value


def call(function: ExcelFunction | str, args: Sequence[Any]) -> Any:
    """Evaluate ``function`` on host-neutral ``args``; never raises for bad input.

    Returns a value, a list of rows (table functions; or a scalar function given a range, one value
    per cell with an :class:`ExcelError` in the cells that failed) or an :class:`ExcelError`.
    """
    fn = BY_NAME[function.upper()] if isinstance(function, str) else function
    if len(args) > len(fn.arguments):
        return ExcelError("#VALUE!", f"{fn.name} takes at most {len(fn.arguments)} arguments, got {len(args)}")
    missing = [a.name for a in fn.arguments[len(args):] if not a.optional]
    if missing:
        return ExcelError("#VALUE!", f"{fn.name}: missing argument {missing[0]}")
    padded = list(args) + [None] * (len(fn.arguments) - len(args))

    if fn.broadcasts:
        return _broadcast(fn, padded)
    values = []
    for argument, value in zip(fn.arguments, padded):
        if argument.is_range:
            rows = _cells(value)
            error = _first_error(rows)
            if error is not None:
                return error
            values.append(rows if argument.kind == "table" else [cell for row in rows for cell in row])
        else:
            value = _cells(value)[0][0] if isinstance(value, (list, tuple)) else value
            error = as_error(value)
            if error is not None:
                return error
            values.append(value)
    return _evaluate(fn, values)


def _evaluate(fn: ExcelFunction, values: Sequence[Any]) -> Any:
    try:
        coerced = [v if a.is_range else _scalar(a, v) for a, v in zip(fn.arguments, values)]
        return fn.compute(*coerced)
    except (RatingError, ValueError, TypeError) as exc:
        return error_value(exc)


def _broadcast(fn: ExcelFunction, values: Sequence[Any]) -> Any:
    grids = [_cells(v) if isinstance(v, (list, tuple)) else None for v in values]
    shapes = {(len(g), len(g[0]) if g else 0) for g in grids if g is not None and (len(g), len(g[0])) != (1, 1)}
    if not shapes:
        return _one(fn, [g[0][0] if g is not None else v for g, v in zip(grids, values)])
    if len(shapes) > 1:
        return ExcelError("#VALUE!", f"{fn.name}: ranges of different shapes {sorted(shapes)}")
    rows, cols = shapes.pop()
    out = []
    for i in range(rows):
        line = []
        for j in range(cols):
            cell_args = [v if g is None else g[0][0] if len(g) == 1 and len(g[0]) == 1 else g[i][j]
                         for g, v in zip(grids, values)]
            line.append(_one(fn, cell_args))
        out.append(line)
    return out


def _one(fn: ExcelFunction, values: Sequence[Any]) -> Any:
    for value in values:
        error = as_error(value)
        if error is not None:
            return error
    return _evaluate(fn, values)
