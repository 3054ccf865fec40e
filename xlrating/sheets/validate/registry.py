"""The optional player registry: a CSV of EMA IDs and names the validator checks sheets against.

The file is read like any CSV table (:mod:`xlrating.sheets.read.table_files`): UTF-8 with or without a
byte-order mark, comma or semicolon separated (Excel in many European locales writes ``;``), the
table starting at its first non-empty line, within the file-size limit. Headers are matched after
:func:`xlrating.core.tables.normalise_header` (case, spaces, dashes and underscores ignored) with
the synonyms in :data:`HEADER_SYNONYMS`: an EMA ID column, and either one name column or a last
name (with an optional first name). IDs are read as text, so ``04060059`` keeps its zero.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from xlrating.core.names import fold
from xlrating.core.tables import normalise_header
from xlrating.gate.safe_open import UnreadableWorkbook
from xlrating.sheets.read.table_files import read_csv as read_csv_table

# role -> normalised headers that mean it (normalise_header("EMA ID") == "ema_id")
HEADER_SYNONYMS: dict[str, tuple[str, ...]] = {
    "ema_id": ("ema_id", "emaid", "ema_number", "ema_no", "ema_nr", "id"),
    "name": ("name", "player", "player_name", "full_name"),
    "last_name": ("last_name", "lastname", "surname", "family_name"),
    "first_name": ("first_name", "firstname", "given_name", "forename"),
}


class RegistryError(Exception):
    """The registry file cannot be used; the message names the file, the line and the problem."""


@dataclass(frozen=True)
class Registry:
    path: str
    names: dict[str, str]  # EMA ID -> the registered name, as written

    def matches(self, ema_id: str, last_name: str | None, first_name: str | None) -> bool:
        """True when the sheet's name is the registered one, ignoring accents, case and word order
        (registries write "Last First", sheets split it in two columns)."""
        registered = sorted(fold(self.names[ema_id]).split())
        given = sorted(fold(" ".join(p for p in (last_name, first_name) if p)).split())
        return registered == given


def load_registry(path: str | os.PathLike[str]) -> Registry:
    """The registry in the CSV file ``path``, or :class:`RegistryError` naming the file (as given),
    line and problem."""
    file = str(path)
    try:
        table = read_csv_table(file)
    except UnreadableWorkbook as exc:
        raise RegistryError(f"{file}: cannot read the player registry ({exc.reason})") from None
    header = [str(h) for h in table.rows[0]] if table.rows else []
    columns = _columns(header)
    if "ema_id" not in columns or not ({"name", "last_name"} & columns.keys()):
        raise RegistryError(f"{file}: expected columns ema_id (or 'EMA ID', 'EMA number', id) and name "
                            f"(or last_name and first_name), got {', '.join(repr(h) for h in header) or 'none'}")

    def cell(record: list[str], role: str) -> str:
        index = columns.get(role)
        return record[index] if index is not None and index < len(record) else ""

    names: dict[str, str] = {}
    for line, record in enumerate(table.rows[1:], start=table.header_row + 1):
        ema_id = cell(record, "ema_id").strip()
        if not ema_id:
            continue
        if not (ema_id.isdigit() and len(ema_id) == 8):
            raise RegistryError(f"{file}, line {line}: ema_id {ema_id!r} is not 8 digits")
        if "name" in columns:
            name = cell(record, "name")
        else:
            name = f"{cell(record, 'last_name')} {cell(record, 'first_name')}"
        names[ema_id] = " ".join(name.split())
    if not names:  # every sheet would then be all PLAYER_UNKNOWN: more likely the wrong file
        raise RegistryError(f"{file}: the player registry lists no players (no line with an EMA ID "
                            f"under the header {', '.join(repr(h) for h in header)})")
    return Registry(file, names)


def _columns(header: list[str]) -> dict[str, int]:
    """role -> index of the first header naming it (see :data:`HEADER_SYNONYMS`)."""
    columns: dict[str, int] = {}
    for index, text in enumerate(header):
        key = normalise_header(text)
        for role, synonyms in HEADER_SYNONYMS.items():
            if key in synonyms:
                columns.setdefault(role, index)
    return columns
