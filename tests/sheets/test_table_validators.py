"""The Dip Pouch results and DCI matches validators: every problem one finding at its cell (with
its column's header), all in one pass; a valid table gives exactly the records ``rank`` reads from
the file; the system is judged by the columns; .xlsx, .xls and .ods copies (saved by LibreOffice)
give the same findings and the same events as the .csv."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import openpyxl
import pytest

from xlrating.core import dci, dippouch
from xlrating.engine.libreoffice import convert, make_profile, soffice
from xlrating.sheets.read.submitted import open_submission
from xlrating.sheets.read.table_files import read_table_file
from xlrating.systems import SystemUnclear, validate_submission
from xlrating.systems.base import Validation as TableValidation

TABLES = Path(__file__).parents[2] / "examples" / "tables"

FAULTY_DIPPOUCH = """event,date,players,rounds,player,place,world_championship
Spring Cup,2023-04-16,21,3,Ada Lovelace,1,FALSE
Spring Cup,2023-04-16,22,3,Blaise Pascal,25,FALSE
Spring Cup,2023-04-16,21,3,Ada Lovelace,3,maybe
spring cup,2023-04-16,21,0,Dora Maar,3,FALSE
Summer Open,2023-02-30,14,1,Ada Lovelace,6,FALSE
Summer Open,2023-07-02,2,1,Carl Gauss,1,FALSE
Summer Open,2023-07-02,2,1,Emmy Noether,2,FALSE
Summer Open,2023-07-02,2,1,Grace Hopper,,FALSE
Summer Open,2023-07-02,2,1,Fritz Haber,2,FALSE
"""

FAULTY_DCI = """event,date,round,player,opponent,result,tier,category
FNM,2009-03-06,1,Jon,Kai,W,casual,Constructed
FNM,2009-03-06,1,Kai,Jon,W,casual,Constructed
FNM,2009-03-06,1,Luis,Luis,D,casual,Constructed
FNM,2009-03-06,2,Jon,Kai,X,casual,Constructed
FNM,2009-03-06,2,Jon,Luis,L,casual,Constructed
FNM,2009-03-06,2,Luis,Olivier,D,casual,Constructed
FNM,2009-13-06,3,Kai,Luis,L,casual,Constructed
GP,2009-04-18,1,Jon,Kai,W,grand pricks,Constructed
GP,2009-04-18,2,Jon,Kai,D,grand prix,Constructed
GP,2009-04-18,2,Kai,Jon,D,pro tour,Constructed
GP,2009-04-18,3,Jon,Kai,D,grand prix,Constructed
GP,2009-04-18,3,Jon,Kai,D,grand prix,Constructed
"""

# the nationalities a DCI matches table may give: a code or a name, one per player within an event
FAULTY_COUNTRIES = """event,date,round,player,opponent,result,player_country,opponent_country
GP,2009-04-18,1,Jon,Kai,W,USA,GER
GP,2009-04-18,1,Luis,Olivier,D,U.S.A.,FRA
GP,2009-04-18,2,Kai,Luis,L,FRA,USA
GP,2009-04-18,2,Jon,Olivier,W,usa,France
GP,2009-04-18,3,Jon,Luis,W,42,
PT,2009-05-01,1,Jon,Kai,W,BRA,GER
PT,2009-05-01,1,Paulo,BYE,W,BRA,BRA
"""


def _validate(path: Path, system: str | None = None) -> TableValidation:
    validation = validate_submission(path, open_submission(path), system=system)
    assert isinstance(validation, TableValidation)
    return validation


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _found(validation: TableValidation) -> list[tuple[str, str]]:
    return [(f.cell, f.code) for f in validation.findings]


def test_a_faulty_dippouch_table_gets_every_finding_at_its_cell(tmp_path: Path) -> None:
    validation = _validate(_write(tmp_path, "results.csv", FAULTY_DIPPOUCH))
    assert not validation.valid and validation.submission.events == []
    assert _found(validation) == [
        ("C3", "EVENT_VALUE_DIFFERS"),  # 22 players where the event's first row says 21
        ("F3", "EVENT_PLACE_OUT_OF_RANGE"),  # place 25 of 21
        ("E4", "EVENT_PLAYER_TWICE"),  # Ada Lovelace again in Spring Cup
        ("G4", "TABLE_FLAG_INVALID"),  # world_championship "maybe"
        ("A5", "SPELLING_VARIANT"),  # "spring cup" beside "Spring Cup"
        ("D5", "TABLE_WHOLE_INVALID"),  # 0 rounds
        ("B6", "TABLE_DATE_INVALID"),  # 30 February
        ("C7", "EVENT_MORE_ROWS_THAN_PLAYERS"),  # 4 rows, 2 players
        ("F9", "TABLE_VALUE_MISSING"),  # no place
    ]
    messages = {f.cell: f.message for f in validation.findings}
    assert messages["F3"] == "place 25 is outside 1 to 21, the players of event 'Spring Cup'"
    assert messages["B6"].startswith("date '2023-02-30' is not a real date")
    assert all(f.sheet == "results" for f in validation.findings)


def test_a_faulty_dci_table_gets_every_finding_and_a_disagreeing_match_at_both_rows(tmp_path: Path) -> None:
    validation = _validate(_write(tmp_path, "matches.csv", FAULTY_DCI))
    assert _found(validation) == [
        ("F2", "MATCH_SIDES_DISAGREE"), ("F3", "MATCH_SIDES_DISAGREE"),  # both won the same match
        ("E4", "MATCH_AGAINST_SELF"),
        ("F5", "RESULT_INVALID"),
        ("D7", "PLAYER_TWICE_IN_ROUND"),  # Luis already plays Jon in round 2 (E6)
        ("B8", "TABLE_DATE_INVALID"),
        ("G9", "TIER_UNKNOWN"),
        ("G10", "MATCH_K_DISAGREE"), ("G11", "MATCH_K_DISAGREE"),  # grand prix (40) vs pro tour (48)
        ("D13", "MATCH_LISTED_TWICE"),  # the same side of the same match again
    ]
    messages = {f.cell: f.message for f in validation.findings}
    assert "disagrees with 'W' at F3" in messages["F2"] and "disagrees with 'W' at F2" in messages["F3"]
    assert "'pro tour' (K 48)" in messages["G9"]
    assert "at E6" in messages["D7"]


def test_a_dci_tables_countries_are_countries_and_one_per_player_within_an_event(tmp_path: Path) -> None:
    validation = _validate(_write(tmp_path, "matches.csv", FAULTY_COUNTRIES))
    assert [(f.cell, f.code, f.severity) for f in validation.findings] == [
        ("G3", "TABLE_COUNTRY_INVALID", "error"),  # U.S.A.: not letters only
        ("G4", "PLAYER_COUNTRY_DIFFERS", "error"),  # Kai is GER at H2, in the same event
        ("G6", "TABLE_COUNTRY_INVALID", "error"),  # a number
        ("G7", "PLAYER_COUNTRY_CHANGES", "warning"),  # Jon was USA in the earlier event
    ]  # usa and France (row 5) are USA and FRA as rows 2 and 3 spell them; a bye has no opponent
    messages = {f.cell: f.message for f in validation.findings}
    assert messages["G3"].startswith("player_country 'U.S.A.' is not a country; expected a country's code")
    assert messages["G4"] == ("player_country 'FRA' for Kai differs from 'GER' at H2 in event 'GP'; expected one "
                              "country for a player within an event")
    assert "differs from 'USA' at G2, in an earlier event ('GP' on 2009-04-18)" in messages["G7"]
    assert "latest event" in messages["G7"]


def test_a_player_who_changes_country_between_events_is_valid_and_each_event_keeps_its_own(tmp_path: Path) -> None:
    lines = [line for line in FAULTY_COUNTRIES.splitlines() if "U.S.A." not in line and ",42," not in line
             and "Kai,Luis" not in line]
    validation = _validate(_write(tmp_path, "matches.csv", "\n".join(lines) + "\n"))
    assert validation.valid and [f.code for f in validation.findings] == ["PLAYER_COUNTRY_CHANGES"]
    gp, pt = validation.submission.events
    assert gp.player_countries() == {"Jon": "USA", "Kai": "GER", "Olivier": "France"}  # type: ignore[union-attr]
    assert pt.player_countries() == {"Jon": "BRA", "Kai": "GER", "Paulo": "BRA"}  # type: ignore[union-attr]


def test_a_dippouch_nationality_must_be_a_country(tmp_path: Path) -> None:
    text = ("event,date,players,rounds,player,place,nationality\n"
            "Cup,2023-04-16,10,2,Ada Lovelace,1,GBR\nCup,2023-04-16,10,2,Inès Aubert,2,Côte d'Ivoire\n"
            "Cup,2023-04-16,10,2,Blaise Pascal,3,F.R.A.\n")
    validation = _validate(_write(tmp_path, "results.csv", text))
    assert [(f.cell, f.code) for f in validation.findings] == [("G4", "TABLE_COUNTRY_INVALID")]
    assert validation.findings[0].message.startswith("nationality 'F.R.A.' is not a country")


@pytest.mark.parametrize("name, system", [("dippouch_results.csv", "dippouch"), ("dci_matches.csv", "dci")])
def test_a_valid_table_gives_the_records_rank_reads_from_the_file(name: str, system: str) -> None:
    validation = _validate(TABLES / name)
    assert validation.valid and validation.findings == []
    source = read_table_file(TABLES / name)
    if system == "dippouch":
        stored = [r for e in validation.submission.events for r in e.results]  # type: ignore[union-attr]
        read = dippouch.results_from_table(source.rows, header_row=source.header_row)
        assert [e.label() for e in validation.submission.events] == [
            "Spring Cup (2023-04-16)", "Summer Open (2023-07-02)", "World Diplomacy Championship (2023-09-10)",
            "Winter Masters (2024-01-21)"]
    else:
        stored = [m for e in validation.submission.events for m in e.matches]  # type: ignore[union-attr]
        read = dci.matches_from_table(source.rows, header_row=source.header_row)
    assert sorted(stored, key=lambda r: r.row) == read
    assert [r.row for r in sorted(stored, key=lambda r: r.row)] == [r.row for r in read]


def test_dci_events_are_one_name_on_consecutive_days_with_continuing_rounds(tmp_path: Path) -> None:
    rows = ["event,date,round,player,opponent,result",
            "GP,2009-04-18,1,A,B,W", "GP,2009-04-18,2,A,C,W", "GP,2009-04-19,3,A,B,L",  # one two-day event
            "FNM,2009-03-06,1,A,B,W", "FNM,2009-03-13,1,A,B,W",  # the same name a week later: another
            "Daily,2009-05-01,1,A,B,W", "Daily,2009-05-02,1,A,B,D"]  # next day from round 1 again: another
    validation = _validate(_write(tmp_path, "m.csv", "\n".join(rows) + "\n"))
    assert [e.label() for e in validation.submission.events] == [
        "GP (2009-04-18 to 2009-04-19)", "FNM (2009-03-06)", "FNM (2009-03-13)", "Daily (2009-05-01)",
        "Daily (2009-05-02)"]


def test_the_system_is_judged_by_the_columns_and_a_doubt_is_refused(tmp_path: Path) -> None:
    assert _validate(TABLES / "dippouch_results.csv").submission.system == "dippouch"
    assert _validate(TABLES / "dci_matches.csv").submission.system == "dci"
    ema = Path(__file__).parents[2] / "examples" / "01_lyon_mcr_open_2024.xlsx"
    assert validate_submission(ema, open_submission(ema)).system == "mers"
    both = _write(tmp_path, "both.csv", "event,date,players,rounds,player,place,round,opponent,result\n"
                                        "X,2024-01-01,2,1,A,1,1,B,W\n")
    with pytest.raises(SystemUnclear, match="fit both a Dip Pouch results table and a DCI matches table"):
        validate_submission(both, open_submission(both))
    assert _validate(both, "dippouch").valid and _validate(both, "dci").valid


def test_a_table_missing_one_column_is_that_table_with_the_column_named(tmp_path: Path) -> None:
    path = _write(tmp_path, "r.csv", "event,date,players,player,place\nX,2024-01-01,2,A,1\n")
    validation = _validate(path)
    assert validation.submission.system == "dippouch"
    assert _found(validation) == [("A1", "TABLE_COLUMN_MISSING")]
    assert "no 'rounds' column" in validation.findings[0].message


def _as_xlsx(csv_text: str, path: Path) -> Path:
    """The table as a workbook a person would type: dates as dates, numbers as numbers."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Results"
    for line in csv_text.strip().splitlines():
        cells: list[object] = []
        for text in line.split(","):
            value: object = text
            if text.isdigit():
                value = int(text)
            elif text in ("TRUE", "FALSE"):
                value = text == "TRUE"
            else:
                try:
                    value = dt.datetime.fromisoformat(text) if len(text) == 10 and text[4] == "-" else text
                except ValueError:
                    pass
            cells.append(value if value != "" else None)
        sheet.append(cells)
    book.save(path)
    return path


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Each table (valid and faulty) as .xlsx, and as .xls and .ods saved by LibreOffice."""
    folder = tmp_path_factory.mktemp("tables")
    texts = {"dippouch": (TABLES / "dippouch_results.csv").read_text(), "dci": (TABLES / "dci_matches.csv").read_text(),
             "faulty_dippouch": FAULTY_DIPPOUCH, "faulty_dci": FAULTY_DCI, "faulty_countries": FAULTY_COUNTRIES}
    for name, text in texts.items():
        _as_xlsx(text, folder / f"{name}.xlsx")
    if soffice() is not None:
        profile = make_profile(folder / "profile", recalculate=False)
        for name in texts:
            for fmt in ("xls", "ods"):
                convert(folder / f"{name}.xlsx", folder, profile, fmt)
        shutil.rmtree(folder / "profile", ignore_errors=True)
    return folder


@pytest.mark.parametrize("suffix", [".xlsx", ".xls", ".ods"])
def test_every_format_gives_the_findings_and_events_of_the_csv(workbooks: Path, tmp_path: Path, suffix: str) -> None:
    if not (workbooks / f"dci{suffix}").exists():
        pytest.skip("LibreOffice (soffice) is not installed")
    for name, text in (("faulty_dippouch", FAULTY_DIPPOUCH), ("faulty_dci", FAULTY_DCI),
                       ("faulty_countries", FAULTY_COUNTRIES)):
        expected = _found(_validate(_write(tmp_path, "Results.csv", text)))
        assert _found(_validate(workbooks / f"{name}{suffix}")) == expected, name
    for name, csv_name in (("dippouch", "dippouch_results.csv"), ("dci", "dci_matches.csv")):
        from_csv, from_book = _validate(TABLES / csv_name), _validate(workbooks / f"{name}{suffix}")
        assert from_book.valid
        assert [e.fingerprint for e in from_book.submission.events] == [
            e.fingerprint for e in from_csv.submission.events]


@pytest.mark.parametrize("suffix", [".xls", ".ods"])
def test_rank_reads_the_xls_and_ods_tables_ingest_takes(workbooks: Path, suffix: str) -> None:
    if not (workbooks / f"dci{suffix}").exists():
        pytest.skip("LibreOffice (soffice) is not installed")
    for name, csv_name, read in (("dippouch", "dippouch_results.csv", dippouch.results_from_table),
                                 ("dci", "dci_matches.csv", dci.matches_from_table)):
        book, text = read_table_file(workbooks / f"{name}{suffix}"), read_table_file(TABLES / csv_name)
        assert book.name == f"{workbooks / f'{name}{suffix}'} [Results]"  # the file as given, as for .xlsx
        assert read(book.rows, header_row=book.header_row) == read(text.rows, header_row=text.header_row)
