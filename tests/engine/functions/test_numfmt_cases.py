"""TEXT's number-format language against a second oracle: the (format, value, expected) cases of
numfmt, a number-format library checked against Excel (``numfmt_excel_cases.tsv`` names its source):
digit placeholders, thousands and scaling commas, percent, scientific and engineering notation
("##0.0E+0", "00.E+00"), exponent digits among literals and spaces between E+ and them ("0 E+ 0"
writes 1 E +7), commas in odd places ("0.," and "01," scale, "0 ,," writes one comma, "0,???" a
separator after the 0, "0,0 0/0" groups the whole part), fractions (a whole number under "0 0/0" is
"1234 0/1", under "# #/#" "1234"; a denominator split by a literal has the digits before it, "00
00/0z0" writes 2/3z0), conditions and the minus sign they write, General in every section (the text
one too), elapsed time ([hhh] pads to three digits), fractional seconds after hours without seconds
("hh.000" writes 16.848), fill and spacing characters, colours, dates and times, the calendar codes
of an en-US Excel (the Buddhist year b, the era g writing nothing, e+ the year and a plus, the Hijri
calendar B2 or [$-060409], its months' en-US names).

Not followed yet (left out of the table): the month names of B2 without a locale (Excel writes them
in Arabic, numfmt notes; we write the en-US ones); a number no section of a conditional format takes
(Excel's cell shows ####; TEXT answers #VALUE!, which numfmt does not model); General of a subnormal
number (numfmt: 2.33E-321, from a report to numfmt; the engine writes 0, as number_text writes any
subnormal number); other locales' names and separators ([$-is]mmmm, Icelandic months;
[$Fr.-807]#,##0.00, 12'345.67)."""

from __future__ import annotations

import json
from pathlib import Path

from xlrating.engine.functions.number_format import BadFormat, format_text

TABLE = Path(__file__).with_name("numfmt_excel_cases.tsv")


def _cases() -> list[tuple[str, float | str, str]]:
    cases = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        code, value, expected = (json.loads(field) for field in line.split("\t"))
        cases.append((code, float(value) if isinstance(value, (int, float)) else value, expected))
    return cases


def test_every_case_as_excel_writes_it() -> None:
    cases = _cases()
    assert len(cases) > 2000
    wrong = []
    for code, value, expected in cases:
        try:
            got = format_text(value, code)
        except BadFormat:
            got = "#VALUE!"
        if got != expected:
            wrong.append((code, value, expected, got))
    assert wrong == [], f"{len(wrong)} of {len(cases)} differ, e.g. {wrong[:10]}"
