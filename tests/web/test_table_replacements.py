"""The ranking officer learns before accepting that a Dip Pouch results or DCI matches table would
replace a stored event: which event, which version, from which file, and what would change; and
accepting without confirming it replaces nothing. (Uses the helpers and fixtures of test_app.)"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from test_app import client, pending_ids, rows, sign_in, submitted, token

TABLES = Path(__file__).parents[2] / "examples" / "tables"
__all__ = ["client"]  # the fixture, shared with test_app

# (file, the row changed, its corrected text, the event, what the page lists as removed and added)
CASES = [
    ("dci_matches.csv", "Grand Prix Rotterdam,2009-04-18,3,Kai Budde,Luis Scott-Vargas,W,",
     "Grand Prix Rotterdam,2009-04-18,3,Kai Budde,Luis Scott-Vargas,L,", "Grand Prix Rotterdam (2009-04-18)",
     "removed: 2009-04-18 round 3: Kai Budde won against Luis Scott-Vargas (K 40, Constructed)",
     "added: 2009-04-18 round 3: Kai Budde lost to Luis Scott-Vargas (K 40, Constructed)"),
    ("dippouch_results.csv", "Grace Hopper,3,", "Grace Hopper,4,", "Summer Open (2023-07-02)",
     "removed: place 3: Grace Hopper", "added: place 4: Grace Hopper"),
]


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize(("name", "old", "new", "event", "removed", "added"), CASES, ids=["dci", "dippouch"])
def test_the_officer_sees_what_a_table_would_replace_and_nothing_is_replaced_unconfirmed(
        client: TestClient, tmp_path: Path, name: str, old: str, new: str, event: str, removed: str,
        added: str) -> None:
    submitted(client, TABLES / name)
    sign_in(client)
    [first] = pending_ids(client)
    fresh = client.get(f"/officer/submissions/{first}").text
    assert 'id="replaces"' not in fresh and 'name="replace"' not in fresh  # nothing stored yet
    assert "stores it as a new event" in _text(fresh)
    client.post(f"/officer/submissions/{first}/accept", data={"csrf_token": token(client, "/officer")})
    db = tmp_path / "store.db"
    stored = rows(db, "events")

    corrected = tmp_path / f"corrected_{name}"
    text = (TABLES / name).read_text(encoding="utf-8")
    assert old in text
    corrected.write_text(text.replace(old, new), encoding="utf-8")
    submitted(client, corrected)
    [second] = pending_ids(client)
    page = client.get(f"/officer/submissions/{second}").text
    warning = re.search(r'<div class="warning" id="replaces">(.*?)</div>', page, re.DOTALL)
    assert warning, "no warning before accepting"
    said = _text(warning.group(1))
    assert f"{event} is stored as version 1, from {name} on " in said and "would store version 2" in said
    assert removed in said and added in said and "1 row added, 1 removed" in said
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", said) and " UTC" in said  # a readable time
    plan = _text(page.split('id="plan"')[1].split("</table>")[0])
    assert f"{event} replaces version 1 with version 2, if confirmed" in plan
    assert "--replace" not in page and 'name="replace"' in page
    assert rows(db, "events") == stored  # looking changed nothing

    ranked = client.get("/rankings/dci.json").json()["ranking"]  # the public ratings, as they are
    refused = client.post(f"/officer/submissions/{second}/accept", data={"csrf_token": token(client, "/officer")})
    assert refused.status_code == 409 and 'id="replaces"' in refused.text  # the warning stays in view
    assert rows(db, "events") == stored  # accepting without confirming replaced nothing
    accepted = client.post(f"/officer/submissions/{second}/accept",
                           data={"csrf_token": token(client, "/officer"), "replace": "yes"})
    assert accepted.status_code == 200 and "replaced" in accepted.text
    with sqlite3.connect(db) as connection:
        versions = connection.execute("SELECT event_key, version, replaced_at IS NULL FROM events ORDER BY id").fetchall()
    versions = [(key, version, bool(current)) for key, version, current in versions]
    key = [v for v in versions if v[1] == 2]
    assert len(key) == 1 and (key[0][0], 1, False) in versions
    if name == "dci":  # the ratings pages count the new version at once
        assert client.get("/rankings/dci.json").json()["ranking"] != ranked


def test_a_dci_events_stored_version_is_linked_from_the_warning(client: TestClient, tmp_path: Path) -> None:
    old, new = CASES[0][1], CASES[0][2]
    submitted(client, TABLES / "dci_matches.csv")
    sign_in(client)
    client.post(f"/officer/submissions/{pending_ids(client)[0]}/accept", data={"csrf_token": token(client, "/officer")})
    corrected = tmp_path / "corrected.csv"
    corrected.write_text((TABLES / "dci_matches.csv").read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    submitted(client, corrected)
    page = client.get(f"/officer/submissions/{pending_ids(client)[0]}").text
    link = re.search(r'<a href="(/dci/events/\d+)">Grand Prix Rotterdam \(2009-04-18\)</a>', page)
    assert link and client.get(link.group(1) + ".json").json()["event"]["version"] == 1


def _moved(text: str, event: str, old: str, new: str) -> str:
    """The table with ``old`` -> ``new`` in the rows of ``event`` only."""
    lines = text.splitlines()
    assert any(line.startswith(event + ",") and old in line for line in lines)
    return "\n".join(line.replace(old, new) if line.startswith(event + ",") else line for line in lines) + "\n"


@pytest.mark.parametrize(("name", "event", "old", "new", "label", "change"), [
    ("dci_matches.csv", "Friday Night Magic", ",GER", ",SUI", "Friday Night Magic (2009-03-06)",
     "country of Kai Budde: GER → SUI"),
    ("dippouch_results.csv", "Summer Open", "Grace Hopper,3,FALSE,USA", "Grace Hopper,3,FALSE,",
     "Summer Open (2023-07-02)", "country of Grace Hopper: USA → -"),
], ids=["dci", "dippouch"])
def test_a_replacement_that_changes_only_a_players_country_says_so(client: TestClient, tmp_path: Path, name: str,
                                                                  event: str, old: str, new: str, label: str,
                                                                  change: str) -> None:
    submitted(client, TABLES / name)
    sign_in(client)
    [first] = pending_ids(client)
    client.post(f"/officer/submissions/{first}/accept", data={"csrf_token": token(client, "/officer")})
    corrected = tmp_path / f"corrected_{name}"
    corrected.write_text(_moved((TABLES / name).read_text(encoding="utf-8"), event, old, new), encoding="utf-8")
    submitted(client, corrected)
    [second] = pending_ids(client)
    said = _text(re.search(r'<div class="warning" id="replaces">(.*?)</div>',
                           client.get(f"/officer/submissions/{second}").text, re.DOTALL).group(1))  # type: ignore[union-attr]
    assert f"{label} is stored as version 1" in said and change in said
    assert "0 rows added, 0 removed" in said
