"""A player's rating explained, in Chromium against a real ``xlrating serve`` over the examples'
store: from the MERS player's page to the explanation of their total (the figures of
``xlrating explain mers``), another rule era chosen with the page's form, and its Excel download,
the workbook of formulas; at a desktop's width and a phone's, nothing wider than the screen. The
screenshots go to ``$XLRATING_SCREENSHOTS`` (default: the test's temporary folder)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from live_server import running_server

from tests.explain_books import RATING_CELL, SHEET, formulas, not_plain

CHROMIUM = "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else shutil.which("chromium")
if CHROMIUM is None:
    pytest.skip("Chromium is not installed (/usr/bin/chromium or chromium on PATH)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

TABLES = Path(__file__).resolve().parents[2] / "examples" / "tables"
AS_OF = "2025-12-31"
MCR = ("--ruleset", "MCR", "--as-of", AS_OF)
TIMEOUT_MS = 20_000


def xlrating(*args: object) -> str:
    done = subprocess.run([sys.executable, "-m", "xlrating", *map(str, args)], capture_output=True, text=True,
                          timeout=120, check=True)
    return done.stdout


@pytest.fixture(scope="module")
def store_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from xlrating.sheets.examples.submissions import write_examples

    folder = tmp_path_factory.mktemp("explain-browser")
    db = folder / "store.db"
    files = [f for f in write_examples(folder / "examples") if "mistakes" not in f.name]
    xlrating("ingest", "--db", db, *files, TABLES / "dippouch_results.csv", TABLES / "dci_matches.csv")
    return db


@pytest.fixture(scope="module")
def server(store_db: Path) -> Iterator[str]:
    with running_server(store_db, log=store_db.with_name("serve.log")) as url:
        yield url


def explained(db: Path, player: str, *options: str) -> dict[str, Any]:
    out = db.with_name("explain.json")
    xlrating("explain", "mers", player, "--db", db, *options, "-o", out)
    data: dict[str, Any] = json.loads(out.read_text())
    return data


@pytest.mark.parametrize("width", (1280, 400))
def test_from_the_player_page_to_the_explanation_its_options_and_its_workbook(server: str, store_db: Path,
                                                                              tmp_path: Path, width: int) -> None:
    board = store_db.with_name("board.json")
    xlrating("rank", "mers", "--db", store_db, *MCR, "-o", board)
    leader = json.loads(board.read_text())[0]
    expected = explained(store_db, leader["player"], *MCR)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        context = browser.new_context(base_url=server, viewport={"width": width, "height": 900}, accept_downloads=True)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        page.goto(f"/players/{leader['player']}?as_of={AS_OF}")
        page.get_by_role("link", name="How this MCR total comes about").click()
        page.wait_for_url(re.compile(r"/explain\?"))
        rating = page.locator("#rating").inner_text()
        assert f"{expected['rating']:.4f}" in rating and repr(expected["rating"]) in rating
        assert page.locator("table#explanation tbody tr").count() == len(expected["rows"])
        assert "(padding)" in page.locator("table#explanation").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shots = Path(os.environ.get("XLRATING_SCREENSHOTS") or tmp_path)  # to be looked at
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"explain-{width}.png"), full_page=True)

        page.select_option("select#option-rules", "2010")
        page.get_by_role("button", name="Explain").click()
        page.wait_for_url(re.compile(r"rules=2010"))
        older = explained(store_db, leader["player"], *MCR, "--rules", "2010")
        assert "Weighted average of the best 3" in page.locator("#parts").inner_text()
        assert f"{older['rating']:.4f}" in page.locator("#rating").inner_text()

        with page.expect_download() as waiting:
            page.locator("#downloads").get_by_role("link", name="Excel").click()
        saved = tmp_path / "explain.xlsx"
        waiting.value.save_as(saved)
        found = formulas(openpyxl.load_workbook(saved))
        assert found[f"{SHEET}!{RATING_CELL['mers']}"].startswith("=") and not [f for f in found.values() if not_plain(f)]
        assert openpyxl.load_workbook(saved, data_only=True)[SHEET][RATING_CELL["mers"]].value == older["rating"]
        context.close()
        browser.close()
