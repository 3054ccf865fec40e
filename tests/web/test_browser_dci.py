"""The DCI public pages in Chromium against a real ``xlrating serve`` over the example DCI matches:
the ratings of a category reached from the DCI index, a player's page with the chart of each
category and the match history, an event page from the history, the search from the header, the
CSV and Excel downloads (opened with csv and openpyxl, equal to the JSON), and the ranking officer
seeing, before accepting, that a corrected table would replace a stored event; the ratings change
only once the officer confirms it. (Uses the browser fixtures of test_browser.)"""

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
TABLES = Path(__file__).resolve().parents[2] / "examples" / "tables"
OLD_ROW = "Grand Prix Rotterdam,2009-04-18,3,Kai Budde,Luis Scott-Vargas,W,"
NEW_ROW = "Grand Prix Rotterdam,2009-04-18,3,Kai Budde,Luis Scott-Vargas,L,"


@pytest.fixture(scope="module")
def dci_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    db = tmp_path_factory.mktemp("browser-dci") / "store.db"
    xlrating("ingest", "--db", str(db), str(TABLES / "dci_matches.csv"), check=True)
    with running_server(db, "--site-name", "Magic Ratings", log=db.with_name("serve.log")) as url:
        yield url, db


@pytest.fixture
def page(browser: Any, dci_server: tuple[str, Path]) -> Iterator[Any]:
    context = new_context(browser, dci_server[0])
    yield context.new_page()
    context.close()


def column(page: Any, table: str, n: int) -> list[str]:
    return [t.strip() for t in page.locator(f"table#{table} tbody tr td:nth-child({n})").all_inner_texts()]


def test_a_category_then_a_player_with_the_chart_then_an_event(page: Any, tmp_path: Path) -> None:
    page.goto("/")
    page.get_by_role("navigation").get_by_role("link", name="DCI", exact=True).click()
    page.wait_for_url("**/rankings/dci")
    assert column(page, "categories", 1) == ["Constructed", "Limited"]
    page.locator("table#categories").get_by_role("link", name="Limited").click()
    page.wait_for_url("**/rankings/dci/Limited")
    assert page.title() == "DCI ratings: Limited · Magic Ratings"
    expected = page.request.get("/rankings/dci/Limited.json").json()["ranking"]
    assert column(page, "ranking", 2) == [line["player"] for line in expected]
    assert column(page, "ranking", 3) == [line["country"] for line in expected]
    assert column(page, "ranking", 4) == [f"{line['rating']:.2f}" for line in expected]
    page.screenshot(path=str(tmp_path / "ranking.png"), full_page=True)

    page.locator("table#ranking").get_by_role("link", name="Jon Finkel").click()
    page.wait_for_url("**/dci/players/Jon%20Finkel")
    assert page.locator("h1").inner_text().startswith("Jon Finkel")
    history = page.request.get("/dci/players/Jon%20Finkel.json").json()
    for n, rating in enumerate(history["ratings"], start=1):
        days = {m["date"] for m in history["matches"] if m["category"] == rating["category"] and m["outcome"] != "bye"}
        if len(days) == 1:  # no line to draw
            assert page.locator(f"#chart-{n}").count() == 0
            assert "played on one day" in page.locator(f"#rating-{n}").inner_text()
            continue
        chart = page.locator(f"#chart-{n} svg.chart")
        box = chart.bounding_box()
        assert box and box["width"] > 300 and box["height"] > 100, rating["category"]
        assert re.match(r"M[\d.]+ [\d.]+", page.locator(f"#chart-{n} path.total").get_attribute("d") or "")
        assert page.locator(f"#chart-{n} circle.played").count() == len(days)
    assert page.locator("#chart-1").screenshot(path=str(tmp_path / "chart.png"))
    changes = column(page, "matches", 12)
    assert changes == [f"{m['change']:+.2f}" if m["change"] is not None else "" for m in history["matches"]]
    page.screenshot(path=str(tmp_path / "player.png"), full_page=True)

    page.locator("table#matches").get_by_role("link", name="Grand Prix Rotterdam").first.click()
    page.wait_for_url(re.compile(r"/dci/events/\d+$"))
    assert page.locator("h1").inner_text() == "Grand Prix Rotterdam"
    assert page.locator("#k").inner_text() == "grand prix: K = 40"
    assert page.locator("#category").inner_text() == "Constructed"
    assert page.locator("table#matches tbody tr").count() == 9
    finkel = page.locator("table#players tbody tr", has_text="Jon Finkel")
    assert finkel.count() == 1


def test_the_country_filter_of_a_category_and_its_downloads(page: Any, tmp_path: Path) -> None:
    page.goto("/rankings/dci/Constructed")
    everyone = page.request.get("/rankings/dci/Constructed.json").json()["ranking"]
    page.select_option("#country", "FRA")
    page.get_by_role("button", name="Show").click()
    page.wait_for_url(re.compile(r"/rankings/dci/Constructed\?country=FRA$"))
    assert page.title() == "DCI ratings: Constructed, France (FRA) · Magic Ratings"
    french = [line for line in everyone if line["country"] == "FRA"]
    assert column(page, "ranking", 1) == [str(n) for n in range(1, len(french) + 1)]  # the national rank
    assert column(page, "ranking", 2) == [str(line["rank"]) for line in french]  # the rank in the whole list
    assert column(page, "ranking", 3) == [line["player"] for line in french]
    page.screenshot(path=str(tmp_path / "national.png"), full_page=True)
    with page.expect_download() as started:
        page.locator("#downloads").get_by_role("link", name="Excel").click()
    saved = tmp_path / started.value.suggested_filename
    started.value.save_as(saved)
    header, *rows = openpyxl.load_workbook(saved)["Ratings"].iter_rows(values_only=True)
    shown = page.request.get("/rankings/dci/Constructed.json?country=FRA").json()["ranking"]
    from_xlsx = [dict(zip(header, row)) for row in rows]
    assert [{k: v for k, v in row.items() if k != "rating"} for row in from_xlsx] \
        == [{k: v for k, v in line.items() if k != "rating"} for line in shown] and len(shown) == len(french)
    assert [row["rating"] for row in from_xlsx] == pytest.approx([line["rating"] for line in shown], rel=1e-15)
    page.get_by_role("link", name="Every country").click()
    page.wait_for_url("**/rankings/dci/Constructed")
    page.locator("table#ranking").get_by_role("link", name="GER").click()  # a player's country links its list
    page.wait_for_url("**/rankings/dci/Constructed?country=GER")
    assert column(page, "ranking", 3) == [line["player"] for line in everyone if line["country"] == "GER"]


def test_the_search_in_the_header_finds_a_dci_player(page: Any) -> None:
    page.goto("/dci/events")
    page.fill("#site-search", "damo da rosa")
    page.press("#site-search", "Enter")
    page.wait_for_url("**/search?q=damo+da+rosa")
    page.locator("table#dci-players").get_by_role("link", name="Paulo Vitor Damo da Rosa").click()
    page.wait_for_url("**/dci/players/Paulo%20Vitor%20Damo%20da%20Rosa")
    assert "Bye (not rated)" in page.locator("table#matches").inner_text()


def test_a_category_downloads_as_csv_and_excel_equal_to_its_json(page: Any, tmp_path: Path) -> None:
    page.goto("/rankings/dci/Constructed")
    expected = page.request.get("/rankings/dci/Constructed.json").json()["ranking"]
    files = {}
    for label in ("CSV", "Excel"):
        with page.expect_download() as started:
            page.locator("#downloads").get_by_role("link", name=label).click()
        files[label] = tmp_path / started.value.suggested_filename
        started.value.save_as(files[label])
    assert files["CSV"].name == "rankings-dci-Constructed.csv"
    with files["CSV"].open(encoding="utf-8-sig", newline="") as handle:
        assert list(csv.DictReader(handle)) == [
            {k: repr(v) if isinstance(v, float) else "" if v is None else str(v) for k, v in line.items()}
            for line in expected]
    header, *rows = openpyxl.load_workbook(files["Excel"])["Ratings"].iter_rows(values_only=True)
    from_xlsx = [dict(zip(header, row)) for row in rows]
    assert [{k: v for k, v in row.items() if k != "rating"} for row in from_xlsx] \
        == [{k: v for k, v in line.items() if k != "rating"} for line in expected]
    assert [row["rating"] for row in from_xlsx] == pytest.approx([line["rating"] for line in expected], rel=1e-15)


def test_the_officer_sees_the_replacement_before_accepting(browser: Any, dci_server: tuple[str, Path],
                                                          tmp_path: Path) -> None:
    url = dci_server[0]
    corrected = tmp_path / "dci_matches_corrected.csv"
    corrected.write_text((TABLES / "dci_matches.csv").read_text(encoding="utf-8").replace(OLD_ROW, NEW_ROW),
                         encoding="utf-8")
    organiser, officer = new_context(browser, url), new_context(browser, url)
    try:
        sender = organiser.new_page()
        upload(sender, corrected)
        sender.fill("#contact", "td@club.example")
        sender.get_by_role("button", name="Send to the ranking officer").click()
        desk = officer.new_page()
        sign_in(desk)
        desk.locator("table#pending").get_by_role("link", name=corrected.name).click()
        desk.wait_for_url("**/officer/submissions/*")
        warning = desk.locator("#replaces")
        said = warning.inner_text()
        assert "Grand Prix Rotterdam (2009-04-18) is stored as version 1, from dci_matches.csv" in said
        assert "removed: 2009-04-18 round 3: Kai Budde won against Luis Scott-Vargas (K 40, Constructed)" in said
        assert "added: 2009-04-18 round 3: Kai Budde lost to Luis Scott-Vargas (K 40, Constructed)" in said
        desk.screenshot(path=str(tmp_path / "officer.png"), full_page=True)
        before = desk.request.get("/rankings/dci/Constructed.json").json()["ranking"]

        desk.click("#accept")  # not confirmed: refused, nothing replaced
        assert "already stored as version 1" in desk.locator("#decision-error").inner_text()
        assert desk.locator("#replaces").count() == 1
        assert desk.request.get("/rankings/dci/Constructed.json").json()["ranking"] == before

        desk.check("#replace")
        desk.click("#accept")
        desk.wait_for_url("**/officer")
        assert "1 event replaced (Grand Prix Rotterdam (2009-04-18) v2)" in desk.locator("p.notice").inner_text()
        after = desk.request.get("/rankings/dci/Constructed.json").json()["ranking"]
        from_file = tmp_path / "from_file.json"
        xlrating("rank", "dci", str(corrected), "--category", "Constructed", "-o", str(from_file), check=True)
        commands = [{k: v for k, v in line.items() if k not in ("country", "national_rank")} for line in after]
        assert commands == json.loads(from_file.read_text()) and after != before
    finally:
        organiser.close()
        officer.close()
