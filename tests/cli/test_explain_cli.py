"""`xlrating explain SYSTEM PLAYER [FILE]`: one player's rating with its working, from a table or the
store, equal to the rating `rank` gives; on the terminal, as JSON, CSV and a workbook of formulas.

The workbook recomputed by LibreOffice (no add-in): tests/sheets/test_explain_libreoffice.py.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner

from tests.explain_books import (
    EVERY_SPREADSHEET,
    RATING_CELL,
    VALUE,
    formulas,
    functions,
    not_plain,
    without_values,
    write_mers_table,
)
from xlrating.cli import main

TABLES = Path(__file__).resolve().parents[2] / "examples" / "tables"
MERS, DIPPOUCH, DCI = TABLES / "mers_results.csv", TABLES / "dippouch_results.csv", TABLES / "dci_matches.csv"
MCR_2025 = ("--ruleset", "MCR", "--as-of", "2025-06-30")


def run(*args: object) -> Any:
    return CliRunner().invoke(main, list(map(str, args)), catch_exceptions=False)


def board(tmp_path: Path, system: str, *args: object) -> list[dict[str, Any]]:
    out = tmp_path / "board.json"
    result = run("rank", system, *args, "-o", out)
    assert result.exit_code == 0, result.output
    lines: list[dict[str, Any]] = json.loads(out.read_text())
    return lines


def explained(tmp_path: Path, system: str, player: str, *args: object) -> dict[str, Any]:
    out = tmp_path / "explain.json"
    result = run("explain", system, player, *args, "-o", out)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(out.read_text())
    return data


def category(line: dict[str, Any]) -> tuple[str, ...]:
    return ("--category", line["category"]) if "category" in line else ()


RANKED = [("mers", MERS, MCR_2025), ("mers", MERS, (*MCR_2025, "--rules", "2010")),
          ("mers", MERS, (*MCR_2025, "--rules", "2005", "--ties", "average")),
          ("mers", MERS, ("--ruleset", "Riichi", "--as-of", "2025-06-30")),
          ("dippouch", DIPPOUCH, ()), ("dippouch", DIPPOUCH, ("--ties", "average")),
          ("dci", DCI, ()), ("dci", DCI, ("--method", "table"))]


SEEDED = [("--ruleset", "MCR", "--as-of", "2025-06-30"), ("--ruleset", "MCR", "--as-of", "2025-06-30", "--ties", "average"),
          ("--ruleset", "MCR", "--as-of", "2017-06-30"), ("--ruleset", "Riichi", "--as-of", "2025-06-30", "--rules", "2005")]


@pytest.mark.parametrize("system, table, options", RANKED + [("mers", None, options) for options in SEEDED])
def test_every_ranked_players_explanation_gives_ranks_rating(tmp_path: Path, system: str, table: Path | None,
                                                              options: tuple[str, ...]) -> None:
    if table is None:  # the seeded table: a dozen results that count, shared places, base ranks given
        table = tmp_path / "seeded.csv"
        write_mers_table(table)
    lines = board(tmp_path, system, table, *options)
    assert lines
    for line in lines:
        data = explained(tmp_path, system, line["player"], table, *options, *category(line))
        assert data["rating"] == line[VALUE[system]] and data["value_name"] == VALUE[system], line
        assert data["count"] == line["count"]


def test_a_mers_explanation_shows_each_result_and_the_parts_it_is_in(tmp_path: Path) -> None:
    data = explained(tmp_path, "mers", "04060059", MERS, *MCR_2025)
    results = [row for row in data["rows"] if row["kind"] == "result"]
    padding = [row for row in data["rows"] if row["kind"] == "padding"]
    counted = [row for row in results if row["counts"]]
    assert len(padding) == 5 - len(counted) and data["count"] == len(counted)
    for row in results:
        assert {"base_rank", "weight", "age_factor", "in_part_a", "in_part_b", "status"} <= set(row)
        assert row["base_rank"] == (row["players"] - row["place"]) * 1000 / (row["players"] - 1)
    # the best four are in Part B, the best five (two results and three padding) in Part A
    assert sorted(row["order"] for row in data["rows"] if row["in_part_b"]) == [1, 2, 3, 4]
    assert sum(row["in_part_a"] for row in data["rows"]) == 5
    parts = data["parts"]
    assert data["rating"] == pytest.approx(0.5 * parts["part_a"] + 0.5 * parts["part_b"], abs=1e-12)
    chosen = [row for row in data["rows"] if row["in_part_b"]]
    part_b = sum(r["weight_x_age"] * r["counted_base_rank"] for r in chosen) / sum(r["weight_x_age"] for r in chosen)
    assert parts["part_b"] == pytest.approx(part_b, abs=1e-9)
    assert data["settings"] == {"ruleset": "MCR", "as_of": "2025-06-30", "rules": "2018", "ties": "best"}


def test_mers_rules_choose_the_parts_and_as_of_the_results_counted(tmp_path: Path) -> None:
    rules_2010 = explained(tmp_path, "mers", "04060059", MERS, *MCR_2025, "--rules", "2010")
    assert set(rules_2010["parts"]) == {"all", "best_3"} and "in_best_3" in rules_2010["columns"]
    assert sum(row["in_best_3"] for row in rules_2010["rows"]) == 3
    early = explained(tmp_path, "mers", "04060059", MERS, "--ruleset", "MCR", "--as-of", "2024-01-01")
    later = [row for row in early["rows"] if row["kind"] == "result" and row["date"] > "2024-01-01"]
    assert later and all(row["status"] == "played after the ranking date" and not row["counts"] for row in later)
    assert early["settings"]["rules"] == "2018" and early["settings"]["as_of"] == "2024-01-01"


def test_a_mers_player_not_ranked_is_explained_with_the_reason(tmp_path: Path) -> None:
    data = explained(tmp_path, "mers", "05990101", MERS, "--ruleset", "MCR", "--as-of", "2026-01-01")
    assert data["rating"] is None and "at least 2 needed" in data["not_ranked"]


def test_a_dippouch_explanation_steps_from_40_by_each_events_percentile_and_value(tmp_path: Path) -> None:
    data = explained(tmp_path, "dippouch", "Ada Lovelace", DIPPOUCH)
    rating = 40.0
    for row in data["rows"]:
        assert row["percentile"] == pytest.approx((row["players"] + 0.5 - row["place"]) / row["players"] * 100)
        assert row["rating_before"] == rating
        rating = row["rating_after"]
        assert rating == pytest.approx(row["rating_before"] + row["value"] / 100 * (row["percentile"]
                                                                                    - row["rating_before"]))
    assert data["rating"] == rating and len(data["rows"]) == data["count"] == 4


def test_a_dci_explanation_steps_from_1600_by_k_times_w_minus_p(tmp_path: Path) -> None:
    data = explained(tmp_path, "dci", "Kai Budde", DCI, "--category", "Constructed")
    rating = 1600.0
    for row in data["rows"]:
        assert row["rating_before"] == rating
        p = 1 / (1 + 10 ** ((row["opponent_rating"] - row["rating_before"]) / 400))
        assert row["expected"] == pytest.approx(p) and row["change"] == pytest.approx(row["k"] * (row["result"] - p))
        rating = row["rating_after"]
    assert data["rating"] == rating


def test_a_dci_player_in_two_categories_is_asked_which(tmp_path: Path) -> None:
    result = run("explain", "dci", "Kai Budde", DCI)
    assert result.exit_code == 2 and "--category" in result.output and "Constructed, Limited" in result.output


@pytest.mark.parametrize("system, table, wrong, right", [("mers", MERS, "0406005", "04060059"),
                                                         ("dippouch", DIPPOUCH, "ada lovelac", "Ada Lovelace"),
                                                         ("dci", DCI, "Kai Bude", "Kai Budde")])
def test_a_player_not_in_the_records_is_an_error_naming_close_matches(system: str, table: Path, wrong: str,
                                                                     right: str) -> None:
    result = run("explain", system, wrong, table, *(MCR_2025 if system == "mers" else ()))
    assert result.exit_code == 2
    assert f"{wrong!r}" in result.output and table.name in result.output
    assert "close matches" in result.output and right in result.output


def test_the_terminal_shows_the_rows_and_the_rating(tmp_path: Path) -> None:
    result = run("explain", "mers", "04060059", MERS, *MCR_2025)
    assert result.exit_code == 0, result.output
    lines = board(tmp_path, "mers", MERS, *MCR_2025)
    total = next(line["total"] for line in lines if line["player"] == "04060059")
    assert f"Total: {total:.2f}" in result.output and "(padding)" in result.output and "Part B" in result.output


def test_csv_has_a_line_per_row_with_every_column(tmp_path: Path) -> None:
    out = tmp_path / "explain.csv"
    assert run("explain", "dippouch", "Ada Lovelace", DIPPOUCH, "-o", out).exit_code == 0
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == 4 and {"event", "percentile", "value", "rating_after"} <= set(rows[0])
    data = explained(tmp_path, "dippouch", "Ada Lovelace", DIPPOUCH)
    assert float(rows[-1]["rating_after"]) == data["rating"]


def test_an_output_of_an_unknown_kind_is_refused_before_reading(tmp_path: Path) -> None:
    result = run("explain", "dippouch", "Ada Lovelace", DIPPOUCH, "-o", tmp_path / "x.txt")
    assert result.exit_code == 2 and "x.txt" in result.output
    assert not (tmp_path / "x.txt").exists()


@pytest.mark.parametrize("system, table, options", [RANKED[0], RANKED[1], RANKED[2], RANKED[4], RANKED[5],
                                                    RANKED[6], RANKED[7]])
def test_the_workbook_holds_plain_formulas_and_ranks_rating(tmp_path: Path, system: str, table: Path,
                                                            options: tuple[str, ...]) -> None:
    line = board(tmp_path, system, table, *options)[0]
    out = tmp_path / "explain.xlsx"
    result = run("explain", system, line["player"], table, *options, *category(line), "-o", out)
    assert result.exit_code == 0, result.output
    found = formulas(openpyxl.load_workbook(out))
    assert len(found) > 10 and found[f"Explanation!{RATING_CELL[system]}"].startswith("=")
    used = set().union(*(functions(f) for f in found.values()))
    assert used - EVERY_SPREADSHEET == set() and "IF" in used
    assert not [f for f in found.values() if not_plain(f)]
    stored = openpyxl.load_workbook(out, data_only=True)["Explanation"][RATING_CELL[system]].value
    assert stored == line[VALUE[system]]  # the value saved with the formula, shown before recalculation


@pytest.mark.parametrize("system, table, options", [RANKED[0], RANKED[1], RANKED[4], RANKED[7]])
def test_xlrating_convert_recomputes_the_workbook_to_ranks_rating(tmp_path: Path, system: str, table: Path,
                                                                  options: tuple[str, ...]) -> None:
    line = board(tmp_path, system, table, *options)[0]
    out = tmp_path / "explain.xlsx"
    assert run("explain", system, line["player"], table, *options, *category(line), "-o", out).exit_code == 0
    blank = tmp_path / "blank.xlsx"
    blank.write_bytes(without_values(out.read_bytes()))
    converted = tmp_path / "converted.xlsx"
    result = run("convert", blank, "-o", converted)
    assert result.exit_code == 0, result.output
    got = openpyxl.load_workbook(converted, data_only=True)["Explanation"][RATING_CELL[system]].value
    assert got == pytest.approx(line[VALUE[system]], abs=1e-9)


def _ingested(tmp_path: Path) -> Path:
    from xlrating.sheets.examples.submissions import write_examples

    db = tmp_path / "store.db"
    for file in [*write_examples(tmp_path / "examples"), DIPPOUCH, DCI]:
        if "mistakes" not in file.name:
            assert run("ingest", "--db", db, file).exit_code == 0
    return db


def test_from_the_store_each_system_gives_ranks_rating_and_a_mers_player_by_name(tmp_path: Path) -> None:
    db = _ingested(tmp_path)
    for system, options in (("mers", ("--ruleset", "MCR", "--as-of", "2025-12-31")), ("dippouch", ()), ("dci", ())):
        lines = board(tmp_path, system, "--db", db, *options)
        for line in lines[:3]:
            data = explained(tmp_path, system, line["player"], "--db", db, *options, *category(line))
            assert data["rating"] == line[VALUE[system]]
    line = board(tmp_path, "mers", "--db", db, "--ruleset", "MCR", "--as-of", "2025-12-31")[0]
    by_name = explained(tmp_path, "mers", line["name"].upper(), "--db", db, "--ruleset", "MCR", "--as-of", "2025-12-31")
    assert by_name["player"] == line["player"] and by_name["name"] == line["name"]
    assert by_name["rating"] == line["total"]
    wrong = run("explain", "mers", line["name"][:-1], "--db", db, "--ruleset", "MCR", "--as-of", "2025-12-31")
    assert wrong.exit_code == 2 and f"{line['player']} ({line['name']})" in wrong.output
