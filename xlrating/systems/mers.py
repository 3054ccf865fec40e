"""MERS (EMA Mahjong, the Mahjong European Ranking System), declared for every layer.

Submitted as the EMA's results reporting sheet (a tournament block and a results table in the
layouts submitters use; :mod:`xlrating.sheets.validate.ema`), one tournament per sheet; a
tournament is identified by its ruleset, name (accents and case ignored) and first day, and a new
file for a stored tournament replaces it only when asked (the file is the version). The sheet's
players with an EMA ID are kept with their names and country as last submitted. The rules are in
:mod:`xlrating.core.mers`; the pages in :mod:`xlrating.web.mers_pages`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from xlrating.core.errors import RatingError
from xlrating.core.mers import results as mers_columns
from xlrating.core.names import fold
from xlrating.systems.base import TIES, Fit, RankOption, RatingSystem, Validation

if TYPE_CHECKING:
    from xlrating.core import mers
    from xlrating.core.explanation import Explanation
    from xlrating.exports import Leaderboard
    from xlrating.sheets.read.xlsx import SheetGrid
    from xlrating.sheets.validate.ema.submission import Submission as Sheet
    from xlrating.sheets.validate.registry import Registry
    from xlrating.store.records import EventRecord, IngestOutcome, PlayerRecord, StoredEvent
    from xlrating.store.sqlite import SQLiteStore
    from xlrating.systems.preview import Preview

RULES = ("2005", "2010", "2018")
RULESETS = ("MCR", "Riichi")


def tournament_key(ruleset: str, name: str, start: Any) -> str:
    """How a tournament's versions are told apart from other tournaments."""
    return f"{ruleset}|{fold(name)}|{start.isoformat()}"


class Mers(RatingSystem):
    key = "mers"
    title = "MERS"
    game = "Mahjong"
    table_title = "EMA results sheet"
    rank_table_title = "MERS results"  # rank reads a table of many tournaments' results, not the sheets
    rank_columns = mers_columns.RESULT_COLUMNS
    event_word = "tournament"
    rank_options: ClassVar[tuple[RankOption, ...]] = (
        TIES,
        RankOption("as_of", "--as-of", "Ranking date (default: today).", "date", metavar="YYYY-MM-DD"),
        RankOption("rules", "--rules", "Rule era (default: the era in force on the ranking date).", "choice", RULES),
        RankOption("ruleset", "--ruleset", "MCR or Riichi (required when the results hold both).", "choice", RULESETS,
                   case_sensitive=False),
    )
    pages = "xlrating.web.mers_pages"
    fallback = True
    explain_sheet = "xlrating.sheets.explain.mers"
    player_is = "the EMA ID (8 digits)"
    replace_hint: ClassVar[str] = "use --replace to replace it"

    # --- the file -------------------------------------------------------------------------------

    def fit(self, grids: list[SheetGrid]) -> Fit:
        return "none"  # not a table: a sheet of its own layout (see recognises)

    def recognises(self, grids: list[SheetGrid]) -> bool:
        from xlrating.sheets.validate.ema.layout import find_table

        return find_table(grids) is not None

    def validate(self, grids: list[SheetGrid], registry: Registry | None = None) -> Validation:
        from xlrating.sheets.validate.ema.layout import find_table
        from xlrating.sheets.validate.ema.sheet import validate_grids

        if find_table(grids) is None and (ranked := _results_table(self, grids)) is not None:
            return ranked  # the table `rank mers FILE` reads: one finding saying so, not the sheet's
        checked = validate_grids(grids, registry)
        return Validation(checked.findings, checked.submission, self.key)

    def label(self, content: Sheet) -> str | None:
        t = content.tournament
        if not t.name:
            return None
        details = ", ".join(str(part) for part in (t.ruleset, t.start_date) if part)
        return f"{t.name} ({details})" if details else t.name

    # --- the store ------------------------------------------------------------------------------

    def event_records(self, content: Sheet, sha256: str) -> tuple[EventRecord, ...]:
        from xlrating.store.records import EntryRecord, EventRecord

        t = content.tournament
        if not (t.name and t.ruleset and t.start_date and t.end_date and t.players and t.mers_weight):
            raise ValueError("ingest needs a submission that passed validation")
        entries = tuple(EntryRecord(p.row, p.ema_id, place=p.place, facts={
            "last_name": p.last_name, "first_name": p.first_name, "country": p.country,
            "table_points": p.table_points, "score": p.score}) for p in content.players)
        facts = {"ruleset": t.ruleset, "city": t.city, "country": t.country, "days": t.days, "countries": t.countries,
                 "declared_weight": t.weight, "qualification": t.qualification, "weight": t.mers_weight,
                 "effective_date": t.effective_date.isoformat() if t.effective_date else None}
        return (EventRecord(tournament_key(t.ruleset, t.name, t.start_date), t.name, t.start_date, t.end_date,
                            t.players, sha256, f"{t.name} ({t.ruleset}, {t.start_date})", entries, facts,
                            content.results_sheet),)

    def player_records(self, content: Sheet) -> tuple[PlayerRecord, ...]:
        from xlrating.store.records import PlayerRecord

        return tuple(PlayerRecord(p.ema_id, {"last_name": p.last_name, "first_name": p.first_name,
                                             "country": p.country}) for p in content.players if p.ema_id is not None)

    def describe(self, events: Sequence[EventRecord], outcome: IngestOutcome) -> str:
        if outcome.known is not None:
            name, version, current = outcome.known.versions[0]
            state = "current" if current else "replaced since"
            return f"already stored as version {version} of {name!r} ({state}); nothing changed"
        event, change = events[0], outcome.changes[0]
        what = f"{event.name!r} ({event.facts['ruleset']}, {event.start_date})"
        if change.status == "refused":
            return f"{what} is already stored as version {change.version} from a different file"
        done = f"replaced version {change.version - 1}" if change.status == "replaced" else "new tournament"
        return f"stored {what} as version {change.version} ({done}), {len(event.entries)} results"

    def note(self, outcome: IngestOutcome) -> str:
        """The officer's acceptance as the queue shows it: ``stored as version 2``."""
        if outcome.known is not None or not outcome.changes:
            return outcome.message
        return f"stored as version {outcome.changes[0].version}"

    def officer_refusal(self, outcome: IngestOutcome) -> str:
        change = outcome.changes[0]
        return (f"{change.name!r} is already stored as version {change.version} from a different file. To store this "
                f"file as version {change.version + 1} instead, tick \u201cReplace the stored version\u201d and accept "
                f"again; version {change.version} stays in the history.")

    def event_address(self, number: int) -> str:
        return f"/tournaments/{number}"

    def event_detail(self, event: StoredEvent) -> str:
        return f"{event.facts['ruleset']}, {event.start_date}"

    def entry_text(self, entry: Any) -> str:
        name = " ".join(part for part in (entry.facts.get("first_name"), entry.facts.get("last_name")) if part)
        return f"place {entry.place}: {name or '(no name)'} ({entry.player or 'no EMA ID'})"

    def fact_changes(self, stored: StoredEvent, new: EventRecord) -> list[tuple[str, Any, Any]]:
        return [("weight", stored.facts.get("weight"), new.facts.get("weight")),
                ("city", stored.facts.get("city") or "-", new.facts.get("city") or "-")]

    def entry_countries(self, entries: Sequence[Any]) -> dict[str, str]:
        return {e.player: e.facts["country"] for e in entries if e.player is not None and e.facts.get("country")}

    def preview(self, store: SQLiteStore, event: EventRecord) -> Preview:
        """The tournament's weight and each standing's base rank: as computed, and as the ranking
        counts it under the rules in force on the tournament's last day (the 2018 rules count it
        rounded to a whole number)."""
        from xlrating.core import mers
        from xlrating.systems.preview import Column, Preview

        era = mers.era_of(None, event.end_date)
        how = "round" if era.integer_base_ranks else "none"
        rows = tuple({"place": entry.place, "ema_id": entry.player or "(none)",
                      "name": " ".join(p for p in (entry.facts.get("first_name"), entry.facts.get("last_name")) if p),
                      "country": entry.facts.get("country") or "",
                      "base_rank": mers.base_rank(event.players, entry.place or 0),
                      "counted": mers.base_rank(event.players, entry.place or 0, how)}
                     for entry in event.entries)
        facts = (("ruleset", event.facts["ruleset"]), ("players", event.players), ("days", event.facts.get("days")),
                 ("weight", event.facts["weight"]), ("rules in force", era.name),
                 ("players without an EMA ID", sum(1 for entry in event.entries if entry.player is None)))
        columns = (Column("place", "Place"), Column("ema_id", "EMA ID"), Column("name", "Name"),
                   Column("country", "Country"), Column("base_rank", "Base rank", 2),
                   Column("counted", f"Counted ({era.name} rules)", 2 if how == "none" else 0))
        note = (f"Base rank (N - place) / (N - 1) x 1000 with N = {event.players}; the ranking weighs each by the "
                f"tournament's weight {event.facts['weight']:g}"
                + (", rounded to a whole number first under the 2018 rules." if how == "round" else "."))
        return Preview(event.label, facts, columns, rows, note)

    # --- the leaderboard ------------------------------------------------------------------------

    def records_from_table(self, rows: Sequence[Sequence[Any]], header_row: int) -> list[mers.Result]:
        from xlrating.core import mers

        return mers.results_from_table(rows, header_row=header_row)

    def stored_records(self, store: SQLiteStore, **options: Any) -> list[mers.Result]:
        """Every result of the current version of each tournament (of ``ruleset`` when given), as
        :class:`xlrating.core.mers.Result`: date = end date, players = declared N, weight = the
        declared MERS weight or the 2018 weight computed from its components. Tournaments of one
        name are told apart by their first day (``Name (2024-03-16)``)."""
        import datetime as dt

        from xlrating.core import mers

        ruleset = options.get("ruleset")
        stored = [(event, entry) for event, entry in store.current_entries(self.key, facts=False)
                  if ruleset is None or event.facts["ruleset"] == ruleset]
        stored.sort(key=lambda pair: (pair[0].end_date, pair[0].number, pair[1].place or 0))
        named: dict[str, set[int]] = {}
        for event, _ in stored:
            named.setdefault(event.name, set()).add(event.number)
        results = []
        for event, entry in stored:
            label = event.name if len(named[event.name]) == 1 else f"{event.name} ({event.start_date})"
            effective = event.facts.get("effective_date")
            results.append(mers.Result(label, event.end_date, event.players, event.facts["weight"], entry.player,
                                       entry.place, event.facts["ruleset"],
                                       dt.date.fromisoformat(effective) if effective else None, None, entry.row))
        return results

    def history(self, records: list[Any], player: str, **options: Any) -> list[dict[str, Any]]:
        """The player's total on each day it changed (:func:`xlrating.core.mers.history.total_history`)."""
        return _history(records, player, options)

    def breakdown(self, records: list[Any], player: str, **options: Any) -> list[dict[str, Any]]:
        """The results that make the player's total, best first, then the padding to five: each with
        its base rank, weight and age factor."""
        return _breakdown(records, player, options)

    def explain(self, records: list[Any], player: str, *, source: str = "the results",
                stored: SQLiteStore | None = None, **options: Any) -> Explanation:
        """Every result of the player (an EMA ID) in the ruleset with its base rank, weight, age
        factor, place best first and the parts it is in, then the padding
        (:mod:`xlrating.systems.explain.mers`); the player's name from the store, when there."""
        from xlrating.systems.explain.mers import explain

        return explain(records, player, source, stored, options, player_names(stored) if stored else None)

    def empty_store_message(self, location: str) -> str | None:
        return None  # an empty ranking says why on its own (no player has enough results)

    def leaderboard(self, records: list[Any], *, source: str, stored: SQLiteStore | None = None,
                    **options: Any) -> Leaderboard:
        import datetime as dt

        from xlrating.core import mers
        from xlrating.leaderboards import mers_leaderboard

        ruleset = options.get("ruleset")
        present = sorted({r.ruleset for r in records})
        if ruleset is None and len(present) > 1:
            raise RatingError(f"the results hold {' and '.join(present)} tournaments; choose one with --ruleset")
        names = player_names(stored) if stored is not None else None
        return mers_leaderboard(records, options.get("as_of") or dt.date.today(), rules=options.get("rules"),
                                ruleset=mers.ruleset(ruleset) if ruleset else None, ties=options.get("ties") or "best",
                                names=names)


def _results_table(system: Mers, grids: list[SheetGrid]) -> Validation | None:
    """A MERS results table (:attr:`Mers.rank_columns`) is what ``rank mers FILE`` reads, not a
    submission: validating it finds that, once, at its header, instead of the sheet it is not."""
    from xlrating.sheets.validate.ema.submission import Submission, Tournament
    from xlrating.sheets.validate.findings import Collector
    from xlrating.sheets.validate.tables import best_header

    if not system.ranks_table(grids):
        return None
    layout = best_header(grids, system.rank_columns)[1]
    assert layout is not None
    out = Collector()
    out.add("MERS_RESULTS_TABLE", layout.grid.name, layout.header_row, min(layout.columns.values()),
            columns=", ".join(layout.headers[name] for name in sorted(layout.columns, key=layout.columns.__getitem__)))
    return Validation(out.findings, Submission(Tournament()), system.key)


def _options(options: dict[str, Any]) -> tuple[Any, str, str | None]:
    import datetime as dt

    from xlrating.core.mers import rules_in_force

    as_of = options.get("as_of") or dt.date.today()
    return as_of, options.get("rules") or rules_in_force(as_of), options.get("ruleset")


def _history(records: list[Any], player: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    from xlrating.core.mers.history import total_history

    as_of, rules, ruleset = _options(options)
    return total_history(records, player, ruleset, rules, as_of)


def _breakdown(records: list[Any], player: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    from xlrating.core import mers

    as_of, rules, ruleset = _options(options)
    board = mers.rankings(records, as_of, rules, ruleset_name=ruleset, ties=options.get("ties") or "best",
                          with_breakdown=True)
    line = next((line for line in board if line.player == player), None)
    if line is None or line.breakdown is None:
        return []
    return [{"tournament": "(padding to 5 results)" if r.padding else r.tournament,
             "date": r.date.isoformat() if r.date else None, "base_rank": r.base_rank, "weight": r.weight,
             "age_factor": r.age_factor, "padding": r.padding} for r in line.breakdown.results]


def player_names(store: SQLiteStore) -> dict[str, str]:
    """EMA ID -> "First Last" as last submitted, for showing leaderboards to people."""
    return {key: " ".join(p for p in (player.facts.get("first_name"), player.facts.get("last_name")) if p)
            for key, player in store.players("mers").items()}
