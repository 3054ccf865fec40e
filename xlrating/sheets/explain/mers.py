"""The MERS total in live formulas (docs/rating-rules.md section 3), one sheet:

- B5:B10 the player, ruleset, ranking date, the rules named (blank: the era in force on the ranking
  date, B9 works it out), the tie policy;
- one row per result from row 22 (its inputs in A:I as values), then five padding slots, each
  used while fewer than five results count; per row the place scored, the base rank (rounded under
  the 2018 rules), the age factor (EDATE: over k calendar years), whether it counts, weight x age,
  its place in the list sorted best first (base rank, then weight x age, then row) and the parts it
  is in;
- B12:B19 the results counted, the padding, the size of Part A, the weighted averages and the total
  (``#N/A`` when fewer than 2 results count, as ``MERS_RANKING``).
"""

from __future__ import annotations

from typing import Any

from openpyxl.workbook import Workbook
from openpyxl.worksheet.datavalidation import DataValidation

from xlrating.core import mers
from xlrating.core.explanation import Explanation
from xlrating.sheets.explain.book import widths
from xlrating.sheets.explain.cells import FINE_FORMAT, LABEL_FONT, NA, Cells

FIRST = 22
SLOTS = mers.PADDED_RESULTS
ERA, AS_OF, TIES, COUNTED, PADDING, SIZE_A = "$B$9", "$B$7", "$B$10", "$B$12", "$B$13", "$B$14"
PART_CELLS = {"all": "B15", "best_3": "B16", "part_a": "B17", "part_b": "B18"}
TOTAL = "B19"
COLUMNS = ("#", "Tournament", "Date", "Effective date", "Players", "Place", "Players at this place", "Base rank given",
           "Weight", "Place scored", "Base rank", "Base rank counted", "Age factor", "Counts", "Weight x age",
           "Weight x age x base rank", "Best-first order", "In all (2005, 2010)", "In best 3 (2010)",
           "In Part A (2018)", "In Part B (2018)", "Status")
# The parts each era averages: flag column, part key, the eras it belongs to
FLAGS = (("R", "in_all", ("2005", "2010")), ("S", "in_best_3", ("2010",)), ("T", "in_part_a", ("2018",)),
         ("U", "in_part_b", ("2018",)))


def write(cells: Cells, explanation: Explanation, wb: Workbook) -> list[Cells]:
    era = str(explanation.setting("rules"))
    results = [row for row in explanation.rows if row["kind"] == "result"]
    pads = [row for row in explanation.rows if row["kind"] == "padding"]
    last = FIRST + len(results) + SLOTS - 1
    _settings(cells, explanation, era)
    ties = str(explanation.setting("ties"))
    for offset, row in enumerate(results):
        _result(cells, FIRST + offset, row, era, ties, last)
    for slot in range(1, SLOTS + 1):
        number = len(results) + slot
        pad = pads[slot - 1] if slot <= len(pads) else None
        _padding(cells, FIRST + len(results) + slot - 1, number, slot, pad, era, last)
    _summary(cells, explanation, era, len(results), last)
    cells.header(FIRST - 1, COLUMNS)
    widths(cells, [26, 30, 11, 11, 8, 7, 9, 9, 8, 8, 10, 10, 8, 7, 9, 11, 9, 9, 8, 9, 9, 28])
    cells.ws.freeze_panes = f"C{FIRST}"
    return []


def _settings(cells: Cells, explanation: Explanation, era: str) -> None:
    labels = ("Player (EMA ID)", "Ruleset", "Ranking date", "Rules named (blank: in force on the ranking date)",
              "Rules used", "Ties (best or average)")
    for row, label in enumerate(labels, start=5):
        cells.text(f"A{row}", label, LABEL_FONT)
    cells.given("B5", explanation.player)
    if explanation.name:
        cells.text("C5", explanation.name)
    cells.given("B6", explanation.setting("ruleset") or "")
    cells.given("B7", explanation.setting("as_of"))
    cells.given("B8", explanation.extra.get("rules_named"))
    cells.derived("B9", 'IF(B8="",IF(B7<DATE(2010,7,12),"2005",IF(B7<DATE(2018,1,1),"2010","2018")),""&B8)',
                  era, None)
    cells.given("B10", explanation.setting("ties"))
    for ref, choices in (("B8", '"2005,2010,2018"'), ("B10", '"best,average"')):
        rule = DataValidation(type="list", formula1=choices, allow_blank=True)
        rule.add(ref)
        cells.ws.add_data_validation(rule)


def _span(column: str, last: int) -> str:
    return f"${column}${FIRST}:${column}${last}"


def _steps(ageing: str, steps: tuple[tuple[int, float], ...]) -> str:
    """The era's age factor of a result ageing from ``ageing`` (1 until its first step; the last
    step it is over wins): ``T > EDATE(D, 12 k)``, a calendar year as xlrating counts it."""
    formula = "1"
    for years, factor in steps:
        shown = {1 / 3: "1/3", 2 / 3: "2/3"}.get(factor, f"{factor:g}")
        formula = f"IF({AS_OF}>EDATE({ageing},{12 * years}),{shown},{formula})"
    return formula


def _age_factor(r: int) -> str:
    ageing = f'IF($D{r}="",$C{r},$D{r})'
    eras = mers.ERAS
    by_era = (f'IF({ERA}="2005",{_steps(ageing, eras["2005"].age_steps)},IF({ERA}="2010",'
              f'{_steps(ageing, eras["2010"].age_steps)},{_steps(ageing, eras["2018"].age_steps)}))')
    return f"IF($C{r}>{AS_OF},0,{by_era})"


def _common(cells: Cells, r: int, row: dict[str, Any] | None, era: str, last: int) -> None:
    """The columns every row computes alike, from its base rank (K) and age factor (M) on."""
    counts = bool(row and row["counts"])
    cells.derived(f"L{r}", f'IF({ERA}="2018",ROUND($K{r},0),$K{r})',
                  row["counted_base_rank"] if row else 0.0)
    cells.derived(f"N{r}", f"IF($M{r}>0,1,0)", 1 if counts else 0, None)
    cells.derived(f"O{r}", f"IF($N{r}=1,$I{r}*$M{r},0)", row["weight_x_age"] if row else 0.0)
    cells.derived(f"P{r}", f"$O{r}*$L{r}", (row["weight_x_age"] * row["counted_base_rank"]) if row else 0.0)
    n, b, wa, index = (_span(c, last) for c in "NLOA")
    before = f"({b}>$L{r})+({b}=$L{r})*(({wa}>$O{r})+({wa}=$O{r})*({index}<$A{r}))"
    cells.derived(f"Q{r}", f'IF($N{r}=1,1+SUMPRODUCT({n}*({before})),"")',
                  row["order"] if row and row["order"] is not None else "", "0")
    limits = {"in_all": None, "in_best_3": "3", "in_part_a": SIZE_A, "in_part_b": "4"}
    for column, key, eras in FLAGS:
        inside = f"$N{r}" if limits[key] is None else f"IF($N{r}=1,IF($Q{r}<={limits[key]},1,0),0)"
        condition = f'{ERA}="{eras[0]}"' if len(eras) == 1 else f'{ERA}<>"2018"'
        value: Any = (1 if row and row.get(key) else 0) if era in eras else ""
        cells.derived(f"{column}{r}", f'IF({condition},{inside},"")', value, "0")


def _result(cells: Cells, r: int, row: dict[str, Any], era: str, ties: str, last: int) -> None:
    for column, key in zip("ABCDEFGHI", ("number", "tournament", "date", "effective_date", "players", "place", "tied",
                                          "given_base_rank", "weight")):
        cells.given(f"{column}{r}", row[key])
    given = row["given_base_rank"] is not None
    cells.derived(f"J{r}", f'IF($H{r}<>"","",IF({TIES}="average",$F{r}+($G{r}-1)/2,$F{r}))',
                  "" if given else _scored_place(row, ties))
    cells.derived(f"K{r}", f'IF($H{r}<>"",$H{r},($E{r}-$J{r})*1000/($E{r}-1))', row["base_rank"])
    cells.derived(f"M{r}", _age_factor(r), row["age_factor"])
    _common(cells, r, row, era, last)
    years = f'IF({ERA}="2005",4,IF({ERA}="2010",3,2))'
    cells.derived(f"V{r}", f'IF($C{r}>{AS_OF},"played after the ranking date",IF($M{r}=0,"over "&{years}&" years old",'
                           f'"counted"))', row["status"], None)


def _scored_place(row: dict[str, Any], ties: str) -> float:
    return float(row["place"]) + (row["tied"] - 1) / 2 if ties == "average" else float(row["place"])


def _padding(cells: Cells, r: int, number: int, slot: int, row: dict[str, Any] | None, era: str, last: int) -> None:
    cells.given(f"A{r}", number)
    cells.given(f"B{r}", "(padding)")
    for column in "CDEFG":
        cells.given(f"{column}{r}", None)
    cells.given(f"H{r}", 0)
    cells.given(f"I{r}", 1)
    cells.derived(f"J{r}", f'IF($H{r}<>"","",IF({TIES}="average",$F{r}+($G{r}-1)/2,$F{r}))', "")
    cells.derived(f"K{r}", f'IF($H{r}<>"",$H{r},($E{r}-$J{r})*1000/($E{r}-1))', 0.0)
    cells.derived(f"M{r}", f"IF({slot}<={PADDING},1,0)", 1 if row else 0)
    _common(cells, r, row, era, last)
    cells.derived(f"V{r}", f'IF($N{r}=1,"padding to 5 results","not needed")',
                  "padding to 5 results" if row else "not needed", None)


def _summary(cells: Cells, explanation: Explanation, era: str, results: int, last: int) -> None:
    labels = ("Results counted", "Padding results", "Results in Part A (2018)", "Weighted average of all (2005, 2010)",
              "Weighted average of the best 3 (2010)", "Part A (2018)", "Part B (2018)",
              f"Total ({explanation.setting('ruleset') or 'MERS'})")
    for row, label in enumerate(labels, start=12):
        cells.text(f"A{row}", label, LABEL_FONT)
    counted = explanation.count
    counts = f"SUM($N${FIRST}:$N${FIRST + results - 1})" if results else "0"
    cells.derived("B12", counts, counted, "0")
    cells.derived("B13", f"MAX(0,{SLOTS}-{COUNTED})", max(0, SLOTS - counted), "0")
    cells.derived("B14", f"{SLOTS}+INT((4*MAX({COUNTED}-{SLOTS},0)+4)/5)", mers.part_a_size(counted), "0")
    parts = {key: value for key, _, value in explanation.parts}
    wab, wa = _span("P", last), _span("O", last)
    for (column, key, eras), part in zip(FLAGS, PART_CELLS):
        flags = _span(column, last)
        condition = f'{ERA}="{eras[0]}"' if len(eras) == 1 else f'{ERA}<>"2018"'
        known = parts.get(part)
        value: float | str = known if known is not None else _average(explanation.rows, key) if era in eras else ""
        cells.derived(PART_CELLS[part], f'IF({condition},SUMPRODUCT({flags},{wab})/SUMPRODUCT({flags},{wa}),"")',
                      value, FINE_FORMAT)
    a, best3, part_a, part_b = (PART_CELLS[k] for k in ("all", "best_3", "part_a", "part_b"))
    total = (f'IF({COUNTED}<{mers.MINIMUM_RESULTS},NA(),IF({ERA}="2005",{a},IF({ERA}="2010",0.5*{a}+0.5*{best3},'
             f"0.5*{part_a}+0.5*{part_b})))")
    cells.derived(TOTAL, total, explanation.rating if explanation.rating is not None else NA, FINE_FORMAT, result=True)


def _average(rows: tuple[dict[str, Any], ...], key: str) -> float:
    chosen = [row for row in rows if row.get(key)]
    weights = sum(float(row["weight_x_age"]) for row in chosen)
    return sum(float(row["weight_x_age"]) * float(row["counted_base_rank"]) for row in chosen) / weights if weights else 0.0
