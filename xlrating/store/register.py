"""The register of players: who each name or ID in the stored files is, as the ranking officer
decides it, beside what the files say.

The entries stay exactly as submitted; every reading of them applies the register
(:class:`Identities`), so every ranking and page is computed again from it as soon as it changes
(:meth:`~xlrating.store.ledger.Ledger.revision` counts its changes). Four kinds of change, each one
logged with who made it, when and why, and each undone by ``undo`` (logged too):

- **merge** ``player`` into ``into``: one person under two names or two IDs (a typo, a second
  account, a name changed on marriage). Every entry naming ``player`` names ``into``.
- **split** the results of ``player`` at some events to ``new_player``: a substitute who played under
  someone's name, or two people of one name (homonyms) told apart event by event.
- **country** of ``player`` from a date: a player who changed country keeps the old one before it.
- **homonym**: a name known to be borne by several people; ingesting it again says so.

A merge is followed through (``a`` into ``b``, then ``b`` into ``c``: ``a`` is ``c``); a split applies
to the player as merged, and its new player is followed through merges too.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from xlrating.store.intake import utc_now
from xlrating.store.records import StoredEntry
from xlrating.store.transaction import transaction

Action = Literal["merge", "split", "country", "homonym", "undo"]
_TABLES = ("register_aliases", "register_splits", "register_countries", "register_homonyms")


class RegisterError(ValueError):
    """A register change that cannot be made; the message says why and what would do."""


@dataclass(frozen=True)
class Identities:
    """The register's merges and splits of one system, as readings apply them."""

    aliases: dict[str, str] = field(default_factory=dict)  # name merged -> the name it was merged into
    splits: dict[tuple[str, str], str] = field(default_factory=dict)  # (event key, player) -> new player

    def __bool__(self) -> bool:
        return bool(self.aliases or self.splits)

    def resolve(self, name: str) -> str:
        """``name`` followed through the merges."""
        seen = {name}
        while name in self.aliases:
            name = self.aliases[name]
            if name in seen:  # never written (merge refuses a circle); a reading still ends
                break
            seen.add(name)
        return name

    def of(self, event_key: str, name: str | None) -> str | None:
        """Who ``name`` is in the event of ``event_key``: merged, then split."""
        if name is None:
            return None
        player = self.resolve(name)
        moved = self.splits.get((event_key, player))
        return player if moved is None else self.resolve(moved)

    def names_of(self, player: str) -> set[str]:
        """The names stored entries may give ``player`` under: itself, every name merged into it,
        and every name split to it (the caller keeps the entries :meth:`of` gives ``player``)."""
        names = {player} | {alias for alias in self.aliases if self.resolve(alias) == player}
        names |= {source for (_, source), target in self.splits.items() if self.resolve(target) == player}
        return names | {alias for alias in self.aliases if self.resolve(alias) in names}


@dataclass(frozen=True)
class RegisterChange:
    """One line of the register's log."""

    id: int
    system: str
    at: str
    by: str
    action: Action
    details: dict[str, Any]
    why: str
    undoes: int | None
    undone_by: int | None

    def describe(self) -> str:
        """The change in a sentence, as the log lists it."""
        d = self.details
        if self.action == "merge":
            return f"{d['player']} merged into {d['into']}"
        if self.action == "split":
            return f"the results of {d['player']} at {', '.join(d['events'])} given to {d['new_player']}"
        if self.action == "country":
            return f"{d['player']} plays for {d['country']} from {d['since']}"
        if self.action == "homonym":
            return f"{d['name']} is borne by several people"
        return f"change {self.undoes} undone"


def identities_of(db: sqlite3.Connection, system: str) -> Identities:
    """:meth:`Register.identities`, for the ledger's readings."""
    aliases = dict(db.execute("SELECT alias, player FROM register_aliases WHERE system = ?", (system,)).fetchall())
    splits = {(key, player): new for key, player, new in db.execute(
        "SELECT event_key, player, new_player FROM register_splits WHERE system = ?", (system,))}
    return Identities(aliases, splits)


def registered(entry: StoredEntry, event_key: str, identities: Identities) -> StoredEntry:
    """``entry`` with its player and opponent as the register says who they are."""
    player, opponent = identities.of(event_key, entry.player), identities.of(event_key, entry.opponent)
    if player == entry.player and opponent == entry.opponent:
        return entry
    return replace(entry, player=player, opponent=opponent)


def _change(row: Sequence[Any]) -> RegisterChange:
    return RegisterChange(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]), row[6], row[7], row[8])


_LOG = "SELECT id, system, at, by, action, details, why, undoes, undone_by FROM register_log"


class Register:
    """The register methods of :class:`~xlrating.store.sqlite.SQLiteStore` (a mixin over its ``_db``)."""

    _db: sqlite3.Connection
    path: str

    # --- reading --------------------------------------------------------------------------------

    def identities(self, system: str) -> Identities:
        """The merges and splits every reading of ``system``'s entries applies."""
        return identities_of(self._db, system)

    def register_log(self, system: str) -> list[RegisterChange]:
        """Every change of ``system``'s register, oldest first."""
        return [_change(row) for row in self._db.execute(f"{_LOG} WHERE system = ? ORDER BY id", (system,))]

    def registered_countries(self, system: str) -> dict[str, list[tuple[dt.date, str]]]:
        """Each player's countries from the register: (from, country), oldest first."""
        found: dict[str, list[tuple[dt.date, str]]] = {}
        for player, country, since in self._db.execute(
                "SELECT player, country, since FROM register_countries WHERE system = ? ORDER BY since", (system,)):
            found.setdefault(player, []).append((dt.date.fromisoformat(since), country))
        return found

    def homonyms(self, system: str) -> set[str]:
        """The names the register says several people bear."""
        return {name for (name,) in self._db.execute("SELECT name FROM register_homonyms WHERE system = ?", (system,))}

    def register_count(self, system: str | None = None) -> int:
        """How many changes the register has logged (of ``system``, or of all): a part of the store's
        revision, so what is computed from the entries is computed again after each."""
        row = self._db.execute("SELECT count(*) FROM register_log WHERE ? IS NULL OR system = ?",
                               (system, system)).fetchone()
        return int(row[0])

    def _stored_names(self, system: str) -> set[str]:
        rows = self._db.execute(
            "SELECT player FROM entries WHERE player IS NOT NULL AND event_id IN "
            "(SELECT id FROM events WHERE system = ? AND replaced_at IS NULL) UNION "
            "SELECT opponent FROM entries WHERE opponent IS NOT NULL AND event_id IN "
            "(SELECT id FROM events WHERE system = ? AND replaced_at IS NULL)", (system, system))
        return {name for (name,) in rows}

    def known_players(self, system: str) -> set[str]:
        """Every player the register and the current events know, as merged and split."""
        identities = self.identities(system)
        names = {identities.resolve(name) for name in self._stored_names(system)}
        return names | {identities.resolve(new) for new in identities.splits.values()}

    # --- changing -------------------------------------------------------------------------------

    def _log(self, db: sqlite3.Connection, system: str, action: Action, details: dict[str, Any], by: str,
             why: str, undoes: int | None = None) -> int:
        if not by.strip() or not why.strip():
            raise RegisterError("a register change needs who makes it (--by) and why (--why)")
        cursor = db.execute("INSERT INTO register_log (system, at, by, action, details, why, undoes) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?)",
                            (system, utc_now(), by.strip(), action, json.dumps(details, ensure_ascii=False),
                             why.strip(), undoes))
        return int(cursor.lastrowid or 0)

    def _logged(self, log_id: int) -> RegisterChange:
        return _change(self._db.execute(f"{_LOG} WHERE id = ?", (log_id,)).fetchone())

    def merge(self, system: str, player: str, into: str, *, by: str, why: str) -> RegisterChange:
        """Merge ``player`` into ``into`` (see the module docstring)."""
        identities = self.identities(system)
        if player == into:
            raise RegisterError(f"{player!r} cannot be merged into itself")
        if player in identities.aliases:
            raise RegisterError(f"{player!r} is merged into {identities.resolve(player)!r} already; undo that "
                                f"change first to merge it elsewhere")
        if identities.resolve(into) == player:
            raise RegisterError(f"{into!r} is {player!r} already (merged into it): merging back would be a circle; "
                                f"undo that merge instead")
        if player not in self.known_players(system):
            raise RegisterError(f"no stored {system} result names {player!r}; give a player as the results name "
                                f"them (xlrating players list)")
        clash = self._clash(system, player, into, identities)
        if clash:
            raise RegisterError(f"{player!r} and {into!r} cannot be one person: {clash}")
        with transaction(self._db, self.path, f"merge {player} into {into}") as block:
            log_id = self._log(block.db, system, "merge", {"player": player, "into": into}, by, why)
            block.db.execute("INSERT INTO register_aliases (system, alias, player, log_id) VALUES (?, ?, ?, ?)",
                             (system, player, into, log_id))
        return self._logged(log_id)

    def split(self, system: str, player: str, new_player: str, event_keys: Iterable[tuple[str, str]], *, by: str,
              why: str) -> RegisterChange:
        """Give the results of ``player`` at the events ``event_keys`` ((key, label) pairs) to
        ``new_player``."""
        keys = list(dict.fromkeys(event_keys))
        if not keys:
            raise RegisterError("a split needs the events whose results move (--event)")
        identities = self.identities(system)
        player = identities.resolve(player)
        if identities.resolve(new_player) == player:
            raise RegisterError(f"{new_player!r} is {player!r}: a split gives results to another player")
        for key, label in keys:
            if (key, player) in identities.splits:
                raise RegisterError(f"the results of {player!r} at {label} are split already; undo that change first")
            if not self._plays_in(system, key, player, identities):
                raise RegisterError(f"{player!r} has no result at {label}")
        with transaction(self._db, self.path, f"split {player}") as block:
            log_id = self._log(block.db, system, "split", {"player": player, "new_player": new_player,
                                                          "events": [label for _, label in keys],
                                                          "event_keys": [key for key, _ in keys]}, by, why)
            block.db.executemany("INSERT INTO register_splits (system, event_key, player, new_player, log_id) "
                                 "VALUES (?, ?, ?, ?, ?)", [(system, key, player, new_player, log_id) for key, _ in keys])
        return self._logged(log_id)

    def _clash(self, system: str, player: str, into: str, identities: Identities) -> str | None:
        """Why ``player`` and ``into`` cannot be one person, or None: they played each other, or
        both have a place in one event."""
        merged = Identities({**identities.aliases, player: into}, identities.splits)
        one = merged.resolve(into)
        names = sorted(merged.names_of(one))
        marks = ",".join("?" * len(names))
        rows = self._db.execute(
            f"SELECT e.event_key, e.name, e.start_date, n.player, n.opponent, n.place, n.round FROM entries n "
            f"JOIN events e ON e.id = n.event_id WHERE e.system = ? AND e.replaced_at IS NULL "
            f"AND (n.player IN ({marks}) OR n.opponent IN ({marks}))", (system, *names, *names)).fetchall()
        placed: dict[str, set[str]] = {}
        for key, name, start, who, opponent, place, round_ in rows:
            if merged.of(key, who) == one and merged.of(key, opponent) == one:
                return f"they played each other at {name} ({start}), round {round_}"
            if place is not None and merged.of(key, who) == one:
                placed.setdefault(f"{name} ({start})", set()).add(identities.of(key, who) or "")
        both = next((event for event, who in placed.items() if len(who) > 1), None)
        return f"both have a place at {both}" if both else None

    def _plays_in(self, system: str, key: str, player: str, identities: Identities) -> bool:
        rows = self._db.execute(
            "SELECT player, opponent FROM entries WHERE event_id IN "
            "(SELECT id FROM events WHERE system = ? AND event_key = ? AND replaced_at IS NULL)", (system, key))
        return any(identities.of(key, name) == player for row in rows for name in row if name is not None)

    def set_country(self, system: str, player: str, country: str, since: dt.date, *, by: str,
                    why: str) -> RegisterChange:
        """``player`` plays for ``country`` from ``since`` (until a later change)."""
        if not country.strip():
            raise RegisterError("a country change needs the country (e.g. FRA)")
        player = self.identities(system).resolve(player)
        if player not in self.known_players(system):
            raise RegisterError(f"no stored {system} result names {player!r}")
        taken = self._db.execute("SELECT log_id FROM register_countries WHERE system = ? AND player = ? AND since = ?",
                                 (system, player, since.isoformat())).fetchone()
        if taken is not None:
            raise RegisterError(f"{player!r} has a country from {since.isoformat()} already (change {taken[0]}); "
                                f"undo it first")
        with transaction(self._db, self.path, f"set the country of {player}") as block:
            log_id = self._log(block.db, system, "country", {"player": player, "country": country.strip(),
                                                            "since": since.isoformat()}, by, why)
            block.db.execute("INSERT INTO register_countries (system, player, country, since, log_id) "
                             "VALUES (?, ?, ?, ?, ?)", (system, player, country.strip(), since.isoformat(), log_id))
        return self._logged(log_id)

    def mark_homonym(self, system: str, name: str, *, by: str, why: str) -> RegisterChange:
        """Note that several people bear ``name``: ingesting results under it says so."""
        if name in self.homonyms(system):
            raise RegisterError(f"{name!r} is marked as a homonym already")
        with transaction(self._db, self.path, f"mark {name} as a homonym") as block:
            log_id = self._log(block.db, system, "homonym", {"name": name}, by, why)
            block.db.execute("INSERT INTO register_homonyms (system, name, log_id) VALUES (?, ?, ?)",
                             (system, name, log_id))
        return self._logged(log_id)

    def undo(self, system: str, log_id: int, *, by: str, why: str) -> RegisterChange:
        """Undo the change ``log_id`` of ``system``'s register (the log keeps both)."""
        row = self._db.execute(f"{_LOG} WHERE id = ? AND system = ?", (log_id, system)).fetchone()
        if row is None:
            raise RegisterError(f"the {system} register has no change {log_id} (xlrating players log)")
        change = _change(row)
        if change.action == "undo":
            raise RegisterError(f"change {log_id} is an undo; make the change {change.undoes} again instead")
        if change.undone_by is not None:
            raise RegisterError(f"change {log_id} was undone already (by change {change.undone_by})")
        if change.action == "merge":
            later = [r for r in self.register_log(system)
                     if r.id > log_id and r.undone_by is None and r.action == "merge"
                     and r.details["player"] == change.details["into"]]
            if later:
                raise RegisterError(f"change {later[0].id} merged {change.details['into']!r} further; undo it first")
        with transaction(self._db, self.path, f"undo register change {log_id}") as block:
            undo_id = self._log(block.db, system, "undo", {"change": log_id, "was": change.describe()}, by, why,
                                undoes=log_id)
            for table in _TABLES:
                block.db.execute(f"DELETE FROM {table} WHERE log_id = ?", (log_id,))
            block.db.execute("UPDATE register_log SET undone_by = ? WHERE id = ?", (undo_id, log_id))
        return self._logged(undo_id)
