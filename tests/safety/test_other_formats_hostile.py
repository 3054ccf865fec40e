"""Hostile .xls, .ods and .csv submissions: each is exit 2 with one line naming what it is, before
calamine (or the CSV reader) builds anything beyond the limits."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from package_bytes import ODS_MIMETYPE, RawMember, ods, ole2, raw_zip, zeros_member
from package_bytes import ods_table as table

from xlrating.cli import main


def refused(path: Path, command: str = "validate") -> str:
    args = [command, str(path)] + (["--db", str(path.with_suffix(".db"))] if command == "ingest" else [])
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return result.output.lower()


@pytest.mark.parametrize("command", ["validate", "ingest"])
def test_random_bytes_named_xls_are_refused_naming_what_they_are(command: str, tmp_path: Path) -> None:
    path = tmp_path / "results.xls"
    path.write_bytes(bytes(range(7, 256)) * 40)
    assert "not an old excel 97-2003 .xls workbook: unrecognised content" in refused(path, command)


def test_a_damaged_xls_is_refused_as_a_damaged_xls(tmp_path: Path) -> None:
    path = tmp_path / "results.xls"
    path.write_bytes(ole2({"Workbook": b"\x09\x08" + bytes(200)}))
    assert "damaged excel 97-2003 .xls workbook" in refused(path)


def test_an_encrypted_ole2_named_xls_is_refused_as_encrypted(tmp_path: Path) -> None:
    path = tmp_path / "results.xls"
    path.write_bytes(ole2({"EncryptionInfo": b"\x04\x00\x04\x00" + bytes(60), "EncryptedPackage": bytes(5000)}))
    assert "encrypted (password-protected)" in refused(path)


def test_an_xlsx_named_xls_is_refused_as_disguised(tmp_path: Path) -> None:
    from package_bytes import results_workbook

    path = tmp_path / "results.xls"
    path.write_bytes(results_workbook())
    assert "an excel workbook (.xlsx) named .xls" in refused(path)


def test_a_truncated_ods_is_refused(tmp_path: Path) -> None:
    data = ods(table("<table:table-row><table:table-cell/></table:table-row>"))
    path = tmp_path / "results.ods"
    path.write_bytes(data[: len(data) // 2])
    assert "corrupt or truncated opendocument spreadsheet (.ods)" in refused(path)


@pytest.mark.parametrize("command", ["validate", "ingest"])
def test_an_ods_zip_bomb_is_refused_before_decompression(command: str, tmp_path: Path) -> None:
    mimetype = RawMember("mimetype", ODS_MIMETYPE, __import__("zlib").crc32(ODS_MIMETYPE), len(ODS_MIMETYPE), 0)
    path = tmp_path / "bomb.ods"
    path.write_bytes(raw_zip([mimetype, zeros_member("content.xml", 60 * 1024 * 1024)]))
    assert "max_ratio" in refused(path, command)


def test_an_ods_with_a_dtd_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "laughs.ods"
    path.write_bytes(ods('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]>' + table("")))
    assert "declares a dtd" in refused(path)


def test_repeated_ods_cells_count_for_every_cell_they_fill(tmp_path: Path) -> None:
    row = ('<table:table-row table:number-rows-repeated="5000"><table:table-cell '
           'table:number-columns-repeated="900" office:value-type="float" office:value="1"/></table:table-row>')
    path = tmp_path / "repeated.ods"
    path.write_bytes(ods(table(row)))
    assert "max_cells" in refused(path)


def test_an_ods_cell_far_down_is_refused_by_its_row(tmp_path: Path) -> None:
    rows = ('<table:table-row table:number-rows-repeated="1048000"><table:table-cell/></table:table-row>'
            '<table:table-row><table:table-cell office:value-type="string"><text:p xmlns:text="t">x</text:p>'
            '</table:table-cell></table:table-row>')
    path = tmp_path / "far.ods"
    path.write_bytes(ods(table(rows)))
    assert "max_rows" in refused(path)


def test_a_csv_over_the_column_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "wide.csv"
    path.write_text(",".join(["1"] * 1200) + "\n", encoding="utf-8")
    assert "max_columns" in refused(path)


def test_a_binary_file_named_csv_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "results.csv"
    path.write_bytes(bytes(range(256)) * 10)
    assert "not a text file (csv or similar)" in refused(path)


@pytest.mark.libreoffice
@pytest.mark.skipif(__import__("shutil").which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_an_xls_spanning_the_whole_grid_is_refused_without_costing_this_process(tmp_path: Path) -> None:
    # Two cells at opposite corners of BIFF8's grid: calamine holds the sheet densely (about half a
    # gigabyte); it reads .xls files in a capped child process, so the command stays small.
    import json
    import subprocess
    import sys

    import openpyxl

    from xlrating.engine.libreoffice import make_profile

    book = openpyxl.Workbook()
    book.active["A1"] = "tournament"
    book.active["IV65536"] = 1
    book.save(tmp_path / "corners.xlsx")
    profile = make_profile(tmp_path / "profile")
    subprocess.run(["soffice", f"-env:UserInstallation={profile.resolve().as_uri()}", "--headless", "--norestore",
                    "--convert-to", "xls", "--outdir", str(tmp_path), str(tmp_path / "corners.xlsx")],
                   capture_output=True, timeout=120, check=True)
    # The peak is VmHWM, this process's own: ru_maxrss would carry the high-water mark of the pytest
    # worker that forked it (Linux keeps it across exec).
    script = ("import json, re, resource, sys\nfrom pathlib import Path\nfrom click.testing import CliRunner\n"
              "from xlrating.cli import main\n"
              "r = CliRunner().invoke(main, ['validate', sys.argv[1]])\n"
              "hwm = int(re.search(r'VmHWM:\\s*(\\d+)', Path('/proc/self/status').read_text()).group(1))\n"
              "print(json.dumps([r.exit_code, r.output, hwm, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "corners.xls")], capture_output=True,
                          text=True, timeout=120, check=True)
    status, output, peak_kb, reader_kb = json.loads(done.stdout)
    assert status == 2 and "corners.xls" in output and ("768 mb of memory" in output.lower() or "65,536" in output)
    assert peak_kb < 500 * 1024  # read in this process, the sheet alone would take about a gigabyte
    assert reader_kb < 768 * 1024  # the reader's child stopped at its cap
