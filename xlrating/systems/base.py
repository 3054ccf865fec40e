"""What a rating system declares, once, for every layer to read: :class:`RatingSystem`.

A system is its key and names, the table (or sheet) it is submitted as and the validator of it, how
its events become versioned records of the store and come back as the core's records, its
leaderboard with the options that choose it (the rules era, a category, ties...), and its public
pages. The command line builds ``validate``, ``ingest`` and ``rank`` from these declarations; the
store keeps any system's events alike; the officer's queue, the public pages and the search iterate
the registry (:mod:`xlrating.systems`). A new system is one module that subclasses
:class:`RatingSystem` (or :class:`xlrating.systems.tables.TableSystem` for a table of results or
matches) and registers an instance.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

if TYPE_CHECKING:  # the sheets, the store and the exports load only where a system is used
    from xlrating.core.explanation import Explanation
    from xlrating.core.tables import Column
    from xlrating.exports import Leaderboard
    from xlrating.sheets.read.xlsx import SheetGrid
    from xlrating.sheets.validate.findings import Finding
    from xlrating.sheets.validate.registry import Registry
    from xlrating.store.records import EventRecord, IngestOutcome, PlayerRecord, StoredEvent, Submission
    from xlrating.store.sqlite import SQLiteStore
    from xlrating.systems.preview import Preview

Fit = Literal["complete", "near", "none"]
"""How well a file's sheets fit a system's table: every required column named; all but one; neither."""


@dataclass(frozen=True)
class RankOption:
    """An option of a system's leaderboard: ``xlrating rank SYSTEM --flag``, the pages' query
    parameter of the same name, and the keyword of :meth:`RatingSystem.leaderboard`.

    ``kind``: ``text``, ``choice`` (one of ``choices``; ``case_sensitive`` False matches any case
    and gives the spelling of ``choices``) or ``date`` (YYYY-MM-DD)."""

    name: str
    flag: str
    help: str
    kind: Literal["text", "choice", "date"] = "text"
    choices: tuple[str, ...] = ()
    default: Any = None
    case_sensitive: bool = True
    metavar: str | None = None


TIES = RankOption("ties", "--ties", "Tie policy: shared best place, or the average of the places a tie covers.",
                  "choice", ("best", "average"), "best")


@dataclass
class Validation:
    """What validating a submitted file found (in reading order) and what the file says: the
    system's content, which the store takes (:meth:`RatingSystem.submission`) only when ``valid``."""

    findings: list[Finding]
    submission: Any
    system: str

    @property
    def valid(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)


class RatingSystem:
    """The declaration of one rating system (see the module docstring). Subclasses set the class
    attributes and implement the methods; one instance is registered."""

    key: ClassVar[str]  # in addresses, the store and --system: lower case letters
    title: ClassVar[str]  # "Dip Pouch"
    game: ClassVar[str]  # "Diplomacy"
    table_title: ClassVar[str]  # what a submitted file of it is: "Dip Pouch results"
    rank_table_title: ClassVar[str | None] = None  # what ``rank KEY FILE`` reads, when not the submitted table
    rank_columns: ClassVar[tuple[Column, ...]] = ()  # and its columns (default: the submitted table's)
    event_word: ClassVar[str] = "event"  # what its events are called: "event", "tournament"
    columns: ClassVar[tuple[Column, ...]] = ()  # the submitted table's columns; () for a sheet of its own layout
    rank_options: ClassVar[tuple[RankOption, ...]] = ()
    pages: ClassVar[str | None] = None  # the module of its own public pages; None: the generic ones
    fallback: ClassVar[bool] = False  # a file no system recognises is validated as this system's
    explain_sheet: ClassVar[str | None] = None  # the module writing its explanation in live formulas; None: values
    player_is: ClassVar[str] = "the player's name"  # how rank and explain name a player

    # --- a submitted file ---------------------------------------------------------------------

    def fit(self, grids: list[SheetGrid]) -> Fit:
        """How well ``grids`` fit this system's table (:data:`Fit`)."""
        raise NotImplementedError

    def recognises(self, grids: list[SheetGrid]) -> bool:
        """Whether ``grids`` are this system's own kind of sheet when no table fits completely (a
        system submitted as a sheet with its own layout says so here)."""
        return False

    def validate(self, grids: list[SheetGrid], registry: Registry | None = None) -> Validation:
        """Every finding of the file, and what it says."""
        raise NotImplementedError

    def label(self, content: Any) -> str | None:
        """How the intake queue names a submission: ``Name (details)`` as far as the file gives them."""
        raise NotImplementedError

    # --- the store ------------------------------------------------------------------------------

    refuse_overlap: ClassVar[bool] = False  # two events of one name whose days overlap: refused

    def event_records(self, content: Any, sha256: str) -> tuple[EventRecord, ...]:
        """A valid file's events as the store keeps them; ``sha256`` is the file's digest."""
        raise NotImplementedError

    def player_records(self, content: Any) -> tuple[PlayerRecord, ...]:
        """What a valid file says of its players that the system keeps beside its entries."""
        return ()

    def describe(self, events: Sequence[EventRecord], outcome: IngestOutcome) -> str:
        """What ingesting ``events`` did, in a sentence for people."""
        raise NotImplementedError

    def note(self, outcome: IngestOutcome) -> str:
        """What the officer's acceptance keeps as its note (default: the sentence of :meth:`describe`)."""
        return outcome.message

    def submission(self, content: Any, sha256: str) -> Submission:
        """A valid file's content as the store takes it."""
        return self.submission_of(self.event_records(content, sha256), self.player_records(content))

    def submission_of(self, events: Sequence[EventRecord], players: Sequence[PlayerRecord] = ()) -> Submission:
        """The store's submission of records already made (what the intake kept of a checked file)."""
        from xlrating.store.records import Submission

        made = tuple(events)
        return Submission(self.key, made, lambda outcome: self.describe(made, outcome), tuple(players),
                          self.refuse_overlap, self.note)

    replace_hint: ClassVar[str] = "use --replace to replace them"  # the command line's advice on a refusal

    def officer_refusal(self, outcome: IngestOutcome) -> str:
        """Why accepting did not store the file, in the ranking officer's terms."""
        return outcome.message

    def event_detail(self, event: StoredEvent) -> str:
        """What tells a stored event from others of its name, for messages: its days."""
        days = event.start_date.isoformat()
        return days if event.end_date == event.start_date else f"{days} to {event.end_date.isoformat()}"

    def event_address(self, number: int) -> str:
        """The public page of a stored event version."""
        return f"/{self.key}/events/{number}"

    def entry_text(self, entry: Any) -> str:
        """One stored or submitted entry in a line, for the officer's view of what a file changes."""
        shown = [f"place {entry.place}" if entry.place is not None else None, entry.player,
                 f"against {entry.opponent}" if entry.opponent is not None else None,
                 f"result {entry.result:g}" if entry.result is not None else None]
        return " ".join(part for part in shown if part)

    def fact_changes(self, stored: StoredEvent, new: EventRecord) -> list[tuple[str, Any, Any]]:
        """``(what, stored, new)`` for the system's own facts of an event that a new version would
        change, beside its days and players (only those that differ are shown)."""
        return []

    def entry_countries(self, entries: Sequence[Any]) -> dict[str, str]:
        """Each player's country in an event, as its entries give it (players without one left out)."""
        return {}

    def preview(self, store: SQLiteStore, event: EventRecord) -> Preview:
        """What accepting ``event`` would produce, for the officer before deciding
        (:mod:`xlrating.systems.preview`): by default its entries as they would be stored."""
        from xlrating.systems.preview import standings

        return standings(self, event)

    def empty_store_message(self, location: str) -> str | None:
        """Why ``rank`` without a file cannot rank an empty store (None: an empty leaderboard says so)."""
        return (f"{location}: the store holds no {self.table_title}; ingest a {self.table_title} table first "
                f"(xlrating ingest FILE) or give the FILE to rank")

    # --- the leaderboard ------------------------------------------------------------------------

    def records_from_table(self, rows: Sequence[Sequence[Any]], header_row: int) -> list[Any]:
        """The core's records of a table read whole (``xlrating rank SYSTEM FILE``); raises
        :class:`~xlrating.core.errors.TableError` at the first bad cell."""
        raise NotImplementedError

    def stored_records(self, store: SQLiteStore, **options: Any) -> list[Any]:
        """The core's records of the current version of every stored event, as ``rank`` reads them."""
        raise NotImplementedError

    def leaderboard(self, records: list[Any], *, source: str, stored: SQLiteStore | None = None,
                    **options: Any) -> Leaderboard:
        """The leaderboard of ``records`` under ``options`` (:attr:`rank_options`); ``source`` names
        where they came from for messages, ``stored`` is the store they came from (if they did)."""
        raise NotImplementedError

    def history(self, records: list[Any], player: str, **options: Any) -> list[dict[str, Any]]:
        """The player's rating after each event or match, the change and why, in the order rated
        (rows for a table: the generic player page lists them)."""
        return []

    def breakdown(self, records: list[Any], player: str, **options: Any) -> list[dict[str, Any]]:
        """What makes the player's rating under ``options``: each thing counted and how it counts.
        For a rating that is a replay of events or matches, that is its history."""
        return self.history(records, player, **options)

    def explain(self, records: list[Any], player: str, *, source: str = "the results",
                stored: SQLiteStore | None = None, **options: Any) -> Explanation:
        """How ``player``'s rating under ``options`` comes about (``xlrating explain``): the rating
        the leaderboard gives and every row that makes it, each with its inputs and the numbers the
        rules derive from them. By default the leaderboard's line and the rows of :meth:`breakdown`.
        Raises :class:`~xlrating.core.explanation.PlayerNotFound` (naming close matches) when the
        records hold no such player, ``source`` naming where they came from."""
        from xlrating.systems.explain.default import explain

        return explain(self, records, player, source, stored, options)

    def explain_workbook(self, explanation: Explanation) -> bytes:
        """The explanation as an .xlsx: with :attr:`explain_sheet`, its inputs as values and every
        number derived from them a plain spreadsheet formula (no add-in) that recomputes the rating;
        else the rows as values (:mod:`xlrating.sheets.explain`)."""
        from xlrating.sheets.explain.book import workbook

        return workbook(explanation, self.explain_sheet)

    @property
    def ranked_table(self) -> str:
        """What ``rank KEY FILE`` reads: "Dip Pouch results" (the submitted table), "MERS results"."""
        return self.rank_table_title or self.table_title

    def ranks_table(self, grids: list[SheetGrid]) -> bool:
        """Whether a header row of ``grids`` names every required column of the table ``rank KEY
        FILE`` reads (:attr:`rank_columns`, else :attr:`columns`)."""
        from xlrating.sheets.validate.tables import best_header

        columns = self.rank_columns or self.columns
        required = sum(c.required for c in columns)
        return bool(required) and best_header(grids, columns)[0] == required

    def default_options(self) -> dict[str, Any]:
        return {option.name: option.default for option in self.rank_options}


def article(words: str) -> str:
    """"a" or "an" before ``words`` ("an EMA results sheet", "a Dip Pouch results table")."""
    return "an" if words[:1].lower() in "aeio" else "a"


def today() -> dt.date:
    return dt.date.today()
