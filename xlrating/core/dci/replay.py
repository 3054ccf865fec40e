"""The DCI leaderboard without numpy: :func:`xlrating.core.dci.columns.ratings_from_columns` match by match.

The column engine rates a round of every independent event at once; the ratings a match starts from
are the same when the matches are replayed one by one in date, event, round order (a player is in
one match per round, and on a day rated that way in one event), so every rating is the same double.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable, Iterable

from xlrating.core import checks
from xlrating.core.dci.rules import METHODS, STARTING_RATING, Match, Rating, expected_score
from xlrating.core.errors import TableError

# A match's round: (category, date, event, round), codes ordered like the names.
RoundKey = tuple[int, int, int, int]


def ratings(matches: Iterable[Match], *, method: str = "formula") -> list[Rating]:
    """Every (player, category)'s rating after replaying the matches in order (see
    :func:`xlrating.core.dci.ratings`)."""
    how = checks.choice("method", method, METHODS)
    items = list(matches)
    players = sorted({m.player for m in items} | {m.opponent for m in items if m.opponent is not None})
    events = sorted({m.event for m in items})
    categories = sorted({m.category for m in items})
    player_code = {name: i for i, name in enumerate(players)}
    event_code = {name: i for i, name in enumerate(events)}
    category_code = {name: i for i, name in enumerate(categories)}

    def round_key(m: Match) -> RoundKey:
        return category_code[m.category], m.date.toordinal(), event_code[m.event], m.round

    rated = _rated_matches([m for m in items if m.opponent is not None], player_code, round_key)
    rating: dict[tuple[int, int], float] = {}
    count: dict[tuple[int, int], int] = {}
    for m in sorted(rated, key=lambda m: (m.date.toordinal(), event_code[m.event], m.round)):
        assert m.opponent is not None
        a = (category_code[m.category], player_code[m.player])
        b = (category_code[m.category], player_code[m.opponent])
        ra, rb = rating.get(a, STARTING_RATING), rating.get(b, STARTING_RATING)
        change = float(m.k) * (float(m.result) - expected_score(ra, rb, how))
        rating[a] = ra + change
        rating[b] = rb - change
        count[a] = count.get(a, 0) + 1
        count[b] = count.get(b, 0) + 1
    board = [Rating(players[player], rating[(category, player)], n, categories[category])
             for (category, player), n in count.items()]
    board.sort(key=lambda r: (r.category, -r.rating, r.player))
    return board


def _rated_matches(matches: list[Match], player_code: dict[str, int],
                   round_key: Callable[[Match], RoundKey]) -> list[Match]:
    """Matches listed from both sides merged and the rules of a round checked, with the column
    engine's errors: the first offending row in the order it looks at them."""
    for m in matches:
        if m.player == m.opponent:
            raise TableError(m.row, "opponent", "an opponent other than the player", m.player)
    by_pair: dict[tuple[RoundKey, int, int], list[Match]] = {}
    for m in matches:
        assert m.opponent is not None
        p, o = player_code[m.player], player_code[m.opponent]
        by_pair.setdefault((round_key(m), min(p, o), max(p, o)), []).append(m)
    repeated: set[int] = set()
    for key in sorted(k for k, listed in by_pair.items() if len(listed) > 1):
        listed = by_pair[key]
        for position, (x, y) in enumerate(itertools.pairwise(listed)):
            if position > 0 or not _same_match(x, y, player_code):  # listed three times, or disagreeing
                raise TableError(y.row, "result", f"the same match as row {x.row} seen from the other side "
                                 f"({y.player} vs {y.opponent}, round {int(y.round)})", float(y.result))
        repeated.add(id(listed[1]))
    kept = [m for m in matches if id(m) not in repeated]
    _check_once_per_round(kept, player_code, round_key)
    return kept


def _same_match(x: Match, y: Match, player_code: dict[str, int]) -> bool:
    def lower_side_score(m: Match) -> float:
        assert m.opponent is not None
        result = float(m.result)
        return result if player_code[m.player] < player_code[m.opponent] else 1.0 - result

    return x.player != y.player and lower_side_score(x) == lower_side_score(y) and x.k == y.k


def _check_once_per_round(matches: list[Match], player_code: dict[str, int],
                          round_key: Callable[[Match], RoundKey]) -> None:
    # Seats: every match's player side, then every match's opponent side (the column engine's order).
    n = len(matches)
    seats: dict[tuple[RoundKey, int], list[int]] = {}
    for side in (0, 1):
        for i, m in enumerate(matches):
            name = m.player if side == 0 else m.opponent
            assert name is not None
            seats.setdefault((round_key(m), player_code[name]), []).append(side * n + i)
    taken = [key for key, at in seats.items() if len(at) > 1]
    if not taken:
        return
    first, second = seats[min(taken)][:2]
    x, y = sorted((first % n, second % n))
    seat = matches[first % n]
    name = seat.player if first < n else seat.opponent
    m = matches[y]
    raise TableError(m.row, "player", f"each player in one match per round; {name!r} also plays in "
                     f"row {matches[x].row} ({m.event or 'event'} round {int(m.round)}, "
                     f"{dt.date.fromordinal(m.date.toordinal())})")
