"""A player's total over time as an SVG step chart, drawn on the server (no script, no image
file: the page carries it inline, so the strict Content-Security-Policy allows it).

The total holds from one change to the next, so the line is drawn in steps; a stretch while the
player is not ranked is left blank. Dots mark the days on which the player played.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from typing import Any

from markupsafe import Markup, escape

WIDTH, HEIGHT = 720, 270
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 46


def _y_range(values: Sequence[float]) -> tuple[float, float]:
    low = float(math.floor(min(values) / 100) * 100)
    high = float(math.ceil(max(values) / 100) * 100)
    if high - low < 200:
        low, high = max(0.0, low - 100), min(1000.0, high + 100)
    return (low, high) if high > low else (0.0, 1000.0)


def total_chart(points: Sequence[dict[str, Any]], played: Sequence[str], *, label: str,
                y_range: tuple[float, float] | None = None) -> Markup:
    """``points``: ``{date, total}`` rows (ISO dates, total None while not ranked), oldest first;
    ``played``: the ISO dates of the player's results; ``label`` names the chart for readers;
    ``y_range`` the values at the bottom and top (default: a MERS total's, in hundreds)."""
    days = [dt.date.fromisoformat(p["date"]) for p in points]
    ranked = [p["total"] for p in points if p["total"] is not None]
    if len(days) < 1 or not ranked:
        return Markup("")
    first, last = min(days), max(days)
    span = max((last - first).days, 1)
    low, high = y_range or _y_range(ranked)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    inset = 10  # the first and last days stand clear of the axes

    def x(day: dt.date) -> float:
        return LEFT + inset + (day - first).days / span * (plot_w - 2 * inset)

    def y(value: float) -> float:
        return TOP + (high - value) / (high - low) * plot_h

    opening = (f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" '
               f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">')
    parts = [opening, f"<title>{escape(label)}</title>"]
    for step in range(6):  # horizontal grid lines with their values
        value = low + (high - low) * step / 5
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}"/>'
                     f'<text class="axis" x="{LEFT - 6}" y="{y(value) + 4:.1f}" text-anchor="end">{value:.0f}</text>')
    for year in range(first.year + (first.month > 1 or first.day > 1), last.year + 1):  # 1 January of each year
        at = x(dt.date(year, 1, 1))
        parts.append(f'<line class="grid" x1="{at:.1f}" x2="{at:.1f}" y1="{TOP}" y2="{HEIGHT - BOTTOM}"/>'
                     f'<text class="axis" x="{at:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{year}</text>')
    parts.append(f'<text class="axis" x="{LEFT}" y="{HEIGHT - 4}">{first.isoformat()}</text>'
                 f'<text class="axis" x="{WIDTH - RIGHT}" y="{HEIGHT - 4}" text-anchor="end">{last.isoformat()}</text>')
    path: list[str] = []
    ranked_before = False
    for day, point in zip(days, points):
        if point["total"] is None:
            if ranked_before:  # the line stops on the day the player is no longer ranked
                path.append(f"H{x(day):.1f}")
            ranked_before = False
        elif ranked_before:
            path.append(f"H{x(day):.1f} V{y(point['total']):.1f}")
        else:
            path.append(f"M{x(day):.1f} {y(point['total']):.1f}")
            ranked_before = True
    if ranked_before:
        path.append(f"H{x(days[-1]):.1f}")
    parts.append(f'<path class="total" d="{" ".join(path)}"/>')
    for day_text in played:
        day = dt.date.fromisoformat(day_text)
        on_day = _total_on(days, points, day)
        if not first <= day <= last:
            continue
        if on_day is None:  # played, but not ranked yet (or no longer): on the bottom line, hollow
            parts.append(f'<circle class="played unranked" cx="{x(day):.1f}" cy="{y(low):.1f}" r="4">'
                         f"<title>{escape(day_text)}: not ranked</title></circle>")
        else:
            parts.append(f'<circle class="played" cx="{x(day):.1f}" cy="{y(on_day):.1f}" r="4">'
                         f"<title>{escape(day_text)}: {on_day:.2f}</title></circle>")
    parts.append("</svg>")
    return Markup("".join(parts))


def _total_on(days: Sequence[dt.date], points: Sequence[dict[str, Any]], day: dt.date) -> float | None:
    value = None
    for at, point in zip(days, points):
        if at > day:
            break
        value = point["total"]
    return value
