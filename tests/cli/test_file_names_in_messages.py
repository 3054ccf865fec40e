"""Every command names a file in its messages as the user typed it: never its base name alone,
never a rewritten path (``./sub/bad.csv`` stays ``./sub/bad.csv``)."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from cli_sheets import ROWS, save_sheet
from click.testing import CliRunner

from xlrating.cli import main

TYPED = "./sub//{}"  # a path as a user may type it: pathlib would print it as sub/{}
BLOCK = [("Tournament name", "Named Open"), ("Ruleset", "MCR"), ("Start date", dt.date(2024, 9, 7)),
         ("End date", dt.date(2024, 9, 8)), ("Days", 2), ("Players", 3), ("Countries", 2), ("MERS weight", 2)]


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "bad.csv").write_text("event,date,players,rounds,player,place\nA,2020-13-01,10,2,x,1\n")
    (tmp_path / "sub" / "junk.xlsx").write_text("not a workbook")
    (tmp_path / "sub" / "players.csv").write_text("ema_id;name\n")
    bad = [list(r) for r in ROWS]
    bad[1][0] = 3
    save_sheet(tmp_path / "sub" / "sheet.xlsx", BLOCK, bad)


CASES = [
    (["rank", "dippouch", "bad.csv"], "bad.csv"),
    (["rank", "dippouch", "missing.csv"], "missing.csv"),
    (["rank", "dippouch", "junk.xlsx"], "junk.xlsx"),
    (["rank", "mers", "--db", "none.db", "--ruleset", "MCR"], "none.db"),
    (["validate", "sheet.xlsx"], "sheet.xlsx"),
    (["validate", "junk.xlsx"], "junk.xlsx"),
    (["validate", "--players", "players.csv", "sheet.xlsx"], "players.csv"),
    (["validate", "--annotate", "out", "sheet.xlsx", "junk.xlsx"], "sheet.xlsx"),
    (["ingest", "--db", "x.db", "sheet.xlsx"], "sheet.xlsx"),
    (["ingest", "--db", "x.db", "junk.xlsx"], "junk.xlsx"),
]


@pytest.mark.parametrize(("args", "name"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_a_file_is_named_as_typed(files, args, name):
    typed = TYPED.format(name)
    result = CliRunner().invoke(main, [typed if a == name else a for a in args])
    assert result.exit_code != 0 and typed in result.output, result.output
    named = re.findall(r"[\w./-]*" + re.escape(name), result.output)
    assert set(named) == {typed}, result.output  # every mention is the typed path


def test_the_json_report_names_each_file_as_typed(files):
    typed = TYPED.format("sheet.xlsx")
    [report] = json.loads(CliRunner().invoke(main, ["validate", "--format", "json", typed]).stdout)
    assert report["file"] == typed and {f["file"] for f in report["findings"]} == {typed}
