"""The registry of rating systems: every layer iterates it instead of naming a system.

The three built-in systems (:mod:`.dippouch`, :mod:`.dci`, :mod:`.mers`) are registered here; a new
one is a module with a :class:`~xlrating.systems.base.RatingSystem` subclass that registers an
instance with :func:`register`, loaded by naming it in ``$XLRATING_SYSTEMS`` (modules, comma
separated: every process of the command line and the server, its checking workers included, loads
them) or by the ``xlrating.systems`` entry point of an installed package. :func:`detect` says which
system a submitted file is for, from its sheets.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
from typing import TYPE_CHECKING, Any

from xlrating.systems.base import RatingSystem, article
from xlrating.systems.dci import Dci
from xlrating.systems.dippouch import DipPouch
from xlrating.systems.mers import Mers

if TYPE_CHECKING:
    from xlrating.sheets.read.submitted import SubmittedFile
    from xlrating.sheets.read.xlsx import SheetGrid
    from xlrating.sheets.validate.registry import Registry
    from xlrating.systems.base import Validation

__all__ = ["RatingSystem", "SystemUnclear", "UnknownSystem", "all_systems", "detect", "get", "keys", "register",
           "validate_submission"]

_REGISTERED: dict[str, RatingSystem] = {}
_ENTRY_POINTS = "xlrating.systems"
SYSTEMS_ENV = "XLRATING_SYSTEMS"
_loaded_entry_points = False


class UnknownSystem(KeyError):
    """No registered system has this key."""

    def __str__(self) -> str:
        return str(self.args[0])


class SystemUnclear(ValueError):
    """The columns fit more than one system's table; the message says which, ``systems`` their keys."""

    def __init__(self, message: str, systems: tuple[str, ...]):
        super().__init__(message)
        self.systems = systems

    @property
    def choose(self) -> str:
        """``say which with --system dippouch or --system dci``."""
        return "say which with " + " or ".join(f"--system {key}" for key in self.systems)


def register(system: RatingSystem) -> RatingSystem:
    """Add ``system`` to the registry (replacing one of the same key); returns it."""
    if not system.key.isascii() or not system.key.isalpha() or not system.key.islower():
        raise ValueError(f"a rating system's key is lower-case letters (it is in addresses), got {system.key!r}")
    _REGISTERED[system.key] = system
    return system


def unregister(key: str) -> None:
    """Take a system out of the registry (tests register one for a while)."""
    _REGISTERED.pop(key, None)


def _load_entry_points() -> None:
    global _loaded_entry_points
    if _loaded_entry_points:
        return
    _loaded_entry_points = True
    for entry in importlib.metadata.entry_points(group=_ENTRY_POINTS):
        found = entry.load()
        register(found() if isinstance(found, type) else found)
    for module in filter(None, (name.strip() for name in os.environ.get(SYSTEMS_ENV, "").split(","))):
        importlib.import_module(module)  # registers its system as it is imported


def all_systems() -> list[RatingSystem]:
    """Every registered system, in the order registered."""
    _load_entry_points()
    return list(_REGISTERED.values())


def keys() -> tuple[str, ...]:
    return tuple(system.key for system in all_systems())


def get(key: str) -> RatingSystem:
    """The registered system of ``key`` (any case); :class:`UnknownSystem` naming the known ones."""
    _load_entry_points()
    found = _REGISTERED.get(key.lower())
    if found is None:
        raise UnknownSystem(f"no rating system {key!r}; the systems are {', '.join(_REGISTERED)}")
    return found


def detect(grids: list[SheetGrid], name: str = "the file") -> RatingSystem:
    """The system whose submission ``grids`` are: the one table every required column of which a
    header row names (two such tables are a doubt the submitter settles with ``--system``); else a
    system that recognises its own kind of sheet; else the one table a header row names all but one
    column of (its findings then say which is missing); else the fallback system, whose findings say
    what its sheet needs."""
    systems = all_systems()
    fits = {system.key: system.fit(grids) for system in systems}
    complete = [s for s in systems if fits[s.key] == "complete"]
    if len(complete) == 1:
        return complete[0]
    if len(complete) > 1:
        tables = " and ".join(f"{article(s.table_title)} {s.table_title} table" for s in complete)
        raise SystemUnclear(f"{name}: the columns fit both {tables}; expected the columns of one of them",
                            tuple(s.key for s in complete))
    for system in systems:
        if system.recognises(grids):
            return system
    near = [s for s in systems if fits[s.key] == "near"]
    if len(near) == 1:
        return near[0]
    return next(s for s in systems if s.fallback)


def validate_submission(path: str | os.PathLike[str], submitted: SubmittedFile, registry: Registry | None = None,
                        *, system: str | None = None) -> Validation:
    """Validate the opened file ``submitted`` as ``system``'s (judged by :func:`detect` when None);
    raises :class:`SystemUnclear` when its columns leave a doubt, and ``UnreadableWorkbook`` naming the import
    that reads it for another program's file (:mod:`xlrating.sheets.formats.recognise`)."""
    from xlrating.sheets.formats.recognise import refuse_other_programs
    from xlrating.sheets.read.submitted import read_grids
    from xlrating.sheets.validate.findings import not_utf8_findings

    grids = read_grids(submitted)
    refuse_other_programs(path, grids)  # the WDD's upload, the EMA's workbook: said what they are and what reads them
    chosen = get(system) if system else detect(grids, os.fspath(path))
    validation = chosen.validate(grids, registry)
    garbled = not_utf8_findings(grids)
    if garbled:  # a CSV's bytes that are not UTF-8: a finding at each cell, in reading order
        cells = {(f.sheet, f.cell) for f, _ in garbled}
        validation.findings = sorted([*(f for f, _ in garbled),
                                      *(f for f in validation.findings if (f.sheet, f.cell) not in cells)],
                                     key=_reading_order(grids))
    return validation


def _reading_order(grids: list[SheetGrid]) -> Any:
    from xlrating.sheets.read.cells import position

    sheets = {grid.name: i for i, grid in enumerate(grids)}
    return lambda f: (sheets.get(f.sheet, -1), *position(f.cell))


for _system in (Mers(), DipPouch(), Dci()):
    register(_system)
