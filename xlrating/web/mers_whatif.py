"""What if, on the site (:mod:`xlrating.core.mers.whatif`; the figures of ``xlrating whatif``):

- ``/rankings/{ruleset}/{rules}/whatif``: a form; with ``?player=&place=&players=&weight=&date=``
  (and ``?as_of=``), the player's total and place before and after that one more result, and the
  players passed; a value it cannot take gives the form again (a 400) with the values kept and
  each error next to its field;
- ``/rankings/{ruleset}/eras``: the ranking under each rule era side by side, and who moves most.

Both from the store's results as the ranking pages read them; JSON, CSV and Excel as every page.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from typing import Any

from starlette.requests import Request

from xlrating.core import mers
from xlrating.core.errors import InvalidArgument, RatingError
from xlrating.core.mers.whatif import (
    ERA_COLUMNS,
    era_line,
    eras,
    find_player,
    hypothetical_result,
    moved_most,
    what_if,
)
from xlrating.web import mers_published
from xlrating.web.pages import (
    BadRequest,
    FormRefused,
    Page,
    Table,
    choice,
    date_parameter,
    page_routes,
    paged,
    store,
)

PASSED_COLUMNS = ("player", "name", "total", "rank_before", "rank_after")
FIELDS = ("player", "place", "players", "weight", "date", "as_of")


def _whole(request: Request, name: str, example: str) -> int:
    text = request.query_params.get(name, "").strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        raise BadRequest(f"The parameter {name}={text[:20]!r} is not a whole number: give one, e.g. {name}={example}.")
    return int(text)


def _weight(request: Request) -> float:
    text = request.query_params.get("weight", "").strip()
    try:
        weight = float(text)
    except ValueError:
        weight = math.nan
    if not (math.isfinite(weight) and weight > 0) or len(text) > 12:
        raise BadRequest(f"The parameter weight={text[:20]!r} is not a weight: give a number above 0, e.g. weight=2.")
    return weight


def whatif_page(request: Request) -> Page:
    ruleset = choice(request.path_params["ruleset"], mers.RULESETS, "The ruleset")
    rules = choice(request.path_params["rules"], mers.RULES, "The rule era")
    asked = {key: request.query_params.get(key, "").strip() for key in FIELDS}
    data: dict[str, Any] = {"ruleset": ruleset, "rules": rules, "what_if": None, "passed": [], "passed_by": []}
    context: dict[str, Any] = {"asked": asked, "all_rules": mers.RULES, "today": dt.date.today().isoformat(),
                               "errors": {}}
    title = f"What if: the {ruleset} ranking, {rules} rules"
    tables = (Table("passed", "Passed", PASSED_COLUMNS), Table("passed_by", "Passed by", PASSED_COLUMNS))
    form = Page(title, "whatif.html", data, tables, context)
    if not (asked["player"] and asked["place"]):  # the form, filled in with what is given
        return form
    errors: dict[str, str] = {}  # parameter -> what is wrong with it, every one found at once

    def read(name: str, reader: Callable[[], Any]) -> Any:
        try:
            return reader()
        except BadRequest as exc:
            errors[name] = str(exc)
            return None

    def refused(exc: RatingError) -> None:  # InvalidArgument names the parameter; PlayerNotFound the player
        name = exc.argument if isinstance(exc, InvalidArgument) and exc.argument in FIELDS else "player"
        text = str(exc)
        errors.setdefault(name, f"The parameter {text}." if isinstance(exc, InvalidArgument)
                          else f"The parameter player: {text}.")

    place = read("place", lambda: _whole(request, "place", "3"))
    players = read("players", lambda: _whole(request, "players", "40"))
    weight = read("weight", lambda: _weight(request))
    date = read("date", lambda: date_parameter(request, "date"))
    as_of = read("as_of", lambda: date_parameter(request)) if asked["as_of"] else None
    if place is not None and players is not None:  # place within players, players at least 2...
        try:  # (a weight or date refused above is said already: any other one stands in for it here)
            hypothetical_result("", place, players, weight or 1, date or dt.date.today(), ruleset)
        except InvalidArgument as exc:
            refused(exc)
    with store(request) as opened:
        records = mers_published.records(opened, ruleset)
        names = {key: line["name"] for key, line in mers_published.player_register(opened).items()}
    player = ""
    try:
        player = find_player(records, asked["player"], names, f"the {ruleset} results")
    except RatingError as exc:
        refused(exc)
    if errors:
        raise FormRefused({name: errors[name] for name in FIELDS if name in errors}, form)
    try:
        found = what_if(records, player, place=place, players=players, weight=weight, date=date, ruleset=ruleset,
                        as_of=as_of, rules=rules)
    except RatingError as exc:
        refused(exc)
        raise FormRefused(errors, form) from None
    result = found.data(names)
    data |= {"what_if": {k: v for k, v in result.items() if k not in ("passed", "passed_by")},
             "passed": result["passed"], "passed_by": result["passed_by"]}
    return Page(f"What if {result['name'] or player} finishes {place} of {players}: {ruleset}, {rules} rules",
                "whatif.html", data, tables, context)


def eras_page(request: Request) -> Page:
    ruleset = choice(request.path_params["ruleset"], mers.RULESETS, "The ruleset")
    as_of = date_parameter(request)
    with store(request) as opened:
        records = mers_published.records(opened, ruleset)
        names = {key: line["name"] for key, line in mers_published.player_register(opened).items()}
    rows = eras(records, as_of, ruleset=ruleset)
    lines = [era_line(row, names) for row in rows]
    data = {"ruleset": ruleset, "as_of": as_of.isoformat(), "in_force": mers.rules_in_force(as_of),
            "players": lines, "moved_most": [era_line(row, names) for row in moved_most(rows)]}
    shown, pager = paged(request, lines, lambda line: (line["name"], line["player"]))
    return Page(f"{ruleset} ranking under each era", "eras.html", data,
                (Table("players", "Eras", ERA_COLUMNS), Table("moved_most", "Moved most", ERA_COLUMNS)),
                {"shown": shown, "pager": pager, "all_rules": mers.RULES,
                 "as_of_param": request.query_params.get("as_of") or None})


routes = [*page_routes("/rankings/{ruleset}/eras", eras_page),
          *page_routes("/rankings/{ruleset}/{rules}/whatif", whatif_page)]
