"""The register of players: a merge and a split change the rankings exactly as a fresh ingest under
the merged or split names would; each is undone by undo; the log keeps who, when, why; changes
that cannot be right (a circle, two people who played each other or share a standing) are refused;
a country from a date; and an ingest says which players it matched and which new names are close to
known ones. Driven through ``xlrating players`` and ``xlrating ingest``, as the officer runs them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from xlrating.cli import main
from xlrating.store import open_store

TABLES = Path(__file__).parents[2] / "examples" / "tables"
DIPPOUCH = TABLES / "dippouch_results.csv"
DCI = TABLES / "dci_matches.csv"


def run(*args: str, expect: int = 0, given: str | None = None) -> str:
    done = CliRunner().invoke(main, list(args), input=given)
    assert done.exit_code == expect, done.output
    return done.output


def ranking(db: Path, system: str, tmp_path: Path) -> list[dict[str, Any]]:
    out = tmp_path / f"{system}-{len(list(tmp_path.glob('*.json')))}.json"
    run("rank", system, "--db", str(db), "-o", str(out))
    return json.loads(out.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def rewritten(source: Path, folder: Path, change: Callable[[list[str]], list[str]]) -> Path:
    """``source`` with each row's cells passed through ``change``."""
    lines = source.read_text(encoding="utf-8").splitlines()
    out = folder / f"changed-{source.name}"
    out.write_text("\n".join([lines[0], *(",".join(change(line.split(","))) for line in lines[1:])]) + "\n",
                   encoding="utf-8")
    return out


def stored(folder: Path, *files: Path) -> Path:
    db = folder / f"store{len(list(folder.glob('store*.db')))}.db"
    run("ingest", "--db", str(db), "--no-ask", *map(str, files))
    return db


def test_a_merge_ranks_as_a_fresh_ingest_under_one_name_and_undo_restores(tmp_path: Path) -> None:
    db = stored(tmp_path, DIPPOUCH)
    before = ranking(db, "dippouch", tmp_path)
    said = run("players", "merge", "dippouch", "Ada Lovelace", "Ada King", "--db", str(db), "--by", "officer",
               "--why", "her married name")
    assert said == "change 1: Ada Lovelace merged into Ada King (by officer: her married name)\n"
    renamed = rewritten(DIPPOUCH, tmp_path, lambda cells: ["Ada King" if c == "Ada Lovelace" else c for c in cells])
    assert ranking(db, "dippouch", tmp_path) == ranking(stored(tmp_path, renamed), "dippouch", tmp_path)
    run("players", "undo", "dippouch", "1", "--db", str(db), "--by", "officer", "--why", "a mistake")
    assert ranking(db, "dippouch", tmp_path) == before
    log = json.loads(run("players", "log", "dippouch", "--db", str(db), "--format", "json"))
    assert [(c["id"], c["action"], c["by"], c["why"], c["undoes"], c["undone_by"]) for c in log] == [
        (1, "merge", "officer", "her married name", None, 2), (2, "undo", "officer", "a mistake", 1, None)]


def test_a_split_ranks_as_a_fresh_ingest_with_those_results_renamed(tmp_path: Path) -> None:
    db = stored(tmp_path, DCI)
    before = ranking(db, "dci", tmp_path)
    with open_store(str(db), read_only=True) as store:
        rotterdam = next(e for e in store.events("dci") if e.name == "Grand Prix Rotterdam")
    said = run("players", "split", "dci", "Jon Finkel", "Jon Finkel (Leeds)", "--event", str(rotterdam.number),
               "--db", str(db), "--why", "a namesake played in Rotterdam")
    assert said.startswith("change 1: the results of Jon Finkel at Grand Prix Rotterdam (2009-04-18) given to "
                           "Jon Finkel (Leeds)")

    def namesake(cells: list[str]) -> list[str]:
        return [("Jon Finkel (Leeds)" if c == "Jon Finkel" and cells[0] == "Grand Prix Rotterdam" else c) for c in cells]

    fresh = ranking(stored(tmp_path, rewritten(DCI, tmp_path, namesake)), "dci", tmp_path)
    assert ranking(db, "dci", tmp_path) == fresh
    assert any(line["player"] == "Jon Finkel (Leeds)" for line in fresh)
    run("players", "undo", "dci", "1", "--db", str(db), "--why", "the same man after all")
    assert ranking(db, "dci", tmp_path) == before


def test_changes_that_cannot_be_right_are_refused_and_change_nothing(tmp_path: Path) -> None:
    db = stored(tmp_path, DIPPOUCH, DCI)

    def refused(*args: str) -> str:
        return run("players", *args, "--db", str(db), "--why", "test", expect=1)

    assert "they played each other at Friday Night Magic (2009-03-06), round 1" in refused(
        "merge", "dci", "Kai Budde", "Jon Finkel")
    assert "both have a place at Spring Cup (2023-04-16)" in refused("merge", "dippouch", "Ada Lovelace",
                                                                     "Blaise Pascal")
    assert "no stored dippouch result names 'Nobody'" in refused("merge", "dippouch", "Nobody", "Ada Lovelace")
    run("players", "merge", "dippouch", "Ada Lovelace", "Ada King", "--db", str(db), "--why", "married")
    assert "would be a circle" in refused("merge", "dippouch", "Ada King", "Ada Lovelace")
    assert "is merged into 'Ada King' already" in refused("merge", "dippouch", "Ada Lovelace", "Carl Gauss")
    assert "was undone already" in (run("players", "undo", "dippouch", "1", "--db", str(db), "--why", "x") and
                                    refused("undo", "dippouch", "1"))
    assert "Missing option '--why'" in run("players", "merge", "dippouch", "Carl Gauss", "C. Gauss", "--db", str(db),
                                           expect=2)
    assert [c.action for c in open_store(str(db), read_only=True).register_log("dippouch")] == ["merge", "undo"]


def test_the_pages_follow_the_register_at_once(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from xlrating.web.app import Settings, create_app

    db = stored(tmp_path, DIPPOUCH)
    with TestClient(create_app(Settings(str(db), check_processes=1))) as client:
        assert "Ada King" not in {line["player"] for line in client.get("/rankings/dippouch.json").json()["ranking"]}
        run("players", "merge", "dippouch", "Ada Lovelace", "Ada King", "--db", str(db), "--why", "married")
        players = {line["player"] for line in client.get("/rankings/dippouch.json").json()["ranking"]}
        assert "Ada King" in players and "Ada Lovelace" not in players
        history = client.get("/dippouch/players/Ada%20King.json").json()["history"]
        assert len(history) == 4  # every result she played as Ada Lovelace


def test_a_country_from_a_date_counts_from_that_date(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from xlrating.web.app import Settings, create_app

    examples = TABLES.parent
    db = tmp_path / "mers.db"
    run("ingest", "--db", str(db), "--no-ask", *map(str, sorted(examples.glob("0[1-5]_*.xlsx"))))
    run("players", "country", "mers", "04858660", "BEL", "--since", "2025-06-01", "--db", str(db),
        "--why", "moved to Brussels")
    with TestClient(create_app(Settings(str(db), check_processes=1))) as client:
        def country(day: str) -> str:
            lines = client.get(f"/rankings/MCR/2018.json?as_of={day}").json()["ranking"]
            return next(line["country"] for line in lines if line["player"] == "04858660")

        assert (country("2025-05-31"), country("2025-06-01")) == ("FRA", "BEL")
    assert "expected a 3-letter country code" in run("players", "country", "mers", "04858660", "Atlantis",
                                                     "--since", "2026-01-01", "--db", str(db), "--why", "x", expect=1)
    assert "has a country from 2025-06-01 already (change 1)" in run(
        "players", "country", "mers", "04858660", "NED", "--since", "2025-06-01", "--db", str(db), "--why", "x", expect=1)


@pytest.mark.parametrize("answer", ["y", "n"])
def test_an_ingest_names_what_it_matched_and_asks_about_a_close_new_name(tmp_path: Path, answer: str) -> None:
    db = stored(tmp_path, DIPPOUCH)
    run("players", "merge", "dippouch", "Blaise Pascal", "B. Pascal", "--db", str(db), "--why", "as he signs")
    autumn = tmp_path / "autumn.csv"
    rows = [line for line in DIPPOUCH.read_text(encoding="utf-8").splitlines() if line.startswith(("event", "Spring"))]
    autumn.write_text("\n".join(row.replace("Spring Cup,2023-04-16", "Autumn Cup,2024-10-06")
                                .replace("Ada Lovelace", "Ada Lovelac") for row in rows) + "\n", encoding="utf-8")
    said = run("ingest", "--db", str(db), "--ask", str(autumn), given=f"{answer}\n")
    assert "; players: 5 known (1 through the register), 1 new\n" in said
    assert "'Blaise Pascal' is 'B. Pascal' (the register merged them)" in said
    assert ("new 'Ada Lovelac' is close to known 'Ada Lovelace': if they are the same person, "
            "xlrating players merge dippouch 'Ada Lovelac' 'Ada Lovelace'") in said
    assert "Is the new 'Ada Lovelac' the known 'Ada Lovelace'?" in said
    merged = [c.details for c in open_store(str(db), read_only=True).register_log("dippouch")][1:]
    assert merged == ([{"player": "Ada Lovelac", "into": "Ada Lovelace"}] if answer == "y" else [])
