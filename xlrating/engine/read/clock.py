"""The clock a conversion's TODAY() and NOW() read: the computer's, a moment given with ``--now``,
or the moment the workbook was last saved.

Excel computes TODAY and NOW from the computer's clock when it recalculates, and saves those values
in the workbook; a workbook recalculated later (by Excel or by ``xlrating convert``) shows another
day. To recompute a workbook as Excel saved it, ``xlrating convert --now saved`` takes the moment
from the package's core properties: ``dcterms:modified`` of ``docProps/core.xml`` (ECMA-376 Part 2,
11: the part the package's relationship of type ``.../metadata/core-properties`` names), a W3CDTF
date and time Excel writes in UTC (``2026-07-23T10:33:41Z``). The saver's time zone is not
recorded, so the UTC time is used as it is: a workbook saved near midnight, local time, may have
computed TODAY a day apart from it.

:func:`parse_now` reads the option (``2026-07-23``, ``2026-07-23T14:30``, ``2026-07-23T14:30:05``
or ``saved``); :func:`save_time` reads the package's property; :func:`using` sets the clock of the
workbook being computed, which :func:`current` hands the date functions (it remembers that it was
read, so that a workbook whose formulas never read the clock gets no warning about it). A module
of its own, importing nothing heavy.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import posixpath
import re
import zipfile
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

from lxml import etree

from . import xml_parts

SAVED = "saved"  # --now saved: the workbook's own save time
NOW_FORM = "DATE[THH:MM[:SS]] (2026-07-23, 2026-07-23T14:30, 2026-07-23T14:30:05) or saved"

# The moment a conversion's TODAY/NOW see: None (the computer's clock), a wall-clock time, or SAVED
NowOption = dt.datetime | str | None

_NOW = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?")
FIRST, LAST = dt.datetime(1900, 1, 1), dt.datetime(9999, 12, 31, 23, 59, 59)  # the days Excel's dates hold


def parse_now(text: str) -> dt.datetime | str:
    """The ``--now`` option: SAVED, or the date and time it names (a date alone is its midnight).
    ValueError naming the expected form for anything else."""
    written = text.strip()
    if written.lower() == SAVED:
        return SAVED
    match = _NOW.fullmatch(written)
    if match is None:
        raise ValueError(f"expected {NOW_FORM}, not {text!r}")
    year, month, day, hour, minute, second = (int(part) if part else 0 for part in match.groups())
    try:
        moment = dt.datetime(year, month, day, hour, minute, second)
    except ValueError as exc:
        raise ValueError(f"{text!r} is no date and time ({exc}); expected {NOW_FORM}") from None
    if moment < FIRST:
        raise ValueError(f"{text!r} is before 1 January 1900, the first day Excel's dates hold")
    return moment


def serial(moment: dt.datetime) -> float:
    """The serial number of ``moment`` in the 1900 date system, its time of day as the fraction
    (the date functions move it into a 1904 workbook's system: :mod:`..evaluate.date_system`).
    The 1900 system counts a 29 February 1900 that never was: from 1 March 1900 on, days since
    30 December 1899."""
    day = moment.date()
    days = (day - dt.date(1899, 12, 30 if day >= dt.date(1900, 3, 1) else 31)).days
    seconds = moment.hour * 3600 + moment.minute * 60 + moment.second + moment.microsecond / 1e6
    return days + seconds / 86400


# --- the workbook's save time --------------------------------------------------------------------

PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
CORE_PROPERTIES = "docProps/core.xml"
DCTERMS = "http://purl.org/dc/terms/"
# W3CDTF (the profile of ISO 8601 the core properties use): YYYY-MM-DD, then optionally a time
# hh:mm[:ss[.s]] and its time zone (Z or +hh:mm/-hh:mm; missing: taken as UTC)
_W3CDTF = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})?)?")


@dataclass(frozen=True)
class SaveTime:
    """When the workbook was last saved (UTC, no time zone), or None and why not."""

    moment: dt.datetime | None
    missing: str = ""


def parse_w3cdtf(text: str) -> dt.datetime | None:
    """A W3CDTF date and time as UTC (naive); None when it is no full date (a year or a month
    alone names no day) or no valid date."""
    match = _W3CDTF.fullmatch(text.strip())
    if match is None:
        return None
    year, month, day, hour, minute, second, fraction, zone = match.groups()
    try:
        moment = dt.datetime(int(year), int(month), int(day), int(hour or 0), int(minute or 0), int(second or 0),
                             int((fraction or "0")[:6].ljust(6, "0")))
    except ValueError:
        return None
    if zone and zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        moment -= sign * dt.timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
    return moment if FIRST <= moment <= LAST else None


def _core_part(archive: zipfile.ZipFile) -> str | None:
    """The core properties part the package's relationships name (docProps/core.xml when they
    name none and the package has one)."""
    if xml_parts.has(archive, "_rels/.rels"):
        try:
            rels = xml_parts.root(archive, "_rels/.rels")
        except (etree.LxmlError, zipfile.BadZipFile, KeyError, ValueError, OSError):
            rels = None
        for rel in rels.iter(f"{{{PKG_REL}}}Relationship") if rels is not None else ():
            if rel.get("Type", "").endswith("/metadata/core-properties"):
                target = str(rel.get("Target", ""))
                part = target.lstrip("/") if target.startswith("/") else posixpath.normpath(target)
                if xml_parts.has(archive, part):
                    return part
    return CORE_PROPERTIES if xml_parts.has(archive, CORE_PROPERTIES) else None


def save_time(archive: zipfile.ZipFile) -> SaveTime:
    """The package's ``dcterms:modified``; never raises: a missing part or property, or a value
    that is no date and time, is a SaveTime without a moment saying which. (The part was checked
    with every other by the package gate before this reads it.)"""
    part = _core_part(archive)
    if part is None:
        return SaveTime(None, "the package has no core properties part (docProps/core.xml)")
    try:
        root = xml_parts.root(archive, part)
    except (etree.LxmlError, zipfile.BadZipFile, KeyError, ValueError, OSError):
        return SaveTime(None, f"its core properties ({part}) cannot be read")
    element = root.find(f"{{{DCTERMS}}}modified")
    if element is None or not (element.text or "").strip():
        return SaveTime(None, f"its core properties ({part}) have no dcterms:modified")
    moment = parse_w3cdtf(element.text or "")
    if moment is None:
        return SaveTime(None, f"its dcterms:modified {element.text.strip()!r} is no W3CDTF date and time")
    return SaveTime(moment)


# --- the clock of the workbook being computed --------------------------------------------------

@dataclass
class Clock:
    """The moment TODAY and NOW see (wall-clock time, no time zone), and whether a formula read it."""

    moment: dt.datetime
    read: bool = False


CLOCK: ContextVar[Clock | None] = ContextVar("xlrating_clock", default=None)


def current() -> dt.datetime:
    """The moment of the workbook being computed (:func:`using`); outside one, the computer's clock."""
    clock = CLOCK.get()
    if clock is None:
        return dt.datetime.now()
    clock.read = True
    return clock.moment


@contextlib.contextmanager
def using(moment: dt.datetime) -> Iterator[Clock]:
    """TODAY and NOW see ``moment`` inside the block (the :class:`Clock`, which tells whether they
    were read), and what they saw before after it."""
    clock = Clock(moment)
    token = CLOCK.set(clock)
    try:
        yield clock
    finally:
        CLOCK.reset(token)
