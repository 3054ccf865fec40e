"""What each built-in system declares holds together: its history of a player ends at the rating its
leaderboard gives, its breakdown of a rating adds up to it, its pages exist, and its options are
options ``rank`` and the pages can offer."""

from __future__ import annotations

import datetime as dt
import importlib
from pathlib import Path

import pytest

from xlrating.sheets.read.table_files import read_table_file
from xlrating.systems import all_systems, get

TABLES = Path(__file__).parents[2] / "examples" / "tables"
AS_OF = dt.date(2025, 6, 30)


def _records(system: str, name: str) -> list[object]:
    table = read_table_file(TABLES / name)
    return get(system).records_from_table(table.rows, table.header_row)


def test_every_system_says_what_it_is_and_its_pages_exist() -> None:
    systems = all_systems()
    assert [s.key for s in systems][:3] == ["mers", "dippouch", "dci"]
    for system in systems:
        assert system.key.isalpha() and system.title and system.game and system.table_title
        flags = [option.flag for option in system.rank_options]
        assert len(flags) == len(set(flags)) and all(flag.startswith("--") for flag in flags)
        if system.pages:
            module = importlib.import_module(system.pages)
            assert module.routes and module.MENU and module.SEARCH_TABLES


def test_a_dippouch_history_ends_at_the_leaderboards_rating() -> None:
    system, records = get("dippouch"), _records("dippouch", "dippouch_results.csv")
    board = system.leaderboard(records, source="t")
    for line in board.lines:
        steps = system.history(records, line["player"])
        assert len(steps) == line["count"] and steps[-1]["rating_after"] == line["rating"]  # the same double
        assert all(s["rating_after"] - s["rating_before"] == s["change"] for s in steps)


def test_a_dci_history_ends_at_the_leaderboards_rating_in_each_category() -> None:
    system, records = get("dci"), _records("dci", "dci_matches.csv")
    for method in ("formula", "table"):
        board = system.leaderboard(records, source="t", method=method)
        for line in board.lines:
            category = line.get("category") or board.about.get("category")
            rated = [m for m in system.history(records, line["player"], method=method)
                     if m["category"] == category and m["change"] is not None]
            assert len(rated) == line["count"] and rated[-1]["rating_after"] == line["rating"]


def test_a_mers_breakdown_adds_up_to_the_total_and_its_history_ends_at_it() -> None:
    system, records = get("mers"), _records("mers", "mers_results.csv")
    for rules in ("2005", "2010", "2018"):
        board = system.leaderboard(records, source="t", as_of=AS_OF, rules=rules, ruleset="MCR")
        for line in board.lines:
            counted = system.breakdown(records, line["player"], as_of=AS_OF, rules=rules, ruleset="MCR")
            assert len([c for c in counted if not c["padding"]]) == line["count"]
            if rules == "2005":  # the weighted average of everything counted, padding included
                weights = [c["weight"] * c["age_factor"] for c in counted]
                total = sum(w * c["base_rank"] for w, c in zip(weights, counted)) / sum(weights)
                assert total == pytest.approx(line["total"], rel=1e-12)
            history = system.history(records, line["player"], as_of=AS_OF, rules=rules, ruleset="MCR")
            assert history[-1]["date"] == AS_OF.isoformat() and history[-1]["total"] == line["total"]
