"""Rules for placements: whole numbers from 1 to N in standard competition ranking ("1224": tied
players share a place and the next place skips), one row per declared player, and positions in
the order of the score columns (table points, then score) when the sheet has them."""

from __future__ import annotations

import itertools
from typing import Any

from xlrating.sheets.read import cells as cv
from xlrating.sheets.validate.ema.layout import BlockCell, Layout
from xlrating.sheets.validate.ema.submission import PlayerRow
from xlrating.sheets.validate.findings import UNREAD, Collector


def check_places(layout: Layout, out: Collector, players: list[tuple[PlayerRow, Any]],
                 declared: int | None, players_cell: BlockCell | None) -> None:
    """Parse each row's position into ``PlayerRow.place`` and check the placement rules."""
    sheet, column = layout.grid.name, layout.columns["position"]
    n = declared if declared is not None else len(players)
    if declared is not None and declared != len(players) and players_cell is not None:
        out.add("ROW_COUNT_MISMATCH", players_cell.grid.name, players_cell.row, players_cell.column,
                rows=len(players), players=declared)
    placed: list[PlayerRow] = []
    for row, raw in players:
        if raw is UNREAD:
            continue
        place = cv.whole(raw)
        if place is cv.INVALID or place is None:
            out.add("PLACE_NOT_WHOLE", sheet, row.row, column, value=raw, players=n)
        elif not 1 <= place <= n:
            out.add("PLACE_OUT_OF_RANGE", sheet, row.row, column, value=place, players=n)
        else:
            row.place = place
            placed.append(row)
    placed.sort(key=lambda p: (p.place, p.row))
    _competition_ranking(out, sheet, column, placed)
    _score_order(layout, out, placed)


def _competition_ranking(out: Collector, sheet: str, column: int, placed: list[PlayerRow]) -> None:
    """Each place is either the previous one (a tie) or previous + size of the previous tie group.
    Checking against the previous group (not against the row count) reports one finding per
    mistake instead of one for every row after it."""
    previous, group = 0, 1
    for p in placed:
        assert p.place is not None
        if p.place == previous:
            group += 1
            continue
        expected = previous + group if previous else 1
        if p.place > expected:
            out.add("PLACE_GAP", sheet, p.row, column, value=p.place,
                    previous=previous or "the start", expected=expected)
        elif p.place < expected:
            out.add("PLACE_TIE_NOT_SKIPPED", sheet, p.row, column, value=p.place, tied=group,
                    previous=previous, expected=expected)
        previous, group = p.place, 1


def _score_order(layout: Layout, out: Collector, placed: list[PlayerRow]) -> None:
    """A better position must not have worse (table points, score) than a worse position."""
    roles = [role for role in ("table_points", "score") if role in layout.columns]
    if not roles:
        return
    for better, worse in itertools.pairwise(placed):
        if better.place == worse.place:
            continue
        for role in roles:
            a, b = getattr(better, role), getattr(worse, role)
            if a is None or b is None or a > b:
                break  # unknown, or correctly ordered on this column: later columns do not matter
            if a < b:
                out.add("PLACE_SCORE_ORDER", layout.grid.name, worse.row, layout.columns[role],
                        value=worse.place, column=role.replace("_", " "), score=f"{b:g}",
                        better=better.place, better_score=f"{a:g}")
                break
