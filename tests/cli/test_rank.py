"""`xlrating rank`: leaderboards from result files, in every output format."""

import csv
import json
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from xlrating.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "tables"


def run(*args):
    return CliRunner().invoke(main, list(map(str, args)), catch_exceptions=False)


def test_dippouch_json_is_a_list_best_first_with_rank_player_rating_count(tmp_path):
    out = tmp_path / "board.json"
    result = run("rank", "dippouch", EXAMPLES / "dippouch_results.csv", "-o", out)
    assert result.exit_code == 0, result.output
    board = json.loads(out.read_text())
    assert list(board[0]) == ["rank", "player", "rating", "count"]
    assert [line["rank"] for line in board] == sorted(line["rank"] for line in board)
    assert board[0]["player"] == "Ada Lovelace" and board[0]["count"] == 4


def test_mers_json_uses_total(tmp_path):
    out = tmp_path / "board.json"
    result = run("rank", "mers", EXAMPLES / "mers_results.csv", "--ruleset", "MCR", "--as-of", "2025-06-30",
                 "-o", out)
    assert result.exit_code == 0, result.output
    assert list(json.loads(out.read_text())[0]) == ["rank", "player", "total", "count"]


def test_mers_with_both_rulesets_needs_a_ruleset():
    result = run("rank", "mers", EXAMPLES / "mers_results.csv")
    assert result.exit_code == 2 and "--ruleset" in result.output


def test_dci_csv_ranks_each_category_separately(tmp_path):
    out = tmp_path / "board.csv"
    assert run("rank", "dci", EXAMPLES / "dci_matches.csv", "-o", out).exit_code == 0
    rows = list(csv.DictReader(out.open()))
    limited = [r for r in rows if r["category"] == "Limited"]
    assert limited[0]["rank"] == "1" and len(limited) == 4


def test_mers_xlsx_has_a_ranking_and_a_breakdown_sheet(tmp_path):
    out = tmp_path / "board.xlsx"
    assert run("rank", "mers", EXAMPLES / "mers_results.csv", "--ruleset", "mcr", "--as-of", "2025-06-30",
               "--rules", "2018", "-o", out).exit_code == 0
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == ["Ranking", "Breakdown"]
    header = [c.value for c in book["Breakdown"][3]]
    assert header == ["Player", "Tournament", "Date", "Base rank", "Weight", "Age factor"]
    assert book["Ranking"].freeze_panes == "A4"


def test_a_title_above_the_table_is_skipped_and_the_header_found(tmp_path):
    src = tmp_path / "results.xlsx"
    book = openpyxl.Workbook()
    ws = book.active
    ws.append(["Dip Pouch results, spring season"])
    ws.append([])
    for row in csv.reader((EXAMPLES / "dippouch_results.csv").open()):
        ws.append(row)
    book.save(src)
    # A title above the table is skipped: the header is the first row naming every column.
    out = tmp_path / "board.json"
    assert run("rank", "dippouch", src, "-o", out).exit_code == 0
    assert json.loads(out.read_text())[0]["player"] == "Ada Lovelace"


def test_a_bad_cell_names_the_file_row_and_column(tmp_path):
    src = tmp_path / "bad.csv"
    src.write_text("event,date,players,rounds,player,place\nA,2020-13-01,10,2,x,1\n")
    result = run("rank", "dippouch", src)
    assert result.exit_code == 2
    assert "bad.csv: row 2, column 'date'" in result.output and "Traceback" not in result.output


def test_semicolon_separated_csv_is_read(tmp_path):
    src = tmp_path / "eu.csv"
    src.write_text("event;date;players;rounds;player;place\nA;2020-01-01;10;2;x;1\n")
    assert run("rank", "dippouch", src).exit_code == 0


def test_an_unknown_output_extension_is_refused_before_any_work(tmp_path):
    result = run("rank", "dippouch", EXAMPLES / "dippouch_results.csv", "-o", tmp_path / "board.txt")
    assert result.exit_code == 2 and ".json, .csv or .xlsx" in result.output


def test_a_missing_file_is_a_clean_error():
    result = run("rank", "dci", "nowhere.csv")
    assert result.exit_code == 2 and "nowhere.csv" in result.output


@pytest.mark.parametrize("value", ["=HYPERLINK(\"http://x\")", "+1+1", "@SUM(A1)", "-2+3"])
def test_csv_export_never_starts_a_cell_with_a_formula_trigger(tmp_path, value):
    src = tmp_path / "evil.csv"
    with src.open("w", newline="") as handle:
        csv.writer(handle).writerows([["event", "date", "players", "rounds", "player", "place"],
                                      ["A", "2020-01-01", 10, 2, value, 1]])
    out = tmp_path / "board.csv"
    assert run("rank", "dippouch", src, "-o", out).exit_code == 0
    cells = [cell for row in csv.reader(out.open()) for cell in row]
    assert not any(cell[:1] in "=+-@" for cell in cells if cell)


def test_ties_average_changes_a_tied_players_rating(tmp_path):
    src = tmp_path / "ties.csv"
    src.write_text("event,date,players,rounds,player,place\n" + "".join(
        f"A,2020-01-01,40,3,{p},26\n" for p in "abc"))
    best, average = tmp_path / "b.json", tmp_path / "a.json"
    run("rank", "dippouch", src, "-o", best)
    run("rank", "dippouch", src, "--ties", "average", "-o", average)
    assert json.loads(best.read_text())[0]["rating"] > json.loads(average.read_text())[0]["rating"]


def test_a_csv_over_the_file_size_limit_is_refused_naming_the_limit(tmp_path, monkeypatch):
    src = tmp_path / "big.csv"
    src.write_text("event,date,players,rounds,player,place\n" + "A,2020-01-01,10,2,x,1\n" * 200)
    monkeypatch.setenv("XLRATING_MAX_FILE_BYTES", "1000")
    result = run("rank", "dippouch", src)
    assert result.exit_code == 2 and "max_file_bytes" in result.output


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "cp1252"])
def test_rank_reads_a_csv_in_every_encoding_validate_reads(tmp_path, encoding):
    """A table saved by a spreadsheet as UTF-8, UTF-16 or Windows-1252 ranks the same, names and
    all, as ingest and validate read it."""
    table = "event,date,players,rounds,player,place\nA,2020-01-01,10,2,Zoë,1\nA,2020-01-01,10,2,Øyvind,2\n"
    src = tmp_path / f"{encoding}.csv"
    src.write_bytes(table.encode(encoding))
    out = tmp_path / "board.json"
    result = run("rank", "dippouch", src, "-o", out)
    assert result.exit_code == 0, result.output
    assert [line["player"] for line in json.loads(out.read_text(encoding="utf-8"))] == ["Zoë", "Øyvind"]


def test_a_csv_that_is_binary_is_refused_naming_the_file(tmp_path):
    src = tmp_path / "binary.csv"
    src.write_bytes(b"event,date\x00,players\n")
    result = run("rank", "dippouch", src)
    assert result.exit_code == 2 and "not a text file" in result.output and str(src) in result.output


def test_ranking_workbook_is_readable_dates_are_dates_and_columns_fit_their_content(tmp_path):
    out = tmp_path / "board.xlsx"
    run("rank", "mers", EXAMPLES / "mers_results.csv", "--ruleset", "MCR", "--as-of", "2025-06-30", "-o", out)
    breakdown = openpyxl.load_workbook(out)["Breakdown"]
    assert breakdown["C4"].is_date
    longest = max(len(str(c.value or "")) for c in breakdown["B"][3:])
    assert breakdown.column_dimensions["B"].width >= longest
    assert breakdown.print_title_rows == "$3:$3" and breakdown.page_setup.fitToWidth == 1


def test_rank_from_a_file_that_is_not_a_store_is_a_clean_error(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not a database" * 100)
    result = run("rank", "mers", "--db", bad, "--ruleset", "MCR")
    assert result.exit_code == 2 and "bad.db" in result.output and "Traceback" not in result.output


def test_rank_never_writes_into_a_sqlite_file_it_reads(tmp_path):
    import hashlib
    import sqlite3

    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    before = hashlib.sha256(other.read_bytes()).hexdigest()
    result = run("rank", "mers", "--db", other, "--ruleset", "MCR")
    assert result.exit_code == 2 and "not an xlrating store" in result.output
    assert hashlib.sha256(other.read_bytes()).hexdigest() == before


def test_rank_from_the_store_shows_each_players_name(tmp_path):
    from xlrating.sheets.examples.submissions import write_examples

    db = tmp_path / "store.db"
    for file in write_examples(tmp_path / "examples"):
        run("ingest", "--db", db, file)
    out = tmp_path / "board.json"
    assert run("rank", "mers", "--db", db, "--ruleset", "MCR", "--as-of", "2025-12-31", "-o", out).exit_code == 0
    board = json.loads(out.read_text())
    assert list(board[0]) == ["rank", "player", "name", "total", "count"] and board[0]["name"]


def test_an_empty_leaderboard_csv_still_names_its_value_column(tmp_path):
    src = tmp_path / "one.csv"
    src.write_text("tournament,date,players,weight,player,place\nT,2024-01-01,10,1,04060059,1\n")
    out = tmp_path / "board.csv"
    assert run("rank", "mers", src, "--as-of", "2024-06-01", "-o", out).exit_code == 0
    assert out.read_text().splitlines() == ["rank,player,total,count"]


def test_a_bad_cell_below_a_title_is_reported_at_its_own_row(tmp_path):
    src = tmp_path / "titled.csv"
    src.write_text("Spring results\n\nevent,date,players,rounds,player,place\nA,2020-01-01,10,2,x,1\nA,2020-13-01,10,2,y,2\n")
    result = run("rank", "dippouch", src)
    assert result.exit_code == 2 and "row 5, column 'date'" in result.output


def test_a_table_without_a_required_column_names_it_at_the_first_row(tmp_path):
    src = tmp_path / "short.csv"
    src.write_text("event,date,players,player,place\nA,2020-01-01,10,x,1\n")
    result = run("rank", "dippouch", src)
    assert result.exit_code == 2 and "row 1, column 'rounds'" in result.output


def test_a_semicolon_csv_with_a_title_line_is_read(tmp_path):
    src = tmp_path / "titled.csv"
    src.write_text("Spring results, 2020\nevent;date;players;rounds;player;place\nA;2020-01-01;10;2;x;1\n")
    assert run("rank", "dippouch", src).exit_code == 0


def test_a_missing_column_below_a_title_is_reported_at_the_header_row(tmp_path):
    src = tmp_path / "t3.csv"
    src.write_text("title\nevent,date,players\nA,2020-01-01,10\n")
    result = run("rank", "dippouch", src)
    assert result.exit_code == 2 and "row 2, column 'rounds'" in result.output


def test_sheet_with_a_csv_input_is_refused(tmp_path):
    result = run("rank", "dippouch", EXAMPLES / "dippouch_results.csv", "--sheet", "Results")
    assert result.exit_code == 2 and "--sheet" in result.output


def test_rank_on_an_empty_database_says_so(tmp_path):
    import sqlite3

    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    result = run("rank", "mers", "--db", empty, "--ruleset", "MCR")
    assert result.exit_code == 2 and "ingest" in result.output


def _shown(*args, columns):
    result = CliRunner().invoke(main, list(map(str, args)), env={"COLUMNS": str(columns)}, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


@pytest.mark.parametrize("columns", [80, 40])
def test_the_title_and_settings_are_lines_of_their_own_that_fit_the_terminal(columns):
    lines = _shown("rank", "mers", EXAMPLES / "mers_results.csv", "--ruleset", "MCR", "--as-of", "2025-06-30",
                   "--rules", "2018", columns=columns)
    assert lines[0] == "MERS leaderboard"  # never split over lines, whatever the table's width
    assert all(len(line) <= columns for line in lines)
    settings = " ".join(lines[1:lines.index(next(line for line in lines if line.startswith("┏")))])
    assert " ".join(settings.split()) == "as of 2025-06-30, rules 2018, ruleset MCR"
    assert any("685.67" in line for line in lines)  # numbers are never cut


def test_dci_shows_one_table_per_category_each_ranked_from_1():
    lines = _shown("rank", "dci", EXAMPLES / "dci_matches.csv", columns=80)
    assert "10 ratings of 6 players in 2 categories" in lines
    constructed, limited = lines.index("Category Constructed: 6 players"), lines.index("Category Limited: 4 players")
    assert constructed < limited
    for start, end, players in ((constructed, limited, 6), (limited, len(lines), 4)):
        table = [line.split("│") for line in lines[start:end] if line.startswith("│")]
        assert len(table) == players and table[0][1].strip() == "1"
        assert all("Constructed" not in line and "Limited" not in line for line in lines[start + 1:end])


def test_writing_dci_ratings_counts_people_not_ratings(tmp_path):
    result = run("rank", "dci", EXAMPLES / "dci_matches.csv", "-o", tmp_path / "board.csv")
    assert f"wrote 10 ratings of 6 players in 2 categories to {tmp_path / 'board.csv'}" in result.output


def test_an_empty_mers_leaderboard_on_the_terminal_says_why_without_a_table(tmp_path):
    src = tmp_path / "one.csv"
    src.write_text("tournament,date,players,weight,player,place\nT,2024-01-01,10,1,04060059,1\n")
    lines = _shown("rank", "mers", src, "--as-of", "2024-06-01", columns=300)
    # no --rules: the era in force on the ranking date (2018)
    assert lines == ["MERS leaderboard", "as of 2024-06-01, rules 2018",
                     ("No player has enough results for a MERS ranking as of 2024-06-01: a player is ranked with "
                      "at least 2 results that count on that day, and under the 2018 rules a result counts from the "
                      "day it is played until it is 2 years old.")]


def test_an_empty_leaderboard_file_comes_with_the_reason_instead_of_a_count(tmp_path):
    src = tmp_path / "one.csv"
    src.write_text("tournament,date,players,weight,player,place\nT,2020-01-01,10,1,04060059,1\n"
                   "U,2020-02-01,10,1,04060059,2\n")
    out = tmp_path / "board.json"
    result = run("rank", "mers", src, "--as-of", "2023-06-01", "--rules", "2018", "-o", out)
    assert result.exit_code == 0 and json.loads(out.read_text()) == []
    message = " ".join(result.output.split())
    assert f"wrote no players to {out} (the header only)" in message and "0 players" not in message
    assert "until it is 2 years old" in message  # the reason of the 2018 rules


def test_a_dci_category_that_is_not_there_is_named_with_those_that_are():
    lines = _shown("rank", "dci", EXAMPLES / "dci_matches.csv", "--category", "Sealed", columns=200)
    assert lines[-1] == "No player has a DCI rating in category 'Sealed': the matches are in 'Constructed', 'Limited'."
