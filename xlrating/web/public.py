"""The public pages: the MERS ranking per ruleset and rule era, each player's breakdown, the stored
tournaments. Every page is also JSON (the same address ending in ``.json``), computed from the
store's current tournament versions by the same code as ``xlrating rank mers``.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from xlrating.core import mers
from xlrating.leaderboards import mers_leaderboard
from xlrating.web.app import error_page, json_response, render, store, wants_json

DEFAULT_RULES = mers.RULES[-1]  # the EMA's current rules
EMA_ID = re.compile(r"\d{8}")


def _as_of(request: Request) -> dt.date:
    """The ranking date: ``?as_of=YYYY-MM-DD``, default today; a ValueError names what is wrong."""
    text = request.query_params.get("as_of")
    if not text:
        return dt.date.today()
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"as_of={text!r} is not a date; expected YYYY-MM-DD") from None


def _as_of_query(request: Request) -> str:
    """``&as_of=DATE`` when the page was asked for a date, so its links keep it."""
    text = request.query_params.get("as_of")
    return f"&as_of={text}" if text else ""


def _choice(value: str, options: tuple[str, ...], what: str) -> str:
    for option in options:
        if option.casefold() == value.casefold():
            return option
    raise ValueError(f"{what} {value!r} is not one of {', '.join(options)}")


def _board(request: Request, ruleset: str, rules: str, as_of: dt.date) -> dict[str, Any]:
    with store(request) as opened:
        results = opened.mers_results(ruleset)
        names = opened.player_names()
    board = mers_leaderboard(results, as_of, rules=rules, ruleset=ruleset, names=names)
    breakdown = [row | {"date": row["date"].isoformat() if row["date"] else None} for row in board.breakdown]
    return {"ruleset": ruleset, "rules": rules, "as_of": as_of.isoformat(), "ranking": board.ranked(),
            "breakdown": breakdown, "empty_reason": board.empty_reason}


def rankings_index(request: Request) -> Response:
    with store(request) as opened:
        tournaments = opened.tournaments()
    counts = {ruleset: sum(t.ruleset == ruleset for t in tournaments) for ruleset in mers.RULESETS}
    data = {"rulesets": [{"ruleset": r, "tournaments": counts[r],
                          "rankings": {rules: f"/rankings/{r}/{rules}" for rules in mers.RULES}}
                         for r in mers.RULESETS]}
    if request.url.path.endswith(".json"):
        return json_response(data, public=True)
    return render(request, "rankings.html", data | {"rules": mers.RULES, "default_rules": DEFAULT_RULES})


def ranking(request: Request) -> Response:
    rules_text, as_json = wants_json(request.path_params["rules"])
    try:
        ruleset = _choice(request.path_params["ruleset"], mers.RULESETS, "ruleset")
        rules = _choice(rules_text, mers.RULES, "rule era")
        as_of = _as_of(request)
    except ValueError as exc:
        return error_page(request, 404 if "is not one of" in str(exc) else 400, "Not found", str(exc),
                          as_json=as_json)
    data = _board(request, ruleset, rules, as_of)
    if as_json:
        return json_response({k: v for k, v in data.items() if k not in ("breakdown", "empty_reason")},
                             public=True)
    return render(request, "ranking.html", data | {"all_rules": mers.RULES, "as_of_query": _as_of_query(request)})


def player(request: Request) -> Response:
    ema_id, as_json = wants_json(request.path_params["ema_id"])
    try:
        rules = _choice(request.query_params.get("rules") or DEFAULT_RULES, mers.RULES, "rule era")
        as_of = _as_of(request)
        if not EMA_ID.fullmatch(ema_id):
            raise LookupError
        with store(request) as opened:
            who = opened.player(ema_id)
            results = opened.player_results(ema_id)
        if who is None:
            raise LookupError
    except ValueError as exc:
        return error_page(request, 400, "Bad request", str(exc), as_json=as_json)
    except LookupError:
        return error_page(request, 404, "Not found", f"No player with EMA ID {ema_id!r} has results here.",
                          as_json=as_json)
    standings = []
    for ruleset in sorted({r["ruleset"] for r in results}):
        board = _board(request, ruleset, rules, as_of)
        line = next((line for line in board["ranking"] if line["player"] == ema_id), None)
        standings.append({
            "ruleset": ruleset, "rules": rules, "as_of": as_of.isoformat(),
            "rank": line["rank"] if line else None, "total": line["total"] if line else None,
            "ranked_players": len(board["ranking"]),
            "counted": [row for row in board["breakdown"] if row["player"] == ema_id],
        })
    for row in results:
        row["base_rank"] = mers.base_rank(row["players"], row["place"])  # type: ignore[arg-type]
    data = {"player": who, "standings": standings, "results": results}
    if as_json:
        return json_response(data, public=True)
    return render(request, "player.html", data | {"all_rules": mers.RULES, "rules": rules,
                                                  "as_of_query": _as_of_query(request)})


def tournaments(request: Request) -> Response:
    with store(request) as opened:
        stored = opened.tournaments()
    rows = [{"name": t.name, "ruleset": t.ruleset, "start_date": t.start_date.isoformat(),
             "end_date": t.end_date.isoformat(), "players": t.players, "weight": t.weight, "version": t.version}
            for t in reversed(stored)]
    if request.url.path.endswith(".json"):
        return json_response({"tournaments": rows}, public=True)
    return render(request, "tournaments.html", {"tournaments": rows})


routes = [
    Route("/rankings", rankings_index, methods=["GET"]),
    Route("/rankings.json", rankings_index, methods=["GET"]),
    Route("/rankings/{ruleset}/{rules}", ranking, methods=["GET"]),
    Route("/players/{ema_id}", player, methods=["GET"]),
    Route("/tournaments", tournaments, methods=["GET"]),
    Route("/tournaments.json", tournaments, methods=["GET"]),
]
