"""The register of players on the officer's pages: a merge made through the form is logged with the
signed-in officer and its reason, the public ranking follows at once, a change that cannot be right is
refused with the register's reason and changes nothing, and undo restores the ranking. Signed out,
neither the page nor its forms are reachable. (Uses the helpers and fixtures of test_app.)"""

from __future__ import annotations

import html
import re
from typing import Any

from starlette.testclient import TestClient
from test_app import EXAMPLES, client, pending_ids, sign_in, submitted, token

__all__ = ["client"]  # the fixture, shared with test_app

DIPPOUCH = EXAMPLES / "tables" / "dippouch_results.csv"


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def _players(client: TestClient) -> dict[str, Any]:
    return {row["player"]: row for row in client.get("/rankings/dippouch.json").json()["ranking"]}


def _log(client: TestClient) -> list[list[str]]:
    page = client.get("/officer/register/dippouch").text
    table = re.search(r'<table id="register-log">(.*?)</table>', page, re.DOTALL)
    assert table, "no log on the register page"
    body = table.group(1).split("<tbody>")[1]
    return [[_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)][:5]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.DOTALL)]


def _post(client: TestClient, action: str, **fields: str) -> Any:
    return client.post(f"/officer/register/dippouch/{action}",
                       data={"csrf_token": token(client, "/officer/register/dippouch"), **fields})


def _stored(client: TestClient) -> None:
    sign_in(client)
    submitted(client, DIPPOUCH)
    [number] = pending_ids(client)
    done = client.post(f"/officer/submissions/{number}/accept", data={"csrf_token": token(client, "/officer")})
    assert done.status_code == 200 and "Accepted" in done.text


def test_a_merge_through_the_form_is_logged_published_at_once_and_undone(client: TestClient) -> None:
    _stored(client)
    before = _players(client)
    assert "Ada Lovelace" in before and "Ada King" not in before
    assert "No change yet" in client.get("/officer/register/dippouch").text

    merged = _post(client, "merge", player="Ada Lovelace", into="Ada King", why="her married name")
    assert merged.status_code == 200 and "Change 1: Ada Lovelace merged into Ada King" in merged.text
    [change] = _log(client)
    assert change[0] == "1" and change[2] == "ranking-officer" and change[3] == "Ada Lovelace merged into Ada King" \
        and change[4] == "her married name"
    after = _players(client)
    assert "Ada Lovelace" not in after
    assert {k: v for k, v in after["Ada King"].items() if k not in ("player", "address")} \
        == {k: v for k, v in before["Ada Lovelace"].items() if k not in ("player", "address")}

    undone = _post(client, "undo", change="1", why="a mistake")
    assert undone.status_code == 200
    log = _log(client)
    assert [row[3] for row in log] == ["Ada Lovelace merged into Ada King (undone by change 2)",
                                       log[1][3]] and log[1][4] == "a mistake"
    assert _players(client) == before


def test_a_merge_of_two_people_who_played_each_other_is_refused_and_changes_nothing(client: TestClient) -> None:
    _stored(client)
    before = _players(client)
    refused = _post(client, "merge", player="Ada Lovelace", into="Blaise Pascal", why="same person?")
    assert refused.status_code == 409
    error = re.search(r'<p class="error" role="alert" id="register-error">(.*?)</p>', refused.text, re.DOTALL)
    assert error and "Ada Lovelace" in _text(error.group(1)) and "Blaise Pascal" in _text(error.group(1))
    assert "No change yet" in refused.text and _players(client) == before


def test_a_split_names_events_by_their_numbers_and_a_wrong_number_is_said(client: TestClient) -> None:
    _stored(client)
    events = client.get("/dippouch/events.json").json()["events"]
    spring = next(e for e in events if e["name"] == "Spring Cup")
    wrong = _post(client, "split", player="Ada Lovelace", new_player="Ada Lovelace (2)", events="99999",
                  why="a namesake")
    assert wrong.status_code == 409 and "no current Dip Pouch event has the number 99999" in html.unescape(wrong.text)
    done = _post(client, "split", player="Ada Lovelace", new_player="Ada Lovelace (2)", events=str(spring["id"]),
                 why="a namesake")
    assert done.status_code == 200
    players = _players(client)
    assert players["Ada Lovelace (2)"]["count"] == 1
    assert players["Ada Lovelace"]["count"] == 3


def test_signed_out_the_register_is_out_of_reach(client: TestClient) -> None:
    assert client.get("/officer/register/dippouch", follow_redirects=False).status_code in (302, 303, 401, 403)
    refused = client.post("/officer/register/dippouch/merge", data={"player": "a", "into": "b", "why": "c"},
                          follow_redirects=False)
    assert refused.status_code in (302, 303, 401, 403)


def test_a_submission_says_which_players_are_known_and_which_new_name_is_close_to_a_known_one(
        client: TestClient, tmp_path: Any) -> None:
    _stored(client)
    lines = DIPPOUCH.read_text(encoding="utf-8").splitlines()
    later = [line.replace("Spring Cup,2023-04-16", "Spring Cup,2025-04-13").replace("Ada Lovelace", "Ada Lovelase")
             for line in lines if line.startswith(("event,", "Spring Cup,"))]
    path = tmp_path / "spring-2025.csv"
    path.write_text("\n".join(later) + "\n", encoding="utf-8")
    submitted(client, path)
    [number] = pending_ids(client)
    page = client.get(f"/officer/submissions/{number}").text
    section = re.search(r'<section id="players">(.*?)</section>', page, re.DOTALL)
    assert section, "the submission page does not say who the players are"
    said = _text(section.group(1))
    assert f"players: {len(later) - 2} known, 1 new" in said
    assert ("new 'Ada Lovelase' is close to known 'Ada Lovelace': if they are the same person, merge "
            "'Ada Lovelase' into 'Ada Lovelace' in the register") in said
    assert 'href="/officer/register/dippouch"' in section.group(1)
