"""The public pages in Chromium against a real ``xlrating serve`` over examples 01-05: a ranking
and its country filter, the search from the header, a tournament page reached from the list, a
player page with its chart, and the CSV and Excel downloads of a ranking (opened with csv and
openpyxl, equal to the page's JSON). (Uses the browser fixtures of test_browser.)"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from live_server import running_server
from test_browser import EXAMPLES, browser, new_context, xlrating

__all__ = ["browser"]  # the fixture, shared with test_browser
RANKING = "/rankings/Riichi/2005?as_of=2025-12-31"


@pytest.fixture(scope="module")
def public_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("browser-public") / "store.db"
    xlrating("ingest", "--db", str(db), *sorted(str(p) for p in EXAMPLES.glob("0[1-5]_*.xlsx")), check=True)
    with running_server(db, "--site-name", "Mahjong Ratings", "--federation", "European Mahjong Association",
                        log=db.with_name("serve.log")) as url:
        yield url


@pytest.fixture
def page(browser: Any, public_server: str) -> Iterator[Any]:
    context = new_context(browser, public_server)
    yield context.new_page()
    context.close()


def column(page: Any, table: str, n: int) -> list[str]:
    return [t.strip() for t in page.locator(f"table#{table} tbody tr td:nth-child({n})").all_inner_texts()]


def test_a_ranking_filtered_by_country_then_a_player_with_the_chart(page: Any, tmp_path: Path) -> None:
    page.goto(RANKING)
    assert page.title() == "Riichi ranking, 2005 rules · Mahjong Ratings (European Mahjong Association)"
    everyone = page.request.get("/rankings/Riichi/2005.json?as_of=2025-12-31").json()["ranking"]
    assert column(page, "ranking", 3) == [line["name"] for line in everyone]  # after the rank and the move
    assert column(page, "ranking", 5) == [line["country"] for line in everyone]
    page.screenshot(path=str(tmp_path / "ranking.png"), full_page=True)

    page.select_option("#country", "NED")
    page.get_by_role("button", name="Show").click()
    page.wait_for_url(re.compile(r"country=NED"))
    dutch = [line for line in everyone if line["country"] == "NED"]
    assert dutch and column(page, "ranking", 5) == ["NED"] * len(dutch)
    assert column(page, "ranking", 1) == [str(line["rank"]) for line in dutch]  # ranks in the whole ranking

    page.get_by_role("link", name=dutch[0]["name"], exact=True).click()
    page.wait_for_url(f"**/players/{dutch[0]['player']}?rules=2005&as_of=2025-12-31")
    assert page.locator("h1").inner_text().startswith(dutch[0]["name"])
    chart = page.locator("#chart-Riichi svg.chart")
    box = chart.bounding_box()
    assert box and box["width"] > 300 and box["height"] > 100
    line = page.locator("#chart-Riichi svg.chart path.total")
    assert re.match(r"M[\d.]+ [\d.]+", line.get_attribute("d") or "")
    assert page.locator("#chart-Riichi circle.played").count() == 2  # the two Riichi tournaments played
    assert page.locator("#chart-Riichi").screenshot(path=str(tmp_path / "chart.png"))
    page.screenshot(path=str(tmp_path / "player.png"), full_page=True)


def test_the_search_in_the_header_finds_a_player_by_name(page: Any) -> None:
    page.goto("/tournaments")
    page.fill("#site-search", "ines aubert")
    page.press("#site-search", "Enter")
    page.wait_for_url("**/search?q=ines+aubert")
    assert column(page, "players", 1) == ["Inès Aubert"]
    page.locator("table#players").get_by_role("link", name="Inès Aubert").click()
    page.wait_for_url("**/players/*")
    assert page.locator("h1").inner_text().startswith("Inès Aubert")
    assert "Lyon MCR Open 2024" in page.locator("table#results").inner_text()


def test_a_tournament_page_from_the_list_shows_its_standings(page: Any) -> None:
    page.goto("/tournaments")
    page.locator("table#tournaments").get_by_role("link", name="Vienna Riichi Day 2025").click()
    page.wait_for_url(re.compile(r"/tournaments/\d+$"))
    assert page.locator("h1").inner_text() == "Vienna Riichi Day 2025"
    assert page.locator("#weight").inner_text() == "1.50"
    places, base_ranks = column(page, "standings", 1), column(page, "standings", 2)
    assert places == [str(n) for n in range(1, 17)]
    # as the rules in force today count them: the 2018 rules round a base rank to a whole number
    assert base_ranks == [f"{math.floor((16 - n) / 15 * 1000 + 0.5):.2f}" for n in range(1, 17)]
    assert "age factor" in page.locator("#age").inner_text()


def test_the_ranking_downloads_as_csv_and_excel_equal_to_its_json(page: Any, tmp_path: Path) -> None:
    page.goto(RANKING)
    expected = page.request.get("/rankings/Riichi/2005.json?as_of=2025-12-31").json()["ranking"]
    files = {}
    for label in ("CSV", "Excel"):
        with page.expect_download() as started:
            page.locator("#downloads").get_by_role("link", name=label).click()
        download = started.value
        files[label] = tmp_path / download.suggested_filename
        download.save_as(files[label])
    assert files["CSV"].name == "rankings-Riichi-2005.csv" and files["Excel"].name == "rankings-Riichi-2005.xlsx"
    with files["CSV"].open(encoding="utf-8-sig", newline="") as handle:
        from_csv = list(csv.DictReader(handle))
    assert from_csv == [{k: "" if v is None else repr(v) if isinstance(v, float) else str(v) for k, v in line.items()}
                        for line in expected]
    sheet = openpyxl.load_workbook(files["Excel"])["Ranking"]
    header, *rows = sheet.iter_rows(values_only=True)
    from_xlsx = [dict(zip(header, row)) for row in rows]
    assert [{k: v for k, v in row.items() if k != "total"} for row in from_xlsx] \
        == [{k: v for k, v in line.items() if k != "total"} for line in expected]
    # Excel keeps 15 significant digits (openpyxl writes 16)
    assert [row["total"] for row in from_xlsx] == pytest.approx([line["total"] for line in expected], rel=1e-15)
