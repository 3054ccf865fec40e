"""Championship quotas: the seats of each EMA member country at a European or World championship
of ``T`` seats, from a MERS ranking, by the EMA's published method ("Basics for EMA Quotas"; Part B
by the recursive method the EMA General Assembly adopted in 2019). docs/rating-rules.md,
"Championship quotas", gives the method and every point where the EMA's text is silent.

- **Countries**: the EMA member countries (``core/data/ema_countries.csv``) with at least one
  ranked player. A player counts for the country the ranking line gives (a code or a name, one
  country as :func:`~xlrating.core.countries.country_code` reads it); a player of no member
  country counts only in the average of the cap.
- **Part A**, fixed seats: one per country; one more per country with a player above 700 (a total
  over 700, unrounded); one more for each of the :data:`BEST_COUNTRIES` best countries of the
  country ranking (:mod:`~xlrating.core.mers.country_ranking`, over the member countries; a tie
  for 3rd gives each a seat).
- **Part B**, the rest of ``T``, one seat at a time. Country c's share is
  ``s_c = (n_c / N + m_c / M) / 2``: n ranked players, m players above 700, N and M their sums
  over the countries (``n_c / N`` alone when nobody is above 700). For the k-th seat of Part B a
  country's shortfall is ``s_c * k - b_c`` (b_c: its Part B seats so far); the seat goes to the
  largest shortfall, compared exactly (not in floating point), then to the better place in the country
  ranking, then to the code first in the alphabet.
- **The cap**, once Parts A and B are given: no country keeps more seats than it has players whose
  total is above the average total of the whole ranking, and none has fewer than 1 (its member
  seat). The seats over a country's cap are taken back.
- **Redistribution**: the seats taken back go one at a time to the countries below their cap in
  the order of the country ranking (the best first, one seat each, again from the top while seats
  remain); seats no country can take (every one at its cap) are left over
  (:attr:`Quotas.left_over`).
- **Personal seats**: the players named (the best EMA player of the last European and World
  championships) each get a seat of their own, on top of ``T`` and of their country's quota.

Pure: the ranking lines come in as :class:`RankedPlayer` records, :class:`Quotas` goes out with
every step, seat by seat, so a ranking officer can check it.
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from xlrating.core import checks
from xlrating.core.countries import country_code, member_names
from xlrating.core.errors import InvalidArgument, RatingError
from xlrating.core.mers.country_ranking import country_ranking

ABOVE = 700.0
"""A player whose total is above this (strictly) earns their country a Part A seat and counts in
the second half of its Part B share."""
BEST_COUNTRIES = 3
"""The best countries of the country ranking that get a Part A seat each."""
MOST_SEATS = 10_000
"""The most seats a championship may have here (the EMA's largest have had a few hundred): more are
refused rather than worked out seat by seat."""


class NoQuotaCountries(RatingError):
    """The ranking has no ranked player of an EMA member country: there is nobody to share seats
    among."""


@dataclass(frozen=True)
class RankedPlayer:
    """One line of a MERS ranking: the player (EMA ID), their country as the line gives it (None:
    none known), their total and, for people, their name."""

    player: str
    country: str | None
    total: float
    name: str = ""


@dataclass(frozen=True)
class CountryQuota:
    """A member country's quota and what it comes from (the order of the fields is the order of
    the columns in every output)."""

    country: str
    country_name: str
    country_rank: int  # the place in the country ranking of the member countries
    country_score: float
    ranked_players: int
    share_ranked: float  # n_c / N
    above_700: int
    share_above_700: float | None  # m_c / M, None when nobody is above 700
    share: float  # the Part B share
    above_average: int
    cap: int
    member_seat: int
    seat_above_700: int
    seat_best_countries: int
    part_a: int
    part_b: int
    over_cap: int  # the seats of Parts A and B over the cap, taken back
    redistributed: int  # seats taken back from others, given to this country
    seats: int  # part_a + part_b - over_cap + redistributed: the country's quota, the seats of T
    personal: int  # personal seats of its players, on top of the quota
    total_seats: int  # seats + personal
    at_cap: bool


@dataclass(frozen=True)
class QuotaStep:
    """One step of the working: a seat given (Part A, Part B, redistribution, personal), seats
    taken back by the cap, or seats left over.

    ``seats`` is the country's quota after the step; for a Part B seat ``share``, ``target``
    (share x the number of the Part B seat), ``part_b_before`` (its Part B seats before) and
    ``shortfall`` (target - part_b_before) say why it went there."""

    step: int
    part: str  # "A", "B", "cap", "redistribution" or "personal"
    kind: str  # "member", "above 700", "best countries", "share", "over cap", "redistributed", "left over", "personal"
    country: str | None
    reason: str
    seats: int | None
    share: float | None = None
    target: float | None = None
    part_b_before: int | None = None
    shortfall: float | None = None


@dataclass(frozen=True)
class PersonalSeat:
    """A personal seat: the player, their name, their member country (None: none) and total."""

    player: str
    name: str
    country: str | None
    total: float


@dataclass(frozen=True)
class Quotas:
    """The quotas of a championship of ``seats`` seats: each country's, the personal seats and
    every step. ``part_a + part_b == seats``; the countries' quotas sum to ``seats - left_over``
    (``left_over == over_cap - redistributed``); the personal seats come on top."""

    seats: int
    part_a: int
    part_b: int
    over_cap: int
    redistributed: int
    left_over: int
    ranked_players: int  # the whole ranking
    member_players: int  # N: the ranked players of member countries
    players_above_700: int  # M
    average: float  # the whole ranking's average total: the line of the cap
    countries: tuple[CountryQuota, ...]
    personal: tuple[PersonalSeat, ...]
    steps: tuple[QuotaStep, ...]

    def summary(self) -> dict[str, Any]:
        """The figures of the whole (everything but the lists), for a JSON object or a header."""
        return {"seats": self.seats, "part_a_seats": self.part_a, "part_b_seats": self.part_b,
                "over_cap": self.over_cap, "redistributed": self.redistributed, "left_over": self.left_over,
                "quota_seats": self.seats - self.left_over, "personal_seats": len(self.personal),
                "ranked_players": self.ranked_players, "member_players": self.member_players,
                "players_above_700": self.players_above_700, "average_total": self.average}

    def data(self) -> dict[str, Any]:
        """Everything, as JSON: :meth:`summary`, then ``countries``, ``personal`` and ``steps``."""
        return self.summary() | {"countries": self.country_rows(), "personal": self.personal_rows(),
                                 "steps": self.step_rows()}

    def country_rows(self) -> list[dict[str, Any]]:
        return [dataclasses.asdict(row) for row in self.countries]

    def step_rows(self) -> list[dict[str, Any]]:
        return [dataclasses.asdict(row) for row in self.steps]

    def personal_rows(self) -> list[dict[str, Any]]:
        return [dataclasses.asdict(row) for row in self.personal]


COUNTRY_COLUMNS = tuple(field.name for field in dataclasses.fields(CountryQuota))
STEP_COLUMNS = tuple(field.name for field in dataclasses.fields(QuotaStep))
PERSONAL_COLUMNS = tuple(field.name for field in dataclasses.fields(PersonalSeat))


def ranked_players(lines: Iterable[Mapping[str, Any]]) -> list[RankedPlayer]:
    """:class:`RankedPlayer` records from a ranking's lines (``player``, ``country``, ``total`` and,
    when they have one, ``name``), as the ranking pages and ``rank mers`` list them."""
    return [RankedPlayer(line["player"], line.get("country"), line["total"], line.get("name") or "") for line in lines]


def member_country(country: str | None) -> str | None:
    """The 3-letter code of the EMA member country ``country`` names, or None (no country, or not
    a member)."""
    if not country or not country.strip():
        return None
    code = country_code(country)
    return code if code in member_names() else None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _who(player: str, name: str) -> str:
    return f"{name} ({player})" if name else player


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _personal(named: Sequence[str], lines: dict[str, RankedPlayer]) -> list[PersonalSeat]:
    seats: list[PersonalSeat] = []
    for player in named:
        if not isinstance(player, str):
            raise InvalidArgument("personal", "an EMA ID as text", player)
        key = player.strip()
        if key not in lines:
            raise InvalidArgument("personal", "the EMA ID of a player of the ranking", player,
                                  note="who is not ranked on the ranking's date (a personal seat is for a ranked "
                                       "EMA player)")
        if any(seat.player == key for seat in seats):
            raise InvalidArgument("personal", "each player once", player, note="named twice")
        line = lines[key]
        seats.append(PersonalSeat(key, line.name, member_country(line.country), line.total))
    return seats


class _Countries:
    """The member countries' figures and the seats given so far."""

    def __init__(self, members: dict[str, list[RankedPlayer]], average: float):
        self.ranking = country_ranking({"country": code, "player": p.player, "total": p.total}
                                       for code, players in members.items() for p in players)
        self.order = [row["country"] for row in self.ranking]  # best first, then by code
        self.row = {row["country"]: row for row in self.ranking}
        self.players = {code: sorted(members[code], key=lambda p: (-p.total, p.player)) for code in self.order}
        self.above = {code: sum(1 for p in members[code] if p.total > ABOVE) for code in self.order}
        self.above_average = {code: sum(1 for p in members[code] if p.total > average) for code in self.order}
        self.cap = {code: max(1, self.above_average[code]) for code in self.order}
        n_all = sum(len(members[code]) for code in self.order)
        m_all = sum(self.above.values())
        self.share_ranked = {code: Fraction(len(members[code]), n_all) for code in self.order}
        self.share_above = {code: Fraction(self.above[code], m_all) if m_all else None for code in self.order}
        self.share = {code: (self.share_ranked[code] + above) / 2 if (above := self.share_above[code]) is not None
                      else self.share_ranked[code] for code in self.order}
        # the shares over one common denominator, so Part B compares whole numbers, exactly and fast
        self.denominator = math.lcm(*(share.denominator for share in self.share.values()))
        self.share_units = {code: int(share * self.denominator) for code, share in self.share.items()}
        self.part_a = {code: {"member": 0, "above 700": 0, "best countries": 0} for code in self.order}
        self.part_b = dict.fromkeys(self.order, 0)
        self.over_cap = dict.fromkeys(self.order, 0)
        self.redistributed = dict.fromkeys(self.order, 0)

    def before_cap(self, code: str) -> int:
        return sum(self.part_a[code].values()) + self.part_b[code]

    def seats(self, code: str) -> int:
        return self.before_cap(code) - self.over_cap[code] + self.redistributed[code]

    def at_cap(self, code: str) -> bool:
        return self.seats(code) >= self.cap[code]

    def name(self, code: str) -> str:
        return member_names().get(code, code)

    def cap_text(self, code: str) -> str:
        return (f"its cap of {self.cap[code]} ({_plural(self.above_average[code], 'player')} above the average "
                f"total" + (", but every member country keeps 1 seat" if self.above_average[code] == 0 else "") + ")")


class _Working:
    def __init__(self, countries: _Countries):
        self.countries = countries
        self.steps: list[QuotaStep] = []

    def add(self, part: str, kind: str, country: str | None, reason: str, **figures: Any) -> None:
        seats = self.countries.seats(country) if country is not None else None
        self.steps.append(QuotaStep(len(self.steps) + 1, part, kind, country, reason, seats, **figures))

    def part_a(self, code: str, kind: str, reason: str) -> None:
        self.countries.part_a[code][kind] += 1
        self.add("A", kind, code, reason)


def _part_a(c: _Countries, work: _Working) -> None:
    for code in c.order:
        work.part_a(code, "member", f"EMA member country with {_plural(len(c.players[code]), 'ranked player')}")
    for code in c.order:
        if c.above[code]:
            best = c.players[code][0]
            work.part_a(code, "above 700", f"{_plural(c.above[code], 'player')} above 700, the best "
                                           f"{_who(best.player, best.name)} with {best.total:.2f}")
    for code in c.order:
        rank = c.row[code]["rank"]
        if rank <= BEST_COUNTRIES:
            work.part_a(code, "best countries", f"{_ordinal(rank)} in the country ranking (score "
                                                f"{c.row[code]['total']:.2f})")


def _part_b(c: _Countries, work: _Working, pool: int) -> None:
    """The recursive method: seat k goes to the largest shortfall ``share * k - seats held``
    (worked in units of 1 / c.denominator: whole numbers, exact)."""
    d = c.denominator
    for k in range(1, pool + 1):
        units = {code: c.share_units[code] * k - c.part_b[code] * d for code in c.order}
        # the largest shortfall; then the better place in the country ranking (c.order), then the code
        ranked = sorted(c.order, key=lambda code: -units[code])  # sorted() keeps c.order among equals
        chosen = ranked[0]
        before = c.part_b[chosen]
        note = ""
        if len(ranked) > 1:
            runner = ranked[1]
            tie = " (a tie, won by the better place in the country ranking)" if units[runner] == units[chosen] else ""
            note = f"; next {runner} {units[runner] / d:.4f}{tie}"
        c.part_b[chosen] += 1
        share = c.share[chosen]
        work.add("B", "share", chosen,
                 f"Part B seat {k} of {pool}: share {float(share):.4f} x {k} = {float(share * k):.4f}, less "
                 f"{before} held: shortfall {units[chosen] / d:.4f}{note}",
                 share=float(share), target=float(share * k), part_b_before=before,
                 shortfall=float(Fraction(units[chosen], d)))


def _cap(c: _Countries, work: _Working) -> int:
    """Take back every seat over a country's cap; the number taken back."""
    for code in c.order:
        over = c.before_cap(code) - c.cap[code]
        if over > 0:
            c.over_cap[code] = over
            work.add("cap", "over cap", code, f"{c.name(code)} has {c.before_cap(code)} seats from Parts A and B, "
                                              f"over {c.cap_text(code)}: {_plural(over, 'seat')} taken back")
    return sum(c.over_cap.values())


def _redistribute(c: _Countries, work: _Working, taken: int) -> int:
    """Give the seats taken back, one each down the country ranking to the countries below their cap,
    again from the top while seats remain; the seats no country can take."""
    given = 0
    while given < taken:
        before = given
        for code in c.order:
            if given == taken:
                break
            if not c.at_cap(code):
                given += 1
                c.redistributed[code] += 1
                work.add("redistribution", "redistributed", code,
                         f"seat {given} of the {taken} taken back: {c.name(code)}, {_ordinal(c.row[code]['rank'])} in "
                         f"the country ranking, is below {c.cap_text(code).removeprefix('its ')}")
        if given == before:
            work.add("redistribution", "left over", None,
                     f"{_plural(taken - given, 'seat')} taken back not given: every country is at its cap")
            break
    return taken - given


def quotas(players: Iterable[RankedPlayer], seats: int, personal: Sequence[str] = ()) -> Quotas:
    """The quotas of a championship of ``seats`` seats from a ranking's lines (the module's
    docstring gives the method); ``personal``: the EMA IDs of the players with a personal seat.

    Raises :class:`~xlrating.core.errors.InvalidArgument` for ``seats`` that are not a whole
    number, or fewer than Part A's fixed seats, and for a ``personal`` player who is not ranked (or
    named twice); :class:`NoQuotaCountries` when no ranked player is of a member country."""
    seats = checks.whole("seats", seats, minimum=1)
    if seats > MOST_SEATS:
        raise InvalidArgument("seats", f"at most {MOST_SEATS:,} seats", seats)
    if isinstance(personal, str):
        raise InvalidArgument("personal", "a list of EMA IDs", personal)
    lines = list(players)
    members: dict[str, list[RankedPlayer]] = {}
    for line in lines:
        code = member_country(line.country)
        if code is not None:
            members.setdefault(code, []).append(line)
    if not members:
        raise NoQuotaCountries(
            "no ranked player of an EMA member country: the seats are shared among the member countries with at "
            f"least one ranked player, and the ranking has {_plural(len(lines), 'player')}"
            + (" of no member country" if lines else ""))
    chosen = _personal(personal, {line.player: line for line in lines})
    average = sum(line.total for line in lines) / len(lines)
    c = _Countries(members, average)
    work = _Working(c)

    _part_a(c, work)
    part_a = sum(c.before_cap(code) for code in c.order)
    if seats < part_a:
        raise InvalidArgument("seats", f"at least {part_a}, the fixed seats of Part A (one for each of the "
                                       f"{len(c.order)} member countries with ranked players, one for each with a "
                                       f"player above 700, one for each of the {BEST_COUNTRIES} best countries)",
                              seats)
    _part_b(c, work, seats - part_a)
    taken = _cap(c, work)
    left_over = _redistribute(c, work, taken)

    for seat in chosen:
        member = seat.country if seat.country in c.row else None
        where = (f"in addition to {c.name(member)}'s quota" if member is not None
                 else "of no member country's quota")
        work.add("personal", "personal", member,
                 f"personal seat of {_who(seat.player, seat.name)}, total {seat.total:.2f}, {where}")

    rows = []
    for code in c.order:
        personal_here = sum(1 for seat in chosen if seat.country == code)
        a = c.part_a[code]
        above = c.share_above[code]
        rows.append(CountryQuota(
            code, c.name(code), c.row[code]["rank"], c.row[code]["total"], len(c.players[code]),
            float(c.share_ranked[code]), c.above[code], None if above is None else float(above), float(c.share[code]),
            c.above_average[code], c.cap[code], a["member"], a["above 700"], a["best countries"], sum(a.values()),
            c.part_b[code], c.over_cap[code], c.redistributed[code], c.seats(code), personal_here,
            c.seats(code) + personal_here, c.at_cap(code)))
    rows.sort(key=lambda row: (-row.seats, c.order.index(row.country)))
    return Quotas(seats, part_a, seats - part_a, taken, taken - left_over, left_over, len(lines),
                  sum(len(p) for p in members.values()), sum(c.above.values()), average, tuple(rows), tuple(chosen),
                  tuple(work.steps))
