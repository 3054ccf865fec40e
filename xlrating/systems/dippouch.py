"""Dip Pouch (Diplomacy, as the World Diplomacy Database rates it), declared for every layer.

Submitted as a results table (one row per player per event: ``event``, ``date``, ``players``,
``rounds``, ``player``, ``place``, optional ``world_championship``, and for the pages ``country``,
``score``, ``location``); an event is the rows of one event name on one date. The rules are in
:mod:`xlrating.core.dippouch`; the pages in :mod:`xlrating.web.dippouch_pages`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from xlrating.core.table_columns import DIPPOUCH_RESULT_COLUMNS, DIPPOUCH_SHOWN_COLUMNS
from xlrating.systems.base import TIES, RankOption
from xlrating.systems.tables import TableSystem

if TYPE_CHECKING:
    from xlrating.core import dippouch
    from xlrating.core.explanation import Explanation
    from xlrating.exports import Leaderboard
    from xlrating.sheets.validate.events import DipPouchEvent, EventTable
    from xlrating.sheets.validate.findings import Collector
    from xlrating.sheets.validate.tables import TableLayout
    from xlrating.store.records import EntryRecord, EventRecord, StoredEntry, StoredEvent
    from xlrating.store.sqlite import SQLiteStore
    from xlrating.systems.preview import Preview


class DipPouch(TableSystem):
    key = "dippouch"
    title = "Dip Pouch"
    game = "Diplomacy"
    table_title = "Dip Pouch results"
    columns = (*DIPPOUCH_RESULT_COLUMNS, *DIPPOUCH_SHOWN_COLUMNS)
    rank_options: ClassVar[tuple[RankOption, ...]] = (TIES,)
    pages = "xlrating.web.dippouch_pages"
    explain_sheet = "xlrating.sheets.explain.dippouch"

    def read_events(self, layout: TableLayout, out: Collector) -> EventTable:
        from xlrating.sheets.validate.dippouch import validate_dippouch

        return validate_dippouch(layout, out)

    def check_rankable(self, table: EventTable) -> None:
        from xlrating.core import dippouch

        dippouch.ratings([r for e in table.events for r in e.results])

    def event_record(self, event: DipPouchEvent, sheet: str | None) -> EventRecord:
        from xlrating.store.records import EntryRecord, EventRecord

        details = event.details or ((None, None),) * len(event.results)
        entries = tuple(EntryRecord(r.row or 0, r.player, place=r.place, facts={"country": country, "score": score})
                        for r, (country, score) in zip(event.results, details))
        return EventRecord(event.key, event.name, event.start_date, event.end_date, event.players, event.fingerprint,
                           event.label(), entries, {"rounds": event.rounds, "world_championship": event.world_championship,
                                                    "location": event.location}, sheet)

    def entry_text(self, entry: Any) -> str:
        return f"place {entry.place}: {entry.player}"

    def fact_changes(self, stored: StoredEvent, new: EventRecord) -> list[tuple[str, Any, Any]]:
        return [("rounds", stored.facts["rounds"], new.facts["rounds"]),
                ("World Championship", "yes" if stored.facts.get("world_championship") else "no",
                 "yes" if new.facts["world_championship"] else "no")]

    def entry_countries(self, entries: Sequence[Any]) -> dict[str, str]:
        found: dict[str, str] = {}
        for entry in entries:
            if entry.facts.get("country"):
                found.setdefault(entry.player, entry.facts["country"])
        return found

    def event_address(self, number: int) -> str:
        return f"/dippouch/events/{number}"

    # --- the leaderboard ------------------------------------------------------------------------

    def records_from_table(self, rows: Sequence[Sequence[Any]], header_row: int) -> list[dippouch.Result]:
        from xlrating.core import dippouch

        return dippouch.results_from_table(rows, header_row=header_row)

    def stored_records(self, store: SQLiteStore, **options: Any) -> list[dippouch.Result]:
        """Every standing of the current version of each event, as ``rank dippouch`` reads them from
        a table (``row``: the row of the file it came from), events in date order."""
        stored = store.current_entries(self.key, facts=False)
        stored.sort(key=lambda pair: pair[0].start_date)  # stable: events in the order stored, rows in file order
        return [_result(event, entry) for event, entry in stored]

    def preview(self, store: SQLiteStore, event: EventRecord) -> Preview:
        """The event's value and each standing's percentile, with the rating it moves the player
        from and to: each player's stored events (but the version this one replaces) and this one,
        in rating order (:func:`xlrating.core.dippouch.history.histories`)."""
        from xlrating.core import dippouch
        from xlrating.core.dippouch.history import histories, value
        from xlrating.systems.preview import Column, Preview, other_events

        mine = [_result(event, entry) for entry in event.entries]
        players = {r.player for r in mine}
        others = [_result(stored, entry) for stored, entry in other_events(store, self, event) if entry.player in players]
        others.sort(key=lambda r: r.date)
        steps = {step.result: step for player, played in histories([*others, *mine]).items() for step in played
                 if player in players}
        rows = []
        for r in mine:
            step = steps[r]
            rows.append({"place": r.place, "player": r.player, "percentile": step.percentile,
                         "rating_before": step.rating_before, "rating_after": step.rating_after, "change": step.change,
                         "events_before": sum(1 for o in others if o.player == r.player
                                              and (o.date, o.event) < (r.date, r.event))})
        worth = value(mine[0]) if mine else 0.0
        facts = (("value", worth), ("players", event.players), ("rounds", event.facts["rounds"]),
                 ("world_championship", "yes" if event.facts.get("world_championship") else "no"))
        columns = (Column("place", "Place"), Column("player", "Player"), Column("percentile", "Percentile", 2),
                   Column("events_before", "Events before"), Column("rating_before", "Rating before", 2),
                   Column("rating_after", "Rating after", 2), Column("change", "Change", 2))
        note = (f"Value {worth:.2f}%: each rating moves {worth:.2f}% of the way to the percentile of the place, "
                f"from the rating after the player's {'stored events before it' if others else 'start'} "
                f"({dippouch.STARTING_RATING:g} before any).")
        return Preview(event.label, facts, columns, tuple(rows), note)

    def history(self, records: list[Any], player: str, **options: Any) -> list[dict[str, Any]]:
        """Each event of the player in rating order: the percentile of the place, the event's value
        and the rating before and after (:func:`xlrating.core.dippouch.history.histories`)."""
        from xlrating.core.dippouch.history import histories

        return [{"event": step.result.event, "date": step.result.date.isoformat(), "players": step.result.players,
                 "rounds": step.result.rounds, "world_championship": step.result.world_championship,
                 "place": step.result.place, "percentile": step.percentile, "value": step.value,
                 "rating_before": step.rating_before, "rating_after": step.rating_after, "change": step.change}
                for step in histories(r for r in records if r.player == player).get(player, [])]

    def explain(self, records: list[Any], player: str, *, source: str = "the results",
                stored: SQLiteStore | None = None, **options: Any) -> Explanation:
        """Every event of the player in rating order with its percentile, value and step
        (:mod:`xlrating.systems.explain.dippouch`)."""
        from xlrating.systems.explain.dippouch import explain

        return explain(records, player, source, options)

    def leaderboard(self, records: list[Any], *, source: str, stored: SQLiteStore | None = None,
                    **options: Any) -> Leaderboard:
        from xlrating.leaderboards import dippouch_leaderboard

        return dippouch_leaderboard(records, ties=options.get("ties") or "best")


def _result(event: EventRecord | StoredEvent, entry: EntryRecord | StoredEntry) -> dippouch.Result:
    """A standing of a stored or submitted event as the core rates it."""
    from xlrating.core import dippouch

    return dippouch.Result(event.name, event.start_date, event.players, event.facts["rounds"], entry.player or "",
                           entry.place or 0, bool(event.facts.get("world_championship")), entry.row)
