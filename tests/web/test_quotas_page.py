"""The championship quotas page, /rankings/{ruleset}/{rules}/quotas, on a generated federation's
store: the page's JSON is what ``xlrating quotas`` writes for the same store, date and seats; the
HTML table and the Excel download (opened with openpyxl) show the same seats, parts and steps; bad
parameters are a 400 naming the parameter; and in real Chromium at 1280 and 400 px the table and
the form work and nothing is wider than the screen."""

from __future__ import annotations

import html
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
SEATS = 130
ADDRESS = f"/rankings/MCR/2018/quotas?as_of={AS_OF}&seats={SEATS}"


@pytest.fixture(scope="module")
def federation(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from federation import make_store

    db = tmp_path_factory.mktemp("quotas_page") / "store.db"
    make_store(db, scale=0.5)  # 307 ranked MCR players on AS_OF: caps enough for 130 seats
    return db


@pytest.fixture(scope="module")
def client(federation: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(str(federation), check_processes=1))) as c:
        yield c


@pytest.fixture(scope="module")
def page_json(client: TestClient) -> dict[str, Any]:
    response = client.get(ADDRESS.replace("/quotas?", "/quotas.json?"))
    assert response.status_code == 200
    return dict(response.json())


def test_the_page_s_json_is_what_xlrating_quotas_writes(federation: Path, page_json: dict[str, Any],
                                                         tmp_path: Path) -> None:
    out = tmp_path / "quotas.json"
    result = CliRunner().invoke(main, ["quotas", "--db", str(federation), "--ruleset", "MCR", "--seats", str(SEATS),
                                       "--as-of", AS_OF, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text()) == page_json
    assert sum(row["seats"] for row in page_json["countries"]) == SEATS
    assert page_json["redistributed"] > 0  # the store's caps bind: the page shows the redistribution too


def same(rows: list[dict[str, Any]]) -> list[Any]:
    """The rows, each number equal to 12 significant digits (a workbook's cell holds at most 15)."""
    return [{key: pytest.approx(value, rel=1e-12) if isinstance(value, float) else value for key, value in row.items()}
            for row in rows]


def _cells(row: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>",
                                                                                       row, re.DOTALL)]


def test_the_html_table_and_steps_show_the_json_s_figures(client: TestClient, page_json: dict[str, Any]) -> None:
    text = client.get(ADDRESS).text
    table = re.search(r'<table id="quotas">(.*?)</table>', text, re.DOTALL).group(1)  # type: ignore[union-attr]
    body = re.search(r"<tbody>(.*?)</tbody>", table, re.DOTALL).group(1)  # type: ignore[union-attr]
    rows = [_cells(row) for row in re.findall(r"<tr>(.*?)</tr>", body, re.DOTALL)]
    header = _cells(re.search(r"<thead>(.*?)</thead>", table, re.DOTALL).group(1))  # type: ignore[union-attr]
    seats, a, b = header.index("Seats"), header.index("Part A"), header.index("Part B")
    over, again, cap = header.index("Over cap"), header.index("Given again"), header.index("Cap")
    assert [(row[0], int(row[seats]), int(row[a]), int(row[b])) for row in rows] == [
        (f"{r['country_name']} ({r['country']})", r["seats"], r["part_a"], r["part_b"]) for r in page_json["countries"]]
    assert [(row[over], row[again], row[cap].split()[0]) for row in rows] == [
        (f"−{r['over_cap']}" if r["over_cap"] else "", f"+{r['redistributed']}" if r["redistributed"] else "",
         str(r["cap"])) for r in page_json["countries"]]
    total = _cells(re.search(r"<tfoot>(.*?)</tfoot>", table, re.DOTALL).group(1))  # type: ignore[union-attr]
    assert total[seats] == str(SEATS)
    steps = re.search(r'<table id="steps">.*?<tbody>(.*?)</tbody>', text, re.DOTALL).group(1)  # type: ignore[union-attr]
    shown = [_cells(row) for row in re.findall(r"<tr>(.*?)</tr>", steps, re.DOTALL)]
    assert [(int(s[0]), s[1], s[2], s[4]) for s in shown] == [
        (s["step"], s["part"], s["country"] or "", s["reason"]) for s in page_json["steps"]]


def test_the_workbook_download_holds_the_page_s_figures(client: TestClient, page_json: dict[str, Any]) -> None:
    response = client.get(ADDRESS.replace("/quotas?", "/quotas.xlsx?"))
    assert response.status_code == 200
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    countries = list(book["Countries"].values)
    assert [dict(zip(countries[0], row)) for row in countries[1:]] == same(page_json["countries"])
    steps = list(book["Steps"].values)
    assert [dict(zip(steps[0], row)) for row in steps[1:]] == same(page_json["steps"])


def test_the_cli_workbook_holds_the_page_s_figures(federation: Path, page_json: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "quotas.xlsx"
    assert CliRunner().invoke(main, ["quotas", "--db", str(federation), "--ruleset", "MCR", "--seats", str(SEATS),
                                     "--as-of", AS_OF, "-o", str(out)]).exit_code == 0
    book = openpyxl.load_workbook(out)
    countries = list(book["Countries"].values)
    assert [dict(zip(countries[0], row)) for row in countries[1:]] == same(page_json["countries"])
    steps = list(book["Steps"].values)
    assert [dict(zip(steps[0], row)) for row in steps[1:]] == same(page_json["steps"])
    about = {row[0]: row[1] for row in book["About"].values}
    assert (about["seats"], about["quota_seats"], about["as_of"]) == (SEATS, SEATS, AS_OF)


@pytest.mark.parametrize(("query", "said"), [
    ("seats=0", "The parameter seats=&#39;0&#39; is not a number of seats: give a whole number from 1 to 10,000"),
    ("seats=ten", "The parameter seats=&#39;ten&#39; is not a number of seats"),
    ("seats=10001", "The parameter seats=&#39;10001&#39; is not a number of seats"),
    ("seats=5", "The parameter seats: expected at least"),
    ("personal=12", "The parameter personal=&#39;12&#39; is not an EMA ID"),
    ("personal=99999999", "The parameter personal: expected the EMA ID of a player of the ranking"),
])
def test_bad_parameters_are_a_400_naming_the_parameter(client: TestClient, query: str, said: str) -> None:
    response = client.get(f"/rankings/MCR/2018/quotas?as_of={AS_OF}&{query}")
    assert response.status_code == 400 and said in response.text


def test_the_ranking_and_country_pages_link_to_the_quotas(client: TestClient) -> None:
    for address in (f"/rankings/MCR/2018?as_of={AS_OF}", f"/rankings/MCR/2018/countries?as_of={AS_OF}"):
        assert f'href="/rankings/MCR/2018/quotas?as_of={AS_OF}" id="quotas-link"' in client.get(address).text


# --- in Chromium ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def server(federation: Path) -> Iterator[str]:
    sys.path.insert(0, str(Path(__file__).parent))
    from live_server import running_server

    with running_server(federation, log=federation.with_name("serve.log")) as url:
        yield url



@pytest.mark.parametrize("width", (1280, 400))
def test_the_page_in_chromium_shows_the_seats_and_the_form_recomputes_them(
        browser: Any, server: str, page_json: dict[str, Any], tmp_path: Path, width: int) -> None:
    context = browser.new_context(base_url=server, viewport={"width": width, "height": 900})
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(ADDRESS)
    rows = page.locator("table#quotas tbody tr")
    assert rows.count() == len(page_json["countries"])
    header = [t.strip() for t in page.locator("table#quotas thead th").all_inner_texts()]
    first = [t.strip() for t in rows.first.locator("td").all_inner_texts()]
    best = page_json["countries"][0]
    assert first[0] == f"{best['country_name']} ({best['country']})" and first[header.index("Seats")] == str(best["seats"])
    assert page.locator("table#steps tbody tr").count() == len(page_json["steps"])
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # wide tables scroll inside themselves
    page.screenshot(path=str(Path(os.environ.get("XLRATING_SCREENSHOTS") or tmp_path) / f"quotas-{width}.png"))
    page.fill("input#seats", "100")
    page.locator("form#choose button[type=submit]").click()
    page.wait_for_url(re.compile(r"seats=100"))
    footer = [t.strip() for t in page.locator("table#quotas tfoot td, table#quotas tfoot th").all_inner_texts()]
    assert "100" in footer
    context.close()
