"""The officer sees what accepting does before deciding: each event's standings with what they
produce (MERS base ranks and weight; the Dip Pouch value, percentiles and rating moves; the DCI
rating changes), exactly what the published pages show once it is accepted; a warning when the same
standings are stored under another name or date; and the organiser is told at upload what of the
sheet is published already. (Uses the helpers and fixtures of test_app.)"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from test_app import EXAMPLES, LYON, checked, client, pending_ids, sign_in, submitted, token

from xlrating.core import mers

__all__ = ["client"]  # the fixture, shared with test_app

TABLES = EXAMPLES / "tables"


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def preview(page: str) -> tuple[dict[str, str], list[dict[str, str]]]:
    """The first preview of an officer's submission page: its facts and its rows (header -> text)."""
    section = re.search(r'<section class="preview" id="preview-1">(.*?)</section>', page, re.DOTALL)
    assert section, "no preview of what accepting produces"
    body = section.group(1)
    facts = dict(zip((_text(t) for t in re.findall(r"<dt>(.*?)</dt>", body)),
                     (_text(d) for d in re.findall(r"<dd>(.*?)</dd>", body))))
    headers = [_text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", body)]
    rows = [dict(zip(headers, (_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row))))
            for row in re.findall(r"<tr>(.*?)</tr>", body.split("<tbody>")[1], re.DOTALL)]
    return facts, rows


def _table(tmp_path: Path, source: Path, name: str, keep: set[str], rename: dict[str, str] | None = None) -> Path:
    """The rows of ``source`` whose event is in ``keep``, events renamed by ``rename``."""
    lines = source.read_text(encoding="utf-8").splitlines()
    kept = [lines[0]]
    for line in lines[1:]:
        event = line.split(",", 1)[0]
        if event in keep:
            kept.append(line if not rename or event not in rename else rename[event] + line[len(event):])
    path = tmp_path / name
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return path


def _accept(client: TestClient, number: int) -> None:
    response = client.post(f"/officer/submissions/{number}/accept", data={"csrf_token": token(client, "/officer")})
    assert response.status_code == 200 and "Accepted" in response.text


def _submit_and_accept(client: TestClient, path: Path) -> None:
    submitted(client, path)
    [number] = pending_ids(client)
    _accept(client, number)


def test_a_mers_submission_shows_its_weight_and_each_base_rank_as_the_ranking_counts_it(client: TestClient) -> None:
    submitted(client, LYON)
    sign_in(client)
    [number] = pending_ids(client)
    facts, rows = preview(client.get(f"/officer/submissions/{number}").text)
    assert facts["Weight"] == "2.50" and facts["Players"] == "24" and facts["Rules in force"] == "2018"
    assert len(rows) == 24
    for row in rows:
        place = int(row["Place"])
        assert row["Base rank"] == f"{mers.base_rank(24, place):.2f}"
        assert row["Counted (2018 rules)"] == f"{mers.base_rank(24, place, 'round'):.0f}"


def test_the_dip_pouch_preview_is_what_the_event_page_shows_once_accepted(client: TestClient, tmp_path: Path) -> None:
    sign_in(client)
    _submit_and_accept(client, _table(tmp_path, TABLES / "dippouch_results.csv", "2023.csv",
                                      {"Spring Cup", "Summer Open", "World Diplomacy Championship"}))
    submitted(client, _table(tmp_path, TABLES / "dippouch_results.csv", "winter.csv", {"Winter Masters"}))
    [number] = pending_ids(client)
    facts, rows = preview(client.get(f"/officer/submissions/{number}").text)
    _accept(client, number)
    events = client.get("/dippouch/events.json").json()["events"]
    winter = next(e for e in events if e["name"] == "Winter Masters")
    page = client.get(f"/dippouch/events/{winter['id']}.json").json()
    assert facts["Value"] == f"{page['event']['value']:.2f}"
    published = {s["player"]: s for s in page["standings"]}
    assert {row["Player"] for row in rows} == set(published)
    for row in rows:
        standing = published[row["Player"]]
        assert row["Percentile"] == f"{standing['percentile']:.2f}"
        assert (row["Rating before"], row["Rating after"]) \
            == (f"{standing['rating_before']:.2f}", f"{standing['rating_after']:.2f}")
    assert any(row["Events before"] != "0" for row in rows)  # rated after their stored events


@pytest.mark.parametrize(("stored", "new"), [({"Pro Tour Kyoto", "Friday Night Magic"}, "Grand Prix Rotterdam"),
                                            ({"Grand Prix Rotterdam", "Friday Night Magic"}, "Pro Tour Kyoto")],
                         ids=["after-the-stored-matches", "before-some-stored-matches"])
def test_the_dci_preview_is_what_the_event_page_shows_once_accepted(client: TestClient, tmp_path: Path,
                                                                    stored: set[str], new: str) -> None:
    sign_in(client)
    _submit_and_accept(client, _table(tmp_path, TABLES / "dci_matches.csv", "stored.csv", stored))
    submitted(client, _table(tmp_path, TABLES / "dci_matches.csv", "new.csv", {new}))
    [number] = pending_ids(client)
    _, rows = preview(client.get(f"/officer/submissions/{number}").text)
    _accept(client, number)
    events = client.get("/dci/events.json").json()["events"]
    added = next(e for e in events if e["name"] == new)
    matches = client.get(f"/dci/events/{added['id']}.json").json()["matches"]
    published = {(m["round"], m["player"], m["opponent"]): m for m in matches if m["change"] is not None}
    rated = [row for row in rows if row["Change"]]
    assert rated and len(rated) == len(published)
    for row in rated:
        match = published[(int(row["Round"]), row["Player"], row["Opponent"])]
        assert (row["Rating"], row["Change"]) == (f"{match['player_before']:.2f}", f"{match['change']:.2f}")


def test_the_same_standings_under_another_name_are_flagged_to_officer_and_organiser(client: TestClient,
                                                                                    tmp_path: Path) -> None:
    sign_in(client)
    _submit_and_accept(client, _table(tmp_path, TABLES / "dippouch_results.csv", "winter.csv", {"Winter Masters"}))
    again = _table(tmp_path, TABLES / "dippouch_results.csv", "classic.csv", {"Winter Masters"},
                   {"Winter Masters": "Winter Classic"})
    check = client.get(checked(client, again)).text
    notes = [_text(n) for n in re.findall(r'<p class="warning published-already">(.*?)</p>', check, re.DOTALL)]
    assert notes == [("The standings of Winter Classic (2024-01-21) are exactly those of Winter Masters (2024-01-21), "
                      "published already: check that these are not the same results under another name or date.")]
    submitted(client, again)
    [number] = pending_ids(client)
    page = client.get(f"/officer/submissions/{number}").text
    warning = re.search(r'<div class="warning" id="same-standings-1">(.*?)</div>', page, re.DOTALL)
    assert warning and "are exactly those of Winter Masters (2024-01-21, version 1, from winter.csv)" \
        in _text(warning.group(1))


def test_the_organiser_is_told_at_upload_that_the_tournament_is_published_already(client: TestClient,
                                                                                   tmp_path: Path) -> None:
    import openpyxl

    sign_in(client)
    _submit_and_accept(client, LYON)
    same = client.get(checked(client, LYON)).text
    assert "is published already exactly as this file has it (version 1); sending it changes nothing." in same
    corrected = tmp_path / "lyon_corrected.xlsx"
    wb = openpyxl.load_workbook(LYON)
    wb.properties.title = "corrected"
    wb.save(corrected)
    page = client.get(checked(client, corrected)).text
    assert ("is published already, as version 1 from 01_lyon_mcr_open_2024.xlsx: if you send this sheet, the "
            "ranking officer can publish it as version 2 in its place") in html.unescape(page)
    assert client.get(checked(client, EXAMPLES / "02_berlin_mcr_cup_2025.xlsx")).text.count("published already") == 0
