"""The size limits applied to every submitted workbook before it is parsed.

A workbook is a zip of XML parts, so a small file can unpack into gigabytes (a zip bomb) or
describe a sheet of a million rows that would exhaust memory once loaded. The limits below are
checked by :mod:`xlrating.gate.package_guard` against the zip directory and while streaming the
XML, before openpyxl builds anything. Defaults are far above any real tournament submission
(hundreds of rows, tens of columns) and still small enough that a refusal takes seconds and well
under 500 MB of memory.

Each limit can be changed for one run with an environment variable, ``XLRATING_`` followed by
the field name in capitals (``XLRATING_MAX_ROWS=200000``), or in code by passing a
:class:`Limits` to ``load_workbook``.

The ranking officer's CSV tables, read on the command line (``xlrating validate`` and ``ingest``),
are read with :meth:`Limits.for_history`: a federation's whole history in one table (hundreds of
thousands of matches) is one of them, where a file sent over the web is one tournament's results.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass

MIB = 1024 * 1024
ENV_PREFIX = "XLRATING_"


@dataclass(frozen=True)
class Limits:
    """Upper bounds for one workbook file; exceeding any one refuses the file, naming the limit."""

    max_file_bytes: int = 50 * MIB
    """Size of the file on disk (compressed)."""
    max_members: int = 2_000
    """Number of parts (zip members) in the package."""
    max_member_bytes: int = 64 * MIB
    """Uncompressed size of any one part."""
    max_total_bytes: int = 128 * MIB
    """Uncompressed size of all parts together."""
    max_ratio: int = 200
    """Uncompressed / compressed size of a part; zeros deflate at ~1000:1, real XML at 5-50:1."""
    ratio_floor_bytes: int = 1 * MIB
    """Parts smaller than this (uncompressed) are not ratio-checked: tiny parts compress oddly."""
    max_rows: int = 100_000
    """Highest row number of any cell (or row element) in any sheet."""
    max_columns: int = 1_000
    """Highest column number of any cell in any sheet (1,000 is column ALL)."""
    max_cells: int = 1_000_000
    """Number of cell elements in the whole workbook (openpyxl keeps each one in memory); for
    ``xlrating convert`` the cells its formulas' arrays spill into count too."""
    max_output_cells: int = 20_000_000
    """Cells of one sheet's used range (A1 to its last row and column, empty cells too) that a CSV
    or JSON output of ``xlrating convert`` writes: a sheet with a value in A1 and one in XFD1048576
    would be 17 billion of them."""
    max_text_chars: int = 32_767
    """Length of one shared or inline string; 32,767 is Excel's own limit for a cell."""
    max_records: int = 100_000
    """Records other than cells that openpyxl builds an object for (cell formats, fonts, fills,
    borders, number formats, named styles, defined names, merged ranges, hyperlinks, data
    validations, conditional-format rules, column ranges, comments). Excel itself allows 65,490
    cell formats; each record costs openpyxl 1-2 KB, so 600,000 of them in a 2 MB file would take
    1.3 GB and 15 s."""

    max_seconds: int = 600
    """Seconds to recalculate one workbook (``xlrating convert``); past it the conversion stops,
    naming the cell it was computing."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, profile: Mapping[str, int] | None = None) -> Limits:
        """The defaults (changed by ``profile``, such as :data:`HISTORY`), overridden by any
        ``XLRATING_<FIELD>`` variable in ``environ``.

        Raises ``ValueError`` naming the variable when a value is not a positive whole number.
        """
        env = os.environ if environ is None else environ
        changes: dict[str, int] = dict(profile or {})
        for field in dataclasses.fields(cls):
            name = env_name(field.name)
            if name not in env:
                continue
            text = env[name].strip().replace("_", "")
            if not text.isdigit() or int(text) <= 0:
                raise ValueError(f"environment variable {name} must be a positive whole number, "
                                 f"got {env[name]!r}")
            changes[field.name] = int(text)
        return cls(**changes)

    @classmethod
    def for_history(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """The limits of a table the ranking officer reads on the command line: :data:`HISTORY`'s
        for the fields it names, the defaults for the others, an ``XLRATING_<FIELD>`` variable
        over both."""
        return cls.from_env(environ, HISTORY)


# A federation's whole history as one CSV table, read by its ranking officer with ``xlrating
# validate`` or ``ingest``: two million rows (a DCI history of 150,000 matches is 151,000 rows and a
# 13 MB file) of up to twenty cells. A CSV is read a line at a time against every limit; a workbook
# is a package to unpack and parse, the door of zip bombs, and keeps the defaults. Still bounded:
# checking and storing a history take about 1.5 KB of memory a row, 3 GB at these limits.
HISTORY: Mapping[str, int] = {"max_file_bytes": 256 * MIB, "max_rows": 2_000_000, "max_cells": 40_000_000}


def env_name(field: str) -> str:
    """The environment variable that overrides limit ``field``: ``max_rows`` -> ``XLRATING_MAX_ROWS``."""
    return ENV_PREFIX + field.upper()


def describe(field: str, value: int) -> str:
    """``'max_rows = 100,000 (XLRATING_MAX_ROWS)'``: how a refusal names the limit it hit."""
    return f"{field} = {value:,} ({env_name(field)})"
