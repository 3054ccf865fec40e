"""Findings: what the validator reports about a submitted sheet.

A finding is a record (in the manner of frictionless/pandera validation reports): a stable
``code``, a ``severity`` (``error`` stops the sheet from being stored, ``warning`` does not), the
``sheet`` and ``cell`` (A1) where it is, and a ``message`` rendered from the code's template. The
catalogue below is the one place that defines every code, its severity and its wording; the
rules only pick a code and fill in the blanks.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

Severity = Literal["error", "warning"]

# code -> (severity, message template). Each message says what is wrong and what would be right.
CATALOGUE: dict[str, tuple[Severity, str]] = {
    # layout
    "NO_RESULTS_TABLE": ("error", ("no results table found: expected a header row with at least "
                         "Position, EMA ID and Last name columns (or their usual synonyms) on some sheet")),
    "COLUMN_MISSING": ("error", "the results table has no {column} column; expected a header such as {synonyms}"),
    "TOURNAMENT_FIELD_MISSING": ("error", ("no {field} given for the tournament; expected a cell labelled "
                                 "{labels} with the value in the next column")),
    "TOURNAMENT_FIELD_CONFLICT": ("error", ("{field} is given twice with different values: {value!r} at {at} "
                                  "and {other!r} at {other_at}; expected one value (remove or correct one)")),
    "TOURNAMENT_VALUE_EMPTY": ("error", "{field} is labelled but its value cell is empty; expected {expected}"),
    "ROWS_AFTER_TABLE": ("warning", ("row {row} looks like a player row but comes after the blank row that ends "
                         "the results table, so it is not read; remove the blank row(s) above it")),
    "MERS_RESULTS_TABLE": ("error", ("this file is a MERS results table (columns {columns}), the input of "
                           "`xlrating rank mers FILE`, not a sheet to submit: validate and ingest check a "
                           "tournament's EMA results sheet (its details above a table of Position, EMA ID, Last "
                           "name...); rank this table with `xlrating rank mers FILE`")),
    # EMA IDs
    "EMA_ID_LOST_LEADING_ZERO": ("error", ("EMA ID {value!r} has lost its leading zero (the cell holds a "
                                 "{kind}); expected the 8-digit text {repaired!r}: format the column as Text "
                                 "and type it again")),
    "EMA_ID_NOT_TEXT": ("warning", ("EMA ID {value!r} is stored as a number; expected text ('{repaired}'), "
                        "since numbers lose leading zeros")),
    "EMA_ID_FORMAT": ("error", ("EMA ID {value!r} is not an EMA ID; expected 8 digits (e.g. '04060059'), "
                      "or an empty cell or '-' for a player from outside the EMA")),
    "EMA_ID_UNKNOWN_PREFIX": ("warning", ("EMA ID {value!r} starts with {prefix!r}, which is not a known EMA "
                              "member prefix; expected one of {known}")),
    "EMA_ID_COUNTRY_MISMATCH": ("warning", ("EMA ID {value!r} was issued by {id_country}, prefix {prefix}, but the "
                                "player's country is {country!r}; check the ID or the country")),
    "EMA_ID_DUPLICATE": ("error", ("EMA ID {value!r} appears again (first at {first}); expected each player "
                         "once per tournament")),
    "EMA_ID_MISSING": ("error", ("the player from {country!r}, an EMA member country, has no EMA ID; an empty "
                       "cell or '-' is only for players from outside the EMA")),
    "PLAYER_UNKNOWN": ("error", "EMA ID {value!r} is not in the player registry {registry!r}; check the ID"),
    "PLAYER_NAME_MISMATCH": ("warning", ("EMA ID {value!r} belongs to {expected!r} in the player registry, "
                             "but the sheet says {found!r}")),
    # placements
    "PLACE_NOT_WHOLE": ("error", "position {value!r} is not a whole number; expected 1 to {players}"),
    "PLACE_OUT_OF_RANGE": ("error", "position {value} is outside 1 to {players} (the number of players)"),
    "PLACE_GAP": ("error", ("position {value} follows {previous} with no tie to explain the gap; "
                  "expected {expected}")),
    "PLACE_TIE_NOT_SKIPPED": ("error", ("position {value} comes after {tied} players tied at {previous}; "
                              "competition ranking (1, 2, 2, 4) expects {expected}")),
    "PLACE_SCORE_ORDER": ("error", ("position {value} has better {column} ({score}) than position {better} "
                          "({better_score}); expected the positions to follow the scores")),
    "ROW_COUNT_MISMATCH": ("error", ("the table has {rows} player rows but the tournament declares {players} "
                           "players; expected one row per player")),
    "SCORE_NOT_NUMBER": ("error", "{column} {value!r} is not a number; expected a number or an empty cell"),
    # tournament data
    "RULESET_INVALID": ("error", "ruleset {value!r} is not MERS-rated; expected MCR or Riichi"),
    "DATE_INVALID": ("error", "{field} {value!r} is not a real date; expected a date cell or YYYY-MM-DD"),
    "END_BEFORE_START": ("error", "end date {end} is before start date {start}; expected end >= start"),
    "WHOLE_NUMBER_INVALID": ("error", "{field} {value!r} is not valid; expected a whole number >= {minimum}"),
    "DAYS_MISMATCH": ("warning", ("{days} days declared but {start} to {end} spans {span}; check the dates "
                      "or the number of days")),
    "COUNTRIES_MISMATCH": ("warning", "{declared} countries declared but the table lists {found} ({codes})"),
    "WEIGHT_INVALID": ("error", ("MERS weight {value!r} is not valid; expected a number > 0 (1 local, "
                       "2 national, 5 European/World championship)")),
    "WEIGHT_MISSING": ("error", ("no MERS weight and not all of its 2018 components; expected a 'MERS weight' "
                       "value or its 2018 components Days, Players and Countries (with Qualification required)")),
    "WEIGHT_MISMATCH": ("warning", ("MERS weight {value} differs from {computed} computed from the 2018 "
                        "components (days, players, countries, qualification)")),
    "QUALIFICATION_INVALID": ("error", ("qualification flag {value!r} is not yes/no; expected Yes or No "
                              "(TRUE/FALSE, 1/0)")),
    # sheet hygiene
    "FORMULA_NO_VALUE": ("error", ("formula {formula!r} has no stored result, so its value cannot be read; "
                         "open and save the file in Excel or LibreOffice, or type the value")),
    "MERGED_CELLS_IN_TABLE": ("error", ("merged cells {range} inside the results table; expected one value "
                              "per cell (unmerge them)")),
    "NAME_EMPTY": ("error", "the player on row {row} has no {column}; expected a name"),
    "FIRST_NAME_EMPTY": ("warning", "the player on row {row} has no first name"),
    "COUNTRY_EMPTY": ("warning", "the player on row {row} has no country; expected a 3-letter code such as FRA"),
    # Dip Pouch results and DCI matches tables (each message starts with the column's header)
    "TABLE_NOT_FOUND": ("error", ("no {table} table found: expected a header row naming the columns {columns} "
                        "in the first rows of a sheet")),
    "TABLE_COLUMN_MISSING": ("error", ("the {table} table has no {column!r} column; expected a header row naming "
                             "{columns}")),
    "TABLE_EMPTY": ("error", "the {table} table has no rows below its header; expected one row per {row_is}"),
    "TABLE_VALUE_MISSING": ("error", "{header} is empty; expected {expected}"),
    "TABLE_TEXT_INVALID": ("error", "{header} {value!r} is not text; expected {expected}"),
    "TABLE_DATE_INVALID": ("error", "{header} {value!r} is not a real date; expected a date cell or YYYY-MM-DD"),
    "TABLE_DATE_AMBIGUOUS": ("error", "{header} {value!r} is ambiguous: {why}, or make the cell a date"),
    "TABLE_WHOLE_INVALID": ("error", "{header} {value!r} is not valid; expected a whole number >= 1"),
    "TABLE_NUMBER_INVALID": ("error", "{header} {value!r} is not a number; expected {expected}"),
    "TABLE_FLAG_INVALID": ("error", "{header} {value!r} is not TRUE or FALSE; expected TRUE or FALSE (1/0, Yes/No)"),
    "TABLE_COUNTRY_INVALID": ("error", ("{header} {value!r} is not a country; expected a country's code (e.g. FRA) "
                              "or name: letters, spaces, hyphens and apostrophes, at most 60 characters")),
    "RESULT_INVALID": ("error", ("{header} {value!r} is not a match result; expected W, D or L (or 1, 0.5, 0) "
                       "from the player's side")),
    "K_INVALID": ("error", "{header} {value!r} is not a K-value; expected a number >= 0 such as 16"),
    "TIER_UNKNOWN": ("error", "{header} {value!r} is not a DCI event tier; expected one of {tiers}, or a K-value"),
    "K_TIER_DISAGREE": ("warning", ("{header} {value!r} differs from the tier's K {tier_k:g} ({tier!r}); the "
                        "K column wins: expected K and tier to agree, or only one of them")),
    "SPELLING_VARIANT": ("error", ("{header} {value!r} is spelled {other!r} at {first}; expected one spelling "
                         "({what} spelled differently count as different {what})")),
    "PLAYER_SPELLING_VARIANT": ("warning", ("{header} {value!r} is spelled {other!r} at {first}; the ratings "
                                "count them as two players: expected one spelling for one player")),
    "EVENT_VALUE_DIFFERS": ("error", ("{header} {value!r} differs from {other!r} at {first} in event {event!r}; "
                            "expected the same {header} on every row of an event")),
    "EVENT_PLACE_OUT_OF_RANGE": ("error", ("{header} {value} is outside 1 to {players}, the players of event "
                                 "{event!r}")),
    "EVENT_PLAYER_TWICE": ("error", ("{header} {value!r} is listed again in event {event!r} (first at {first}); "
                           "expected each player once per event")),
    "EVENT_MORE_ROWS_THAN_PLAYERS": ("error", ("event {event!r} has {rows} rows but {header} says {players}; "
                                     "expected at most one row per player")),
    "PLAYER_COUNTRY_DIFFERS": ("error", ("{header} {value!r} for {player} differs from {other!r} at {first} in "
                               "{event}; expected one country for a player within an event")),
    "PLAYER_COUNTRY_CHANGES": ("warning", ("{header} {value!r} for {player} differs from {other!r} at {first}, in "
                               "an earlier event ({earlier}); the pages show each player's country of their "
                               "latest event that gives one: check it if the player did not change country")),
    "MATCH_AGAINST_SELF": ("error", "{header} {value!r} is the player; expected an opponent other than the player"),
    "MATCH_SIDES_DISAGREE": ("error", ("{header} {value!r} ({player} vs {opponent}, {event} round {round}) "
                             "disagrees with {other!r} at {other_cell}, the same match from the other side; "
                             "expected W against L and D against D")),
    "MATCH_K_DISAGREE": ("error", ("{header} {value!r} ({player} vs {opponent}, {event} round {round}) differs "
                         "from {other!r} at {other_cell}, the same match from the other side; expected one K")),
    "MATCH_LISTED_TWICE": ("error", ("{player} vs {opponent} ({event} round {round}) is listed again (first at "
                           "{first}); expected a match once, or once from each side")),
    "PLAYER_TWICE_IN_ROUND": ("error", ("{header} {value!r} also plays in {event} round {round} at {first}; "
                              "expected each player in one match (or bye) per round")),
    "TEXT_NOT_UTF8": ("error", ("{value!r} holds bytes that are not UTF-8 (shown as \ufffd) in a file that is "
                      "otherwise UTF-8; expected the name as typed: save the file again as CSV (UTF-8)")),
    "TABLE_NOT_RANKABLE": ("error", "the ratings cannot be computed from this table: {message}"),
}


@dataclass(frozen=True)
class Finding:
    """One problem at one cell. ``file`` is set when several files are reported together."""

    code: str
    severity: Severity
    sheet: str
    cell: str
    message: str
    file: str | None = None

    def as_dict(self) -> dict[str, Any]:
        record = asdict(self)
        if record["file"] is None:
            del record["file"]
        return record


def finding(code: str, sheet: str, cell: str, **fields: Any) -> Finding:
    """Build a finding from the catalogue: ``finding("PLACE_GAP", "Results", "A7", value=5, ...)``."""
    severity, template = CATALOGUE[code]
    return Finding(code, severity, sheet, cell, template.format(**fields))


def has_errors(findings: list[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)


SHOWN_PER_CODE = 20
"""Findings of one code shown before the rest are counted: a sheet with one systematic mistake
(a column of dates in the wrong format) is 20 lines and "and 4,590 more like these", not 4,610."""


def grouped(findings: list[Finding], per_code: int = SHOWN_PER_CODE) -> tuple[list[Finding], dict[str, int]]:
    """The first ``per_code`` findings of each code, in reading order, and how many more each code has."""
    seen: dict[str, int] = {}
    shown = []
    for f in findings:
        seen[f.code] = seen.get(f.code, 0) + 1
        if seen[f.code] <= per_code:
            shown.append(f)
    return shown, {code: n - per_code for code, n in seen.items() if n > per_code}


class Collector:
    """Collects findings during one validation pass, reading cells on the rules' behalf.

    :meth:`read` reports a formula whose result was never stored (only for cells a rule actually
    reads) and returns :data:`UNREAD` for it, so that no rule reports that cell a second time.
    """

    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self._positions: list[tuple[int, int]] = []

    def add(self, code: str, sheet: str, row: int, column: int, /, **fields: Any) -> None:
        from xlrating.sheets.read.cells import a1

        self.findings.append(finding(code, sheet, a1(row, column), **fields))
        self._positions.append((row, column))

    def read(self, grid: Any, row: int, column: int) -> Any:
        value = grid.value(row, column)
        if value is None and (row, column) in grid.formulas:
            self.add("FORMULA_NO_VALUE", grid.name, row, column, formula=grid.formulas[(row, column)])
            return UNREAD
        return value

    def sorted(self, sheet_order: list[str]) -> list[Finding]:
        """Findings in reading order: by sheet (workbook order), then row, then column."""
        rank = {name: i for i, name in enumerate(sheet_order)}
        keyed = zip(self.findings, self._positions)
        ordered = sorted(keyed, key=lambda fp: (rank.get(fp[0].sheet, -1), fp[1][0], fp[1][1]))
        return [f for f, _ in ordered]


class _Unread:
    def __repr__(self) -> str:
        return "UNREAD"


UNREAD: Any = _Unread()


def not_utf8_findings(grids: list[Any]) -> list[tuple[Finding, tuple[int, int]]]:
    """A ``TEXT_NOT_UTF8`` finding at each cell of a CSV read as UTF-8 that holds bytes which were
    not (each read as U+FFFD), with its (row, column)."""
    from xlrating.sheets.read.cells import a1

    found = []
    for grid in grids:
        if not getattr(grid, "not_utf8", False):
            continue
        for r, cells in enumerate(grid.rows, start=1):
            for c, value in enumerate(cells, start=1):
                if isinstance(value, str) and "\ufffd" in value:
                    found.append((finding("TEXT_NOT_UTF8", grid.name, a1(r, c), value=value), (r, c)))
    return found
