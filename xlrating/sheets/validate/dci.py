"""Validate a DCI matches table (the table of ``xlrating rank dci``) in one pass.

Every cell is read as ``rank`` reads it (:mod:`~xlrating.sheets.validate.tables`): a result is
W/D/L or 1/0.5/0, ``k`` a number >= 0, ``tier`` a tier :data:`xlrating.core.dci.TIERS` knows (or
a K-value). Then the matches: nobody plays themself; a match listed from both sides agrees (W
against L, D against D, one K), else a finding at both rows; a match is not listed twice from one
side; a player is in one match (or bye) per round; one spelling of each event and category.

The table may also give ``player_country`` and ``opponent_country`` (for the public pages; the
ratings ignore them): each a country's code or name, and one country for a player within an
event, wherever the player is named (as the player or as the opponent). A player whose country
differs from one event to another is a warning: the pages show the country of the player's latest
event that gives one.
"""

from __future__ import annotations

from typing import Any

from xlrating.core import countries, dci
from xlrating.core.names import fold
from xlrating.core.table_columns import DCI_SHOWN_COLUMNS
from xlrating.sheets.validate.events import EventTable, dci_events, event_groups
from xlrating.sheets.validate.findings import Collector, has_errors
from xlrating.sheets.validate.tables import TableLayout, mark_bad, read_rows, report_spellings

COLUMNS = (*dci.MATCH_COLUMNS, *DCI_SHOWN_COLUMNS)
COUNTRY_COLUMNS = {"player": "player_country", "opponent": "opponent_country"}
PARSERS = {"result": lambda name, v: dci.score(v), "k": lambda name, v: dci.k_value(v)}


def validate_dci(layout: TableLayout, out: Collector) -> EventTable:
    """The findings go to ``out``; the table's events are filled in only when there is no error."""
    table = EventTable("dci", "DCI matches", layout.grid.name)
    records = read_rows(layout, COLUMNS, out, PARSERS)
    if not records:
        out.add("TABLE_EMPTY", layout.grid.name, layout.header_row, min(layout.columns.values()),
                table="DCI matches", row_is="match")
        return table
    checks = _Checks(layout, out)
    for rec in records:
        checks.row(rec)
    report_spellings(layout, out, records, "event", "events")
    report_spellings(layout, out, records, "category", "categories")
    report_spellings(layout, out, records, "player", "players", "PLAYER_SPELLING_VARIANT")
    checks.pairs(records)
    checks.countries(records)
    if not has_errors(out.findings):
        matches = [_match(r) for r in records]
        countries = [(r["player_country"], r["opponent_country"] if r["opponent"] is not None else None)
                     for r in records]
        table.events = list(dci_events(matches, [checks.tier_text(r) for r in records], countries))
    return table


def _match(rec: dict[str, Any]) -> dci.Match:
    k = rec["k"] if rec["k"] is not None else rec["tier"] if rec["tier"] is not None else dci.DEFAULT_K
    return dci.Match(rec["date"], rec["round"], rec["player"], rec["opponent"], rec["result"], rec["event"] or "",
                     k, rec["category"] or dci.DEFAULT_CATEGORY, rec["_row"])


class _Checks:
    def __init__(self, layout: TableLayout, out: Collector):
        self.layout, self.out = layout, out

    def add(self, code: str, rec: dict[str, Any], column: str, **fields: Any) -> None:
        self.out.add(code, self.layout.grid.name, rec["_row"], self.layout.columns[column],
                     header=self.layout.headers[column], **fields)

    def tier_text(self, rec: dict[str, Any]) -> str | None:
        """The tier as written on the row (for the store), when it names one."""
        if "tier" not in self.layout.columns or rec["tier"] is None:
            return None
        value = self.layout.grid.value(rec["_row"], self.layout.columns["tier"])
        return value.strip() if isinstance(value, str) else None

    def row(self, rec: dict[str, Any]) -> None:
        opponent = rec["opponent"]
        if opponent is not None and opponent.strip().lower() in dci.BYE_NAMES:
            rec["opponent"] = opponent = None
        if rec["k"] is not None:
            if rec["k"] < 0:
                self.add("K_INVALID", rec, "k", value=rec["k"])
                mark_bad(rec, "k")
            elif rec["tier"] is not None and rec["tier"] != rec["k"]:
                self.add("K_TIER_DISAGREE", rec, "k", value=rec["k"], tier_k=rec["tier"],
                         tier=self.layout.grid.value(rec["_row"], self.layout.columns["tier"]))
        if opponent is not None and rec["player"] is not None and fold(opponent) == fold(rec["player"]):
            self.add("MATCH_AGAINST_SELF", rec, "opponent", value=opponent)
            mark_bad(rec, "opponent")

    def _k(self, rec: dict[str, Any]) -> float:
        return rec["k"] if rec["k"] is not None else rec["tier"] if rec["tier"] is not None else dci.DEFAULT_K

    def _k_column(self, rec: dict[str, Any]) -> str:
        if rec["k"] is not None or "tier" not in self.layout.columns:
            return "k" if "k" in self.layout.columns else "result"
        return "tier"

    def pairs(self, records: list[dict[str, Any]]) -> None:
        """Both sides of a match agree; a match is listed at most once from each side; a player is
        in one match or bye per round."""
        needed = ("date", "round", "player", "result", "opponent", "k", "tier", "event", "category")
        # Per round, who is seated (name -> the row and column naming them) and the first row of each
        # match by its two players: nested, so that a history of hundreds of thousands of matches keeps
        # one small key per match, not the round's key again in each. How often a match was listed
        # is counted only for those listed again.
        rounds: dict[tuple[Any, ...], tuple[dict[str, tuple[dict[str, Any], str]],
                                            dict[tuple[str, str], dict[str, Any]]]] = {}
        listed: dict[tuple[Any, ...], int] = {}
        for rec in records:
            if not rec["_bad"].isdisjoint(needed) or any(
                    rec[name] is None for name in ("date", "round", "player", "result")):
                continue
            round_key = (fold(rec["category"] or dci.DEFAULT_CATEGORY), rec["date"], fold(rec["event"] or ""),
                         rec["round"])
            seats, matches = rounds.get(round_key) or rounds.setdefault(round_key, ({}, {}))
            names = (fold(rec["player"]), fold(rec["opponent"]) if rec["opponent"] is not None else None)
            if names[1] is not None:
                pair = (names[0], names[1]) if names[0] <= names[1] else (names[1], names[0])
                first = matches.setdefault(pair, rec)
                if first is not rec:
                    count = listed[(round_key, pair)] = listed.get((round_key, pair), 1) + 1
                    self._same_match(first, rec, count)
                    continue  # the other side of a match already seated
            for name, column in zip(names, ("player", "opponent")):
                if name is None:
                    continue
                if name in seats:
                    earlier, at = seats[name]
                    self.add("PLAYER_TWICE_IN_ROUND", rec, column, value=rec[column], event=_event(rec),
                             round=rec["round"], first=self.layout.cell(earlier["_row"], at))
                else:
                    seats[name] = (rec, column)

    def countries(self, records: list[dict[str, Any]]) -> None:
        """One country per player within an event (an error at each other one); a player whose
        country changes from an earlier event to a later one, a warning at the later one."""
        if not any(column in self.layout.columns for column in COUNTRY_COLUMNS.values()):
            return
        dated = [r for r in records if r["date"] is not None and r["round"] is not None
                 and not {"date", "round", "event"} & r["_bad"]]
        groups = event_groups([(r["event"] or "", r["date"], r["round"]) for r in dated])
        groups.sort(key=lambda g: (min(dated[i]["date"] for i in g), g[0]))  # events by their first day
        latest: dict[str, tuple[dict[str, Any], str, str]] = {}  # player -> where their country was last given
        for group in groups:
            first: dict[str, tuple[dict[str, Any], str]] = {}
            for rec in (dated[i] for i in group):
                for side, column in COUNTRY_COLUMNS.items():
                    name, country = rec[side], rec[column]
                    if name is None or country is None:
                        continue
                    if name not in first:
                        first[name] = (rec, column)
                        continue
                    earlier, at = first[name]
                    if _code(earlier[at]) != _code(country):
                        self.add("PLAYER_COUNTRY_DIFFERS", rec, column, value=country, player=name,
                                 other=earlier[at], first=self.layout.cell(earlier["_row"], at),
                                 event=f"event {rec['event']!r}" if rec["event"] else "the event without a name")
            for name, (rec, column) in first.items():
                before = latest.get(name)
                if before is not None and _code(before[0][before[1]]) != _code(rec[column]):
                    self.add("PLAYER_COUNTRY_CHANGES", rec, column, value=rec[column], player=name,
                             other=before[0][before[1]], first=self.layout.cell(before[0]["_row"], before[1]),
                             earlier=before[2])
                latest[name] = (rec, column, f"{_event(rec)} on {rec['date'].isoformat()}")

    def _same_match(self, first: dict[str, Any], rec: dict[str, Any], count: int) -> None:
        what = {"player": rec["player"], "opponent": rec["opponent"], "event": _event(rec), "round": rec["round"]}
        if count > 2 or fold(first["player"]) == fold(rec["player"]):
            self.add("MATCH_LISTED_TWICE", rec, "player", first=self.layout.cell(first["_row"], "player"), **what)
            return
        if rec["result"] != 1.0 - first["result"]:
            for this, other in ((first, rec), (rec, first)):
                self.add("MATCH_SIDES_DISAGREE", this, "result", value=_shown(self, this, "result"),
                         other=_shown(self, other, "result"),
                         other_cell=self.layout.cell(other["_row"], "result"),
                         **what | {"player": this["player"], "opponent": this["opponent"]})
        if self._k(rec) != self._k(first):
            for this, other in ((first, rec), (rec, first)):
                column, other_column = self._k_column(this), self._k_column(other)
                self.add("MATCH_K_DISAGREE", this, column, value=_shown(self, this, column),
                         other=_shown(self, other, other_column),
                         other_cell=self.layout.cell(other["_row"], other_column),
                         **what | {"player": this["player"], "opponent": this["opponent"]})


def _code(country: str) -> str:
    """A country as the pages compare them (``fra``, ``FRA`` and ``France`` are one)."""
    return countries.country_code(country) or country


def _event(rec: dict[str, Any]) -> str:
    return repr(rec["event"]) if rec["event"] else "the event"


def _shown(checks: _Checks, rec: dict[str, Any], column: str) -> Any:
    """The cell as the table shows it (``W``, not 1.0)."""
    value = checks.layout.grid.value(rec["_row"], checks.layout.columns[column])
    return value.strip() if isinstance(value, str) else value

