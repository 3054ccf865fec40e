"""The championship quotas page: each EMA member country's seats at a championship of ``?seats=``
seats from a ruleset's MERS ranking on ``?as_of=`` under the page's rules, with every step
(:mod:`xlrating.core.mers.quotas`; the same figures as ``xlrating quotas``, from the same ranking
as the ranking page). Also JSON, CSV (the countries) and Excel (Countries and Steps).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request

from xlrating.core import mers
from xlrating.core.countries import member_names
from xlrating.core.errors import InvalidArgument
from xlrating.core.mers.quotas import (
    COUNTRY_COLUMNS,
    MOST_SEATS,
    STEP_COLUMNS,
    NoQuotaCountries,
    quotas,
    ranked_players,
)
from xlrating.web import mers_published
from xlrating.web.pages import BadRequest, Page, Table, choice, date_parameter, page_routes, store

DEFAULT_SEATS = 130
"""The seats when the page is not told (``?seats=``): the 130 the EMA has reserved for its member
countries at World Championships held in Europe."""
EMA_ID = re.compile(r"\d{8}")
MOST_PERSONAL = 10


def _seats(request: Request) -> int:
    text = request.query_params.get("seats", "").strip()
    if not text:
        return DEFAULT_SEATS
    if not (text.isascii() and text.isdigit() and len(text) <= 6 and 1 <= int(text) <= MOST_SEATS):
        raise BadRequest(f"The parameter seats={text[:20]!r} is not a number of seats: give a whole number from 1 to "
                         f"{MOST_SEATS:,}, e.g. seats={DEFAULT_SEATS}.")
    return int(text)


def _personal(request: Request) -> list[str]:
    given = [text.strip() for text in request.query_params.getlist("personal") if text.strip()]
    for text in given:
        if not EMA_ID.fullmatch(text):
            raise BadRequest(f"The parameter personal={text[:20]!r} is not an EMA ID: give the 8 digits of a ranked "
                             f"player (e.g. personal=04858660), once for each personal seat.")
    if len(given) > MOST_PERSONAL:
        raise BadRequest(f"The parameter personal is given {len(given)} times: at most {MOST_PERSONAL} personal seats.")
    return given


def quotas_page(request: Request) -> Page:
    ruleset = choice(request.path_params["ruleset"], mers.RULESETS, "The ruleset")
    rules = choice(request.path_params["rules"], mers.RULES, "The rule era")
    as_of = date_parameter(request)
    seats = _seats(request)
    personal = _personal(request)
    with store(request) as opened:
        board = mers_published.ranking(opened, ruleset, rules, as_of)
    about: dict[str, Any] = {"ruleset": ruleset, "rules": rules, "as_of": as_of.isoformat()}
    empty = ""
    try:
        result = quotas(ranked_players(board["ranking"]), seats, personal)
    except NoQuotaCountries as exc:
        empty = board["empty_reason"] if not board["ranking"] else f"No quotas: {exc}."
        data = about | {"seats": seats, "countries": [], "personal": [], "steps": [], "empty_reason": empty}
    except InvalidArgument as exc:
        raise BadRequest(f"The parameter {exc}.") from None
    else:
        data = about | result.data()
    names = {line["player"]: line["name"] for line in board["ranking"]}
    return Page(f"{ruleset} championship quotas, {rules} rules", "quotas.html", data,
                (Table("countries", "Countries", COUNTRY_COLUMNS), Table("steps", "Steps", STEP_COLUMNS)),
                {"all_rules": mers.RULES, "as_of_param": request.query_params.get("as_of") or None,
                 "seats_param": request.query_params.get("seats") or None, "personal_ids": personal,
                 "empty_reason": empty, "names": names, "country_names": member_names(), "most_seats": MOST_SEATS,
                 "era_links": {other: _address(ruleset, other, request) for other in mers.RULES}})


def _address(ruleset: str, rules: str, request: Request) -> str:
    """This page under other ``rules``, with the visitor's date, seats and personal seats."""
    query = urlencode([(k, v) for k, v in request.query_params.multi_items() if k in ("as_of", "seats", "personal") and v])
    return f"/rankings/{ruleset}/{rules}/quotas" + (f"?{query}" if query else "")


routes = page_routes("/rankings/{ruleset}/{rules}/quotas", quotas_page)
