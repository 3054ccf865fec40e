"""``xlrating export ema-workbook --table TABLE``: the EMA's results workbook of a MERS results table,
checked first (exit 1 with every finding, nothing written), the players named as the store names
them; read back through ``xlrating import ema-workbook`` and ingested into a new store, it ranks as
the table does, and ``whatif mers`` / ``whatif eras`` of the table give the new store's figures."""

from __future__ import annotations

import csv
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from tests.formats.helpers import xlrating
from xlrating.store import open_store
from xlrating.systems import get

ROOT = Path(__file__).resolve().parents[2]
AS_OF = "2025-12-31"
HEADER = ["tournament", "date", "players", "weight", "ruleset", "player", "place"]


@pytest.fixture(scope="module")
def federation(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from federation import make_store

    db = tmp_path_factory.mktemp("ema_table") / "store.db"
    make_store(db, scale=0.1)
    return db


def write_table(path: Path, rows: list[list[Any]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows)
    return path


@pytest.fixture(scope="module")
def table(federation: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The federation's tournaments whose every player has an EMA ID, as a MERS results table (a
    table names nobody: the EMA's workbook takes their names from the store)."""
    with open_store(str(federation), read_only=True) as store:
        records = get("mers").stored_records(store)
    tournaments: dict[Any, list[Any]] = defaultdict(list)
    for r in records:
        tournaments[(r.tournament, r.date)].append(r)
    rows = [[r.tournament, r.date.isoformat(), r.players, repr(r.weight), r.ruleset, r.player, r.place]
            for own in tournaments.values() if all(r.player for r in own) and len(own) == own[0].players
            for r in own]
    assert len({(row[0], row[1]) for row in rows}) >= 30
    return write_table(tmp_path_factory.mktemp("ema_table") / "results.csv", rows)


@pytest.fixture(scope="module")
def round_trip(federation: Path, table: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The table -> export ema-workbook --table -> import ema-workbook -> ingest into a new store."""
    folder = tmp_path_factory.mktemp("ema_round_trip")
    book = folder / "ema.xlsx"
    ran = xlrating("export", "ema-workbook", "--table", table, "--db", federation, "-o", book)
    assert ran.code == 0, ran
    assert ran.stdout.startswith(f"{book}: the EMA's results workbook of ")
    ran = xlrating("import", "ema-workbook", book, "-o", folder / "sheet.xlsx")
    assert ran.code == 0, ran
    sheets = sorted(folder.glob("sheet-*.xlsx"))
    ran = xlrating("ingest", *sheets, "--db", folder / "new.db", "--no-ask")
    assert ran.code == 0, ran
    return book, folder / "new.db"


def as_json(*args: Any, out: Path) -> Any:
    ran = xlrating(*args, "-o", out)
    assert ran.code == 0, ran
    return json.loads(out.read_text(encoding="utf-8"))


def unnamed(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: unnamed(v) for k, v in data.items() if k != "name"}
    if isinstance(data, list):
        return [unnamed(v) for v in data]
    return data


def test_the_workbook_names_each_player_as_the_store_does_in_the_ema_layout(federation, table, round_trip):
    book = openpyxl.load_workbook(round_trip[0])
    with open_store(str(federation), read_only=True) as store:
        known = store.players("mers")
    first = next(iter(csv.DictReader(table.open(encoding="utf-8"))))
    ws = next(ws for ws in book.worksheets if ws["A3"].value == first["tournament"])
    assert (ws["B3"].value, ws["N3"].value, ws["P3"].value) == (int(first["players"]), float(first["weight"]),
                                                                 first["ruleset"])
    rows = {f"{ws.cell(r, 6).value:08d}": (ws.cell(r, 3).value, ws.cell(r, 5).value, ws.cell(r, 4).value,
                                           ws.cell(r, 9).value) for r in range(2, ws.max_row + 1)}
    player = known[first["player"]].facts
    assert rows[first["player"]] == (int(first["place"]), player["last_name"], player["first_name"], "Yes")
    assert len(rows) == int(first["players"])


@pytest.mark.parametrize("ruleset", ["MCR", "Riichi"])
def test_read_back_and_ingested_the_workbook_ranks_as_the_table_does(table, round_trip, tmp_path, ruleset):
    options = ("--ruleset", ruleset, "--as-of", AS_OF)
    from_table = as_json("rank", "mers", table, *options, out=tmp_path / "table.json")
    from_store = as_json("rank", "mers", "--db", round_trip[1], *options, out=tmp_path / "store.json")
    assert len(from_table) >= 5
    assert unnamed(from_store) == unnamed(from_table)


def test_whatif_of_the_table_is_whatif_of_the_store_the_table_was_ingested_into(table, round_trip, tmp_path):
    db = round_trip[1]
    ranked = as_json("rank", "mers", table, "--ruleset", "Riichi", "--as-of", AS_OF, out=tmp_path / "r.json")
    player = ranked[len(ranked) // 2]["player"]
    options = ("--ruleset", "Riichi", "--place", 2, "--players", 36, "--weight", 1.5, "--date", "2025-10-01",
               "--as-of", AS_OF)
    from_table = as_json("whatif", "mers", player, table, *options, out=tmp_path / "wt.json")
    from_store = as_json("whatif", "mers", player, "--db", db, *options, out=tmp_path / "ws.json")
    assert from_store["name"] and from_table["name"] == ""
    assert unnamed(from_table) == unnamed(from_store) and from_table["after"]["rank"] < from_table["before"]["rank"]
    eras = ("whatif", "eras", "--ruleset", "Riichi", "--as-of", AS_OF)
    assert unnamed(as_json(*eras, table, out=tmp_path / "et.json")) == \
        unnamed(as_json(*eras, "--db", db, out=tmp_path / "es.json"))


def test_what_the_workbook_cannot_hold_is_refused_at_the_table_s_rows_and_nothing_written(federation, tmp_path):
    with open_store(str(federation), read_only=True) as store:
        known = sorted(store.players("mers"))[:3]
    bad = write_table(tmp_path / "bad.csv", [
        ["Open A", "2025-05-01", 3, 1, "MCR", known[0], 1],
        ["Open A", "2025-05-01", 3, 1, "MCR", "", 2],  # a player without an EMA ID: nobody to name
        ["Open A", "2025-05-01", 3, 2, "MCR", known[1], 3],  # another weight for the same tournament
        ["Open B", "2025-06-01", 3, 1, "MCR", known[2], 1],  # 3 players declared, 2 rows
        ["Open B", "2025-06-01", 3, 1, "MCR", "99000001", 2],  # a player the store does not name
    ])
    out = tmp_path / "ema.xlsx"
    ran = xlrating("export", "ema-workbook", "--table", bad, "--db", federation, "-o", out)
    assert ran.code == 1, ran
    assert not out.exists()
    assert f"{bad}: error: row 3, column 'player': expected an EMA ID: the EMA's workbook names every player" \
        in ran.stdout
    assert f"{bad}: error: row 4, column 'weight': expected the weight of Open A as row 2 gives it (1.0), got 2.0" \
        in ran.stdout
    assert f"{bad}: error: row 5, column 'players': expected a row per player of Open B (the EMA's workbook has " \
           "one: 2 rows), got 3" in ran.stdout
    assert f"{bad}: error: row 6, column 'player': expected a player {federation} names" in ran.stdout
    assert ran.stderr.strip().endswith(f"{bad} has 4 errors; nothing written")
    # a cell the table cannot be read at: one finding, exit 1
    broken = write_table(tmp_path / "broken.csv", [["Open A", "2025-05-01", "three", 1, "MCR", known[0], 1]])
    ran = xlrating("export", "ema-workbook", "--table", broken, "--db", federation, "-o", out)
    assert ran.code == 1 and "row 2, column 'players'" in ran.stdout and not out.exists()


def test_one_tournament_of_the_table_by_name_and_an_unknown_one_named(federation, table, tmp_path):
    name = next(iter(csv.DictReader(table.open(encoding="utf-8"))))["tournament"]
    out = tmp_path / "one.xlsx"
    ran = xlrating("export", "ema-workbook", name.upper(), "--table", table, "--db", federation, "-o", out)
    assert ran.code == 0, ran
    assert [ws["A3"].value for ws in openpyxl.load_workbook(out).worksheets] == [name]
    ran = xlrating("export", "ema-workbook", "Paris Open", "--table", table, "--db", federation, "-o", tmp_path / "x.xlsx")
    assert ran.code == 2 and "no tournaments named 'Paris Open'; the table holds" in ran.stderr
    assert not (tmp_path / "x.xlsx").exists()
