"""Python behind the buttons of ``macros/xlrating_buttons.bas`` (xlwings ``RunPython``).

Each macro works on the workbook that called it and writes what happened to a sheet named
:data:`REPORT_SHEET` (created when missing, cleared on every run), never a traceback:

- :func:`validate_active`: validate the workbook as it is on screen, unsaved edits included (the
  cell values are read through xlwings into the validator's grids), one finding per line;
- :func:`ingest_active`: save the workbook, validate the saved file and store it in the results
  store (``$XLRATING_DB``, else ``xlrating.db`` next to the workbook); an invalid sheet stores nothing;
- :func:`recalculate_ratings`: the MERS ranking of each ruleset from the store, as of today.

The macros only translate between xlwings and :mod:`xlrating.sheets` / :mod:`xlrating.store`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
from pathlib import Path
from typing import Any

REPORT_SHEET = "xlrating report"
FINDING_COLUMNS = ["Severity", "Sheet", "Cell", "Code", "Message"]


def _caller(book: Any) -> Any:
    if book is not None:
        return book
    import xlwings as xw

    return xw.Book.caller()


def _as_read(value: Any) -> Any:
    # Excel hands every number over as a float; the file reader gives whole numbers as int, and the
    # validator's EMA ID rules tell "a number that lost its zero" from text by that type.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def grids_from_book(book: Any) -> list[Any]:
    """Every worksheet's values and formulas as the validator's grids (merged cells not read)."""
    from xlrating.sheets.read.xlsx import SheetGrid

    grids = []
    for sheet in book.sheets:
        if sheet.name == REPORT_SHEET:
            continue
        used = sheet.used_range
        values = used.options(ndim=2).value
        formulas = used.formula
        if isinstance(formulas, str):
            formulas = ((formulas,),)
        top, left = used.row, used.column
        grid = SheetGrid(sheet.name)
        grid.rows = [[None] * (left - 1) for _ in range(top - 1)]
        grid.rows += [[None] * (left - 1) + [_as_read(v) for v in row] for row in values]
        for r, row in enumerate(formulas):
            for c, text in enumerate(row):
                if isinstance(text, str) and text.startswith("="):
                    grid.formulas[(top + r, left + c)] = text
        grids.append(grid)
    return grids


def _report(book: Any, title: str, header: list[str] | None = None, rows: list[list[Any]] | None = None) -> None:
    names = [sheet.name for sheet in book.sheets]
    sheet = book.sheets[REPORT_SHEET] if REPORT_SHEET in names else book.sheets.add(REPORT_SHEET,
                                                                                   after=book.sheets[-1])
    sheet.clear_contents()
    sheet.range("A1").value = [[title], [f"{dt.datetime.now():%Y-%m-%d %H:%M}"]]
    if header:
        sheet.range("A4").value = [header, *(rows or [])]
    sheet.activate()


def validate_active(book: Any = None) -> None:
    """Validate the calling workbook and list every finding on the report sheet."""
    from xlrating.sheets.validate.ema.sheet import validate_grids

    book = _caller(book)
    validation = validate_grids(grids_from_book(book))
    findings = validation.findings
    errors = sum(f.severity == "error" for f in findings)
    verdict = "valid" if validation.valid else "NOT valid"
    title = f"{book.name}: {verdict} ({errors} errors, {len(findings) - errors} warnings)"
    _report(book, title, FINDING_COLUMNS, [[f.severity, f.sheet, f.cell, f.code, f.message] for f in findings])


def store_location(book: Any) -> str:
    """``$XLRATING_DB`` if set, else ``xlrating.db`` in the workbook's folder."""
    return os.environ.get("XLRATING_DB") or str(Path(book.fullname).parent / "xlrating.db")


def ingest_active(book: Any = None) -> None:
    """Save, validate and store the calling workbook; report the outcome (or the findings)."""
    from xlrating.gate.safe_open import UnreadableWorkbook, read_package
    from xlrating.sheets.validate.ema.sheet import validate_file
    from xlrating.store import StoreError, open_store
    from xlrating.systems import get

    book = _caller(book)
    path = Path(book.fullname)
    if not path.is_file():
        _report(book, f"{book.name}: not stored - save the workbook as an .xlsx file first")
        return
    book.save()
    try:
        content, _ = read_package(path)  # read and checked once: what is validated is what is stored
        validation = validate_file(path, checked=content)
    except UnreadableWorkbook as exc:
        _report(book, f"{book.name}: not stored - {exc}")
        return
    rows = [[f.severity, f.sheet, f.cell, f.code, f.message] for f in validation.findings]
    if not validation.valid:
        _report(book, f"{book.name}: not stored - fix the errors below and ingest again", FINDING_COLUMNS, rows)
        return
    location = store_location(book)
    mers = get("mers")  # the workbook is an EMA results sheet
    try:
        with open_store(location) as store:
            outcome = store.ingest(path.name, content,
                                   mers.submission(validation.submission, hashlib.sha256(content).hexdigest()))
    except StoreError as exc:
        _report(book, f"{book.name}: not stored - {exc}")
        return
    _report(book, f"{book.name}: {outcome.message} (store: {location})", FINDING_COLUMNS, rows)


def recalculate_ratings(book: Any = None, rules: str | None = None) -> None:
    """The MERS ranking of every ruleset in the store, as of today, on the report sheet."""
    from xlrating.core.errors import RatingError
    from xlrating.core.mers import rules_in_force
    from xlrating.store import StoreError, open_store
    from xlrating.systems import get
    from xlrating.systems.mers import RULESETS

    mers = get("mers")
    book = _caller(book)
    location = store_location(book)
    today = dt.date.today()
    rows: list[list[Any]] = []
    try:
        with open_store(location, read_only=True) as store:
            for ruleset in RULESETS:
                results = mers.stored_records(store, ruleset=ruleset)
                if results:
                    board = mers.leaderboard(results, source=location, stored=store, as_of=today, rules=rules,
                                             ruleset=ruleset)
                    rows += [[ruleset, line["rank"], line["player"], line["name"], line["total"], line["count"]]
                             for line in board.ranked(decimals=2)]
    except (StoreError, RatingError) as exc:
        _report(book, f"ranking not computed - {exc}")
        return
    era = rules or rules_in_force(today)
    _report(book, f"MERS ranking ({era} rules) as of {today:%Y-%m-%d} from {location}",
            ["Ruleset", "Rank", "Player", "Name", "Total", "Results"], rows)
