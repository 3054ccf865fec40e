"""In Chromium against a real ``xlrating serve``: an organiser checks and sends a Dip Pouch results
table and a DCI matches table, the officer accepts both from the queue, and ``xlrating rank``
then ranks from the store what it ranks from the files. (Uses the fixtures of test_browser.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_browser import browser, new_context, server, sign_in, store_db, upload, xlrating

TABLES = Path(__file__).resolve().parents[2] / "examples" / "tables"
__all__ = ["browser", "server", "store_db"]  # the fixtures, shared with test_browser


def _send(page: Any, path: Path, contact: str) -> str:
    token = upload(page, path)
    assert page.locator("#verdict").inner_text().startswith("Valid")
    page.fill("#contact", contact)
    page.get_by_role("button", name="Send to the ranking officer").click()
    page.wait_for_url(f"**/checks/{token}")
    assert "waiting for a decision" in page.locator("#status").inner_text()
    return token


def test_the_officer_accepts_a_dippouch_table_and_a_dci_table(browser: Any, server: str, store_db: Path,
                                                             tmp_path: Path) -> None:
    organiser, officer = new_context(browser, server), new_context(browser, server)
    try:
        page = organiser.new_page()
        tables = {"dippouch": TABLES / "dippouch_results.csv", "dci": TABLES / "dci_matches.csv"}
        tokens = {system: _send(page, path, f"{system}@club.example") for system, path in tables.items()}
        desk = officer.new_page()
        sign_in(desk)
        for system, title in (("dippouch", "Dip Pouch results"), ("dci", "DCI matches")):
            name = tables[system].name
            queued = desk.locator("table#pending tbody tr", has_text=name)
            assert queued.count() == 1 and f"{title}: " in queued.inner_text()
            queued.get_by_role("link", name=name).click()
            desk.wait_for_url("**/officer/submissions/*")
            assert desk.locator("#system").inner_text() == title
            desk.click("#accept")
            desk.wait_for_url("**/officer")
            assert desk.locator("p.notice").inner_text().startswith(f"Accepted {name}: stored {title}:")
            assert desk.locator("table#decided tbody tr", has_text=name).locator("td").nth(3).inner_text() \
                == "accepted"
            page.goto(f"/checks/{tokens[system]}")
            assert page.locator("#status").inner_text().startswith("Accepted by the ranking officer")
        for system, path in tables.items():
            from_store, from_file = tmp_path / f"{system}_store.json", tmp_path / f"{system}_file.json"
            xlrating("rank", system, "--db", str(store_db), "-o", str(from_store), check=True)
            xlrating("rank", system, str(path), "-o", str(from_file), check=True)
            assert json.loads(from_store.read_text()) == json.loads(from_file.read_text())
    finally:
        organiser.close()
        officer.close()
