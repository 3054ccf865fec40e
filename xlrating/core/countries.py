"""Countries as the result tables write them, and the EMA's member countries.

A player's country is written as a code or a name (``FRA``, ``fra``, ``France``): those are one
country when :func:`country_code` gives them one code. The EMA member countries (the first two
digits of an EMA ID, their names and the 3-letter codes of result sheets) are data
(``core/data/ema_countries.csv``), not code; any other country is its text in capitals.
"""

from __future__ import annotations

import functools

from xlrating.core.names import fold
from xlrating.core.reference_data import load

LONGEST_COUNTRY = 60
"""The most characters of a country (a code such as ``FRA`` or a name such as ``France``)."""


def is_country(text: str) -> bool:
    """Whether ``text`` (stripped) can be a country as the tables and the pages' ``?country=``
    take one: a code or a name, of letters (any alphabet), spaces, hyphens and apostrophes, at most
    :data:`LONGEST_COUNTRY` characters (``FRA``, ``France``, ``Côte d'Ivoire``, ``Guinea-Bissau``)."""
    return 0 < len(text) <= LONGEST_COUNTRY and any(ch.isalpha() for ch in text) and all(
        ch.isalpha() or ch in " -'" for ch in text)


@functools.cache
def members_by_prefix() -> dict[str, tuple[str, str]]:
    """An EMA ID's first two digits -> (the member country's name, its 3-letter code)."""
    return {row["prefix"]: (row["country"], row["code"]) for row in load("ema_countries.csv")}


@functools.cache
def member_names() -> dict[str, str]:
    """3-letter code -> the member country's name (``FRA`` -> ``France``)."""
    return {code: name for name, code in members_by_prefix().values()}


@functools.cache
def _codes() -> dict[str, str]:
    codes: dict[str, str] = {}
    for name, code in members_by_prefix().values():
        codes[fold(name)] = code
        codes[fold(code)] = code
    return codes


@functools.lru_cache(maxsize=1024)
def country_code(text: str) -> str:
    """The 3-letter code of a country as written (a code in any case, or a member's name, accents
    and case ignored); a country that is not an EMA member: its text in capitals."""
    return _codes().get(fold(text), text.strip().upper())


def label(country: str) -> str:
    """``France (FRA)`` for a code or name of an EMA member country; any other as written."""
    code = country_code(country)
    name = member_names().get(code)
    return f"{name} ({code})" if name else country
