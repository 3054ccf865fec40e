"""The optional player registry: a CSV of EMA IDs and names the validator checks sheets against.

Columns (headers matched case-insensitively): ``ema_id`` and either ``last_name`` + ``first_name``
or a single ``name``. IDs are read as text, so ``04060059`` keeps its zero.
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass
from pathlib import Path

from xlrating.sheets.cellvalues import fold


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
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise RegistryError(f"{file}: cannot read the player registry ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise RegistryError(f"{file}: the player registry is not UTF-8 text") from None
    reader = csv.DictReader(text.splitlines())
    headers = {(h or "").strip().lower(): h for h in reader.fieldnames or []}
    if "ema_id" not in headers or not ({"name"} <= headers.keys() or {"last_name"} <= headers.keys()):
        raise RegistryError(f"{file}: expected columns ema_id and name (or last_name, first_name), "
                            f"got {', '.join(reader.fieldnames or []) or 'none'}")
    names: dict[str, str] = {}
    for line, record in enumerate(reader, start=2):
        ema_id = (record.get(headers["ema_id"]) or "").strip()
        if not ema_id:
            continue
        if not (ema_id.isdigit() and len(ema_id) == 8):
            raise RegistryError(f"{file}, line {line}: ema_id {ema_id!r} is not 8 digits")
        if "name" in headers:
            name = record.get(headers["name"]) or ""
        else:
            first = record.get(headers["first_name"]) if "first_name" in headers else ""
            name = f"{record.get(headers['last_name']) or ''} {first or ''}"
        names[ema_id] = " ".join(name.split())
    return Registry(str(file), names)
