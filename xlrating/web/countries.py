"""The country filter of the Dip Pouch and DCI rankings: ``?country=`` read and checked, the
players' nationalities (as the tables write them) compared with it, and the choices the filter
offers.

The tables write a nationality as a code or a name (``FRA``, ``fra``, ``France``): those are one
country when :func:`xlrating.core.countries.country_code` gives them one code (the EMA member
countries' names are known; any other country is its text in capitals). What a country may be is
the tables' rule (:func:`xlrating.core.countries.is_country`), so every nationality a table stored
can be asked for.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.requests import Request

from xlrating.core.countries import country_code, is_country, label
from xlrating.web.pages import BadRequest

__all__ = ["choices", "label", "parameter", "same"]


def parameter(request: Request, what: str) -> str | None:
    """``?country=`` as given (stripped), None when absent or empty; a 400 when it cannot be a
    country. ``what``: how the tables of this page write a nationality, for the message."""
    text = request.query_params.get("country", "").strip()
    if not text:
        return None
    if not is_country(text):
        raise BadRequest(f"The parameter country={text!r} is not a country: give it as {what} (e.g. country=FRA "
                         f"or country=France), in letters, spaces, hyphens and apostrophes.")
    return text


def same(a: str | None, b: str) -> bool:
    """Whether a player's nationality as the table wrote it is ``b`` (a code or an EMA member
    country's name, in any case: ``fra``, ``FRA`` and ``France`` are one)."""
    return a is not None and country_code(a) == country_code(b)


def choices(nationalities: Iterable[str | None]) -> list[str]:
    """The countries a filter offers for these nationalities: one per country however the tables
    spell it (its first spelling in alphabetical order), sorted by what the filter shows."""
    by_code: dict[str, str] = {}
    for text in sorted({n for n in nationalities if n}, key=lambda n: (n.casefold(), n)):
        by_code.setdefault(country_code(text), text)
    return sorted(by_code.values(), key=lambda n: label(n).casefold())
