"""In Chromium against a real ``xlrating serve``: an organiser sends a Dip Pouch results table (with
nationalities), the ranking officer accepts it from the queue, and the public Dip Pouch pages show
it: the ranking reached from the navigation, its national filter, a player's page with the rating
chart, an event reached from the player's history, the search from the header, and the ranking's
CSV and Excel downloads (opened with csv and openpyxl, equal to the page's JSON). (Uses the browser
fixtures of test_browser.)"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from live_server import running_server
from test_browser import browser, new_context, sign_in, upload, xlrating

__all__ = ["browser"]  # the fixture, shared with test_browser
TABLE = """event,date,players,rounds,player,place,world_championship,nationality,score,location
Spring Cup,2023-04-16,21,3,Ada Lovelace,1,FALSE,GBR,120,Paris
Spring Cup,2023-04-16,21,3,Blaise Pascal,2,FALSE,FRA,99,Paris
Spring Cup,2023-04-16,21,3,Inès Aubert,3,FALSE,FRA,80,Paris
World Diplomacy Championship,2023-09-10,65,4,Ada Lovelace,8,TRUE,GBR,,Bangkok
World Diplomacy Championship,2023-09-10,65,4,Blaise Pascal,1,TRUE,FRA,,Bangkok
World Diplomacy Championship,2023-09-10,65,4,Grace Hopper,22,TRUE,USA,,Bangkok
Winter Masters,2024-01-21,65,3,Ada Lovelace,8,FALSE,GBR,,Oxford
Winter Masters,2024-01-21,65,3,Inès Aubert,12,FALSE,FRA,,Oxford
"""


@pytest.fixture(scope="module")
def dippouch_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("browser-dippouch")
    db = folder / "store.db"
    with running_server(db, "--site-name", "Diplomacy Ratings", log=folder / "serve.log") as url:
        yield url, folder


def column(page: Any, table: str, n: int) -> list[str]:
    return [t.strip() for t in page.locator(f"table#{table} tbody tr td:nth-child({n})").all_inner_texts()]


def test_an_accepted_dippouch_table_is_published_ranked_charted_and_downloadable(
        browser: Any, dippouch_server: tuple[str, Path], tmp_path: Path) -> None:
    server, folder = dippouch_server
    results = folder / "club_results.csv"
    results.write_text(TABLE, encoding="utf-8")
    organiser, officer, visitor = (new_context(browser, server) for _ in range(3))
    try:
        # the organiser sends the table, the officer accepts it
        page = organiser.new_page()
        upload(page, results)
        assert page.locator("#verdict").inner_text().startswith("Valid")
        page.fill("#contact", "club@example.org")
        page.get_by_role("button", name="Send to the ranking officer").click()
        desk = officer.new_page()
        sign_in(desk)
        desk.locator("table#pending tbody tr", has_text=results.name).get_by_role("link", name=results.name).click()
        desk.wait_for_url("**/officer/submissions/*")
        desk.click("#accept")
        desk.wait_for_url("**/officer")
        assert desk.locator("p.notice").inner_text().startswith(f"Accepted {results.name}: stored Dip Pouch results:")

        # the public ranking, from the navigation: what `rank dippouch` computes from the store
        page = visitor.new_page()
        page.goto("/")
        page.get_by_role("link", name="Dip Pouch", exact=True).click()
        page.wait_for_url("**/rankings/dippouch")
        assert page.title() == "Dip Pouch rating, international ranking (permanent) · Diplomacy Ratings"
        board = tmp_path / "board.json"
        xlrating("rank", "dippouch", "--db", str(folder / "store.db"), "-o", str(board), check=True)
        command = json.loads(board.read_text())
        assert column(page, "ranking", 2) == [line["player"] for line in command]
        assert column(page, "ranking", 4) == [f"{line['rating']:.3f}" for line in command]
        page.screenshot(path=str(tmp_path / "ranking.png"), full_page=True)

        # the national ranking
        page.select_option("#country", "FRA")
        page.get_by_role("button", name="Show").click()
        page.wait_for_url(re.compile(r"country=FRA"))
        assert page.locator("h1").inner_text().endswith("national ranking: France (FRA) (permanent)")
        assert column(page, "ranking", 4) == ["FRA", "FRA"] and column(page, "ranking", 1) == ["1", "2"]
        page.locator("#years").get_by_role("link", name="2023").click()  # the ranking at the end of 2023
        page.wait_for_url(re.compile(r"year=2023&country=FRA"))
        assert page.locator("h1").inner_text().endswith("national ranking: France (FRA) (at the end of 2023)")
        assert column(page, "ranking", 3) == ["Blaise Pascal", "Inès Aubert"]
        assert column(page, "ranking", 6) == ["2", "1"]  # Winter Masters (2024) not yet played

        # a player, with the chart of the rating, then an event from the history
        page.locator("table#ranking").get_by_role("link", name="Inès Aubert").click()
        page.wait_for_url("**/dippouch/players/In%C3%A8s%20Aubert")
        assert page.locator("h1").inner_text().startswith("Inès Aubert")
        chart = page.locator("#chart svg.chart")
        box = chart.bounding_box()
        assert box and box["width"] > 300 and box["height"] > 100
        assert re.match(r"M[\d.]+ [\d.]+", page.locator("#chart path.total").get_attribute("d") or "")
        assert page.locator("#chart circle.played").count() == 2
        page.screenshot(path=str(tmp_path / "player.png"), full_page=True)
        page.locator("table#history").get_by_role("link", name="Winter Masters").click()
        page.wait_for_url(re.compile(r"/dippouch/events/\d+$"))
        assert page.locator("h1").inner_text() == "Winter Masters"
        assert page.locator("#value").inner_text() == "15.00"
        assert column(page, "standings", 2) == ["Ada Lovelace", "Inès Aubert"]
        assert column(page, "standings", 3) == ["GBR", "FRA"]

        # the search from the header, without the accent
        page.fill("#site-search", "ines")
        page.press("#site-search", "Enter")
        page.wait_for_url("**/search?q=ines")
        page.locator("table#dippouch-players").get_by_role("link", name="Inès Aubert").click()
        page.wait_for_url("**/dippouch/players/*")

        # the ranking's downloads hold the JSON's rows
        page.goto("/rankings/dippouch")
        expected = page.request.get("/rankings/dippouch.json").json()["ranking"]
        files = {}
        for label in ("CSV", "Excel"):
            with page.expect_download() as started:
                page.locator("#downloads").get_by_role("link", name=label).click()
            files[label] = tmp_path / started.value.suggested_filename
            started.value.save_as(files[label])
        assert files["CSV"].name == "rankings-dippouch.csv" and files["Excel"].name == "rankings-dippouch.xlsx"
        with files["CSV"].open(encoding="utf-8-sig", newline="") as handle:
            assert list(csv.DictReader(handle)) == [
                {k: "" if v is None else repr(v) if isinstance(v, float) else str(v) for k, v in line.items()}
                for line in expected]
        header, *rows = openpyxl.load_workbook(files["Excel"])["Ranking"].iter_rows(values_only=True)
        from_xlsx = [dict(zip(header, row)) for row in rows]
        assert [{k: v for k, v in row.items() if k != "rating"} for row in from_xlsx] \
            == [{k: v for k, v in line.items() if k != "rating"} for line in expected]
        assert [row["rating"] for row in from_xlsx] == pytest.approx([line["rating"] for line in expected],
                                                                     rel=1e-15)
    finally:
        for context in (organiser, officer, visitor):
            context.close()
