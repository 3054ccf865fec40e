"""The player registry is read like any CSV table: ';' or ',' separated, UTF-8 with or without a
byte-order mark, headers matched loosely ("EMA ID", "Last name"); unusable files are refused with
the file and the reason."""

from __future__ import annotations

import os

import pytest

from xlrating.sheets.validate.registry import RegistryError, load_registry

AUBERT = {"04858660": "Aubert Ines"}


def registry_from(tmp_path, content: str | bytes):
    path = tmp_path / "players.csv"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return load_registry(path)


def test_a_semicolon_separated_registry_is_read(tmp_path):
    assert registry_from(tmp_path, "ema_id;name\n04858660;Aubert Ines\n").names == AUBERT


def test_headers_as_people_write_them_are_recognised(tmp_path):
    assert registry_from(tmp_path, "EMA ID,Name\n04858660,Aubert Ines\n").names == AUBERT
    assert registry_from(tmp_path, "EMA number;Last name;First name\n04858660;Aubert;Ines\n").names == AUBERT
    assert registry_from(tmp_path, "id,last-name\n04858660,Aubert Ines\n").names == AUBERT


def test_a_byte_order_mark_before_the_header_is_ignored(tmp_path):
    assert registry_from(tmp_path, "\ufeffEMA ID;Name\r\n04858660;Aubert Ines\r\n".encode()).names == AUBERT


def test_a_registry_without_an_id_column_names_what_it_found(tmp_path):
    with pytest.raises(RegistryError, match=r"players\.csv: expected columns ema_id .* got 'Player No', 'Name'"):
        registry_from(tmp_path, "Player No,Name\n04858660,Aubert Ines\n")


def test_a_registry_with_a_header_but_no_players_is_refused(tmp_path):
    with pytest.raises(RegistryError, match=r"players\.csv: the player registry lists no players"):
        registry_from(tmp_path, "EMA ID;Name\n\n")


def test_an_id_that_is_not_eight_digits_names_its_line(tmp_path):
    with pytest.raises(RegistryError, match=r"players\.csv, line 3: ema_id '4858660' is not 8 digits"):
        registry_from(tmp_path, "EMA ID;Name\n04858660;Aubert Ines\n4858660;Someone\n")


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "cp1252"])
def test_a_registry_reads_in_the_encodings_a_results_sheet_reads(tmp_path, encoding):
    """Saved by Excel as plain CSV on a Western European Windows (Windows-1252) or as UTF-16, a
    registry reads as the results sheets and tables do."""
    registry = registry_from(tmp_path, "EMA ID;Name\n04858660;M\xfcller Ines\n".encode(encoding))
    assert list(registry.names) == ["04858660"] and "M\xfcller" in str(registry.names["04858660"])


def test_a_registry_that_is_binary_is_refused(tmp_path):
    with pytest.raises(RegistryError, match="cannot read the player registry .*not a text file"):
        registry_from(tmp_path, b"EMA ID;Name\n04858660;\x00\x01\n")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_refused_instead_of_blocking(tmp_path):
    pipe = tmp_path / "players.csv"
    os.mkfifo(pipe)
    with pytest.raises(RegistryError, match="not a regular file"):
        load_registry(pipe)
