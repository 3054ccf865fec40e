"""CSV submissions in the encodings spreadsheets save them: UTF-8 (with or without BOM), UTF-16 with
a BOM, and Windows-1252 (the plain "CSV" of Excel and LibreOffice in Western Europe)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from xlrating.gate.safe_open import UnreadableWorkbook
from xlrating.sheets.validate.ema.sheet import validate_file

LYON = Path(__file__).parents[2] / "examples" / "01_lyon_mcr_open_2024.xlsx"


def _csv_text() -> str:
    from xlrating.sheets.read.xlsx import read_workbook

    [grid] = read_workbook(LYON)[:1]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in grid.rows:
        writer.writerow(["" if v is None else (v.isoformat()[:10] if hasattr(v, "isoformat") else v) for v in row])
    return out.getvalue()


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "cp1252"])
def test_the_same_sheet_reads_the_same_in_every_encoding_a_spreadsheet_saves(tmp_path: Path, encoding: str) -> None:
    text = _csv_text()
    assert "Lefèvre" in text  # accented names: what a wrong encoding would garble
    reference = tmp_path / "utf8.csv"
    reference.write_bytes(text.encode("utf-8"))
    other = tmp_path / f"{encoding}.csv"
    other.write_bytes(text.encode(encoding))
    expected, got = validate_file(reference), validate_file(other)
    assert got.valid and [f.as_dict() for f in got.findings] == [f.as_dict() for f in expected.findings]
    assert [(p.last_name, p.first_name) for p in got.submission.players] == \
        [(p.last_name, p.first_name) for p in expected.submission.players]


@pytest.mark.parametrize(("content", "reason"), [
    (b"Tournament name,Caf\x81\r\n", "not a text file"),  # 0x81 is no character in Windows-1252
    (b"Tournament name,Caf\xe9\x01\x02\x03\r\n", "not a text file"),  # control characters: binary
])
def test_bytes_that_are_no_text_in_any_of_them_are_refused(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "results.csv"
    path.write_bytes(content * 10)
    with pytest.raises(UnreadableWorkbook, match=reason):
        validate_file(path)
