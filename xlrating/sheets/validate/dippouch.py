"""Validate a Dip Pouch results table (the table of ``xlrating rank dippouch``) in one pass.

Every cell is read as ``rank`` reads it (:mod:`~xlrating.sheets.validate.tables`); then, per event
(one event name on one date): the same players, rounds, world_championship and location on every row, each
place within 1 to the event's players, each player once, no more rows than players; and one
spelling of each event name. Every problem is one finding at its cell; nothing stops at the first.
"""

from __future__ import annotations

from typing import Any

from xlrating.core import checks, dippouch
from xlrating.core.names import fold
from xlrating.core.table_columns import DIPPOUCH_SHOWN_COLUMNS
from xlrating.core.tables import number_from_text
from xlrating.sheets.validate.events import DipPouchEvent, EventTable
from xlrating.sheets.validate.findings import Collector, has_errors
from xlrating.sheets.validate.tables import TableLayout, read_rows, report_spellings

COLUMNS = (*dippouch.RESULT_COLUMNS, *DIPPOUCH_SHOWN_COLUMNS)
PARSERS = {"score": lambda name, value: checks.number(name, number_from_text(value))}
SAME_ON_EVERY_ROW = ("players", "rounds", "world_championship", "location")


def validate_dippouch(layout: TableLayout, out: Collector) -> EventTable:
    """The findings go to ``out``; the table's events are filled in only when there is no error."""
    table = EventTable("dippouch", "Dip Pouch results", layout.grid.name)
    records = read_rows(layout, COLUMNS, out, PARSERS)
    if not records:
        out.add("TABLE_EMPTY", layout.grid.name, layout.header_row, min(layout.columns.values()),
                table="Dip Pouch results", row_is="player per event")
        return table
    report_spellings(layout, out, records, "event", "events")
    report_spellings(layout, out, records, "player", "players", "PLAYER_SPELLING_VARIANT")
    events: dict[tuple[str, Any], list[dict[str, Any]]] = {}
    for rec in records:
        if rec["event"] is not None and rec["date"] is not None:
            events.setdefault((fold(rec["event"]), rec["date"]), []).append(rec)
    for rows in events.values():
        _check_event(layout, out, rows)
    if not has_errors(out.findings):
        table.events = [_event(rows) for rows in events.values()]
    return table


def _check_event(layout: TableLayout, out: Collector, rows: list[dict[str, Any]]) -> None:
    sheet, first = layout.grid.name, rows[0]
    name = first["event"]

    def add(code: str, rec: dict[str, Any], column: str, **fields: Any) -> None:
        out.add(code, sheet, rec["_row"], layout.columns[column], header=layout.headers[column], event=name,
                **fields)

    for column in SAME_ON_EVERY_ROW:
        if column not in layout.columns:
            continue

        def compared(rec: dict[str, Any], column: str = column) -> bool:
            # an empty location says nothing (the event's is the one its other rows give)
            return column not in rec["_bad"] and (column != "location" or rec[column] is not None)

        reference = next((r for r in rows if compared(r)), None)
        for rec in rows:
            if reference is not None and compared(rec) and _same(rec[column]) != _same(reference[column]):
                add("EVENT_VALUE_DIFFERS", rec, column, value=rec[column], other=reference[column],
                    first=layout.cell(reference["_row"], column))
    players = next((r["players"] for r in rows if r["players"] is not None), None)
    seen: dict[str, dict[str, Any]] = {}
    for rec in rows:
        if players is not None and rec["place"] is not None and rec["place"] > players:
            add("EVENT_PLACE_OUT_OF_RANGE", rec, "place", value=rec["place"], players=players)
        if rec["player"] is not None:
            earlier = seen.setdefault(fold(rec["player"]), rec)
            if earlier is not rec:
                add("EVENT_PLAYER_TWICE", rec, "player", value=rec["player"],
                    first=layout.cell(earlier["_row"], "player"))
    if players is not None and len(rows) > players:
        counted = next(r for r in rows if r["players"] is not None)
        add("EVENT_MORE_ROWS_THAN_PLAYERS", counted, "players", rows=len(rows), players=players)


def _same(value: Any) -> Any:
    return bool(value) if isinstance(value, bool) or value is None else value


def _event(rows: list[dict[str, Any]]) -> DipPouchEvent:
    first = rows[0]
    results = tuple(dippouch.Result(first["event"], r["date"], r["players"], r["rounds"], r["player"], r["place"],
                                    bool(r["world_championship"]), r["_row"]) for r in rows)
    return DipPouchEvent(first["event"], first["date"], first["players"], first["rounds"],
                         bool(first["world_championship"]), results,
                         next((r["location"] for r in rows if r["location"] is not None), None),
                         tuple((r["country"], r["score"]) for r in rows))
