"""The output package's zip writer: entries zipfile reads back with their CRC-32 and sizes, local
headers that agree with the central directory, ZIP64 where a limit is passed, no file left after a
failure."""

from __future__ import annotations

import random
import struct
import zipfile
import zlib
from pathlib import Path

import openpyxl
import pytest

from xlrating.engine.write import zip_stream
from xlrating.engine.write.zip_stream import ZipWriter


def _info(name: str, **metadata: object) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=(2024, 2, 29, 13, 45, 58))
    for key, value in metadata.items():
        setattr(info, key, value)
    return info


def _write(path: Path, stream_pieces: list[bytes], expected_size: int = 0) -> dict[str, bytes]:
    """A package of whole entries around a streamed one; what each entry holds."""
    contents = {"[Content_Types].xml": b"<Types/>" * 50, "empty.bin": b"",
                "xl/worksheets/sheet1.xml": b"".join(stream_pieces), "d\u00e9j\u00e0/vu.xml": bytes(range(256)) * 9}
    with ZipWriter(path) as out:
        out.write(_info("[Content_Types].xml", comment=b"kept", external_attr=0o644 << 16),
                  contents["[Content_Types].xml"])
        out.write(_info("empty.bin"), b"")
        stream = out.stream(_info("xl/worksheets/sheet1.xml"), expected_size)
        for piece in stream_pieces:
            stream.write(piece)
        stream.close()
        out.write(_info("d\u00e9j\u00e0/vu.xml"), contents["d\u00e9j\u00e0/vu.xml"])
    return contents


def _local_headers(path: Path) -> dict[str, tuple[int, int, int, int]]:
    """Each entry's local header as written: (CRC-32, compressed size, size, flags), the sizes
    taken from its ZIP64 field where the header's fields say so."""
    data = path.read_bytes()
    found = {}
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            (signature, _, flags, method, _, _, crc, compressed, size, name_size,
             extra_size) = struct.unpack_from("<IHHHHHIIIHH", data, info.header_offset)
            assert signature == 0x04034B50 and method == 8
            extra = data[info.header_offset + 30 + name_size:info.header_offset + 30 + name_size + extra_size]
            if size == compressed == 0xFFFFFFFF:
                kind, length, size, compressed = struct.unpack_from("<HHQQ", extra)
                assert (kind, length) == (1, 16)
            found[info.filename] = crc, compressed, size, flags
    return found


def test_entries_read_back_with_their_crc_sizes_and_metadata(tmp_path: Path) -> None:
    path = tmp_path / "out.zip"
    pieces = [f'<row r="{r}"><c r="A{r}"><f>B{r}*2</f><v>{r * 0.1!r}</v></c></row>'.encode() for r in range(20000)]
    contents = _write(path, pieces)
    with zipfile.ZipFile(path) as z:
        assert z.testzip() is None
        assert [i.filename for i in z.infolist()] == list(contents)
        for info in z.infolist():
            assert z.read(info) == contents[info.filename]
            assert (info.CRC, info.file_size) == (zlib.crc32(contents[info.filename]), len(contents[info.filename]))
            assert info.compress_type == zipfile.ZIP_DEFLATED and info.date_time == (2024, 2, 29, 13, 45, 58)
        first = z.getinfo("[Content_Types].xml")
        assert first.comment == b"kept" and first.external_attr == 0o644 << 16
        assert z.getinfo("empty.bin").external_attr == 0o600 << 16  # as zipfile gives a part without attributes
        assert z.getinfo("d\u00e9j\u00e0/vu.xml").flag_bits & 0x800  # a UTF-8 name says so
        sheet = z.getinfo("xl/worksheets/sheet1.xml")
        assert sheet.compress_size < sheet.file_size // 4
        central = {i.filename: (i.CRC, i.compress_size, i.file_size, i.flag_bits) for i in z.infolist()}
    assert _local_headers(path) == central  # the streamed entry's header rewritten with its CRC and sizes
    assert b"PK\x06\x06" not in path.read_bytes()  # no ZIP64 below the limits


def test_zip64_where_sizes_offsets_or_the_count_pass_the_limits(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Limits lowered so that a small package passes them: sizes and offsets past the 32-bit limit in
    ZIP64 fields (zipfile reads them there: the 32-bit fields hold 0xFFFFFFFF), the entry count in
    the ZIP64 end record; a streamed entry gets a ZIP64 header from its expected size."""
    monkeypatch.setattr(zip_stream, "_SIZE_LIMIT", 1000)
    monkeypatch.setattr(zip_stream, "_COUNT_LIMIT", 3)
    path = tmp_path / "out.zip"
    contents = _write(path, [b"<row/>" * 400, random.Random(0).randbytes(1200)], expected_size=600)
    data = path.read_bytes()
    assert b"PK\x06\x06" in data and b"PK\x06\x07" in data  # the ZIP64 end record and its locator
    with zipfile.ZipFile(path) as z:
        assert z.testzip() is None
        for info in z.infolist():
            assert z.read(info) == contents[info.filename]
        assert z.getinfo("d\u00e9j\u00e0/vu.xml").header_offset > 1000
        central = {i.filename: (i.CRC, i.compress_size, i.file_size, i.flag_bits) for i in z.infolist()}
    assert _local_headers(path) == central
    headers = {name: struct.unpack_from("<I", data, data.index(name.encode("utf-8")) - 8)[0]
               for name in ("xl/worksheets/sheet1.xml", "[Content_Types].xml")}
    assert headers == {"xl/worksheets/sheet1.xml": 0xFFFFFFFF, "[Content_Types].xml": 400}  # its local size field


def test_a_streamed_entry_too_large_for_its_header_is_an_error_and_no_file_is_left(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zip_stream, "_SIZE_LIMIT", 1000)
    path = tmp_path / "out.zip"
    with pytest.raises(ValueError, match="without ZIP64"):
        _write(path, [b"x" * 2000], expected_size=100)  # expected small: a header without ZIP64
    assert not path.exists()


@pytest.mark.parametrize("threaded", [True, False])
def test_a_failure_while_streaming_leaves_no_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     threaded: bool) -> None:
    """A piece of the sheet failing half way: the error reaches the caller and the target is gone,
    not a package that opens with its sheet cut short (or an existing output overwritten in part);
    whether the part is deflated by a thread of its own (a large sheet) or not (a small one)."""
    from test_engine_writer import _bulk_book

    from xlrating.engine import evaluate_workbook
    from xlrating.engine.write import sheet_xml, writer

    book = tmp_path / "bulk.xlsx"
    _bulk_book(book, [f'<row r="{r}"><c r="A{r}"><v>{r}</v></c><c r="B{r}"><f>A{r}*2</f><v>0</v></c></row>'
                      for r in range(1, 20001)])
    evaluated = evaluate_workbook(str(book))
    made = sheet_xml._bulk_pieces

    def failing(*args: object) -> object:
        for number, piece in enumerate(made(*args)):  # type: ignore[arg-type]
            if number == 2:
                raise RuntimeError("failed half way")
            yield piece

    monkeypatch.setattr(sheet_xml, "_PIECE", 4096)
    monkeypatch.setattr(writer, "_ALONE", 0 if threaded else 1 << 40)
    monkeypatch.setattr(sheet_xml, "_bulk_pieces", failing)
    target = tmp_path / "out.xlsx"
    target.write_bytes(b"an earlier output")
    with pytest.raises(RuntimeError, match="half way"):
        writer.write_xlsx(evaluated, target)
    assert not target.exists()
    monkeypatch.setattr(sheet_xml, "_bulk_pieces", made)
    writer.write_xlsx(evaluated, target)
    values = openpyxl.load_workbook(target, data_only=True)["S"]
    assert [values[f"B{r}"].value for r in (1, 2, 20000)] == [2, 4, 40000]
    assert openpyxl.load_workbook(target)["S"]["B20000"].value == "=A20000*2"


def test_a_failure_leaves_a_file_put_in_the_targets_place_alone(tmp_path: Path) -> None:
    path = tmp_path / "out.zip"
    with pytest.raises(RuntimeError), ZipWriter(path) as out:
        out.write(_info("a.xml"), b"<a/>")
        path.unlink()
        path.write_bytes(b"someone else's")
        raise RuntimeError
    assert path.read_bytes() == b"someone else's"


def test_a_package_written_over_a_larger_file_ends_where_it_ends(tmp_path: Path) -> None:
    """Written over an existing file (a workbook converted again), the package is exactly its own
    bytes: nothing of the longer file it replaced is left past its end."""
    target = tmp_path / "out.xlsx"
    target.write_bytes(b"an older, longer output " * 4096)
    info = zipfile.ZipInfo("xl/part.xml", date_time=(2024, 1, 2, 3, 4, 6))
    with ZipWriter(target) as out:
        out.write(info, b"<part>fresh</part>")
    with zipfile.ZipFile(target) as package:
        assert package.testzip() is None
        assert package.read("xl/part.xml") == b"<part>fresh</part>"
    assert b"older" not in target.read_bytes()
    assert target.stat().st_size < 200
