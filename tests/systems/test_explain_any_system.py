"""A system that declares no explanation of its own (the fourth system of
tests/systems/elo_system.py) is explained from its leaderboard and its history: ``xlrating explain``
gives the rating ``rank`` gives with the rows that make it, as JSON and as a workbook of values."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl

from tests.systems.test_a_fourth_system import MATCHES, _run, _write, elo  # noqa: F401 (elo: the fixture)


def test_explain_of_a_system_without_its_own_gives_ranks_rating_and_its_history(elo: Any, tmp_path: Path) -> None:  # noqa: F811
    table = _write(tmp_path, "club.csv", MATCHES)
    board = tmp_path / "board.json"
    assert _run("rank", "elo", str(table), "-o", str(board)).exit_code == 0
    line = json.loads(board.read_text())[0]
    out = tmp_path / "explain.json"
    result = _run("explain", "elo", line["player"], str(table), "-o", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["rating"] == line["rating"] and data["rows"]
    workbook = tmp_path / "explain.xlsx"
    assert _run("explain", "elo", line["player"], str(table), "-o", str(workbook)).exit_code == 0
    ws = openpyxl.load_workbook(workbook)["Explanation"]
    values = [cell.value for row in ws.iter_rows() for cell in row]
    assert line["rating"] in values and not [v for v in values if isinstance(v, str) and v.startswith("=")]
    wrong = _run("explain", "elo", line["player"].lower(), str(table))
    assert wrong.exit_code == 2 and "close matches" in wrong.output and line["player"] in wrong.output


def test_its_explanation_page_is_made_from_its_declaration(elo: Any, tmp_path: Path) -> None:  # noqa: F811
    from urllib.parse import quote

    from starlette.testclient import TestClient

    from xlrating.web.app import Settings, create_app

    db = str(tmp_path / "store.db")
    assert _run("ingest", "--db", db, str(_write(tmp_path, "club.csv", MATCHES))).exit_code == 0
    out = tmp_path / "explain.json"
    assert _run("explain", "elo", "Cy", "--db", db, "-o", str(out)).exit_code == 0
    with TestClient(create_app(Settings(db, check_processes=1))) as client:
        page = client.get(f"/elo/players/{quote('Cy')}/explain.json")
        assert page.status_code == 200 and page.json() == json.loads(out.read_text())
        assert 'href="/elo/players/Cy/explain"' in client.get("/elo/players/Cy").text
