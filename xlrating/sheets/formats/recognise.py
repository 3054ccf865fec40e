"""A file of another program given where a submission is expected: what it is, and the command that
makes our table of it.

``validate``, ``ingest`` and the web intake take our tables and EMA results sheets. A user with a
federation's file at hand gives that instead (``xlrating ingest tournament.wer``): rather than a list
of findings about columns the file never meant to have, the answer is what the file is and how to
make it a table (``xlrating import``). Only what one of the formats alone writes is recognised; a file
that merely resembles one is left to the validators, whose findings say what it lacks.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from xlrating.sheets.read import cells as cv

if TYPE_CHECKING:
    from xlrating.gate.limits import Limits
    from xlrating.sheets.read.xlsx import SheetGrid

_WDD_COLUMNS = {"FIRST NAME", "NAME", "HOMONYME", "RANK", "EXAEQUO"}
_NEEDS = {"wdd": " --event NAME --date YYYY-MM-DD", "wdr": " --event NAME --date YYYY-MM-DD --rounds N",
          "wer": "", "ema-workbook": ""}
_TITLES = {"wdd": "the WDD's classification upload", "wdr": "a World Diplomacy Reference classification",
           "wer": "a Wizards Event Reporter event file", "ema-workbook": "an EMA results workbook (a sheet per tournament)"}
_MAKES = {"wdd": ("a Dip Pouch results table", "TABLE.csv"), "wdr": ("a Dip Pouch results table", "TABLE.csv"),
          "wer": ("a DCI matches table", "TABLE.csv"), "ema-workbook": ("EMA results sheets", "SHEETS.xlsx")}


def explain(key: str, path: str) -> str:
    """``a Wizards Event Reporter event file, not ...; ... makes it ... with 'xlrating import wer PATH ...'``."""
    import shlex

    what, output = _MAKES[key]
    name = shlex.quote(path)
    return (f"{_TITLES[key]}, not a results table or sheet to submit; the ranking officer makes it {what} with "
            f"'xlrating import {key} {name} -o {output}{_NEEDS[key]}', which checks it and says every problem at "
            f"its place, and then validates or ingests that")


_RANKED_BY = {"wdd": "dippouch", "wdr": "dippouch", "wer": "dci"}  # the rank command of the table it makes


def for_rank(key: str, path: str, instead_of: str) -> str:
    """What ``rank`` (``explain``, ``whatif``...) says of another program's file given where it
    reads ``instead_of`` (``a MERS results table``): what the file is, the import that makes a
    table of it and how that is then ranked."""
    import shlex

    what, output = _MAKES[key]
    made = f"'xlrating import {key} {shlex.quote(path)} -o {output}{_NEEDS[key]}'"
    if key in _RANKED_BY:
        then = f"then rank it: xlrating rank {_RANKED_BY[key]} {output}"
    else:  # EMA results sheets: stored, then ranked from the store
        then = "then ingest them and rank the store: xlrating ingest SHEETS-*.xlsx && xlrating rank mers"
    return f"{_TITLES[key]}, not {instead_of}; make {what} of it with {made}, {then}"


def recognise_text(data: bytes, limits: Limits) -> str | None:
    """The format key of XML or JSON ``data`` another program wrote (``wer``, ``wdr``), or None."""
    from xlrating.gate.structured_text import NotWellFormed, parse_json, parse_xml

    head = data[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    try:
        if head.startswith(b"<"):
            root = parse_xml(data, limits)
            if root.tag == "event" and root.find("participation") is not None:
                return "wer"
        elif head.startswith(b"{"):
            value = parse_json(data, limits).value
            if isinstance(value, dict) and isinstance(value.get("tournament_classifications"), list):
                return "wdr"
    except NotWellFormed:
        return None
    return None


def recognise_grids(grids: list[SheetGrid]) -> str | None:
    """The format key of sheets another program wrote (``wdd``, ``ema-workbook``), or None."""
    for grid in grids:
        for r in range(1, min(grid.max_row, 10) + 1):
            named = {" ".join(str(v).replace("_", " ").upper().split()) for v in grid.rows[r - 1] if isinstance(v, str)}
            if _WDD_COLUMNS <= named:
                return "wdd"
    if grids and all(_ema_tournament_sheet(grid) for grid in grids if grid.max_row):
        return "ema-workbook"
    return None


def refuse_other_programs(path: str | os.PathLike[str], grids: list[SheetGrid]) -> None:
    """Raise :class:`~xlrating.gate.safe_open.UnreadableWorkbook` saying what ``grids`` are and the
    import that reads them, when they are sheets another program wrote."""
    from xlrating.gate.safe_open import UnreadableWorkbook

    key = recognise_grids(grids)
    if key is not None:
        raise UnreadableWorkbook(path, explain(key, os.fspath(path)))


def _ema_tournament_sheet(grid: SheetGrid) -> bool:
    """Row 3 as the EMA's workbook writes a tournament: a title, a ruleset in P, the dates in Q and the
    MERS weight in N, and a position in C2."""
    def value(row: int, column: int) -> Any:
        return grid.value(row, column)

    ruleset = cv.text(value(3, 16))
    return (ruleset is not None and ruleset.lower() in ("mcr", "riichi") and cv.text(value(3, 1)) is not None
            and not cv.is_empty(value(3, 17)) and isinstance(cv.number(value(3, 14)), float)
            and isinstance(cv.whole(value(2, 3)), int))
