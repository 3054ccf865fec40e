"""The total-over-time chart: a legend says what the line and the dots are, "not ranked" is a gap in
the line and a row of its own under the axis, never a value at the axis minimum."""

from __future__ import annotations

import re

from xlrating.web.charts import BOTTOM, HEIGHT, TOP, total_chart

POINTS = [{"date": "2019-01-01", "total": None}, {"date": "2019-06-01", "total": 500.0},
          {"date": "2020-01-01", "total": None}, {"date": "2020-06-01", "total": 600.0}]


def _dots(svg: str, kind: str) -> list[tuple[float, str]]:
    return [(float(cy), title) for cy, title in
            re.findall(rf'<circle class="{kind}" cx="[\d.]+" cy="([\d.]+)" r="4"><title>([^<]+)</title>', svg)]


def test_not_ranked_is_a_gap_and_a_row_of_its_own_under_the_axis() -> None:
    svg = str(total_chart(POINTS, ["2019-01-01", "2019-06-01", "2020-06-01"], label="A's total"))
    path = re.search(r'<path class="total" d="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
    assert path.count("M") == 2  # the line stops while the player is not ranked, then starts again
    unranked = _dots(svg, "played unranked")
    assert [title for _, title in unranked] == ["2019-01-01: not ranked"]
    assert all(cy > HEIGHT - BOTTOM for cy, _ in unranked)  # below the plot, not on its lowest value
    ranked = _dots(svg, "played")
    assert [title for _, title in ranked] == ["2019-06-01: 500.00", "2020-06-01: 600.00"]
    assert all(TOP <= cy <= HEIGHT - BOTTOM for cy, _ in ranked)
    assert ">not ranked</text>" in svg


def test_the_legend_names_the_line_the_dots_and_the_gaps() -> None:
    svg = str(total_chart(POINTS, ["2019-01-01", "2019-06-01"], label="A's rating", value="rating"))
    legend = re.search(r'<g class="legend">(.*?)</g></g>', svg).group(1)  # type: ignore[union-attr]
    texts = re.findall(r">([^<>]+)</text>", legend)
    assert texts == ["rating", "played (the rating after it)", "played, not ranked after it", "no line: not ranked"]


def test_a_chart_always_ranked_has_no_not_ranked_entries() -> None:
    svg = str(total_chart([{"date": "2019-06-01", "total": 500.0}, {"date": "2020-06-01", "total": 550.0}],
                          ["2019-06-01"], label="B"))
    assert "not ranked" not in svg and "played (the total after it)" in svg
