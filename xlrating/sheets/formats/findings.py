"""What reading another program's file found, at its place in that file.

A finding here is what a validator's finding is (a stable code, a severity, a message rendered from
the code's template) at a :class:`Location` of the file read: a worksheet's cell for a workbook or a
CSV file (``classification!D7``, as ``validate`` names cells), a line and column for an XML or JSON
file (``line 42, column 7``). The findings of the validator run over the table made from the file
come back at the place in the file the table's cell came from (:mod:`~xlrating.sheets.formats.produced`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xlrating.sheets.read.cells import a1
from xlrating.sheets.validate.findings import SHOWN_PER_CODE, Severity

# code -> (severity, message template); each message says what is wrong and what would be right.
CATALOGUE: dict[str, tuple[Severity, str]] = {
    "IMPORT_NOT_WELL_FORMED": ("error", "{reason}; expected {expected}"),
    "IMPORT_ELEMENT_MISSING": ("error", "no {element} {inside}; expected {expected}"),
    "IMPORT_ELEMENT_UNEXPECTED": ("error", "{found} is not {expected}"),
    "IMPORT_COLUMN_MISSING": ("error", ("the {format} has no {column!r} column; expected a header row naming "
                              "{columns}")),
    "IMPORT_VALUE_MISSING": ("error", "{field} is missing or empty; expected {expected}"),
    "IMPORT_VALUE_INVALID": ("error", "{field} {value!r} is not valid; expected {expected}"),
    "IMPORT_RANK_INVALID": ("error", ("{field} {value!r} is not a rank; expected a whole number from "
                            "1{unranked}")),
    "IMPORT_UNRANKED": ("warning", ("{field} {value!r} marks {player} as not ranked: left out of the table "
                        "(the rating counts ranked players only)")),
    "IMPORT_EXAEQUO_MISMATCH": ("error", ("{field} {value!r} says {value} players share rank {rank}, but the file "
                                "ranks {count} there; expected the number of players with that rank")),
    "IMPORT_OUTCOME_UNKNOWN": ("error", ("outcome {value!r} is not an outcome Wizards Event Reporter writes; "
                               "expected 1 (the person won), 2 (a draw) or 3 (a bye)")),
    "IMPORT_PERSON_UNKNOWN": ("error", ("{field} {value!r} is no person of the event's participation; expected "
                              "the id of a <person> element")),
    "IMPORT_PERSON_TWICE": ("error", "person id {value!r} is listed again (first at {first}); expected each once"),
    "IMPORT_NAME_SHARED": ("error", ("{name!r} is the name of persons {ids}: the table would count them as one "
                           "player; give --player id to name players by their ids")),
    "IMPORT_OPTION_NEEDED": ("error", "the file gives no {what}{why}; give it with {option}"),
    "IMPORT_COUNTRY_UNKNOWN": ("warning", ("{field} {value!r} is not a country code of the WDD's list; kept as "
                               "written")),
    "IMPORT_MEMBER_FLAG_DISAGREES": ("error", ("EMA member {value!r} disagrees with the EMA ID {ema_id!r}; expected "
                                     "Yes with an EMA ID and No without one")),
    "IMPORT_ID_AS_NUMBER": ("warning", ("EMA IDs are numbers in this sheet (here and below): read as 8-digit text, "
                            "a 7-digit number given back its leading 0 (4060059 is 04060059)")),
    "IMPORT_NO_ROWS": ("error", "the {format} holds no {rows}; expected at least one"),
}


@dataclass(frozen=True)
class Location:
    """Where in the file read: a worksheet's cell (``sheet`` set; a CSV file's sheet is its name
    without the extension, as ``validate`` names it) or a line and column of a text file."""

    sheet: str | None
    row: int
    column: int

    @property
    def text(self) -> str:
        return f"{self.sheet}!{a1(self.row, self.column)}" if self.sheet is not None else \
            f"line {self.row}, column {self.column}"


@dataclass(frozen=True)
class ImportFinding:
    """One problem at one place of the file read (or of the table made from it, placed back)."""

    code: str
    severity: Severity
    at: Location
    message: str

    def line(self) -> str:
        return f"{self.at.text}: {self.severity} {self.code}: {self.message}"


class Findings:
    """The findings of reading one file, in the order found; :meth:`sorted` puts them in the file's order."""

    def __init__(self) -> None:
        self.items: list[ImportFinding] = []

    def add(self, code: str, at: Location, /, **fields: Any) -> None:
        severity, template = CATALOGUE[code]
        self.items.append(ImportFinding(code, severity, at, template.format(**fields)))

    def extend(self, findings: Sequence[ImportFinding]) -> None:
        self.items.extend(findings)

    @property
    def errors(self) -> int:
        return sum(f.severity == "error" for f in self.items)

    def sorted(self) -> list[ImportFinding]:
        return sorted(self.items, key=lambda f: (f.at.sheet or "", f.at.row, f.at.column))


def report(file: str, findings: Sequence[ImportFinding]) -> list[str]:
    """``FILE: INVALID (2 errors, 1 warning)`` (or ``valid``), then one line per finding at its place."""
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    lines = [f"{file}: {'INVALID' if errors else 'valid'} ({_count(errors, 'error')}, {_count(warnings, 'warning')})"]
    seen: dict[str, int] = {}
    for f in findings:  # a systematic mistake is 20 lines and a count, as validate shows it
        seen[f.code] = seen.get(f.code, 0) + 1
        if seen[f.code] <= SHOWN_PER_CODE:
            lines.append(f"  {f.line()}")
    lines.extend(f"  ... and {n - SHOWN_PER_CODE:,} more {code} like these"
                 for code, n in seen.items() if n > SHOWN_PER_CODE)
    return lines


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
