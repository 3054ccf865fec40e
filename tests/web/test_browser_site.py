"""The public site and the officer's preview in Chromium, at a desktop's width (1280 px) and a
phone's (400 px), against a real ``xlrating serve`` over a federation-like store (the benchmarks'
generator, three tenths of a federation's size, plus the Lyon example):

- the home page: each system's leaders and latest events, nothing wider than the screen;
- a ranking of several pages: "Find a player" goes to the page of the player found and marks the row;
  the Total column stays on screen on a phone;
- the date picker: another date gives that date's ranking, with each player's movement;
- a player's page: the chart with its legend;
- the officer's page of a submission that replaces a stored tournament: the standings with their base
  ranks, and what changes from the stored version.

Each test saves its screenshots under ``$XLRATING_SCREENSHOTS`` (default: the test's temporary
folder), to be looked at.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from live_server import OFFICER, running_server

CHROMIUM = "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else shutil.which("chromium")
if CHROMIUM is None:
    pytest.skip("Chromium is not installed (/usr/bin/chromium or chromium on PATH)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from federation import make_store

LYON = ROOT / "examples" / "01_lyon_mcr_open_2024.xlsx"
AS_OF = "2020-06-30"  # the generated federation's last months
WIDTHS = (1280, 400)
TIMEOUT_MS = 20_000


@pytest.fixture(scope="module")
def store_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("site") / "store.db"
    make_store(db, scale=0.3)
    import subprocess

    subprocess.run([sys.executable, "-m", "xlrating", "ingest", "--db", str(db), str(LYON)], check=True,
                   capture_output=True)
    return db


@pytest.fixture(scope="module")
def server(store_db: Path) -> Iterator[str]:
    with running_server(store_db, "--upload-rate", "1000/minute", log=store_db.with_name("serve.log")) as url:
        # The first view after a change fills the caches (seconds on a busy machine); the tests read pages
        import urllib.request

        with urllib.request.urlopen(f"{url}/?as_of={AS_OF}", timeout=300) as warmed:
            assert warmed.status == 200
        yield url



@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("XLRATING_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def page_at(browser: Any, server: str, width: int) -> Any:
    context = browser.new_context(base_url=server, viewport={"width": width, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    return context.new_page()


def fits(page: Any, width: int) -> None:
    """Nothing on the page is wider than the screen (a wide table scrolls inside itself)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def on_screen(page: Any, selector: str, width: int) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_home_page_shows_every_system(browser: Any, server: str, shots: Path, width: int) -> None:
    page = page_at(browser, server, width)
    page.goto(f"/?as_of={AS_OF}")
    for key in ("mers", "dippouch", "dci"):
        section = page.locator(f"section#system-{key}")
        boards = section.locator("table.leaders")
        assert boards.count() >= 1 and all(boards.nth(i).locator("tbody tr").count() == 10
                                           for i in range(boards.count())), key
        assert section.locator(".latest li").count() == 5, key
    assert page.get_by_role("navigation").get_by_role("link", name="Submit results").is_visible()
    fits(page, width)
    page.screenshot(path=str(shots / f"home-{width}.png"), full_page=True)
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_find_a_player_in_a_paged_ranking(browser: Any, server: str, shots: Path, width: int) -> None:
    page = page_at(browser, server, width)
    page.goto(f"/rankings/MCR/2018?as_of={AS_OF}")
    pages = page.locator("#pager nav.pages span").first.inner_text()
    total = int(re.search(r"of ([\d,]+)", pages).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert total > 100, pages  # more than one page
    page.locator("a[rel=last]").click()
    last_name = page.locator("table#ranking tbody tr").last.locator("td").nth(2).inner_text()
    page.goto(f"/rankings/MCR/2018?as_of={AS_OF}")
    page.fill("input#find", last_name)
    page.get_by_role("button", name="Find").click()
    page.wait_for_url(re.compile(r"find="))
    found = page.locator("tr#found")
    assert found.count() == 1 and last_name in found.inner_text()
    assert found.is_visible() and "page 1 of" not in page.locator("#pager").inner_text()
    on_screen(page, "table#ranking thead th:has-text('Total')", width)  # the column that matters, on a phone too
    fits(page, width)
    page.screenshot(path=str(shots / f"ranking-found-{width}.png"))
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_date_picker_gives_that_days_ranking_with_the_movement(browser: Any, server: str, shots: Path,
                                                                   width: int) -> None:
    page = page_at(browser, server, width)
    page.goto(f"/rankings/Riichi/2018?as_of={AS_OF}")
    page.fill("input#as_of", "2019-12-31")
    page.get_by_role("button", name="Show").click()
    page.wait_for_url(re.compile(r"as_of=2019-12-31"))
    assert "As of 2019-12-31" in page.locator("main").inner_text()
    moves = page.locator("table#ranking td.move").all_inner_texts()
    assert moves and all(re.fullmatch(r"▲\d+|▼\d+|new|–", m.strip()) for m in moves)
    assert page.locator("#movement-note").is_visible()
    on_screen(page, "table#ranking thead th:has-text('Move')", width)
    fits(page, width)
    page.screenshot(path=str(shots / f"ranking-date-{width}.png"))
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_player_page_has_a_chart_with_its_legend(browser: Any, server: str, shots: Path, width: int) -> None:
    page = page_at(browser, server, width)
    page.goto(f"/rankings/MCR/2018?as_of={AS_OF}")
    page.locator("table#ranking tbody tr").nth(20).locator("td").nth(2).locator("a").click()
    page.wait_for_url(re.compile(r"/players/\d{8}"))
    legend = page.locator("svg.chart .legend").first
    assert legend.is_visible()
    assert "played (the total after it)" in legend.text_content()
    fits(page, width)
    page.locator("svg.chart").first.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"player-{width}.png"))
    page.context.close()


def test_the_officer_previews_a_replacement_with_its_standings_and_changes(browser: Any, server: str, shots: Path,
                                                                           tmp_path: Path) -> None:
    corrected = tmp_path / "lyon_corrected.xlsx"
    wb = openpyxl.load_workbook(LYON)
    sheet = wb["Results"]
    assert sheet["D14"].value == "Inès"
    sheet["D14"] = "Agnès"  # the winner's first name corrected
    wb.save(corrected)
    organiser = page_at(browser, server, 1280)
    organiser.goto("/submit")
    organiser.set_input_files("input#sheet", str(corrected))
    organiser.get_by_role("button", name="Check the sheet").click()
    organiser.wait_for_url("**/checks/*")
    assert "is published already, as version 1" in organiser.locator("main").inner_text()
    organiser.fill("input#contact", "organiser@example.org")
    organiser.get_by_role("button", name="Send to the ranking officer").click()
    organiser.context.close()
    for width in WIDTHS:
        officer = page_at(browser, server, width)
        officer.goto("/officer/sign-in")
        officer.fill("input#user", OFFICER[0])
        officer.fill("input#password", OFFICER[1])
        officer.get_by_role("button", name="Sign in").click()
        officer.wait_for_url("**/officer")
        officer.locator("#pending a[href^='/officer/submissions/']").first.click()
        replaces = officer.locator("#replaces")
        assert "1 row added, 1 removed, 23 the same" in replaces.inner_text()
        assert "added: place 1: Agnès Aubert (04858660)" in replaces.inner_text()
        preview = officer.locator("section#preview-1")
        assert "Weight" in preview.inner_text() and preview.locator("tbody tr").count() == 24
        assert preview.locator("tbody tr").first.locator("td").nth(4).inner_text() == "1000.00"
        fits(officer, width)
        officer.screenshot(path=str(shots / f"officer-preview-{width}.png"), full_page=True)
        officer.context.close()
