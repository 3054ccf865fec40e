"""Rules for each player row: EMA IDs (docs/rating-rules.md section 3, "EMA IDs"), names, countries,
score cells, and the optional player registry."""

from __future__ import annotations

import re
from typing import Any

from xlrating.core import countries
from xlrating.core.ema_ids import NO_ID
from xlrating.sheets.read import cells as cv
from xlrating.sheets.validate.ema.layout import Layout
from xlrating.sheets.validate.ema.submission import PlayerRow
from xlrating.sheets.validate.findings import UNREAD, Collector
from xlrating.sheets.validate.registry import Registry


def read_players(layout: Layout, out: Collector, registry: Registry | None) -> list[tuple[PlayerRow, Any]]:
    """Read every player row and check its ID, names, country and score cells. Returns each row
    with its raw Position cell, which the placement rules judge."""
    grid, cols = layout.grid, layout.columns
    by_prefix = countries.members_by_prefix()
    member_codes_set = set(countries.member_names())
    seen: dict[str, str] = {}
    players = []
    for r in layout.player_rows:
        raw = {role: out.read(grid, r, c) for role, c in cols.items()}
        last, first, country = raw.get("last_name"), raw.get("first_name"), raw.get("country")
        row = PlayerRow(r, None, None, None if last is UNREAD else cv.text(last),
                        None if first is UNREAD else cv.text(first),
                        None if country is UNREAD else cv.text(country))
        _names(layout, out, r, row, last, first)
        if "country" in cols and row.country is None and country is not UNREAD:
            out.add("COUNTRY_EMPTY", grid.name, r, cols["country"], row=r)
        row.table_points = _score(layout, out, r, "table_points", raw.get("table_points"))
        row.score = _score(layout, out, r, "score", raw.get("score"))
        if "ema_id" in cols and raw["ema_id"] is not UNREAD:
            row.ema_id = _ema_id(layout, out, r, raw["ema_id"], row, by_prefix, member_codes_set, seen)
        if registry is not None and row.ema_id is not None:
            _registry(layout, out, r, row, registry)
        players.append((row, raw.get("position")))
    return players


def _names(layout: Layout, out: Collector, r: int, row: PlayerRow, last: Any, first: Any) -> None:
    cols = layout.columns
    if "last_name" in cols and last is not UNREAD and row.last_name is None:
        out.add("NAME_EMPTY", layout.grid.name, r, cols["last_name"], row=r, column="last name")
    if "first_name" in cols and first is not UNREAD and row.first_name is None and row.last_name is not None:
        out.add("FIRST_NAME_EMPTY", layout.grid.name, r, cols["first_name"], row=r)


def _score(layout: Layout, out: Collector, r: int, role: str, value: Any) -> float | None:
    if value is UNREAD or value is None:
        return None
    parsed = cv.number(value)
    if parsed is cv.INVALID:
        out.add("SCORE_NOT_NUMBER", layout.grid.name, r, layout.columns[role],
                column=role.replace("_", " "), value=value)
        return None
    return parsed


def _ema_id(layout: Layout, out: Collector, r: int, raw: Any, row: PlayerRow,
            by_prefix: dict[str, tuple[str, str]], members: set[str], seen: dict[str, str]) -> str | None:
    """The player's EMA ID as 8-digit text, or None (no ID, or an ID too broken to use)."""
    sheet, column = layout.grid.name, layout.columns["ema_id"]
    ema_id: str | None = None
    if raw is None or (isinstance(raw, str) and raw.strip() in NO_ID):
        if row.country is not None and countries.country_code(row.country) in members:
            out.add("EMA_ID_MISSING", sheet, r, column, country=row.country)
        return None
    if isinstance(raw, (int, float)) and not isinstance(raw, bool) and float(raw).is_integer() and raw >= 0:
        # Only a whole number >= 0 can be an ID that lost its text form; "-4858660" has 8
        # characters but is no ID (and would fail the store's digits-only check at ingest).
        digits = str(int(raw))
        if len(digits) == 8:
            out.add("EMA_ID_NOT_TEXT", sheet, r, column, value=raw, repaired=digits)
            ema_id = digits
        elif len(digits) == 7:
            ema_id = "0" + digits
            out.add("EMA_ID_LOST_LEADING_ZERO", sheet, r, column, value=raw, kind="number", repaired=ema_id)
    elif isinstance(raw, str) and re.fullmatch(r"\d{8}", raw.strip()):
        ema_id = raw.strip()
    elif isinstance(raw, str) and re.fullmatch(r"\d{7}", raw.strip()):
        ema_id = "0" + raw.strip()
        out.add("EMA_ID_LOST_LEADING_ZERO", sheet, r, column, value=raw, kind="7-digit text", repaired=ema_id)
    if ema_id is None:
        out.add("EMA_ID_FORMAT", sheet, r, column, value=raw)
        return None
    where = cv.a1(r, column)
    if ema_id in seen:
        out.add("EMA_ID_DUPLICATE", sheet, r, column, value=ema_id, first=seen[ema_id])
    else:
        seen[ema_id] = where
    prefix = ema_id[:2]
    if prefix not in by_prefix:
        out.add("EMA_ID_UNKNOWN_PREFIX", sheet, r, column, value=ema_id, prefix=prefix,
                known=", ".join(sorted(by_prefix)))
    elif row.country is not None and countries.country_code(row.country) != by_prefix[prefix][1]:
        id_country, code = by_prefix[prefix]
        out.add("EMA_ID_COUNTRY_MISMATCH", sheet, r, column, value=ema_id, id_country=f"{id_country} ({code})",
                prefix=prefix, country=row.country)
    return ema_id


def _registry(layout: Layout, out: Collector, r: int, row: PlayerRow, registry: Registry) -> None:
    assert row.ema_id is not None
    column = layout.columns["ema_id"]
    if row.ema_id not in registry.names:
        out.add("PLAYER_UNKNOWN", layout.grid.name, r, column, value=row.ema_id, registry=registry.path)
    elif not registry.matches(row.ema_id, row.last_name, row.first_name):
        found = " ".join(p for p in (row.last_name, row.first_name) if p)
        out.add("PLAYER_NAME_MISMATCH", layout.grid.name, r, layout.columns.get("last_name", column),
                value=row.ema_id, expected=registry.names[row.ema_id], found=found)
