"""The public pages of a rating system that declares none of its own, made from its declaration.

For a system with key ``K``: its ranking at ``/rankings/K`` (the leaderboard of ``xlrating rank K``
over the store, its options as query parameters), the stored events at ``/K/events`` and a page per
event version at ``/K/events/{number}`` (its entries as stored, its versions), a page per player at
``/K/players/{name}`` (their line of the ranking, their history as the system tells it, and every
stored entry naming them), and its part of ``/search``. Each page is also JSON, CSV and Excel.
"""

from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.routing import Route

from xlrating.core.errors import RatingError
from xlrating.core.names import fold, has_words
from xlrating.store import SQLiteStore, StoredEntry, StoredEvent
from xlrating.systems.base import RankOption, RatingSystem
from xlrating.web.page import BadRequest, NotFound, Page, Table
from xlrating.web.pages import (
    HOME_LATEST,
    HOME_LEADERS,
    found,
    merged,
    not_stored,
    number_parameter,
    page_routes,
    paged,
    store,
)

EVENT_COLUMNS = ("id", "name", "start_date", "end_date", "players", "version", "current", "address")
VERSION_COLUMNS = ("id", "version", "current", "stored_at", "replaced_at", "file_name")
ENTRY_FIELDS = ("row", "player", "place", "opponent", "result", "round", "date")


def _entry(entry: StoredEntry) -> dict[str, Any]:
    row = {"row": entry.row, "player": entry.player, "place": entry.place, "opponent": entry.opponent,
           "result": entry.result, "round": entry.round, "date": entry.date.isoformat() if entry.date else None}
    return row | {k: v for k, v in entry.facts.items() if k not in row}


def _columns(rows: list[dict[str, Any]], first: tuple[str, ...]) -> tuple[str, ...]:
    """``first``, then every other key in the order the rows give them: those some row has a value of."""
    keys: dict[str, None] = {}
    for row in rows:
        keys.update(dict.fromkeys(k for k, v in row.items() if v is not None))
    return (*(k for k in first if k in keys), *(k for k in keys if k not in first))


class SystemPages:
    """The generic pages of one system (see the module docstring)."""

    SEARCH_TEMPLATE = "generic_search.html"

    def __init__(self, system: RatingSystem):
        self.system = system
        key = system.key
        self.ranking_path = f"/rankings/{key}"
        self.events_path = f"/{key}/events"
        self.players_path = f"/{key}/players"
        self.MENU = ((system.title, self.ranking_path),)
        self.SEARCH_TABLES = (Table(f"{key}_players", f"{system.title} players", ("player", "address")),
                              Table(f"{key}_events", f"{system.title} events", EVENT_COLUMNS))
        self.routes: list[Route] = [
            *page_routes(self.ranking_path, self.ranking),
            *page_routes(self.events_path, self.events),
            *page_routes(self.events_path + "/{number}", self.event),
            *page_routes(self.players_path + "/{player:path}", self.player),
        ]

    def player_address(self, player: str) -> str:
        return f"{self.players_path}/{quote(player, safe='')}"

    def _context(self) -> dict[str, Any]:
        return {"system": self.system, "ranking_path": self.ranking_path, "events_path": self.events_path}

    def _options(self, request: Request) -> dict[str, Any]:
        """The leaderboard's options from the query (each as ``rank`` takes it), or a 400 naming one."""
        chosen = {}
        for option in self.system.rank_options:
            text = request.query_params.get(option.name, "").strip()
            chosen[option.name] = _option(option, text) if text else option.default
        return chosen

    def _board(self, opened: SQLiteStore, options: dict[str, Any]) -> Any:
        records = self.system.stored_records(opened, **options)
        try:
            return self.system.leaderboard(records, source=opened.path, stored=opened, **options)
        except RatingError as exc:
            raise BadRequest(f"The ranking cannot be computed with these choices: {exc}.") from None

    def ranking(self, request: Request) -> Page:
        options = self._options(request)
        with store(request) as opened:
            board = self._board(opened, options)
        lines = [line | {"address": self.player_address(line["player"])} for line in board.ranked()]
        columns = _columns(lines, ("rank", "player"))
        data = {"system": self.system.key, "options": {k: _shown(v) for k, v in options.items()}, "ranking": lines}
        shown, pager = paged(request, lines, lambda line: (line["player"],))
        return Page(f"{self.system.title} ranking", "generic_ranking.html", data,
                    (Table("ranking", "Ranking", columns),),
                    self._context() | {"shown": shown, "pager": pager, "columns": columns, "empty_reason": "" if lines else board.empty_reason,
                                       "value_name": board.value_name})

    def _event_row(self, event: StoredEvent) -> dict[str, Any]:
        return {"id": event.number, "name": event.name, "start_date": event.start_date.isoformat(),
                "end_date": event.end_date.isoformat(), "players": event.players, "version": event.version,
                "current": event.current, "address": self.system.event_address(event.number)}

    def events(self, request: Request) -> Page:
        with store(request) as opened:
            stored = sorted(opened.events(self.system.key), key=lambda e: (e.start_date, e.number), reverse=True)
        rows = [self._event_row(e) for e in stored]
        shown, pager = paged(request, rows, lambda e: (e["name"],), what="events")
        return Page(f"{self.system.title} events", "generic_events.html", {"events": rows},
                    (Table("events", "Events", EVENT_COLUMNS),),
                    self._context() | {"shown": shown, "pager": pager, "find_label": "Find an event"})

    def event(self, request: Request) -> Page:
        what = f"{self.system.title} event"
        number = number_parameter(request, "number", what, self.events_path)
        with store(request) as opened:
            found = opened.event(self.system.key, number)
            if found is None:
                raise not_stored(what, number, self.events_path)
            entries = [_entry(e) for e in opened.entries([found])[found.id]]
            versions = opened.versions(found)
        columns = _columns(entries, ENTRY_FIELDS)
        about = self._event_row(found) | {"facts": dict(found.facts), "stored_at": found.stored_at,
                                          "replaced_at": found.replaced_at, "file_name": found.file_name}
        data = {"event": about, "entries": entries,
                "versions": [{"id": v.number, "version": v.version, "current": v.current, "stored_at": v.stored_at,
                              "replaced_at": v.replaced_at, "file_name": v.file_name} for v in versions]}
        title = found.name + ("" if found.current else f" (version {found.version}, replaced)")
        return Page(title, "generic_event.html", data,
                    (Table("entries", "Entries", columns), Table("versions", "Versions", VERSION_COLUMNS)),
                    self._context() | {"columns": columns})

    def player(self, request: Request) -> Page:
        name = request.path_params["player"]
        options = self._options(request)
        with store(request) as opened:
            mine = opened.player_entries(self.system.key, name)
            if not mine:
                raise NotFound(f"No {self.system.title} player named {name!r} has results here; search players by "
                               f"name at /search.")
            board = self._board(opened, options)
            records = self.system.stored_records(opened, **options)
        line = next((line for line in board.ranked() if line["player"] == name), None)
        history = self.system.history(records, name, **options)
        entries = [_entry(entry) | {"event": event.name, "event_id": event.number,
                                    "event_address": self.system.event_address(event.number)} for event, entry in mine]
        entry_columns = _columns(entries, ("event", "event_id", *ENTRY_FIELDS))
        history_columns = _columns(history, ())
        data = {"player": name, "standing": line, "ranked_players": len(board.lines), "history": history,
                "entries": entries}
        return Page(f"{name}: {self.system.title}", "generic_player.html", data,
                    (Table("history", "History", history_columns), Table("entries", "Entries", entry_columns)),
                    self._context() | {"history_columns": history_columns, "entry_columns": entry_columns,
                                       "value_name": board.value_name})

    def home_summary(self, opened: SQLiteStore, today: dt.date) -> dict[str, Any]:
        """What the home page shows of the system: the top of its ranking with the default options
        and its latest events."""
        board = self._board(opened, {option.name: option.default for option in self.system.rank_options})
        lines = board.ranked()
        boards = [{"title": f"{self.system.title} ranking", "address": self.ranking_path,
                   "value": board.value_name.capitalize(), "ranked": len(lines),
                   "leaders": [{"rank": line["rank"], "name": line["player"],
                                "address": self.player_address(line["player"]), "value": line[board.value_name]}
                               for line in lines[:HOME_LEADERS]]}] if lines else []
        stored = sorted(opened.events(self.system.key), key=lambda e: (e.end_date, e.number), reverse=True)
        latest = [{"name": e.name, "date": e.end_date.isoformat(), "address": self.system.event_address(e.number),
                   "detail": f"{e.players} players"} for e in [e for e in stored if e.end_date <= today][:HOME_LATEST]]
        return {"boards": boards, "latest": latest, "events_address": self.events_path,
                "rankings_address": self.ranking_path}

    def search_data(self, opened: SQLiteStore, text: str) -> dict[str, Any]:
        words = fold(text).split()
        key = self.system.key
        if not words:
            return merged(found(f"{key}_players", []), found(f"{key}_events", []))
        names = {name for _, entry in opened.current_entries(key) for name in (entry.player, entry.opponent) if name}
        players = sorted((n for n in names if has_words(words, n)), key=lambda n: (fold(n), n))
        events = sorted((e for e in opened.events(key) if has_words(words, e.name)),
                        key=lambda e: (e.start_date, e.number), reverse=True)
        people = found(f"{key}_players", [{"player": n, "address": self.player_address(n)} for n in players])
        return merged(people, found(f"{key}_events", [self._event_row(e) for e in events]))


def _option(option: RankOption, text: str) -> Any:
    if option.kind == "date":
        try:
            return dt.date.fromisoformat(text)
        except ValueError:
            raise BadRequest(f"The parameter {option.name}={text!r} is not a date: write it as YYYY-MM-DD.") from None
    if option.kind == "choice":
        for choice in option.choices:
            if choice == text or (not option.case_sensitive and choice.casefold() == text.casefold()):
                return choice
        raise BadRequest(f"The parameter {option.name}={text!r} is not one of {', '.join(option.choices)}.")
    return text


def _shown(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date) else value
