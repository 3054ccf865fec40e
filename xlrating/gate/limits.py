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
    """Number of cell elements in the whole workbook (openpyxl keeps each one in memory)."""
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
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """The defaults, overridden by any ``XLRATING_<FIELD>`` variable in ``environ``.

        Raises ``ValueError`` naming the variable when a value is not a positive whole number.
        """
        env = os.environ if environ is None else environ
        changes: dict[str, int] = {}
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


def env_name(field: str) -> str:
    """The environment variable that overrides limit ``field``: ``max_rows`` -> ``XLRATING_MAX_ROWS``."""
    return ENV_PREFIX + field.upper()


def describe(field: str, value: int) -> str:
    """``'max_rows = 100,000 (XLRATING_MAX_ROWS)'``: how a refusal names the limit it hit."""
    return f"{field} = {value:,} ({env_name(field)})"
