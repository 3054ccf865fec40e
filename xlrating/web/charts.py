"""A player's total over time as an SVG step chart, drawn on the server (no script, no image
file: the page carries it inline, so the strict Content-Security-Policy allows it).

The total holds from one change to the next, so the line is drawn in steps; a stretch while the
player is not ranked is a gap in the line. Dots mark the days on which the player played, on the line
(the value after that day) or, when the player was not ranked after it, as hollow dots on a row of
their own under the axis: "not ranked" is not a value. A legend above the plot says which is which.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from typing import Any

from markupsafe import Markup, escape

WIDTH, HEIGHT = 720, 300
LEFT, RIGHT, TOP, BOTTOM = 76, 16, 36, 66
UNRANKED_ROW = 16  # below the plot: where the days played while not ranked are marked


def _y_range(values: Sequence[float]) -> tuple[float, float]:
    low = float(math.floor(min(values) / 100) * 100)
    high = float(math.ceil(max(values) / 100) * 100)
    if high - low < 200:
        low, high = max(0.0, low - 100), min(1000.0, high + 100)
    return (low, high) if high > low else (0.0, 1000.0)


def total_chart(points: Sequence[dict[str, Any]], played: Sequence[str], *, label: str,
                y_range: tuple[float, float] | None = None, value: str = "total") -> Markup:
    """``points``: ``{date, total}`` rows (ISO dates, total None while not ranked), oldest first;
    ``played``: the ISO dates of the player's results; ``label`` names the chart for readers;
    ``y_range`` the values at the bottom and top (default: a MERS total's, in hundreds); ``value``
    what the line is, in the legend ("total", "rating")."""
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
        level = low + (high - low) * step / 5
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(level):.1f}" y2="{y(level):.1f}"/>'
                     f'<text class="axis" x="{LEFT - 6}" y="{y(level) + 4:.1f}" text-anchor="end">{level:.0f}</text>')
    for year in range(first.year + (first.month > 1 or first.day > 1), last.year + 1):  # 1 January of each year
        at = x(dt.date(year, 1, 1))
        parts.append(f'<line class="grid" x1="{at:.1f}" x2="{at:.1f}" y1="{TOP}" y2="{HEIGHT - BOTTOM}"/>'
                     f'<text class="axis" x="{at:.1f}" y="{HEIGHT - BOTTOM + UNRANKED_ROW + 22}" text-anchor="middle">{year}</text>')
    parts.append(f'<text class="axis" x="{LEFT}" y="{HEIGHT - 4}">{first.isoformat()}</text>'
                 f'<text class="axis" x="{WIDTH - RIGHT}" y="{HEIGHT - 4}" text-anchor="end">{last.isoformat()}</text>')
    path: list[str] = []
    ranked_before = False
    gaps = False
    for day, point in zip(days, points):
        if point["total"] is None:
            if ranked_before:  # the line stops on the day the player is no longer ranked
                path.append(f"H{x(day):.1f}")
                gaps = True
            ranked_before = False
        elif ranked_before:
            path.append(f"H{x(day):.1f} V{y(point['total']):.1f}")
        else:
            gaps = gaps or bool(path)
            path.append(f"M{x(day):.1f} {y(point['total']):.1f}")
            ranked_before = True
    if ranked_before:
        path.append(f"H{x(days[-1]):.1f}")
    parts.append(f'<path class="total" d="{" ".join(path)}"/>')
    unranked_y = HEIGHT - BOTTOM + UNRANKED_ROW
    unranked = False
    for day_text in played:
        day = dt.date.fromisoformat(day_text)
        on_day = _total_on(days, points, day)
        if not first <= day <= last:
            continue
        if on_day is None:  # played, but not ranked after it: on the row under the axis, hollow
            unranked = True
            parts.append(f'<circle class="played unranked" cx="{x(day):.1f}" cy="{unranked_y:.1f}" r="4">'
                         f"<title>{escape(day_text)}: not ranked</title></circle>")
        else:
            parts.append(f'<circle class="played" cx="{x(day):.1f}" cy="{y(on_day):.1f}" r="4">'
                         f"<title>{escape(day_text)}: {on_day:.2f}</title></circle>")
    if unranked:
        parts.append(f'<text class="axis" x="{LEFT - 6}" y="{unranked_y + 4:.1f}" text-anchor="end">not ranked</text>')
    parts.append(_legend(value, gaps=gaps, unranked=unranked))
    parts.append("</svg>")
    return Markup("".join(parts))


def _legend(value: str, *, gaps: bool, unranked: bool) -> str:
    """The key above the plot: the line, the days played, and (when the chart has them) the days
    played while not ranked and the gaps while not ranked."""
    items = [('<line class="key-total" x1="0" x2="22" y1="-4" y2="-4"/>', value),
             ('<circle class="key-played" cx="11" cy="-4" r="4"/>', f"played (the {value} after it)")]
    if unranked:
        items.append(('<circle class="key-unranked" cx="11" cy="-4" r="4"/>', "played, not ranked after it"))
    if gaps:
        items.append(("", "no line: not ranked"))
    out, at = ['<g class="legend">'], float(LEFT)
    for mark, text in items:
        out.append(f'<g transform="translate({at:.0f},18)">{mark}<text class="axis" x="{28 if mark else 0}" y="0">'
                   f"{escape(text)}</text></g>")
        at += (28 if mark else 0) + 6.2 * len(text) + 18
    out.append("</g>")
    return "".join(out)


def _total_on(days: Sequence[dt.date], points: Sequence[dict[str, Any]], day: dt.date) -> float | None:
    value = None
    for at, point in zip(days, points):
        if at > day:
            break
        value = point["total"]
    return value
