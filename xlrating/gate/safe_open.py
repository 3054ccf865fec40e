"""The one door through which xlrating opens a workbook file.

Submitted workbooks are untrusted. Every reader (validator, converter, rank) opens files through
:func:`load_workbook` so that the checks made here apply everywhere:

- the file is read once, into memory, after its size is checked (``max_file_bytes``); openpyxl
  then parses those same bytes, so the file cannot change between the checks and the parse;
- :func:`xlrating.gate.package_guard.check_package` refuses, with a sentence naming the reason,
  anything that is not an .xlsx/.xlsm package (empty, .xls, encrypted, .ods, .xlsb, CSV, HTML,
  corrupt or truncated zip), zip bombs (declared sizes and ratios, checked before decompression),
  XML with a DTD (entity expansion, external entities), and sheets beyond the row, column, cell
  and text limits of :class:`xlrating.gate.limits.Limits`;
- only then does openpyxl parse the package. (``xlrating convert`` reads the cells itself, through
  :func:`open_package`: the worksheets and shared strings are checked by the pass that reads them,
  with the same rules and the same messages; see :mod:`xlrating.gate.part_quick`.) openpyxl itself parses with defusedxml (installed
  as a dependency) or, when lxml is present, with ``resolve_entities=False``; the DTD refusal
  above does not rely on either.

Macros: a .xlsm's ``vbaProject.bin`` is never executed by anything in xlrating (no Python library
here can run VBA); with ``keep_vba=True`` openpyxl carries its bytes through unchanged on save.
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from xlrating.gate.limits import Limits, describe
from xlrating.gate.package_guard import PackageCheck, PackageReport, Refused, check_package

__all__ = ["Limits", "PackageCheck", "PackageReport", "UnreadableWorkbook", "inspect_package", "load_workbook",
           "open_package", "read_package", "reading"]


class UnreadableWorkbook(Exception):
    """A file that cannot be opened as a workbook; the message names the file and the reason."""

    def __init__(self, path: str | os.PathLike[str], reason: str):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


def read_package(path: str | os.PathLike[str], limits: Limits | None = None) -> tuple[bytes, PackageReport]:
    """The bytes of ``path`` and what the package checks saw, or :class:`UnreadableWorkbook`."""
    try:
        limits = limits or Limits.from_env()
    except ValueError as exc:
        raise UnreadableWorkbook(path, str(exc)) from None
    data = _read_file(path, limits)
    try:
        return data, check_package(data, limits)
    except Refused as refused:
        raise UnreadableWorkbook(path, refused.reason) from None


def open_package(path: str | os.PathLike[str], limits: Limits, defer: Callable[[str], bool],
                 data: bytes | None = None) -> PackageCheck:
    """The same door as :func:`read_package` for a reader that checks some parts in its own pass:
    every part but those ``defer`` names is checked here; the returned :class:`PackageCheck` (a
    context manager holding the open archive) is how the reader reads and checks the rest. Its
    :class:`Refused` must become :class:`UnreadableWorkbook` for ``path``, as here. ``data``: the
    file's bytes, read elsewhere (another computer sent them), checked as the file would be."""
    if data is None:
        data = _read_file(path, limits)
    elif len(data) > limits.max_file_bytes:
        raise UnreadableWorkbook(path, f"the file has {len(data):,} bytes, over the limit "
                                       f"{describe('max_file_bytes', limits.max_file_bytes)}")
    try:
        check = PackageCheck(data, limits)
    except Refused as refused:
        raise UnreadableWorkbook(path, refused.reason) from None
    try:
        check.scan_parts(defer)
    except Refused as refused:
        check.archive.close()
        raise UnreadableWorkbook(path, refused.reason) from None
    return check


def read_bytes(path: str | os.PathLike[str], limits: Limits | None = None) -> bytes:
    """The bytes of a plain file (a CSV table, say) with the same refusals as a workbook: no folder,
    pipe or device, nothing over ``max_file_bytes``; or :class:`UnreadableWorkbook`."""
    try:
        limits = limits or Limits.from_env()
    except ValueError as exc:
        raise UnreadableWorkbook(path, str(exc)) from None
    return _read_file(path, limits)


def inspect_package(path: str | os.PathLike[str], limits: Limits | None = None) -> PackageReport:
    """Run every check of :func:`load_workbook` without building the workbook; report what was seen."""
    return read_package(path, limits)[1]


def load_workbook(path: str | os.PathLike[str], *, read_only: bool = False, data_only: bool = False,
                  keep_vba: bool = False, keep_links: bool = False, limits: Limits | None = None,
                  checked: bytes | None = None) -> Any:
    """Open ``path`` with openpyxl after the package checks, or raise :class:`UnreadableWorkbook`.

    ``limits`` defaults to :meth:`Limits.from_env` (the defaults, changed by ``XLRATING_MAX_*``
    environment variables). ``checked``: the bytes :func:`read_package` already returned for
    ``path``; they are opened as they are, so a caller that stores the file (ingest) stores
    exactly what was validated, and the file is read and checked once.
    """
    import openpyxl

    data = checked if checked is not None else read_package(path, limits)[0]
    try:
        return openpyxl.load_workbook(io.BytesIO(data), read_only=read_only, data_only=data_only,
                                      keep_vba=keep_vba, keep_links=keep_links)
    except Exception as exc:  # noqa: BLE001 - openpyxl raises many unrelated types for a bad file
        raise UnreadableWorkbook(
            path, f"not a readable .xlsx/.xlsm workbook ({type(exc).__name__}: {exc})") from None


# Modules whose exceptions mean "the file is damaged", not "our code has a bug".
_PARSER_MODULES = ("openpyxl.", "xml.", "defusedxml.", "lxml.", "zipfile", "zlib", "et_xmlfile.")


@contextmanager
def reading(path: str | os.PathLike[str]) -> Iterator[None]:
    """Around code that reads a workbook opened with ``read_only=True``: openpyxl parses each sheet
    only while its rows are iterated, after :func:`load_workbook` has returned, so a damaged cell
    raises there. An exception raised inside openpyxl (or the XML and zip libraries under it)
    becomes :class:`UnreadableWorkbook`; any other exception (a bug in the caller) passes unchanged.

    >>> with reading(path):                       # doctest: +SKIP
    ...     rows = list(book.active.iter_rows(values_only=True))
    """
    try:
        yield
    except UnreadableWorkbook:
        raise
    except Exception as exc:
        if not _raised_by_parser(exc):
            raise
        raise UnreadableWorkbook(path, f"damaged worksheet content ({type(exc).__name__}: {exc})") from None


def _raised_by_parser(exc: BaseException) -> bool:
    frame = exc.__traceback__
    innermost = None
    while frame is not None:
        innermost = frame
        frame = frame.tb_next
    if innermost is None:
        return False
    module = str(innermost.tb_frame.f_globals.get("__name__", ""))
    return module.startswith(_PARSER_MODULES)


def _read_file(file: str | os.PathLike[str], limits: Limits) -> bytes:
    """The bytes of ``file``; an :class:`UnreadableWorkbook` names it as given (as the user typed it)."""
    try:
        info = os.stat(file)
    except FileNotFoundError:
        raise UnreadableWorkbook(file, "no such file") from None
    except OSError as exc:
        raise UnreadableWorkbook(file, f"cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(info.st_mode):
        raise UnreadableWorkbook(file, "is a folder, not a workbook file")
    if not stat.S_ISREG(info.st_mode):  # a FIFO or device could block or never end
        raise UnreadableWorkbook(file, "is not a regular file (a device, pipe or socket)")
    if info.st_size > limits.max_file_bytes:
        raise UnreadableWorkbook(file, f"the file has {info.st_size:,} bytes, over the limit "
                                       f"{describe('max_file_bytes', limits.max_file_bytes)}")
    try:
        with open(file, "rb", buffering=0) as handle:
            # what stat counted and one byte more (a read of the limit would take that much memory
            # first, hundreds of megabytes for convert's limits); a file that grew is read on, to the limit
            data = handle.read(info.st_size + 1)
            if len(data) > info.st_size:
                data += handle.read(limits.max_file_bytes + 1 - len(data))
    except OSError as exc:
        raise UnreadableWorkbook(file, f"cannot be read ({exc.strerror or exc})") from None
    if len(data) > limits.max_file_bytes:  # grew after stat
        raise UnreadableWorkbook(file, f"the file has more than {limits.max_file_bytes:,} bytes, "
                                       f"over the limit {describe('max_file_bytes', limits.max_file_bytes)}")
    return data
