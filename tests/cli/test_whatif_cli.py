"""`xlrating whatif mers` and `whatif eras` on a generated federation's store: the standing before is
`rank mers`', the total after is worked out in the test from the rules and `rank mers`' own breakdown
of the player's results, a player not ranked becomes ranked, bad arguments are one line naming the
argument, and the eras side by side are `rank mers --rules ERA` for each era."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner

from xlrating.cli import main
from xlrating.store import open_store
from xlrating.systems import get

ROOT = Path(__file__).resolve().parents[2]
AS_OF = "2025-12-31"  # the generated federation's last weeks


def run(*args: Any) -> Any:
    return CliRunner().invoke(main, list(map(str, args)), catch_exceptions=False)


@pytest.fixture(scope="module")
def federation(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from federation import make_store

    db = tmp_path_factory.mktemp("whatif") / "store.db"
    make_store(db, scale=0.1)
    return db


def ranking(federation: Path, tmp_path: Path, rules: str = "2018", suffix: str = "json") -> Any:
    out = tmp_path / f"ranking-{rules}.{suffix}"
    result = run("rank", "mers", "--db", federation, "--ruleset", "MCR", "--as-of", AS_OF, "--rules", rules, "-o", out)
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text()) if suffix == "json" else openpyxl.load_workbook(out)


def whatif(federation: Path, tmp_path: Path, player: str, *options: Any) -> dict[str, Any]:
    out = tmp_path / "whatif.json"
    result = run("whatif", "mers", player, "--db", federation, "--ruleset", "MCR", "--date", AS_OF, *options, "-o", out)
    assert result.exit_code == 0, result.output
    return dict(json.loads(out.read_text()))


def total_2018(counted: list[tuple[float, float, float]]) -> float:
    """The 2018 rules by hand: pad with (0, 1, 1) to 5, best first; Part A the best
    5 + ceil(0.8 (n - 5)), Part B the best 4, each sum(b w a) / sum(w a); the total their mean."""
    n = len(counted)
    listed = sorted([*counted, *[(0.0, 1.0, 1.0)] * max(5 - n, 0)], key=lambda c: (-c[0], -c[1] * c[2]))

    def average(k: int) -> float:
        best = listed[:k]
        return sum(b * w * a for b, w, a in best) / sum(w * a for _, w, a in best)

    return (average(5 + math.ceil(0.8 * max(n - 5, 0))) + average(4)) / 2


def test_the_total_and_place_before_are_rank_mers_and_after_the_rules_with_one_more_result(federation, tmp_path):
    lines = ranking(federation, tmp_path)
    line = lines[60]
    found = whatif(federation, tmp_path, line["player"], "--place", 2, "--players", 41, "--weight", 2.5)
    assert (found["before"]["rank"], found["before"]["total"]) == (line["rank"], line["total"])
    # by hand: the player's counted results as rank mers' breakdown lists them, and 2nd of 41 at
    # weight 2.5 today: base rank (41 - 2) / 40 x 1000 = 975, age factor 1
    book = ranking(federation, tmp_path, suffix="xlsx")
    rows = list(book["Breakdown"].values)[2:]  # a title, a blank row, then the header
    column = {name: i for i, name in enumerate(rows[0])}
    counted = [(r[column["Base rank"]], r[column["Weight"]], r[column["Age factor"]]) for r in rows[1:]
               if r[column["Player"]] == line["player"] and not str(r[column["Tournament"]]).startswith("(padding")]
    assert len(counted) == line["count"]
    assert found["base_rank"] == 975 and found["age_factor"] == 1
    assert found["after"]["total"] == pytest.approx(total_2018([*counted, (975.0, 2.5, 1.0)]), abs=1e-9)
    # the place after: among everyone else's unchanged totals
    after = found["after"]["total"]
    assert found["after"]["rank"] == 1 + sum(1 for other in lines if other["player"] != line["player"]
                                             and other["total"] > after)
    passed = {p["player"] for p in found["passed"]}
    assert passed == {o["player"] for o in lines if line["total"] < o["total"] <= after}
    assert found["change"] == pytest.approx(after - line["total"])


def test_a_player_who_is_not_ranked_becomes_ranked(federation, tmp_path):
    ranked = {line["player"] for line in ranking(federation, tmp_path)}
    with open_store(str(federation), read_only=True) as store:
        records = get("mers").stored_records(store, ruleset="MCR")
    recent = {}
    for r in records:
        if r.player and r.player not in ranked and str(r.date) > "2025-06-30":
            recent.setdefault(r.player, []).append(r)
    player = next(p for p, own in sorted(recent.items()) if len(own) == 1
                  and sum(1 for r in records if r.player == p) == 1)
    found = whatif(federation, tmp_path, player, "--place", 1, "--players", 30, "--weight", 1)
    assert found["before"]["rank"] is None and found["before"]["count"] == 1
    assert found["after"]["rank"] is not None and found["after"]["count"] == 2
    assert found["after"]["of"] == found["before"]["of"] + 1


def test_the_terminal_says_before_after_and_who_is_passed(federation, tmp_path):
    line = ranking(federation, tmp_path)[30]
    result = run("whatif", "mers", line["player"], "--db", federation, "--ruleset", "MCR", "--place", 1,
                 "--players", 60, "--weight", 3, "--date", AS_OF)
    assert result.exit_code == 0, result.output
    assert f"before: {line['rank']}" in result.output and "after: " in result.output
    assert "passes " in result.output and "base rank 1000" in result.output


@pytest.mark.parametrize(("options", "said"), [
    (["--place", 61, "--players", 60, "--weight", 1], "--place: expected a place from 1 to players (60), got 61"),
    (["--place", 1, "--players", 1, "--weight", 1], "--players: expected a whole number >= 2, got 1"),
    (["--place", 1, "--players", 60, "--weight", 0], "--weight: expected a weight > 0, got 0"),
    (["--place", 1, "--players", 60, "--weight", 1, "--as-of", "2025-12-30"],
     "--as-of: expected a ranking date on or after the tournament's date (2025-12-31)"),
    (["--place", 1, "--players", 60, "--weight", 1, "-o", "x.txt"], "x.txt: expected an output file ending in .json"),
])
def test_bad_arguments_are_one_line_naming_the_argument(federation, tmp_path, options, said):
    player = ranking(federation, tmp_path)[0]["player"]
    result = run("whatif", "mers", player, "--db", federation, "--ruleset", "MCR", "--date", AS_OF, *options)
    assert result.exit_code == 2
    assert result.output.strip() == f"xlrating: error: {said}" or said in result.output


def test_an_unknown_player_is_named_with_the_closest_players(federation):
    result = run("whatif", "mers", "99999999", "--db", federation, "--place", 1, "--players", 60, "--weight", 1,
                 "--date", AS_OF)
    assert result.exit_code == 2
    assert result.output.startswith("xlrating: error: PLAYER: no player with MERS results (EMA ID or name) "
                                    f"'99999999' in {federation}")


def test_a_name_several_players_bear_asks_for_the_ema_id(federation):
    from xlrating.systems.mers import player_names

    with open_store(str(federation), read_only=True) as store:
        records = get("mers").stored_records(store)
        names = player_names(store)
    played = {r.player for r in records}
    by_name: dict[str, list[str]] = {}
    for ema_id, name in names.items():
        if ema_id in played:
            by_name.setdefault(name, []).append(ema_id)
    name, ids = next((n, sorted(i)) for n, i in sorted(by_name.items()) if len(i) > 1)
    result = run("whatif", "mers", name.upper(), "--db", federation, "--place", 1, "--players", 60, "--weight", 1,
                 "--date", AS_OF)
    assert result.exit_code == 2
    assert f"xlrating: error: PLAYER: expected one player's EMA ID or name, got {name.upper()!r}" in result.output
    assert ", ".join(ids) in result.output


def test_the_eras_side_by_side_are_rank_mers_under_each_era(federation, tmp_path):
    out = tmp_path / "eras.json"
    result = run("whatif", "eras", "--db", federation, "--ruleset", "MCR", "--as-of", AS_OF, "-o", out)
    assert result.exit_code == 0, result.output
    side = json.loads(out.read_text())
    for rules in ("2005", "2010", "2018"):
        expected = {line["player"]: (line["rank"], line["total"]) for line in ranking(federation, tmp_path, rules)}
        assert {p["player"]: (p[f"rank_{rules}"], p[f"total_{rules}"]) for p in side["players"]
                if p[f"rank_{rules}"] is not None} == expected
    for p in side["players"]:
        places = [p[f"rank_{r}"] for r in ("2005", "2010", "2018") if p[f"rank_{r}"] is not None]
        assert p["spread"] == (max(places) - min(places) if len(places) > 1 else None)
    spreads = [p["spread"] for p in side["moved_most"]]
    assert spreads == sorted(spreads, reverse=True) and spreads[0] == max(p["spread"] or 0 for p in side["players"])
    book = tmp_path / "eras.xlsx"
    assert run("whatif", "eras", "--db", federation, "--ruleset", "MCR", "--as-of", AS_OF, "-o", book).exit_code == 0
    rows = list(openpyxl.load_workbook(book)["Eras"].values)
    # a workbook's number keeps 15 significant digits or so: equal to 12
    assert [dict(zip(rows[0], row)) for row in rows[1:]] == [
        {key: pytest.approx(value, rel=1e-12) if isinstance(value, float) else value for key, value in p.items()}
        for p in side["players"]]


# --- from a MERS results table --------------------------------------------------------------------

@pytest.fixture(scope="module")
def table(federation: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The store's every MERS result written as a MERS results table (the columns rank mers FILE reads)."""
    import csv

    with open_store(str(federation), read_only=True) as store:
        records = get("mers").stored_records(store)
    path = tmp_path_factory.mktemp("whatif_table") / "results.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["tournament", "date", "players", "weight", "ruleset", "player", "place", "effective_date"])
        for r in records:
            writer.writerow([r.tournament, r.date.isoformat(), r.players, repr(r.weight), r.ruleset, r.player or "",
                             r.place, r.effective_date.isoformat() if r.effective_date else ""])
    assert len(records) > 1000
    return path


def unnamed(data: Any) -> Any:
    """``data`` without the players' names (a results table names nobody)."""
    if isinstance(data, dict):
        return {k: unnamed(v) for k, v in data.items() if k != "name"}
    if isinstance(data, list):
        return [unnamed(v) for v in data]
    return data


def test_whatif_mers_of_a_results_table_is_the_store_s_for_the_same_results(federation, table, tmp_path):
    line = ranking(federation, tmp_path)[40]
    options = ["--ruleset", "MCR", "--place", 3, "--players", 52, "--weight", 1.5, "--date", "2025-11-30",
               "--as-of", AS_OF]
    from_store, from_table = tmp_path / "store.json", tmp_path / "table.json"
    assert run("whatif", "mers", line["player"], "--db", federation, *options, "-o", from_store).exit_code == 0
    result = run("whatif", "mers", line["player"], table, *options, "-o", from_table)
    assert result.exit_code == 0, result.output
    stored, tabled = json.loads(from_store.read_text()), json.loads(from_table.read_text())
    assert stored["passed"] and tabled["name"] == ""
    assert unnamed(tabled) == unnamed(stored)  # every figure, the same doubles
    # and on the terminal, the same lines but for the names
    shown = run("whatif", "mers", line["player"], table, *options[:-2], "--as-of", AS_OF)
    assert shown.exit_code == 0 and f"before: {line['rank']}" in shown.output
    assert f"total {line['total']:.2f}" in shown.output


def test_whatif_eras_of_a_results_table_is_the_store_s_for_the_same_results(federation, table, tmp_path):
    outs = {}
    for where in ("store", "table"):
        out = tmp_path / f"{where}.json"
        source = ["--db", federation] if where == "store" else [table]
        result = run("whatif", "eras", *source, "--ruleset", "MCR", "--as-of", AS_OF, "-o", out)
        assert result.exit_code == 0, result.output
        outs[where] = json.loads(out.read_text())
    assert len(outs["table"]["players"]) > 50
    assert unnamed(outs["table"]) == unnamed(outs["store"])


def test_a_results_table_names_nobody_so_its_players_are_their_ema_ids(federation, table):
    from xlrating.systems.mers import player_names

    with open_store(str(federation), read_only=True) as store:
        name = next(n for n in player_names(store).values() if n)
    result = run("whatif", "mers", name, table, "--place", 1, "--players", 40, "--weight", 1, "--date", AS_OF)
    assert result.exit_code == 2
    assert result.output.startswith(f"xlrating: error: PLAYER: no player with MERS results (EMA ID or name) "
                                    f"{name!r} in {table}")
    assert result.output.rstrip().endswith("(a results table has no names: give the player's EMA ID)")


def test_a_table_with_an_error_is_named_at_its_cell(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("tournament,date,players,weight,ruleset,player,place\n"
                   "Vienna Open,2023-05-14,40,1,MCR,01000012,1\nVienna Open,2023-05-14,forty,1,MCR,04060059,2\n",
                   encoding="utf-8")
    result = run("whatif", "eras", bad, "--ruleset", "MCR")
    assert result.exit_code == 2
    assert "bad.csv" in result.output and "row 3" in result.output and "players" in result.output
