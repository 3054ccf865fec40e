"""What the organiser and the ranking officer read around a decision, in process: the check page
leads with the officer's decision (never with "can be sent" above "Rejected"), the officer sees
before accepting that a submission would replace a stored tournament and which version, and no
page speaks of the command line. (Uses the helpers and fixtures of test_app.)"""

from __future__ import annotations

import re
from pathlib import Path

from starlette.testclient import TestClient
from test_app import LYON, client, pending_ids, sign_in, submitted, token, versions

__all__ = ["client"]  # the fixture, shared with test_app


def test_after_a_decision_the_check_page_leads_with_it_not_with_the_valid_banner(client: TestClient) -> None:
    page = submitted(client, LYON)
    sign_in(client)
    [number] = pending_ids(client)
    client.post(f"/officer/submissions/{number}/reject", data={"csrf_token": token(client, "/officer"),
                                                               "note": "Wrong date"})
    html = client.get(page).text
    assert "Rejected by the ranking officer" in html and "the sheet can be sent" not in html
    assert html.index("Rejected by the ranking officer") < html.index('id="verdict"')
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", html) and " UTC" in html  # a readable time


def test_the_officer_sees_before_accepting_that_a_submission_replaces_a_stored_version(client: TestClient,
                                                                                      tmp_path: Path) -> None:
    import openpyxl

    submitted(client, LYON)
    sign_in(client)
    [first] = pending_ids(client)
    before = client.get(f"/officer/submissions/{first}").text
    assert 'id="replaces"' not in before and 'name="replace"' not in before  # nothing stored yet
    client.post(f"/officer/submissions/{first}/accept", data={"csrf_token": token(client, "/officer")})
    corrected = tmp_path / "lyon_corrected.xlsx"
    wb = openpyxl.load_workbook(LYON)
    wb.properties.title = "corrected"
    wb.save(corrected)
    submitted(client, corrected)
    [second] = pending_ids(client)
    page = client.get(f"/officer/submissions/{second}").text
    warning = re.search(r'<div class="warning" id="replaces">(.*?)</div>', page, re.DOTALL)
    assert warning, "no warning before accepting"
    text = " ".join(re.sub(r"<[^>]+>", "", warning.group(1)).split())
    assert "Lyon MCR Open 2024" in text and "stored as version 1, from 01_lyon_mcr_open_2024.xlsx" in text
    assert "this file would store version 2" in text and 'name="replace"' in page
    # and what would change, row by row, as for every system: here nothing but the file
    assert "0 rows added, 0 removed, 24 the same" in text
    assert len(versions(tmp_path / "store.db")) == 1  # looking changed nothing


def test_a_refused_upload_speaks_to_the_organiser_not_of_the_command_line(client: TestClient) -> None:
    response = client.post("/checks", data={"csrf_token": token(client)},
                           files={"sheet": ("results.xlsx", b"Position,Name\n1,Ada\n")})
    assert response.status_code == 422 and "results.xlsx" in response.text and "name it .csv" in response.text
    assert "xlrating" not in response.text.split("<main>")[1].split("</main>")[0]
