"""Names stay one and read as written: a CSV that is UTF-8 but for one byte is not read whole as
Windows-1252 (every accented name garbled, silently); the byte is a finding at its row and column.
A name typed composed (é as one character, as Windows does) and decomposed (e and an accent, as a
Mac may) is one name, one player."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

from click.testing import CliRunner

from xlrating.cli import main

HEADER = "event,date,players,rounds,player,place\n"


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_one_byte_that_is_not_utf8_is_a_finding_at_its_cell_and_the_rest_reads_as_written(tmp_path: Path) -> None:
    text = HEADER + "Cup,2024-05-01,3,1,Inès Aubert,1\nCup,2024-05-01,3,1,DORA,2\nCup,2024-05-01,3,1,Zoé,3\n"
    data = text.encode("utf-8").replace(b"DORA", "Dóra".encode("cp1252"))  # one name typed elsewhere
    table = _write(tmp_path, "mixed.csv", data)
    result = CliRunner().invoke(main, ["validate", "--format", "json", str(table)])
    [report] = json.loads(result.stdout)
    assert result.exit_code == 1
    assert [(f["code"], f["cell"]) for f in report["findings"]] == [("TEXT_NOT_UTF8", "E3")]
    assert "D\ufffdra" in report["findings"][0]["message"]
    refused = CliRunner().invoke(main, ["rank", "dippouch", str(table)])
    assert refused.exit_code == 2 and "line 3, column 21: bytes that are not UTF-8" in refused.stderr


def test_a_file_all_in_windows_1252_still_reads(tmp_path: Path) -> None:
    text = HEADER + "Cup,2024-05-01,2,1,Inès Aubert,1\nCup,2024-05-01,2,1,Dóra Maar,2\n"
    table = _write(tmp_path, "old.csv", text.encode("cp1252"))
    result = CliRunner().invoke(main, ["rank", "dippouch", str(table), "-o", str(tmp_path / "b.json")])
    assert result.exit_code == 0
    assert {line["player"] for line in json.loads((tmp_path / "b.json").read_text())} == {"Inès Aubert", "Dóra Maar"}


def test_a_name_composed_and_decomposed_is_one_player(tmp_path: Path) -> None:
    composed, decomposed = "Dóra Maar", unicodedata.normalize("NFD", "Dóra Maar")
    assert composed != decomposed
    text = (HEADER + f"Cup,2024-05-01,2,1,{composed},1\nCup,2024-05-01,2,1,Ada,2\n"
            f"Open,2024-06-01,2,1,{decomposed},2\nOpen,2024-06-01,2,1,Ada,1\n")
    table = _write(tmp_path, "names.csv", text.encode("utf-8"))
    assert CliRunner().invoke(main, ["validate", str(table)]).exit_code == 0
    CliRunner().invoke(main, ["rank", "dippouch", str(table), "-o", str(tmp_path / "b.json")])
    board = json.loads((tmp_path / "b.json").read_text())
    assert sorted(line["player"] for line in board) == ["Ada", composed]
    db = str(tmp_path / "store.db")
    assert CliRunner().invoke(main, ["ingest", "--db", db, str(table)]).exit_code == 0
    CliRunner().invoke(main, ["rank", "dippouch", "--db", db, "-o", str(tmp_path / "s.json")])
    assert {line["player"]: line["count"] for line in json.loads((tmp_path / "s.json").read_text())} \
        == {"Ada": 2, composed: 2}
