"""The register of players in real Chromium, as the officer uses it: from the queue to a system's
register, a merge made through its form shows in the log and at once on the public ranking, and
Undo (with its reason) puts the ranking back; at a phone's width the forms and the log fit the screen.
Stores made with ``xlrating ingest``; the server is ``xlrating serve`` (tests/web/live_server.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live_server import OFFICER, running_server

CHROMIUM = "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else shutil.which("chromium")
if CHROMIUM is None:
    pytest.skip("Chromium is not installed (/usr/bin/chromium or chromium on PATH)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

DIPPOUCH = Path(__file__).resolve().parents[2] / "examples" / "tables" / "dippouch_results.csv"
TIMEOUT_MS = 20_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("register") / "store.db"
    subprocess.run([sys.executable, "-m", "xlrating", "ingest", "--db", str(db), "--no-ask", str(DIPPOUCH)],
                   check=True, capture_output=True)
    with running_server(db, log=db.with_name("serve.log")) as url:
        yield url



def _page(browser: Any, server: str, width: int) -> Any:
    context = browser.new_context(base_url=server, viewport={"width": width, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto("/officer")
    page.wait_for_url("**/officer/sign-in")
    page.fill("#user", OFFICER[0])
    page.fill("#password", OFFICER[1])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/officer")
    return page


def _ranked(page: Any) -> list[str]:
    page.goto("/rankings/dippouch")
    return [str(name) for name in page.locator("table#ranking tbody tr td:nth-child(2)").all_inner_texts()]


def test_a_merge_shows_in_the_log_and_the_ranking_and_undo_puts_it_back(browser: Any, server: str) -> None:
    page = _page(browser, server, 1280)
    before = _ranked(page)
    assert "Ada Lovelace" in before and "Ada King" not in before
    page.goto("/officer")
    page.locator("#registers").get_by_role("link", name="Dip Pouch").click()
    page.wait_for_url("**/officer/register/dippouch")
    assert page.locator("#no-changes").is_visible()
    page.fill("#merge-player", "Ada Lovelace")
    page.fill("#merge-into", "Ada King")
    page.fill("#merge-why", "her married name")
    page.get_by_role("button", name="Merge").click()
    page.wait_for_url("**/officer/register/dippouch")
    row = page.locator("table#register-log tbody tr").first
    assert "Ada Lovelace merged into Ada King" in row.inner_text() and "her married name" in row.inner_text()
    merged = _ranked(page)
    assert "Ada King" in merged and "Ada Lovelace" not in merged
    assert merged.index("Ada King") == before.index("Ada Lovelace")

    page.goto("/officer/register/dippouch")
    page.fill("#why-undo-1", "a mistake")
    page.get_by_role("button", name="Undo").click()
    page.wait_for_url("**/officer/register/dippouch")
    assert "undone by change 2" in page.locator("table#register-log tbody tr").first.inner_text()
    assert page.get_by_role("button", name="Undo").count() == 0  # an undone change and an undo: nothing to undo
    assert _ranked(page) == before
    page.context.close()


def test_a_refused_change_says_why_and_at_a_phone_s_width_everything_fits(browser: Any, server: str) -> None:
    page = _page(browser, server, 400)
    page.goto("/officer/register/dippouch")
    page.fill("#merge-player", "Ada Lovelace")
    page.fill("#merge-into", "Blaise Pascal")
    page.fill("#merge-why", "the same person?")
    page.get_by_role("button", name="Merge").click()
    error = page.locator("#register-error")
    assert error.is_visible() and "Blaise Pascal" in error.inner_text()
    for selector in ("#merge", "#split", "#country", "#homonym", "#register-error"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 400, (selector, box)
    page.context.close()
