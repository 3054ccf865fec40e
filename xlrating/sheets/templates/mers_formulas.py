"""MERS rules written as plain spreadsheet formulas, for workbooks used without any add-in.

The EMA results template is filled in by organisers who never install xlrating, so its computed
cells use only functions every spreadsheet has (IF, OR, IFERROR, ROUND, MIN, COUNT). Each formula
gives the value xlrating's own function gives for the same cells
(``MERS_BASE_RANK(players, place, "round")``, ``MERS_WEIGHT(...)``; docs/rating-rules.md section 3):

- an empty input cell: an empty result (the row is not in use);
- valid input: the same number. The base rank is computed as ``(N - place) * 1000 / (N - 1)``,
  one division last, so an exact half (198th of 401: 507.5) stays exact and ``ROUND`` takes it up
  as :func:`xlrating.core.mers.base_rank` does. Tied players share the best place of their group
  (docs/rating-rules.md, "Ties": the default ``best`` policy), so they share a base rank.
- invalid input: the same error value, checked in the same order (players before place): text
  that is not a number is ``#VALUE!``, a number that is not whole or is out of range is ``#NUM!``;
  an error in an input cell propagates. A number typed as text (``"3"``, ``" 7 "``) is read as the
  number, as xlrating reads it.

Two differences remain, both out of reach of the template's data validation (which only lets
whole numbers into Players and Position): a spreadsheet reads TRUE/FALSE as 1/0 where xlrating
refuses them with ``#VALUE!``, and a Position of only spaces beside an invalid Players count is
``#NUM!`` (players are checked first) where xlrating says ``#VALUE!`` (a missing place). Telling
TRUE from 1 needs ISLOGICAL, which ``xlrating convert``'s column-at-once path does not compute, so
the whole template would be computed cell by cell (about 100 times slower).

``tests/sheets/test_ema_template_native.py`` checks every case against xlrating's functions,
in LibreOffice and in ``xlrating convert``.
"""

from __future__ import annotations


def _whole_out_of_range(value: str, minimum: str, maximum: str | None = None) -> str:
    """Conditions under which the number ``value`` is not a whole number in [minimum, maximum]."""
    conditions = [f"{value}<{minimum}", f"{value}<>ROUND({value},0)"]
    if maximum is not None:
        conditions.insert(1, f"{value}>{maximum}")
    return ",".join(conditions)


def _not_a_number(ref: str) -> str:
    """Text that does not read as a number: ``--`` reads "3" as 3 and fails on "x" (ISERROR in
    effect; IFERROR keeps the formula on ``xlrating convert``'s column-at-once path)."""
    return f'IFERROR(--{ref},"")=""'


def base_rank(players: str, place: str) -> str:
    """``MERS_BASE_RANK(players, place, "round")`` for two cell references, without the ``=``."""
    n, p = f"--{players}", f"--{place}"
    return (f'IF(OR({place}="",{players}=""),"",'
            f'IF({_not_a_number(players)},#VALUE!,'
            f'IF(OR({_whole_out_of_range(n, "2")}),#NUM!,'
            f'IF({_not_a_number(place)},#VALUE!,'
            f'IF(OR({_whole_out_of_range(p, "1", n)}),#NUM!,'
            f'ROUND(({n}-({p}))*1000/({n}-1),0))))))')


def tournament_weight(days: str, players: str, countries: str, qualification_yes: str) -> str:
    """``MERS_WEIGHT(days, players, countries, qualification_yes)`` (2018 rules) once the three
    counts are numbers, else empty; without the ``=``. ``qualification_yes`` is a condition such
    as ``B14="Yes"``. Days 1, 2, 3 for 3+; players +0.5 for 41-80, +1 above 80; countries +0.5
    for 6-9, +1 for 10+; qualification +1."""
    d, n, c = days, players, countries
    invalid = ",".join((_whole_out_of_range(d, "1"), _whole_out_of_range(n, "2"), _whole_out_of_range(c, "1")))
    return (f"IF(COUNT({d},{n},{c})<3,\"\","
            f"IF(OR({invalid}),#NUM!,"
            f"MIN({d},3)+IF({n}>80,1,IF({n}>=41,0.5,0))+IF({c}>=10,1,IF({c}>=6,0.5,0))"
            f"+IF({qualification_yes},1,0)))")
