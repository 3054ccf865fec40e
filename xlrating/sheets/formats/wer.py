"""Wizards Event Reporter's event file (``.wer``): one Magic event's players, rounds and matches, as XML.

What the program saves for an event and sends to Wizards of the Coast, read by the public parsers of
it (patrickcoyle427/TournamentParser, JohannesKuehnel/wp_mtg_league):

- ``<event title="..." startdate="YYYY-MM-DD" ...>``, the root;
- ``<participation>``: a ``<person id="..." first="..." last="..." country="..."/>`` per person (the
  id is the player's DCI number), then ``<role cd="PL" type="PA">`` listing the final standing
  (``<ref person="..." seq="1"/>``), not read here: the matches make the ratings;
- ``<matches>``: a ``<round number="1" date="YYYY-MM-DDThh:mm:ss">`` per round holding a
  ``<match person="..." opponent="..." outcome="..."/>`` per table: outcome ``1`` the person won,
  ``2`` a draw, ``3`` a bye (no opponent).

Read into a DCI matches table (:func:`read_event`): one row per match from the person's side, the
date the round's (``--date`` for every match), the event its title (``--event``), the players by
name (``First Last``) or, with ``--player id``, by DCI number, their countries as written; ``--k``,
``--tier`` and ``--category`` fill the columns of those names. Each cell of the table remembers the
line and column of the element it came from, so the DCI validator's findings are reported there.
The XML is read through :mod:`xlrating.gate.structured_text` (no DTD, no entities, limits kept).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from xlrating.gate.limits import Limits
from xlrating.gate.structured_text import XmlElement, parse_xml
from xlrating.sheets.formats.findings import Findings, Location
from xlrating.sheets.formats.options import ImportOptions
from xlrating.sheets.formats.produced import Produced

FORMAT = "a Wizards Event Reporter event file"
OUTCOMES = {"1": "W", "2": "D", "3": "bye"}
_DAY = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})(T[0-9:.]*)?")
_WHOLE = re.compile(r"[1-9][0-9]{0,5}")


def read(path: str, data: bytes, options: ImportOptions, out: Findings, limits: Limits) -> list[Produced]:
    """The DCI matches table of the event file ``path`` (its ``data`` read already)."""
    return read_event(parse_xml(data, limits), options, out)


def _at(element: XmlElement) -> Location:
    return Location(None, element.line, element.column)


def read_event(root: XmlElement, options: ImportOptions, out: Findings) -> list[Produced]:
    """The DCI matches table of the parsed event file ``root``; findings to ``out``."""
    if root.tag != "event":
        out.add("IMPORT_ELEMENT_UNEXPECTED", _at(root), found=f"the root element <{root.tag}>",
                expected=f"<event>, the root of {FORMAT}")
        return []
    participation, matches = root.find("participation"), root.find("matches")
    for name, element in (("participation", participation), ("matches", matches)):
        if element is None:
            out.add("IMPORT_ELEMENT_MISSING", _at(root), element=f"<{name}>", inside="in <event>",
                    expected=f"the {'persons' if name == 'participation' else 'rounds'} of the event in it")
    if participation is None or matches is None:
        return []
    names = _persons(participation, options, out)
    event = options.event or root.attributes.get("title", "").strip() or None
    if event is None:
        out.add("IMPORT_OPTION_NEEDED", _at(root), what="event's name", why=" (its title is empty)", option="--event NAME")
    start = _day(root.attributes.get("startdate", ""))
    rows: list[tuple[dict[str, Any], dict[str, Location]]] = []
    rounds = matches.find_all("round")
    if not rounds:
        out.add("IMPORT_NO_ROWS", _at(matches), format=FORMAT, rows="rounds (<round> in <matches>)")
    for round_ in rounds:
        rows.extend(_round(round_, names, options, start, out))
    if out.errors:
        return []
    columns = ["event", "date", "round", "player", "opponent", "result", "player_country", "opponent_country"]
    extra = [(name, value) for name, value in (("k", options.k), ("tier", options.tier),
                                                ("category", options.category)) if value is not None]
    columns += [name for name, _ in extra]
    first = min((values["date"] for values, _ in rows), default=None)
    label = f"{event} ({first.isoformat()})" if first else str(event)
    produced = Produced("DCI matches", "dci", label, _at(root), table="DCI matches")
    produced.add_row(columns)
    for values, origins in rows:
        values.update(event=event, **dict(extra))
        where = {columns.index(name) + 1: at for name, at in origins.items()}
        produced.add_row([values.get(name) for name in columns], where, origins["player"])
    return [produced]


def _persons(participation: XmlElement, options: ImportOptions, out: Findings) -> dict[str, tuple[str, str | None]]:
    """Each person's id -> (the player as the table names them, their country)."""
    found: dict[str, tuple[str, str | None]] = {}
    first_at: dict[str, XmlElement] = {}
    by_name: dict[str, list[str]] = {}
    for person in participation.find_all("person"):
        pid = person.attributes.get("id", "").strip()
        if not pid:
            out.add("IMPORT_VALUE_MISSING", _at(person), field="<person> id", expected="the person's DCI number")
            continue
        if pid in first_at:
            out.add("IMPORT_PERSON_TWICE", _at(person), value=pid, first=_at(first_at[pid]).text)
            continue
        first_at[pid] = person
        name = " ".join(" ".join(person.attributes.get(part, "") for part in ("first", "last")).split())
        if options.player == "name" and not name:
            out.add("IMPORT_VALUE_MISSING", _at(person), field=f"the name of person {pid}",
                    expected="first and last names (or give --player id to name players by their DCI numbers)")
            continue
        player = pid if options.player == "id" else name
        by_name.setdefault(player, []).append(pid)
        found[pid] = (player, person.attributes.get("country", "").strip() or None)
    for name, ids in by_name.items():
        if len(ids) > 1:
            out.add("IMPORT_NAME_SHARED", _at(first_at[ids[1]]), name=name, ids=", ".join(ids))
    return found


def _round(round_: XmlElement, names: dict[str, tuple[str, str | None]], options: ImportOptions,
           start: dt.date | None, out: Findings) -> list[tuple[dict[str, Any], dict[str, Location]]]:
    if round_.attributes.get("teamformat", "").strip().lower() == "true":  # matches of teams, not of players
        out.add("IMPORT_ELEMENT_UNEXPECTED", _at(round_), found="a round of a team event (teamformat=\"true\")",
                expected="a round of an individual event: the DCI rates players, not teams")
        return []
    number_text = round_.attributes.get("number", "").strip()
    number = int(number_text) if _WHOLE.fullmatch(number_text) else None
    if number is None:
        out.add("IMPORT_VALUE_INVALID", _at(round_), field="<round> number", value=number_text,
                expected="the round's number, a whole number from 1")
    date = options.date or _day(round_.attributes.get("date", "")) or start
    if date is None:
        out.add("IMPORT_OPTION_NEEDED", _at(round_), what=f"date of round {number_text}",
                why=" (neither the round's date nor the event's startdate is a date)", option="--date YYYY-MM-DD")
    rows = []
    for match in round_.find_all("match"):
        a = match.attributes
        outcome = a.get("outcome", "").strip()
        if outcome not in OUTCOMES:
            out.add("IMPORT_OUTCOME_UNKNOWN", _at(match), value=outcome)
            continue
        person = _person(a.get("person", ""), "person", match, names, out)
        opponent_id = a.get("opponent", "").strip()
        if outcome == "3":
            opponent = None
        elif not opponent_id:
            out.add("IMPORT_VALUE_MISSING", _at(match), field="the <match> opponent",
                    expected="the opponent's person id (only a bye, outcome 3, has none)")
            continue
        else:
            opponent = _person(opponent_id, "opponent", match, names, out)
            if opponent is None:
                continue
        if person is None:
            continue
        here = _at(match)
        rows.append(({"date": date, "round": number, "player": person[0], "opponent": opponent[0] if opponent else "BYE",
                      "result": "W" if outcome == "3" else OUTCOMES[outcome], "player_country": person[1],
                      "opponent_country": opponent[1] if opponent else None},
                     {"player": here, "opponent": here, "result": here, "round": _at(round_), "date": _at(round_),
                      "player_country": here, "opponent_country": here}))
    return rows


def _person(pid: str, field: str, match: XmlElement, names: dict[str, tuple[str, str | None]],
            out: Findings) -> tuple[str, str | None] | None:
    found = names.get(pid.strip())
    if found is None:
        out.add("IMPORT_PERSON_UNKNOWN", _at(match), field=field, value=pid)
    return found


def _day(text: str) -> dt.date | None:
    """The day of ``YYYY-MM-DD`` or ``YYYY-MM-DDThh:mm:ss``; None for anything else (and for the
    placeholder ``0001-01-01`` the program writes for a date not set)."""
    match = _DAY.fullmatch(text.strip())
    if not match:
        return None
    try:
        day = dt.date.fromisoformat(match.group(1))
    except ValueError:
        return None
    return None if day.year < 1900 else day
