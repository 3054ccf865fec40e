"""DCI (Magic: The Gathering, the Elo rating the DCI kept until 2011), declared for every layer.

Submitted as a matches table (one row per match from ``player``'s side: ``date``, ``round``,
``player``, ``opponent``, ``result``, optional ``event``, ``k`` or ``tier``, ``category``, and for the
pages ``player_country`` and ``opponent_country``); an event is the rows of one event name on
consecutive days whose rounds continue (:mod:`xlrating.sheets.validate.events`), and two events of
one name may not overlap in time. The rules are in :mod:`xlrating.core.dci`; the pages in
:mod:`xlrating.web.dci_pages`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from xlrating.core.table_columns import DCI_MATCH_COLUMNS, DCI_SHOWN_COLUMNS
from xlrating.systems.base import RankOption
from xlrating.systems.tables import TableSystem

if TYPE_CHECKING:
    from xlrating.core import dci
    from xlrating.core.explanation import Explanation
    from xlrating.exports import Leaderboard
    from xlrating.sheets.validate.events import DciEvent, EventTable
    from xlrating.sheets.validate.findings import Collector
    from xlrating.sheets.validate.tables import TableLayout
    from xlrating.store.records import EntryRecord, EventRecord, StoredEntry, StoredEvent
    from xlrating.store.sqlite import SQLiteStore
    from xlrating.systems.preview import Preview

RESULT_WORDS = {1.0: "won against", 0.5: "drew with", 0.0: "lost to"}


class Dci(TableSystem):
    key = "dci"
    title = "DCI"
    game = "Magic: The Gathering"
    table_title = "DCI matches"
    columns = (*DCI_MATCH_COLUMNS, *DCI_SHOWN_COLUMNS)
    rank_options: ClassVar[tuple[RankOption, ...]] = (
        RankOption("ties", "--ties", "Accepted for every system; DCI ratings have no placements to tie.", "choice",
                   ("best", "average"), "best"),
        RankOption("method", "--method", "Win probability by the formula or by the FIDE-style table.", "choice",
                   ("formula", "table"), "formula"),
        RankOption("category", "--category", "Rank only this category."),
    )
    pages = "xlrating.web.dci_pages"
    explain_sheet = "xlrating.sheets.explain.dci"
    refuse_overlap = True

    def read_events(self, layout: TableLayout, out: Collector) -> EventTable:
        from xlrating.sheets.validate.dci import validate_dci

        return validate_dci(layout, out)

    def check_rankable(self, table: EventTable) -> None:
        from xlrating.core import dci

        dci.ratings([m for e in table.events for m in e.matches])

    def event_record(self, event: DciEvent, sheet: str | None) -> EventRecord:
        from xlrating.store.records import EntryRecord, EventRecord

        tiers = event.tiers or (None,) * len(event.matches)
        countries = event.countries or ((None, None),) * len(event.matches)
        entries = tuple(EntryRecord(m.row or 0, m.player, opponent=m.opponent, result=m.result, round=m.round,
                                    date=m.date, facts={"k": m.k, "tier": tier, "category": m.category,
                                                        "player_country": player_country,
                                                        "opponent_country": opponent_country})
                        for m, tier, (player_country, opponent_country) in zip(event.matches, tiers, countries))
        return EventRecord(event.key, event.name, event.start_date, event.end_date, event.players, event.fingerprint,
                           event.label(), entries, {"rounds": event.rounds}, sheet)

    def entry_text(self, entry: Any) -> str:
        facts = entry.facts
        if entry.opponent is None:
            return f"{entry.date.isoformat()} round {entry.round}: {entry.player} has a bye ({facts['category']})"
        return (f"{entry.date.isoformat()} round {entry.round}: {entry.player} {RESULT_WORDS[float(entry.result)]} "
                f"{entry.opponent} (K {float(facts['k']):g}, {facts['category']})")

    def fact_changes(self, stored: StoredEvent, new: EventRecord) -> list[tuple[str, Any, Any]]:
        return [("rounds", stored.facts["rounds"], new.facts["rounds"])]

    def entry_countries(self, entries: Sequence[Any]) -> dict[str, str]:
        found: dict[str, str] = {}
        for entry in entries:
            for name, country in ((entry.player, entry.facts.get("player_country")),
                                  (entry.opponent, entry.facts.get("opponent_country"))):
                if name is not None and country:
                    found.setdefault(name, country)
        return found

    def event_address(self, number: int) -> str:
        return f"/dci/events/{number}"

    # --- the leaderboard ------------------------------------------------------------------------

    def records_from_table(self, rows: Sequence[Sequence[Any]], header_row: int) -> list[dci.Match]:
        from xlrating.core import dci

        return dci.matches_from_table(rows, header_row=header_row)

    def stored_records(self, store: SQLiteStore, **options: Any) -> list[dci.Match]:
        """Every match of the current version of each event, as ``rank dci`` reads them from a table."""
        return [match for match, _ in self.stored_matches(store)]

    def stored_matches(self, store: SQLiteStore) -> list[tuple[dci.Match, StoredEvent]]:
        """:meth:`stored_records`, each match with the event version it belongs to."""
        stored = store.current_entries(self.key)
        stored.sort(key=lambda pair: pair[0].start_date)  # stable: events in the order stored, rows in file order
        return [(_match(event, entry), event) for event, entry in stored]

    def preview(self, store: SQLiteStore, event: EventRecord) -> Preview:
        """Each match of the event with the ratings it is rated from and the change it makes
        (``K * (W - p)``, the formula's p), rated after every stored match (but those of the version
        this one replaces) as the leaderboard orders them (:func:`xlrating.core.dci.history.history`)."""
        from xlrating.core.dci.history import history, rating_order
        from xlrating.systems.preview import Column, Preview, other_events

        mine = [_match(event, entry) for entry in event.entries]
        stored = _stored_state(store, self)
        if event.key not in stored.keys and (stored.last is None or min(map(rating_order, mine)) > stored.last):
            # rated after every stored match, as a new event usually is: from the ratings they end at
            rated, count = history(mine, [True] * len(mine), "formula", stored.ratings), stored.matches
        else:  # between stored matches, or replacing a stored version: the whole history again
            others = sorted(other_events(store, self, event), key=lambda pair: pair[0].start_date)
            matches = [_match(stored_event, entry) for stored_event, entry in others]
            rated = history([*matches, *mine], [False] * len(matches) + [True] * len(mine), "formula")
            count = len(matches)
        rows: list[dict[str, Any]] = []
        for item in rated:
            if not item.tag:
                continue
            m = item.match
            rows.append({"date": m.date.isoformat(), "round": m.round, "category": m.category, "player": m.player,
                         "opponent": m.opponent or "(bye)", "result": None if m.opponent is None else float(m.result),
                         "k": float(m.k), "player_rating": item.player_before, "opponent_rating": item.opponent_before,
                         "expected": item.expected, "change": item.change})
        changes: dict[str, float] = {}
        for row in rows:
            if row["change"] is not None:
                changes[row["player"]] = changes.get(row["player"], 0.0) + row["change"]
                changes[row["opponent"]] = changes.get(row["opponent"], 0.0) - row["change"]
        biggest = max(changes.items(), key=lambda pair: (abs(pair[1]), pair[0]), default=None)
        facts = (("matches", sum(1 for row in rows if row["result"] is not None)),
                 ("byes", sum(1 for row in rows if row["result"] is None)), ("players", event.players),
                 ("rounds", event.facts["rounds"]),
                 ("largest change", f"{biggest[0]} {biggest[1]:+.2f}" if biggest else "none"))
        columns = (Column("date", "Date"), Column("round", "Round"), Column("category", "Category"),
                   Column("player", "Player"), Column("player_rating", "Rating", 2), Column("opponent", "Opponent"),
                   Column("opponent_rating", "Opponent's rating", 2), Column("result", "Result"), Column("k", "K"),
                   Column("expected", "p", 3), Column("change", "Change", 2))
        note = (f"Rated after the {count:,} stored matches" if count else "Rated from the start") \
            + " in the leaderboard's order (date, event, round); the opponent's change is the negative of the player's."
        return Preview(event.label, facts, columns, tuple(rows), note)

    def history(self, records: list[Any], player: str, **options: Any) -> list[dict[str, Any]]:
        """Each match of the player in rating order, from their side: the opponent and their
        rating, the result, K, p and the change ``K * (W - p)`` (:func:`xlrating.core.dci.history.history`);
        a bye at its place, not rated."""
        from xlrating.core.dci.history import history

        rated = history(records, [None] * len(records), options.get("method") or "formula")
        rows = []
        for item in rated:
            m = item.match
            if player not in (m.player, m.opponent):
                continue
            mine = m.player == player
            result = float(m.result) if mine else 1.0 - float(m.result)
            rows.append({"date": m.date.isoformat(), "event": m.event, "round": m.round, "category": m.category,
                         "opponent": m.opponent if mine else m.player, "result": result, "k": float(m.k),
                         "expected": item.expected if mine else item.opponent_expected,
                         "opponent_rating": item.opponent_before if mine else item.player_before,
                         "rating_before": item.player_before if mine else item.opponent_before,
                         "change": None if item.change is None else item.change if mine else -item.change,
                         "rating_after": item.player_after if mine else item.opponent_after})
        return rows

    def explain(self, records: list[Any], player: str, *, source: str = "the results",
                stored: SQLiteStore | None = None, **options: Any) -> Explanation:
        """Every match of the player in the category, in rating order, with p and the change
        (:mod:`xlrating.systems.explain.dci`)."""
        from xlrating.systems.explain.dci import explain

        return explain(records, player, source, options)

    def leaderboard(self, records: list[Any], *, source: str, stored: SQLiteStore | None = None,
                    **options: Any) -> Leaderboard:
        from xlrating.leaderboards import dci_leaderboard

        return dci_leaderboard(records, method=options.get("method") or "formula", category=options.get("category"))


def _match(event: EventRecord | StoredEvent, entry: EntryRecord | StoredEntry) -> dci.Match:
    """A match of a stored or submitted event as the core rates it."""
    from xlrating.core import dci

    return dci.Match(entry.date or event.start_date, entry.round or 1, entry.player or "", entry.opponent,
                     float(entry.result or 0.0), event.name, entry.facts["k"], entry.facts["category"], entry.row)


@dataclass(frozen=True)
class _StoredState:
    """The store's current DCI matches as the preview needs them: the events' keys, how many
    matches, where the last one comes in the rating order, and the ratings they end at."""

    keys: frozenset[str]
    matches: int
    last: tuple[Any, ...] | None
    ratings: dict[tuple[str, str], float]


_STATES: dict[str, tuple[tuple[int, ...], _StoredState]] = {}


def _stored_state(store: SQLiteStore, system: Dci) -> _StoredState:
    """:class:`_StoredState` of ``store``, computed again only when its DCI events changed."""
    from xlrating.core.dci.history import final_ratings, history, rating_order

    now = store.revision(system.key)
    kept = _STATES.get(store.path) if store.path != ":memory:" else None  # one path, one store
    if kept is not None and kept[0] == now:
        return kept[1]
    stored = system.stored_matches(store)
    matches = [match for match, _ in stored]
    rated = history(matches, [None] * len(matches), "formula")
    state = _StoredState(frozenset(event.key for _, event in stored), len(matches),
                         max(map(rating_order, matches), default=None), final_ratings(rated))
    if store.path != ":memory:":
        _STATES[store.path] = (now, state)
    return state
