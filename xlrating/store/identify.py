"""Who the players of a submission are, as the register and the store know them: told before (or
as) it is stored, so the officer sees which registered player each name matched, and is asked when a
new name is close to a known one (a typo, an accent, a second EMA ID for one person).

A player is named as its system keys it (an EMA ID for MERS, a name for the others) and shown by
the name its files give (for MERS, the first and last name of the register of players).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from xlrating.core.names import fold
from xlrating.store.records import Submission

CLOSE = 0.85  # how alike two folded names must be to be asked about (difflib's ratio)
MOST_COMPARED = 2_000  # new players compared with the known ones (a first history: all new, none asked)


@dataclass(frozen=True)
class Match:
    """One player of a submission: ``key`` as submitted, ``player`` as the register says who it is
    (None when new), ``shown`` its name."""

    key: str
    shown: str
    player: str | None
    through_register: bool = False  # matched through a merge


@dataclass(frozen=True)
class Close:
    """A new player whose name is close to a known player's: perhaps the same person."""

    key: str
    shown: str
    known: str
    known_shown: str

    def named(self) -> str:
        """The new player as a message names it: ``'Inès Aubert' (04858660)``, or ``'Ada King'``."""
        return repr(self.shown) + (f" ({self.key})" if self.key != self.shown else "")

    def known_named(self) -> str:
        return repr(self.known_shown) + (f" ({self.known})" if self.known != self.known_shown else "")


@dataclass
class Identification:
    """The players of a submission: known (and how), new, new but close to a known one, and those
    whose name the register says several people bear."""

    known: list[Match] = field(default_factory=list)
    new: list[Match] = field(default_factory=list)
    close: list[Close] = field(default_factory=list)
    homonyms: list[str] = field(default_factory=list)
    compared: bool = True  # False: too many new players to compare each with every known one

    def lines(self, system: str, *, commands: bool = True) -> list[str]:
        """What the officer reads, a line each (the first a count); ``commands`` False words what to
        do for the officer's pages (the register's forms) instead of as commands."""
        through = [m for m in self.known if m.through_register]
        out = [f"players: {len(self.known)} known"
               + (f" ({len(through)} through the register)" if through else "") + f", {len(self.new)} new"]
        out += [f"  {m.shown!r} is {m.player!r} (the register merged them)" for m in through[:20]]
        for c in self.close:
            how = (f"xlrating players merge {system} {_quoted(c.key)} {_quoted(c.known)}" if commands
                   else f"merge {c.key!r} into {c.known!r} in the register")
            out.append(f"  new {c.named()} is close to known {c.known_named()}: if they are the same person, {how}")
        if not self.compared:
            out.append(f"  (the {len(self.new):,} new players were not compared with the known ones: more than "
                       f"{MOST_COMPARED:,})")
        split = "xlrating players split" if commands else "a split in the register"
        out += [f"  {name!r} is borne by several people (the register says so): check whose results these are, "
                f"and split them if they are another's ({split})" for name in self.homonyms]
        return out


def _quoted(text: str) -> str:
    return text if text.replace("-", "").replace("_", "").isalnum() else "'" + text.replace("'", "'\\''") + "'"


def identify(store: Any, submission: Submission) -> Identification:
    """The players of ``submission`` as ``store``'s register and events know them."""
    system = submission.system
    identities = store.identities(system)
    known = store.known_players(system)
    register = store.players(system)
    shown_known = {player: _shown(player, register) for player in known}
    submitted = _names(submission)
    shown_new = {key: name for key, name in submitted.items()}
    found = Identification()
    by_fold: dict[str, list[str]] = {}
    for player, name in shown_known.items():
        by_fold.setdefault(fold(name), []).append(player)
    folded_known = list(by_fold)
    homonyms = store.homonyms(system)
    new_count = sum(1 for key in submitted if identities.resolve(key) not in known)
    found.compared = new_count <= MOST_COMPARED
    for key, name in submitted.items():
        if key in homonyms or name in homonyms:
            found.homonyms.append(name)
        player = identities.resolve(key)
        if player in known:
            found.known.append(Match(key, name, player, player != key))
        else:
            found.new.append(Match(key, name, None))
            if not found.compared or not folded_known:
                continue
            folded = fold(name)
            for alike in difflib.get_close_matches(folded, folded_known, n=3, cutoff=CLOSE):
                for other in by_fold[alike]:
                    found.close.append(Close(key, shown_new[key], other, shown_known[other]))
    return found


def _shown(player: str, register: dict[str, Any]) -> str:
    kept = register.get(player)
    if kept is None:
        return player
    name = " ".join(p for p in (kept.facts.get("first_name"), kept.facts.get("last_name")) if p)
    return name or player


def _names(submission: Submission) -> dict[str, str]:
    """Each player key of the submission and the name its file gives it."""
    names: dict[str, str] = {}
    for record in submission.players:
        first, last = record.facts.get("first_name"), record.facts.get("last_name")
        names[record.player] = " ".join(p for p in (first, last) if p) or record.player
    for key in _keys(entry for event in submission.events for entry in event.entries):
        names.setdefault(key, key)
    return names


def _keys(entries: Iterable[Any]) -> list[str]:
    return list(dict.fromkeys(name for entry in entries for name in (entry.player, entry.opponent) if name))
