"""The what-if pages on a generated federation's store: /rankings/{ruleset}/{rules}/whatif shows the
figures of ``xlrating whatif mers`` (JSON, HTML and the workbook), and a bad parameter is a 400
giving the form again with the values kept and the error next to its field; /rankings/{ruleset}/eras is ``xlrating whatif eras``; both in real Chromium at 1280 and
400 px, the form filled in and sent as a visitor would."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from xlrating.cli import main
from xlrating.web.app import Settings, create_app

ROOT = Path(__file__).resolve().parents[2]
AS_OF = "2025-12-31"  # the generated federation's last weeks


@pytest.fixture(scope="module")
def federation(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from federation import make_store

    db = tmp_path_factory.mktemp("whatif_pages") / "store.db"
    make_store(db, scale=0.1)
    return db


@pytest.fixture(scope="module")
def client(federation: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(str(federation), check_processes=1))) as c:
        yield c


def cli_json(tmp_path: Path, *args: Any) -> Any:
    out = tmp_path / "out.json"
    result = CliRunner().invoke(main, [*map(str, args), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def player(federation: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """From the 20th of the MCR ranking on AS_OF down, the first whose name nobody else bears."""
    from xlrating.store import open_store
    from xlrating.systems.mers import player_names

    lines = cli_json(tmp_path_factory.mktemp("rank"), "rank", "mers", "--db", federation, "--ruleset", "MCR",
                     "--as-of", AS_OF)
    with open_store(str(federation), read_only=True) as store:
        borne = list(player_names(store).values())
    return dict(next(line for line in lines[19:] if line["name"] and borne.count(line["name"]) == 1))


def query(line: dict[str, Any], **more: Any) -> str:
    asked = {"player": line["player"], "place": 1, "players": 40, "weight": 2, "date": AS_OF} | more
    return "&".join(f"{k}={v}" for k, v in asked.items())


def test_the_page_s_json_is_xlrating_whatif_mers(client, federation, player, tmp_path):
    page = client.get(f"/rankings/MCR/2018/whatif.json?{query(player)}").json()
    expected = cli_json(tmp_path, "whatif", "mers", player["player"], "--db", federation, "--ruleset", "MCR",
                        "--place", 1, "--players", 40, "--weight", 2, "--date", AS_OF)
    assert page["what_if"] | {"passed": page["passed"], "passed_by": page["passed_by"]} == expected
    assert page["what_if"]["before"]["rank"] == player["rank"] and page["passed"]


def test_the_html_and_the_workbook_show_the_json_s_figures(client, player):
    page = client.get(f"/rankings/MCR/2018/whatif.json?{query(player)}").json()
    text = client.get(f"/rankings/MCR/2018/whatif?{query(player)}").text
    standing = re.search(r'<table id="standing">(.*?)</table>', text, re.DOTALL).group(1)  # type: ignore[union-attr]
    cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", standing, re.DOTALL)]
    before, after = page["what_if"]["before"], page["what_if"]["after"]
    assert cells == [str(before["rank"]), f"{before['total']:.2f}", str(before["count"]), str(before["of"]),
                     str(after["rank"]), f"{after['total']:.2f}", str(after["count"]), str(after["of"])]
    passed = re.search(r'<table id="passed">(.*?)</table>', text, re.DOTALL).group(1)  # type: ignore[union-attr]
    assert len(re.findall(r"<tr><td>", passed)) == len(page["passed"])
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"/rankings/MCR/2018/whatif.xlsx?{query(player)}").content))
    rows = list(book["Passed"].values)
    assert [dict(zip(rows[0], row)) for row in rows[1:]] == [
        {k: pytest.approx(o[k], rel=1e-12) if isinstance(o[k], float) else o[k] for k in rows[0]} for o in page["passed"]]


def field(text: str, name: str) -> str:
    """The form's field ``name`` (its label, input and error) in a page's HTML."""
    found = re.search(rf'<div class="field[^"]*">\s*<label for="{name}">.*?</div>', text, re.DOTALL)
    assert found, f"no field {name} on the page"
    return found.group(0)


@pytest.mark.parametrize(("more", "said"), [
    ({"place": 41}, "The parameter place: expected a place from 1 to players (40), got 41."),
    ({"place": "first"}, "The parameter place=&#39;first&#39; is not a whole number"),
    ({"players": "1"}, "The parameter players: expected a whole number &gt;= 2, got 1."),
    ({"weight": "-1"}, "The parameter weight=&#39;-1&#39; is not a weight: give a number above 0"),
    ({"date": "31/12/2025"}, "The parameter date=&#39;31/12/2025&#39; is not a date"),
    ({"as_of": "2025-01-01"}, "The parameter as_of: expected a ranking date on or after the tournament&#39;s date"),
    ({"player": "99999999"}, "The parameter player: no player with MERS results (EMA ID or name) &#39;99999999&#39;"),
])
def test_a_bad_parameter_gives_the_form_again_with_the_error_at_its_field(client, player, more, said):
    """A 400: the form again (no figures), every value as the visitor gave it, the message in the
    list at the top (a link to the field) and next to the field, which is marked invalid; the other
    fields are not."""
    asked = {"player": player["player"], "place": 1, "players": 40, "weight": 2, "date": AS_OF} | more
    response = client.get(f"/rankings/MCR/2018/whatif?{query(player, **more)}")
    assert response.status_code == 400
    text = response.text
    assert 'id="whatif-form"' in text and 'id="standing"' not in text
    assert "<title>Error: What if: the MCR ranking, 2018 rules" in text
    (name,) = more
    summary = re.search(r'<div class="error" role="alert" id="whatif-errors">(.*?)</div>', text, re.DOTALL)
    assert summary and re.findall(r'<a href="#(\w+)">', summary.group(1)) == [name] and said in summary.group(1)
    for key, value in asked.items():
        html = field(text, key)
        assert f'name="{key}" value="{value}"' in html
        if key == name:
            assert 'aria-invalid="true"' in html and said in html and f'aria-describedby="{key}-error"' in html
        else:
            assert "aria-invalid" not in html and "field-error" not in html


def test_every_bad_value_is_said_at_once(client, player):
    """Four values wrong: each next to its field, in the form's order; the JSON names each parameter."""
    bad = query(player, player="99999999", place=41, weight="-1", date="31/12/2025")
    text = client.get(f"/rankings/MCR/2018/whatif?{bad}").text
    summary = re.search(r'id="whatif-errors">(.*?)</div>', text, re.DOTALL).group(1)  # type: ignore[union-attr]
    assert re.findall(r'<a href="#(\w+)">', summary) == ["player", "place", "weight", "date"]
    for name in ("player", "place", "weight", "date"):
        assert 'aria-invalid="true"' in field(text, name)
    response = client.get(f"/rankings/MCR/2018/whatif.json?{query(player, player='99999999', place=41)}")
    assert response.status_code == 400
    assert response.json()["parameters"] == {
        "player": "The parameter player: no player with MERS results (EMA ID or name) '99999999' in the MCR results; "
                  + response.json()["parameters"]["player"].split("; ", 1)[1],
        "place": "The parameter place: expected a place from 1 to players (40), got 41."}
    assert client.get(f"/rankings/MCR/2018/whatif.csv?{bad}").status_code == 400


def test_the_form_alone_without_a_player(client):
    text = client.get("/rankings/MCR/2018/whatif").text
    assert 'id="whatif-form"' in text and 'id="standing"' not in text


def test_a_player_s_page_links_to_the_form_filled_in_with_the_player(client, player):
    text = client.get(f"/players/{player['player']}?as_of={AS_OF}").text
    link = f'href="/rankings/MCR/2018/whatif?player={player["player"]}" class="whatif-link"'
    assert link in text
    form = client.get(f"/rankings/MCR/2018/whatif?player={player['player']}").text
    assert f'id="player" name="player" value="{player["player"]}"' in form and 'id="standing"' not in form


def test_the_eras_page_is_xlrating_whatif_eras(client, federation, tmp_path):
    page = client.get(f"/rankings/MCR/eras.json?as_of={AS_OF}").json()
    expected = cli_json(tmp_path, "whatif", "eras", "--db", federation, "--ruleset", "MCR", "--as-of", AS_OF)
    assert (page["players"], page["moved_most"]) == (expected["players"], expected["moved_most"])
    text = client.get(f"/rankings/MCR/eras?as_of={AS_OF}").text
    assert 'id="moved-most"' in text and 'id="eras"' in text
    first = page["players"][0]
    assert re.search(rf">{re.escape(first['name'])}</a></td>\s*<td class=\"num\">{first['rank_2005'] or '–'}</td>", text)
    ranking = client.get(f"/rankings/MCR/2018?as_of={AS_OF}").text
    assert f'href="/rankings/MCR/eras?as_of={AS_OF}" id="eras-link"' in ranking
    assert 'href="/rankings/MCR/2018/whatif" id="whatif-link"' in ranking


# --- in Chromium ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def server(federation: Path) -> Iterator[str]:
    sys.path.insert(0, str(Path(__file__).parent))
    from live_server import running_server

    with running_server(federation, log=federation.with_name("serve.log")) as url:
        yield url



def shot(page: Any, tmp_path: Path, name: str) -> None:
    page.screenshot(path=str(Path(os.environ.get("XLRATING_SCREENSHOTS") or tmp_path) / name), full_page=True)


@pytest.mark.parametrize("width", (1280, 400))
def test_the_what_if_form_in_chromium(browser, server, client, player, tmp_path, width):
    context = browser.new_context(base_url=server, viewport={"width": width, "height": 900})
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(f"/rankings/MCR/2018?as_of={AS_OF}")
    page.locator("a#whatif-link").click()
    page.fill("input#player", player["name"])
    page.fill("input#place", "1")
    page.fill("input#players", "40")
    page.fill("input#weight", "2")
    page.fill("input#date", AS_OF)
    page.locator("form#whatif-form button[type=submit]").click()
    page.wait_for_selector("table#standing")
    expected = client.get(f"/rankings/MCR/2018/whatif.json?{query(player)}").json()["what_if"]
    assert page.locator("p#change a").first.inner_text() == player["name"]
    rows = page.locator("table#standing tbody tr")
    assert rows.nth(1).locator("td").first.inner_text().strip() == str(expected["after"]["rank"])
    assert rows.nth(1).locator("td").nth(1).inner_text().strip() == f"{expected['after']['total']:.2f}"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, tmp_path, f"whatif-{width}.png")
    context.close()


@pytest.mark.parametrize("width", (1280, 400))
def test_a_refused_place_in_chromium(browser, server, player, tmp_path, width):
    """A place beyond the players, sent from the form: the form comes back (400) with what was typed
    in every field and the error under the place; corrected there and sent again, the figures."""
    context = browser.new_context(base_url=server, viewport={"width": width, "height": 900})
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto("/rankings/MCR/2018/whatif")
    typed = {"player": player["name"], "place": "41", "players": "40", "weight": "2", "date": AS_OF}
    for name, value in typed.items():
        page.fill(f"input#{name}", value)
    with page.expect_navigation() as sent:
        page.locator("form#whatif-form button[type=submit]").click()
    assert sent.value is not None and sent.value.status == 400
    assert page.locator("table#standing").count() == 0
    assert {name: page.input_value(f"input#{name}") for name in typed} == typed
    error = page.locator("#place-error")
    assert error.is_visible() and "expected a place from 1 to players (40), got 41" in error.inner_text()
    assert page.get_attribute("input#place", "aria-invalid") == "true"
    assert page.locator(".field-error").count() == 1
    assert page.title().startswith("Error: ")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, tmp_path, f"whatif-refused-{width}.png")
    page.fill("input#place", "1")
    page.locator("form#whatif-form button[type=submit]").click()
    page.wait_for_selector("table#standing")
    assert page.locator(".field-error").count() == 0
    context.close()


@pytest.mark.parametrize("width", (1280, 400))
def test_the_eras_page_in_chromium(browser, server, tmp_path, width):
    context = browser.new_context(base_url=server, viewport={"width": width, "height": 900})
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(f"/rankings/MCR/2018?as_of={AS_OF}")
    page.locator("a#eras-link").click()
    page.wait_for_selector("table#eras")
    assert page.locator("table#eras tbody tr").count() == 100  # a page of the list
    assert page.locator("table#moved-most tbody tr").count() == 10
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, tmp_path, f"eras-{width}.png")
    context.close()
