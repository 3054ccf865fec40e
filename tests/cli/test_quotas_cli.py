"""`xlrating quotas`: championship quotas from the store or a MERS results table, on the terminal and
as JSON, CSV and a workbook, with every bad input one line naming the option."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from xlrating.cli import main
from xlrating.store import open_store

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "examples" / "tables" / "mers_results.csv"
AS_OF = "2025-12-31"  # the generated federation's last weeks
SEATS = 130


def run(*args):
    return CliRunner().invoke(main, list(map(str, args)), catch_exceptions=False)


@pytest.fixture(scope="module")
def federation(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from federation import make_store

    db = tmp_path_factory.mktemp("quotas") / "store.db"
    make_store(db, scale=0.5)  # 307 ranked MCR players on AS_OF: caps enough for 130 seats
    return db


@pytest.fixture(scope="module")
def quota(federation: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("out") / "quotas.json"
    result = run("quotas", "--db", federation, "--ruleset", "MCR", "--seats", SEATS, "--as-of", AS_OF, "-o", out)
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text())


def test_the_json_has_each_country_s_seats_and_their_parts_and_every_step(quota):
    assert (quota["ruleset"], quota["rules"], quota["as_of"], quota["seats"]) == ("MCR", "2018", AS_OF, SEATS)
    assert {"country", "seats", "part_a", "part_b", "personal", "cap"} <= set(quota["countries"][0])
    for row in quota["countries"]:
        assert row["seats"] == row["part_a"] + row["part_b"] - row["over_cap"] + row["redistributed"]
        assert row["part_a"] == row["member_seat"] + row["seat_above_700"] + row["seat_best_countries"]
    steps = quota["steps"]
    assert [s["step"] for s in steps] == list(range(1, len(steps) + 1))
    assert sum(1 for s in steps if s["part"] == "B" and s["kind"] == "share") == quota["part_b_seats"]


def test_the_seats_sum_to_t_and_each_country_is_within_1_and_its_players_above_the_average(quota, federation,
                                                                                           tmp_path):
    assert sum(row["seats"] for row in quota["countries"]) == SEATS and quota["left_over"] == 0
    # the cap recomputed from rank mers' own totals and the players' countries in the store
    ranking = tmp_path / "ranking.json"
    assert run("rank", "mers", "--db", federation, "--ruleset", "MCR", "--as-of", AS_OF, "-o", ranking).exit_code == 0
    lines = json.loads(ranking.read_text())
    with open_store(str(federation), read_only=True) as store:
        country = {key: p.facts.get("country") for key, p in store.players("mers").items()}
    average = sum(line["total"] for line in lines) / len(lines)
    assert quota["average_total"] == pytest.approx(average)
    for row in quota["countries"]:
        above = sum(1 for line in lines if country.get(line["player"]) == row["country"] and line["total"] > average)
        assert row["cap"] == max(1, above)
        assert 1 <= row["seats"] <= row["cap"]
    assert {row["country"] for row in quota["countries"]} == {country[line["player"]] for line in lines}


def test_personal_seats_are_on_top_of_t_and_of_the_country_s_quota(federation, quota, tmp_path):
    out = tmp_path / "quotas.json"
    country = quota["countries"][-1]["country"]
    player = next(p for p in _ranked(federation, tmp_path) if p[1] == country)[0]
    assert run("quotas", "--db", federation, "--ruleset", "MCR", "--seats", SEATS, "--as-of", AS_OF,
               "--personal", player, "-o", out).exit_code == 0
    with_seat = json.loads(out.read_text())
    assert [p["player"] for p in with_seat["personal"]] == [player]
    before = {row["country"]: row["seats"] for row in quota["countries"]}
    assert {row["country"]: row["seats"] for row in with_seat["countries"]} == before
    row = next(row for row in with_seat["countries"] if row["country"] == country)
    assert (row["personal"], row["total_seats"]) == (1, row["seats"] + 1)


def _ranked(federation: Path, tmp_path: Path) -> list[tuple[str, str]]:
    out = tmp_path / "ranking.json"
    run("rank", "mers", "--db", federation, "--ruleset", "MCR", "--as-of", AS_OF, "-o", out)
    with open_store(str(federation), read_only=True) as store:
        country = {key: p.facts.get("country") for key, p in store.players("mers").items()}
    return [(line["player"], country[line["player"]]) for line in json.loads(out.read_text())]


def test_the_terminal_shows_the_countries_and_every_step(federation):
    result = CliRunner().invoke(main, ["quotas", "--db", str(federation), "--ruleset", "mcr", "--seats", str(SEATS),
                                       "--as-of", AS_OF], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert f"Championship quotas: {SEATS} seats, MCR" in result.output
    assert "Countries" in result.output and "Steps" in result.output
    assert "EMA member country with" in result.output and "Part B seat 1 of" in result.output


def test_the_csv_is_the_countries_and_the_workbook_has_countries_and_steps(federation, quota, tmp_path):
    table, book = tmp_path / "quotas.csv", tmp_path / "quotas.xlsx"
    for out in (table, book):
        assert run("quotas", "--db", federation, "--ruleset", "MCR", "--seats", SEATS, "--as-of", AS_OF,
                   "-o", out).exit_code == 0
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    assert [(r["country"], int(r["seats"])) for r in rows] == [(r["country"], r["seats"]) for r in quota["countries"]]
    workbook = openpyxl.load_workbook(book)
    assert workbook.sheetnames[:2] == ["Countries", "Steps"]
    countries = list(workbook["Countries"].values)
    assert list(countries[0]) == list(quota["countries"][0])
    assert [row[countries[0].index("seats")] for row in countries[1:]] == [r["seats"] for r in quota["countries"]]
    steps = list(workbook["Steps"].values)
    assert len(steps) - 1 == len(quota["steps"]) and steps[1][steps[0].index("reason")] == quota["steps"][0]["reason"]


def test_a_results_table_s_players_count_for_the_country_of_their_ema_id(tmp_path):
    out = tmp_path / "quotas.json"
    result = run("quotas", TABLE, "--ruleset", "MCR", "--seats", 7, "--as-of", "2025-06-30", "-o", out)
    assert result.exit_code == 0, result.output
    quota = json.loads(out.read_text())
    prefixes = {"01": "AUT", "04": "FRA", "07": "ITA", "11": "GBR"}
    rank = tmp_path / "ranking.json"
    run("rank", "mers", TABLE, "--ruleset", "MCR", "--as-of", "2025-06-30", "-o", rank)
    expected = {prefixes[line["player"][:2]] for line in json.loads(rank.read_text())}
    assert {row["country"] for row in quota["countries"]} == expected
    assert quota["part_a_seats"] + quota["part_b_seats"] == 7
    assert sum(row["seats"] for row in quota["countries"]) == 7 - quota["left_over"]


def test_too_few_seats_for_part_a_are_refused_naming_seats_and_the_least_it_takes(federation, quota):
    result = run("quotas", "--db", federation, "--ruleset", "MCR", "--seats", 3, "--as-of", AS_OF)
    assert result.exit_code == 2
    assert result.output.startswith(f"xlrating: error: --seats: expected at least {quota['part_a_seats']}, the fixed "
                                    "seats of Part A")


def test_a_personal_seat_for_a_player_who_is_not_ranked_is_refused(federation):
    result = run("quotas", "--db", federation, "--ruleset", "MCR", "--seats", SEATS, "--as-of", AS_OF,
                 "--personal", "99999999")
    assert result.exit_code == 2
    assert "xlrating: error: --personal: expected the EMA ID of a player of the ranking, got '99999999'" in result.output


def test_a_date_with_nobody_ranked_says_why(federation):
    result = run("quotas", "--db", federation, "--ruleset", "MCR", "--seats", SEATS, "--as-of", "1999-12-31")
    assert result.exit_code == 2
    assert "the MCR ranking as of 1999-12-31 (2005 rules) has no ranked player, so no quotas: No player has" \
           in result.output


@pytest.mark.parametrize(("args", "said"), [
    (["--ruleset", "MCR", "--as-of", AS_OF], "Missing option '--seats'"),
    (["--ruleset", "MCR", "--seats", "0", "--as-of", AS_OF], "Invalid value for '--seats'"),
    (["--ruleset", "MCR", "--seats", "10001", "--as-of", AS_OF], "--seats: expected at most 10,000 seats, got 10001"),
    (["--ruleset", "Go", "--seats", "40", "--as-of", AS_OF], "Invalid value for '--ruleset'"),
    (["--ruleset", "MCR", "--seats", "40", "--as-of", "31/12/2025"], "expected a date as YYYY-MM-DD"),
    (["--ruleset", "MCR", "--seats", "40", "--as-of", AS_OF, "-o", "quotas.txt"],
     "quotas.txt: expected an output file ending in .json, .csv or .xlsx"),
])
def test_bad_options_are_one_line_naming_the_option(federation, args, said):
    result = run("quotas", "--db", federation, *args)
    assert result.exit_code == 2 and said in result.output


def test_without_a_date_the_quotas_are_those_of_today_s_ranking_as_rank_mers_ranks(tmp_path):
    import datetime as dt

    # the example table moved so that its last tournament was played last week
    lines = TABLE.read_text(encoding="utf-8").splitlines()
    days = sorted({dt.date.fromisoformat(line.split(",")[1]) for line in lines[1:]})
    shift = dt.date.today() - dt.timedelta(days=7) - days[-1]
    recent = tmp_path / "recent.csv"
    recent.write_text("\n".join([lines[0], *(",".join([c[0], (dt.date.fromisoformat(c[1]) + shift).isoformat(), *c[2:]])
                                              for c in (line.split(",") for line in lines[1:]))]) + "\n",
                      encoding="utf-8")
    today, dated = tmp_path / "today.json", tmp_path / "dated.json"
    assert run("quotas", recent, "--ruleset", "MCR", "--seats", 20, "-o", today).exit_code == 0
    assert run("quotas", recent, "--ruleset", "MCR", "--seats", 20, "--as-of", dt.date.today().isoformat(),
               "-o", dated).exit_code == 0
    shown = json.loads(today.read_text())
    assert shown["as_of"] == dt.date.today().isoformat() and shown["countries"]
    assert sum(c["seats"] for c in shown["countries"]) + shown["left_over"] == 20
    assert shown == json.loads(dated.read_text())


def test_piped_the_tables_keep_every_column_whole(tmp_path):
    shown = run("quotas", TABLE, "--ruleset", "MCR", "--seats", 20, "--as-of", "2025-06-30")
    assert shown.exit_code == 0, shown.output
    header = next(line for line in shown.output.splitlines() if "Country" in line and "Seats" in line)
    for title in ("Country", "Rank", "Players", "Share", "Cap", "Over cap", "Given again", "Seats", "Personal"):
        assert title in header
    assert "…" not in shown.output
