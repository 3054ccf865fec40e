"""The MERS personal ranking in plain spreadsheet formulas (``mers_personal_ranking_plain.xlsx``).

The sibling's "Ranking" sheet (:func:`.calculators.mers_personal_ranking`): the base rank of each
result (F) and the total under the 2005, 2010 and 2018 rules (I5:I7), computed as
``MERS_BASE_RANK`` and ``MERS_RANKING`` compute them (RATING_RULES.md section 3), with the base-rank
rounding to choose (B7: round, the sibling's, when empty; truncate; none).

The ranking is worked out row by row in hidden columns (L onwards) with scalar formulas and SUM /
SUMPRODUCT only:

- which rows are in use (a base rank, a weight or a date), the first error value of each input
  column, and each row's own checks, kept in the order ``MERS_RANKING`` checks them;
- per rule era: each result's age factor (``EDATE``: over k calendar years), whether it counts,
  ``w * a`` and ``w * a * b`` (2018: base ranks rounded first), and its place in the padded list
  sorted best first (base rank, then ``w * a``, then row order, as xlrating sorts): results of
  base rank 0 and ``w * a`` below 1 come after the padding results (base rank 0, weight 1);
- the weighted averages of all, the best 3 (2010), the best ``ceil(5 + 0.8 * (n - 5))`` and the
  best 4 (2018) from those places, with the padding counted in.

Sums are added in another order than xlrating's (and LibreOffice sums with compensation), so a
total may differ from the function's in the last binary place of the double.
"""

from __future__ import annotations

from openpyxl.utils import get_column_letter
from openpyxl.workbook import Workbook

from xlrating.core.mers.rules import ERAS, MINIMUM_RESULTS, PADDED_RESULTS
from xlrating.sheets.templates import calculators, style
from xlrating.sheets.templates import plain_formulas as pf

FILE_NAME = "mers_personal_ranking_plain.xlsx"
NEEDS_NOTHING = "No add-in needed: plain spreadsheet formulas (Excel, LibreOffice, Google Sheets, Numbers)."
FIRST, LAST = 10, 9 + calculators.MERS_ROWS
TOTAL_ROWS = {"2005": 5, "2010": 6, "2018": 7}
# working cells
ROUNDING_ARG, ROUNDING_CODE, AS_OF_CHECK, AS_OF, PROBLEM = "$M$4", "$M$5", "$M$6", "$M$7", "$M$8"
SHARED = ("index", "used", "first error F", "first error E", "first error B", "row check",
          "first row check", "weight check", "first weight check")
ERA_COLUMNS = {"2005": ("a", "counts", "b", "w a", "w a b"),
               "2010": ("a", "counts", "b", "w a", "w a b", "sorted", "after padding", "place"),
               "2018": ("a", "counts", "b", "w a", "w a b", "sorted", "after padding", "place")}


def _columns() -> dict[str, str]:
    """Working column letter of every shared name and of every ``"era name"``."""
    names = [*SHARED, *(f"{era} {name}" for era, columns in ERA_COLUMNS.items() for name in columns)]
    return {name: get_column_letter(12 + i) for i, name in enumerate(names)}


COLUMN = _columns()


def _span(name: str) -> str:
    return f"${COLUMN[name]}${FIRST}:${COLUMN[name]}${LAST}"


def _shared_row(row: int) -> dict[str, str]:
    c = {name: f"${letter}{row}" for name, letter in COLUMN.items()}
    f, e, b = f"$F{row}", f"$E{row}", f"$B{row}"
    below = {name: (f"{COLUMN[name]}{row + 1}" if row < LAST else None) for name in COLUMN}
    blanks = f"{pf.blank(f)},{pf.blank(e)},{pf.blank(b)}"
    weight = f"--{e}"
    return {
        "index": str(row - FIRST + 1),
        "used": f"=IF(AND({blanks}),0,1)",
        "first error F": "=" + pf.error_chain(f, below["first error F"]),
        "first error E": "=" + pf.error_chain(e, below["first error E"]),
        "first error B": "=" + pf.error_chain(b, below["first error B"]),
        "row check": f"=IF({c['used']}=0,0,IF(OR({blanks}),#VALUE!,{pf.mers_date_check(b)}))",
        "first row check": "=" + pf.error_chain(c["row check"], below["first row check"]),
        "weight check": (f"=IF({c['used']}=0,0,IF({pf.not_a_number(e)},#VALUE!,"
                         f"IF({weight}<0,#NUM!,IF({weight}=0,#NUM!,0))))"),
        "first weight check": "=" + pf.error_chain(c["weight check"], below["first weight check"]),
    }


def _era_row(era: str, row: int) -> dict[str, str]:
    c = {name: f"${letter}{row}" for name, letter in COLUMN.items()}

    def mine(name: str) -> str:
        return c[f"{era} {name}"]

    def span(name: str) -> str:
        return _span(f"{era} {name}")

    age = pf.mers_age_factor(f"INT($B{row})", AS_OF, ERAS[era].age_steps)
    base = f"ROUND($F{row},0)" if ERAS[era].integer_base_ranks else f"--$F{row}"
    cells = {
        "a": f"=IF(OR({c['used']}=0,ISERROR({PROBLEM})),0,{age})",
        "counts": f"=IF({mine('a')}>0,1,0)",
        "b": f"=IF({mine('counts')}=1,{base},0)",
        "w a": f"=IF({mine('counts')}=1,--$E{row}*{mine('a')},0)",
        "w a b": f"={mine('w a')}*{mine('b')}",
    }
    if "sorted" in ERA_COLUMNS[era]:
        before = (f"({span('b')}>{mine('b')})+({span('b')}={mine('b')})*(({span('w a')}>{mine('w a')})"
                  f"+({span('w a')}={mine('w a')})*({_span('index')}<{c['index']}))")
        cells["sorted"] = f"=IF({mine('counts')}=1,1+SUMPRODUCT({span('counts')}*({before})),0)"
        cells["after padding"] = f"=IF(AND({mine('counts')}=1,{mine('b')}=0,{mine('w a')}<1),1,0)"
        cells["place"] = (f"=IF({mine('counts')}=1,{mine('sorted')}+{mine('after padding')}*"
                          f"{_scalar(era, 'padding')},999)")
    return cells


ERA_SCALARS = ("counted", "padding", "before padding", "total")


def _scalar(era: str, name: str) -> str:
    return f"${COLUMN[f'{era} a']}${4 + ERA_SCALARS.index(name)}"


def _era_scalars(era: str) -> dict[str, str]:
    def span(name: str) -> str:
        return _span(f"{era} {name}")

    n, pads, ahead = (_scalar(era, name) for name in ERA_SCALARS[:3])

    def best(k: str) -> str:
        chosen = f"--({span('place')}<={k})"
        return (f"SUMPRODUCT({chosen},{span('w a b')})/(SUMPRODUCT({chosen},{span('w a')})"
                f"+MIN({pads},MAX(0,{k}-{ahead})))")

    everything = f"SUM({span('w a b')})/(SUM({span('w a')})+{pads})"
    if era == "2005":
        total = everything
    elif era == "2010":
        total = f"0.5*{everything}+0.5*{best('3')}"
    else:
        size_a = f"({PADDED_RESULTS}+INT((4*MAX({n}-{PADDED_RESULTS},0)+4)/5))"
        total = f"0.5*{best(size_a)}+0.5*{best('4')}"
    cells = {"counted": f"=SUM({span('counts')})", "padding": f"=MAX(0,{PADDED_RESULTS}-{n})",
             "total": "=" + total}
    if "after padding" in ERA_COLUMNS[era]:
        cells["before padding"] = f"={n}-SUM({span('after padding')})"
    return cells


def _working(ws) -> None:  # type: ignore[no-untyped-def]
    first_column = COLUMN[SHARED[0]]
    ws[f"{first_column}3"] = "Working (see xlrating/sheets/templates/plain_mers.py)"
    ws[f"{first_column}3"].font = style.NOTE_FONT
    for label, (ref, formula) in zip(
            ("rounding", "rounding code", "ranking date check", "ranking date", "first problem"),
            ((ROUNDING_ARG, f'=IF({pf.blank("$B$7")},"round",$B$7)'),
             (ROUNDING_CODE, "=" + pf.mers_rounding(ROUNDING_ARG)),
             (AS_OF_CHECK, f"=IF({pf.blank('$B$6')},0,IF(ISERROR($B$6),$B$6,{pf.mers_date_check('$B$6')}))"),
             (AS_OF, f"=IF({pf.blank('$B$6')},INT(MAX($B${FIRST}:$B${LAST})),INT($B$6))"),
             (PROBLEM, "=" + pf.first_error(*(f"${COLUMN[n]}${FIRST}" for n in SHARED[2:5]), "$B$6",
                                            f"${COLUMN['first row check']}${FIRST}", AS_OF_CHECK,
                                            f"${COLUMN['first weight check']}${FIRST}", otherwise="0")))):
        cell = ref.replace("$", "")
        ws[cell] = formula
        ws[f"L{cell[1:]}"] = label
    style.header(ws, 9, list(COLUMN), first_column=12)
    for row in range(FIRST, LAST + 1):
        cells = _shared_row(row)
        for era in ERA_COLUMNS:
            cells.update({f"{era} {name}": formula for name, formula in _era_row(era, row).items()})
        for name, value in cells.items():
            ws[f"{COLUMN[name]}{row}"] = int(value) if value.isdigit() else value
    for era in ERA_COLUMNS:
        for name, formula in _era_scalars(era).items():
            ws[_scalar(era, name).replace("$", "")] = formula
    ws.column_dimensions.group("L", get_column_letter(11 + len(COLUMN)), hidden=True)


def mers_personal_ranking() -> Workbook:
    wb = calculators.mers_personal_ranking()
    del wb["xlwings.conf"]
    ws = wb["Ranking"]
    style.notes(ws, 3, (NEEDS_NOTHING,))
    style.label(ws, "A7", "Base rank rounding")
    style.input_cell(ws, "B7")
    style.validation(ws, "B7", "list", formula1='"round,truncate,none"',
                     prompt="round (empty: as current EMA data, 252.53 -> 253), truncate (older EMA text: 252) "
                            "or none. The 2018 rules round base ranks before aggregating anyway.",
                     error="Pick round, truncate or none.", title_text="Base rank rounding")
    ws["C6"] = f'=IF(ISERROR({AS_OF_CHECK}),"Ranking date: a date, or empty for your latest result","")'
    ws["C7"] = f'=IF(ISERROR({ROUNDING_CODE}),"Rounding: round (or empty), truncate or none","")'
    ws["C6"].font = ws["C7"].font = style.NOTE_FONT
    style.header(ws, 9, ("Check",), first_column=7)
    style.style_range(ws, f"G{FIRST}:G{LAST}", fill=style.RESULT_FILL)
    for row in range(FIRST, LAST + 1):
        players, place = f"$C{row}", f"$D{row}"
        ws[f"F{row}"] = (f'=IF(OR({players}="",{place}=""),"",'
                         f"{pf.mers_base_rank(players, place, ROUNDING_ARG, ROUNDING_CODE)})")
        blanks = f"OR({pf.blank(f'$F{row}')},{pf.blank(f'$E{row}')},{pf.blank(f'$B{row}')})"
        ws[f"G{row}"] = (f'=IF(ISERROR($F{row}),IF(ISERROR({ROUNDING_CODE}),"See Base rank rounding (B7)",'
                         f'"Players: a whole number from 2; Place: from 1 to Players"),'
                         f"IF(ISERROR(${COLUMN['row check']}{row}),IF({blanks},"
                         f'"Fill in End date, Players, Place and Weight","End date: a date cell"),'
                         f"IF(ISERROR(${COLUMN['weight check']}{row}),\"Weight: a number above 0\",\"\")))")
        ws[f"G{row}"].font = style.NOTE_FONT
    count = f"$F${FIRST}:$F${LAST}"
    for era, row in TOTAL_ROWS.items():
        n, total = _scalar(era, "counted"), _scalar(era, "total")
        ws[f"I{row}"] = (f'=IF(COUNT({count})=0,"",IF(ISERROR({PROBLEM}),{PROBLEM},'
                         f"IF({n}<{MINIMUM_RESULTS},NA(),{total})))")
        ws[f"J{row}"] = (f'=IF(ISERROR(I{row}),IF(ISERROR({PROBLEM}),"See the checks in column G and C6:C7",'
                         f'"Not ranked: fewer than {MINIMUM_RESULTS} results count"),"")')
        ws[f"J{row}"].font = style.NOTE_FONT
    style.widths(ws, (30, 12, 10, 8, 9, 11, 40, 22, 12, 34))
    ws.print_area = f"A1:J{LAST}"
    _working(ws)
    return wb
