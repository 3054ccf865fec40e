"""The World Diplomacy Reference's tournament classification: one tournament's final standings, as JSON.

What the World Diplomacy Reference (world-diplomacy-reference.com) gives for a tournament, as the
Diplomacy Tournament Visualiser (UEWBot/dipvis, ``tournament/utils.py`` and its tests) reads it: an
object whose ``tournament_classifications`` is a list with one object per player, ``player_id``
(the WDR's number of the player), ``player_full_name``, ``player_rank`` (1 is the winner; players
may share a rank) and ``player_score``. Other keys are not read.

Read into a Dip Pouch results table (:func:`read_classification`): one row per player, the player by
name (or, with ``--player id``, by the WDR's number), the rank the place, the score kept for the
pages. The event's name, date and number of rounds are not in the classification: options. The
players declared are the players classified unless ``--players``. Each finding is at the line and
column of the value it is about.
"""

from __future__ import annotations

from typing import Any

from xlrating.gate.limits import Limits
from xlrating.gate.structured_text import JsonDocument, JsonPath, parse_json
from xlrating.sheets.formats.findings import Findings, Location
from xlrating.sheets.formats.options import ImportOptions
from xlrating.sheets.formats.produced import Produced

FORMAT = "a World Diplomacy Reference tournament classification"
LIST = "tournament_classifications"
TABLE_COLUMNS = ("event", "date", "players", "rounds", "player", "place", "world_championship", "score",
                 "location")


def read(path: str, data: bytes, options: ImportOptions, out: Findings, limits: Limits) -> list[Produced]:
    """The Dip Pouch results table of the classification ``path`` (its ``data`` read already)."""
    return read_classification(parse_json(data, limits), options, out)


def read_classification(document: JsonDocument, options: ImportOptions, out: Findings) -> list[Produced]:
    def at(*path: str | int) -> Location:
        return Location(None, *document.where(tuple(path)))

    value = document.value
    if not isinstance(value, dict) or not isinstance(value.get(LIST), list):
        found = f"the file's JSON, {_kind(value)}," if not isinstance(value, dict) else \
            f"an object without a list {LIST!r}" if LIST not in value else f"{LIST!r} holding {_kind(value[LIST])}"
        out.add("IMPORT_ELEMENT_UNEXPECTED", at(LIST), found=found,
                expected=f"{FORMAT}: an object whose {LIST!r} lists the players")
        return []
    entries: list[Any] = value[LIST]
    if not entries:
        out.add("IMPORT_NO_ROWS", at(LIST), format=FORMAT, rows=f"players (the list {LIST!r} is empty)")
    rows = []
    by_player: dict[str, list[int]] = {}
    for i, entry in enumerate(entries):
        row = _entry(entry, (LIST, i), document, options, out)
        if row is not None:
            rows.append((i, *row))
            by_player.setdefault(row[0], []).append(i)
    for player, found_at in by_player.items():
        if len(found_at) > 1:
            ids = ", ".join(str(entries[i].get("player_id")) for i in found_at)
            out.add("IMPORT_NAME_SHARED", at(LIST, found_at[1], "player_full_name"), name=player, ids=ids)
    for what, option, given in (("event's name", "--event NAME", options.event),
                                ("event's date", "--date YYYY-MM-DD", options.date),
                                ("number of rounds", "--rounds N", options.rounds)):
        if given is None:
            out.add("IMPORT_OPTION_NEEDED", at(), what=what, why="", option=option)
    if out.errors or options.date is None:
        return []
    players = options.players if options.players is not None else len(rows)
    produced = Produced("Dip Pouch results", "dippouch", f"{options.event} ({options.date.isoformat()})", at(LIST),
                        table="Dip Pouch results")
    produced.add_row(TABLE_COLUMNS)
    for i, player, rank, score in rows:
        name_key = "player_id" if options.player == "id" else "player_full_name"
        produced.add_row((options.event, options.date, players, options.rounds, player, rank,
                          bool(options.world_championship), score, options.location),
                         {5: at(LIST, i, name_key), 6: at(LIST, i, "player_rank"), 8: at(LIST, i, "player_score")},
                         at(LIST, i))
    return [produced]


def _entry(entry: Any, path: JsonPath, document: JsonDocument, options: ImportOptions,
           out: Findings) -> tuple[str, int, float | None] | None:
    """(player, rank, score) of one classified player, or None with findings."""
    def at(key: str) -> Location:
        return Location(None, *document.where((*path, key)))

    where = f"{LIST}[{path[-1]}]"
    if not isinstance(entry, dict):
        out.add("IMPORT_ELEMENT_UNEXPECTED", Location(None, *document.where(path)), found=f"{where}, {_kind(entry)},",
                expected="an object with player_full_name, player_rank and player_score")
        return None
    key = "player_id" if options.player == "id" else "player_full_name"
    raw = entry.get(key)
    player = str(raw).strip() if isinstance(raw, (str, int)) and not isinstance(raw, bool) else ""
    if not player:
        out.add("IMPORT_VALUE_MISSING", at(key), field=f"{where}.{key}",
                expected="the player's WDR number" if key == "player_id" else "the player's name")
    rank = entry.get("player_rank")
    if not (isinstance(rank, int) and not isinstance(rank, bool) and rank >= 1):
        out.add("IMPORT_RANK_INVALID", at("player_rank"), field=f"{where}.player_rank", value=rank, unranked="")
        rank = None
    score = entry.get("player_score")
    if score is not None and (isinstance(score, bool) or not isinstance(score, (int, float))):
        out.add("IMPORT_VALUE_INVALID", at("player_score"), field=f"{where}.player_score", value=score,
                expected="a number (the player's tournament score), or null")
        score = None
    if not player or rank is None:
        return None
    return player, rank, score


def _kind(value: Any) -> str:
    """What a JSON value is, with its article: "an array", "a string", "null"."""
    return {dict: "an object", list: "an array", str: "a string", bool: "true or false", type(None): "null"}.get(
        type(value), "a number")
