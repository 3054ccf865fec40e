"""A system submitted as a table of results or matches (Dip Pouch, DCI, or a new one): what every
such system does alike, so that its module declares only what is its own.

- the file: the header row naming the most of its :attr:`~TableSystem.columns` among the top rows
  of any sheet (:func:`~xlrating.sheets.validate.tables.best_header`); every bad cell a finding;
  the system's own checks (:meth:`TableSystem.read_events`); last, the leaderboard itself must
  accept the events (:meth:`TableSystem.check_rankable`), else a finding and nothing is stored;
- the store: each event of the table a versioned event, the same content unchanged, other content
  refused unless replaced; the outcome in the words of a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from xlrating.core.errors import TableError
from xlrating.systems.base import Fit, RatingSystem, Validation

if TYPE_CHECKING:
    from xlrating.sheets.read.xlsx import SheetGrid
    from xlrating.sheets.validate.events import EventTable
    from xlrating.sheets.validate.findings import Collector
    from xlrating.sheets.validate.registry import Registry
    from xlrating.sheets.validate.tables import TableLayout
    from xlrating.store.records import EventChange, EventRecord, IngestOutcome


class TableSystem(RatingSystem):
    """A :class:`~xlrating.systems.base.RatingSystem` whose submissions are one table (see the module
    docstring). A subclass sets :attr:`columns` and implements :meth:`read_events`,
    :meth:`check_rankable` and :meth:`event_record`."""

    def read_events(self, layout: TableLayout, out: Collector) -> EventTable:
        """Read and check the table's rows: findings to ``out``; the events only when no error."""
        raise NotImplementedError

    def check_rankable(self, table: EventTable) -> None:
        """Raise :class:`~xlrating.core.errors.TableError` when the leaderboard refuses the events."""
        raise NotImplementedError

    def event_record(self, event: Any, sheet: str | None) -> EventRecord:
        """One event of a valid table as the store keeps it."""
        raise NotImplementedError

    # --- the file -------------------------------------------------------------------------------

    def fit(self, grids: list[SheetGrid]) -> Fit:
        from xlrating.sheets.validate.tables import best_header

        named = best_header(grids, self.columns)[0]
        required = sum(c.required for c in self.columns)
        return "complete" if named == required else "near" if named == required - 1 else "none"

    def validate(self, grids: list[SheetGrid], registry: Registry | None = None) -> Validation:
        from xlrating.sheets.validate.events import EventTable
        from xlrating.sheets.validate.findings import Collector
        from xlrating.sheets.validate.tables import best_header, missing_columns

        out = Collector()
        named, layout = best_header(grids, self.columns)
        first_sheet = grids[0].name if grids else "(none)"
        required = ", ".join(repr(c.name) for c in self.columns if c.required)
        if layout is None or named == 0:
            out.add("TABLE_NOT_FOUND", first_sheet, 1, 1, table=self.table_title, columns=required)
            return Validation(out.sorted([g.name for g in grids]), EventTable(self.key, self.table_title), self.key)
        for column in missing_columns(layout, self.columns):
            out.add("TABLE_COLUMN_MISSING", layout.grid.name, layout.header_row, min(layout.columns.values()),
                    table=self.table_title, column=column, columns=required)
        table = self.read_events(layout, out)
        if table.events:
            try:
                self.check_rankable(table)
            except TableError as exc:
                at = layout.columns.get(exc.column or "", min(layout.columns.values()))
                out.add("TABLE_NOT_RANKABLE", layout.grid.name, exc.row or layout.header_row, at, message=str(exc))
                table.events = []
        return Validation(out.sorted([g.name for g in grids]), table, self.key)

    def label(self, content: Any) -> str | None:
        return str(content.label())

    # --- the store ------------------------------------------------------------------------------

    def event_records(self, content: Any, sha256: str) -> tuple[EventRecord, ...]:
        return tuple(self.event_record(e, content.sheet) for e in content.events)

    def describe(self, events: Sequence[EventRecord], outcome: IngestOutcome) -> str:
        if outcome.known is not None:
            return (f"this file was already stored on {outcome.known.received_at} (as {outcome.known.file_name!r}); "
                    f"nothing changed")
        changes = outcome.changes
        if outcome.status == "refused":
            reasons = "; ".join(f"{c.label}: {c.reason}" for c in changes if c.status == "refused")
            return f"{self.table_title} not stored: {reasons}"
        if outcome.status == "unchanged" and not outcome.accepted:
            return (f"every event of this file is already stored as it is ({_count(len(changes), 'event')}); "
                    f"nothing changed")
        return f"stored {self.table_title}: " + "; ".join(_summary(changes))


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _summary(changes: Sequence[EventChange]) -> list[str]:
    parts = []
    for status, words in (("stored", "new"), ("replaced", "replaced"), ("unchanged", "unchanged")):
        chosen = [c for c in changes if c.status == status]
        if chosen:
            shown = ", ".join(f"{c.label} v{c.version}" if status != "unchanged" else c.label for c in chosen[:5])
            more = f" and {len(chosen) - 5} more" if len(chosen) > 5 else ""
            parts.append(f"{_count(len(chosen), 'event')} {words} ({shown}{more})")
    return parts
