"""Building blocks of the plain-formula calculators: xlrating's argument checks written as
spreadsheet formulas (without the ``=``), for workbooks used with nothing installed.

Each plain calculator is its function-based sibling with every call of an xlrating function
replaced by an expression that gives what :func:`xlrating.functions.call` gives for the same
cell values: the same number, or the same error value, checked in the same order (an error value
among the arguments first, then a blank argument, then each argument's own check).

Only functions that Excel 2010, LibreOffice 7 and Google Sheets all have, and that Excel stores
without a ``_xlfn.`` prefix: IF, AND, OR, NOT, IFERROR, ISERROR, ISNUMBER, ISTEXT, ISLOGICAL,
TRIM, LOWER, UPPER, SUBSTITUTE, CHAR, LEFT, RIGHT, INT, ABS, ROUND, MIN, MAX, SUM, COUNT,
SUMPRODUCT, INDEX, MATCH, YEAR, EDATE and NA (and the siblings' DATE in data validations). Error
values are written as literals (``#VALUE!``, ``#NUM!``), as the EMA results template has them.

How a spreadsheet reads a cell, and what the checks below therefore say:

- a number typed as text (``"3"``, ``" 7 "``) is read as the number (``--x``), as xlrating reads
  it; text that is no number is ``#VALUE!``; TRUE/FALSE are ``#VALUE!`` (ISLOGICAL), never 1/0;
- a cell of spaces only is blank, as xlrating's ``is_blank`` has it (tabs and line breaks
  count as spaces where the formulas normalise text).
"""

from __future__ import annotations

# Tabs and line breaks read as spaces where text is normalised (Python's str.strip() and the
# regular expression \s see them as white space; a spreadsheet's TRIM only removes spaces).
_WHITE = ("CHAR(9)", "CHAR(10)", "CHAR(13)")


def spaced(ref: str) -> str:
    """``ref``'s text with tabs and line breaks turned into spaces."""
    text = ref
    for char in _WHITE:
        text = f'SUBSTITUTE({text},{char}," ")'
    return text


def words(ref: str) -> str:
    """``ref`` as Python's ``str(ref).strip().lower()`` sees it, inner runs of spaces made one."""
    return f"LOWER(TRIM({spaced(ref)}))"


def blank(ref: str) -> str:
    """True for an empty cell, empty text or spaces (xlrating's ``is_blank``); false for an error."""
    return f'IF(ISERROR({ref}),FALSE,TRIM({spaced(ref)})="")'


def not_a_number(ref: str) -> str:
    """True when xlrating refuses ``ref`` as a number: TRUE/FALSE, or text that reads as none."""
    return f'OR(ISLOGICAL({ref}),IFERROR(--{ref},"")="")'


def not_whole(value: str, minimum: str, maximum: str | None = None) -> str:
    """True when the number ``value`` is not a whole number in [minimum, maximum] (``#NUM!``)."""
    conditions = [f"{value}<{minimum}", f"{value}<>INT({value})"]
    if maximum is not None:
        conditions.append(f"{value}>{maximum}")
    return "OR(" + ",".join(conditions) + ")"


def first_error(*refs: str, otherwise: str) -> str:
    """The first of ``refs`` that holds an error value, else ``otherwise``."""
    formula = otherwise
    for ref in reversed(refs):
        formula = f"IF(ISERROR({ref}),{ref},{formula})"
    return formula


def whole_argument(ref: str, minimum: str, maximum: str | None, then: str) -> str:
    """``then`` once ``ref`` is a whole number in range; else ``#VALUE!`` (no number) or
    ``#NUM!`` (xlrating's ``checks.whole`` after ``number_from_text``)."""
    n = f"--{ref}"
    return (f"IF({not_a_number(ref)},#VALUE!,"
            f"IF({not_whole(n, minimum, maximum)},#NUM!,{then}))")


def error_chain(ref: str, below: str | None) -> str:
    """One cell of a column that carries the first error value of a column upwards: ``ref``'s
    error, else the next row's (``below``), else 0. The column's top cell is the first error."""
    return f"IF(ISERROR({ref}),{ref},{below if below is not None else 0})"


# --- Dip Pouch -----------------------------------------------------------------------------------

def dippouch_value(players: str, rounds: str, world_championship: str, year: str) -> str:
    """``DIPPOUCH_VALUE(players, rounds, world_championship, year)`` for two number cells (the
    template's COUNT guard), a TRUE/FALSE condition and a year expression ("" for none)."""
    value = f"MIN(IF({rounds}=1,{players}/7+2,{players}/3.5+2),15)"
    checked = (f"IF({not_whole(players, '1')},#NUM!,IF({not_whole(rounds, '1')},#NUM!,"
               f'IF({world_championship},20,IF(AND({year}<>"",{year}<2001),0,{value}))))')
    return first_error(world_championship, year, otherwise=checked)


def dippouch_percentile(players: str, place: str) -> str:
    """``DIPPOUCH_PERCENTILE(players, place)`` of two cells that are neither empty nor errors."""
    n, p = f"--{players}", f"--{place}"
    body = whole_argument(players, "1", None, whole_argument(place, "1", n, f"({n}+0.5-({p}))/({n})*100"))
    return f'IF(OR(TRIM({players})="",TRIM({place})=""),#VALUE!,{body})'


def dippouch_new_rating(rating: str, percentile: str, value: str) -> str:
    """``DIPPOUCH_NEW_RATING(rating, percentile, value)``: ``rating`` any expression, the other
    two the template's computed percentile and value (numbers from 0 to 100)."""
    old = f"--{rating}"
    return (f'IF(ISERROR({rating}),{rating},IF(TRIM({rating})="",#VALUE!,IF({not_a_number(rating)},#VALUE!,'
            f"IF(OR({old}<0,{old}>100),#NUM!,{old}+{value}/100*({percentile}-({old}))))))")


# --- DCI -------------------------------------------------------------------------------------------

def dci_tier_key(ref: str) -> str:
    """The tier name as xlrating matches it: stripped, lower case, runs of spaces, dashes and
    underscores made one space; "" when a dash or underscore starts or ends it (no tier then)."""
    inner = f'SUBSTITUTE(SUBSTITUTE(TRIM({spaced(ref)}),"_"," "),"-"," ")'
    return f'IF(OR(LEFT({inner},1)=" ",RIGHT({inner},1)=" "),"",LOWER(TRIM({inner})))'


def dci_k(tier: str, k_of_name: str) -> str:
    """``DCI_K(tier)`` of a cell that is neither empty nor an error; ``k_of_name`` is the K the
    tier-name table gives the cell's key (0 for no tier)."""
    return (f'IF(TRIM({spaced(tier)})="",#VALUE!,IF(ISLOGICAL({tier}),#VALUE!,'
            f"IF(ISNUMBER({tier}),IF({tier}<0,#NUM!,{tier}),IF({k_of_name}=0,#VALUE!,{k_of_name}))))")


def dci_score(result: str) -> str:
    """W of a DCI result cell (``dci.score``): 1/0.5/0, "W"/"D"/"L", "win"/"draw"/"loss" in any
    case, or a number typed as text; blank or anything else ``#VALUE!``."""
    word = f"UPPER(TRIM({spaced(result)}))"
    number = f"--{word}"
    from_text = (f'IF(OR({word}="W",{word}="WIN"),1,IF(OR({word}="D",{word}="DRAW"),0.5,'
                 f'IF(OR({word}="L",{word}="LOSS"),0,IF(ISERROR({number}),#VALUE!,'
                 f"IF(OR({number}=0,{number}=0.5,{number}=1),{number},#VALUE!)))))")
    return (f'IF({word}="",#VALUE!,IF(ISLOGICAL({result}),#VALUE!,'
            f"IF(ISNUMBER({result}),IF(OR({result}=0,{result}=0.5,{result}=1),{result},#VALUE!),{from_text})))")


def dci_method(ref: str) -> str:
    """0 for "formula" (also blank: the default), 1 for "table"; an error value propagates,
    anything else is ``#VALUE!`` (``checks.choice``)."""
    name = words(ref)
    return (f'IF(ISERROR({ref}),{ref},IF({name}="",0,IF(OR(ISLOGICAL({ref}),ISNUMBER({ref})),#VALUE!,'
            f'IF({name}="formula",0,IF({name}="table",1,#VALUE!)))))')


def dci_win_probability(rating: str, opponent: str, method: str, gap_from: str, high: str, low: str) -> str:
    """``DCI_WIN_PROBABILITY(rating, opponent, method)`` of two number cells; ``method`` the cell of
    :func:`dci_method`; ``gap_from``/``high``/``low`` the FIDE table's columns (the lowest rating gap
    of each row, and p for the higher- and lower-rated player). A gap so large that 10^x
    overflows gives 0, as xlrating does."""
    row = f"MATCH(INT(ABS({rating}-{opponent})+0.5),{gap_from},1)"
    table = f"IF({rating}-{opponent}>=0,INDEX({high},{row}),INDEX({low},{row}))"
    formula = f"IFERROR(1/(1+10^(({opponent}-{rating})/400)),0)"
    return f"IF(ISERROR({method}),{method},IF({method}=1,{table},{formula}))"


# --- MERS ----------------------------------------------------------------------------------------------

def mers_rounding(ref: str) -> str:
    """The rounding code of a rounding argument: 0 "none", 1 "round", 2 "truncate"; an error
    value propagates, anything else is ``#VALUE!``."""
    name = words(ref)
    return (f"IF(ISERROR({ref}),{ref},IF(OR(ISLOGICAL({ref}),ISNUMBER({ref})),#VALUE!,"
            f'IF({name}="none",0,IF({name}="round",1,IF({name}="truncate",2,#VALUE!)))))')


def mers_base_rank(players: str, place: str, rounding_arg: str, rounding_code: str) -> str:
    """``MERS_BASE_RANK(players, place, rounding)`` of two cells that are neither empty nor errors;
    ``rounding_arg`` the rounding cell, ``rounding_code`` its :func:`mers_rounding` cell. One
    division last, so that an exact half (198th of 401: 507.5) rounds up, as xlrating does."""
    n, p = f"--{players}", f"--{place}"
    raw = f"({n}-({p}))*1000/({n}-1)"
    value = f"IF({rounding_code}=1,ROUND({raw},0),IF({rounding_code}=2,INT({raw}),{raw}))"
    checked = whole_argument(players, "2", None, whole_argument(
        place, "1", n, f"IF(ISERROR({rounding_code}),{rounding_code},{value})"))
    return (f"IF(ISERROR({rounding_arg}),{rounding_arg},"
            f'IF(OR(TRIM({players})="",TRIM({place})=""),#VALUE!,{checked}))')


def mers_date_check(ref: str) -> str:
    """0 for a date xlrating reads (a serial from 61, 1900-03-01, to 9999-12-31), else its error:
    text or TRUE/FALSE ``#VALUE!`` (the plain template wants date cells, not dates as text),
    a serial out of range ``#NUM!``."""
    return (f"IF(OR(ISTEXT({ref}),ISLOGICAL({ref})),#VALUE!,"
            f"IF(OR(INT({ref})<61,INT({ref})>2958465),#NUM!,0))")


def mers_age_factor(date: str, as_of: str, steps: tuple[tuple[int, float], ...]) -> str:
    """The age factor of a result dated ``date`` on ``as_of`` (both whole serials): 0 when played
    after it, else the factor of the oldest step it is over (``T > EDATE(D, 12 k)``: a calendar year,
    29 February moving to 28 February)."""
    formula = "1"
    for years, factor in steps:
        text = {1 / 3: "1/3", 2 / 3: "2/3"}.get(factor, f"{factor:g}")
        formula = f"IF({as_of}>EDATE({date},{12 * years}),{text},{formula})"
    return f"IF({date}>{as_of},0,{formula})"
