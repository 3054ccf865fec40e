"""The list of worksheet function names Excel knows, xlrating/engine/data/excel_functions.txt."""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

import formulas
import pytest

# Found without importing xlrating.engine, so this test does not depend on the engine's own imports.
_XLRATING = find_spec("xlrating")
assert _XLRATING is not None and _XLRATING.submodule_search_locations
FUNCTIONS_FILE = Path(next(iter(_XLRATING.submodule_search_locations))) / "engine" / "data" / "excel_functions.txt"

# Names the formulas package registers that are not worksheet functions one can type in Excel.
FORMULAS_INTERNAL = {
    "ARRAY": "formulas' own builder for array constants {1,2;3,4}",
    "ARRAYROW": "formulas' own builder for one row of an array constant",
    "SINGLE": "the '@' implicit-intersection operator, stored in files as _xlfn.SINGLE, never typed",
    "DUMMYFUNCTION": "Google Sheets' placeholder in exported workbooks (__xludf.DUMMYFUNCTION)",
    "__XLUDF.DUMMYFUNCTION": "Google Sheets' placeholder in exported workbooks",
}

SAMPLE = [
    "SUM", "VLOOKUP", "XLOOKUP", "DEC2BIN", "VDB", "DAVERAGE", "SEQUENCE", "LAMBDA", "LET", "CELL", "INFO",
    "SHEET", "SHEETS", "FORMULATEXT", "ISFORMULA", "NETWORKDAYS.INTL", "T.TEST", "CUBEVALUE", "WEBSERVICE",
    "ENCODEURL", "FILTERXML", "HYPERLINK", "IMAGE",
    # compatibility, lambda helpers, the newer array and text ones
    "BETADIST", "CHIDIST", "FLOOR", "PERCENTILE", "STDEV", "VAR", "MAP", "REDUCE", "SCAN", "MAKEARRAY",
    "BYROW", "BYCOL", "ISOMITTED", "VSTACK", "HSTACK", "TAKE", "DROP", "TOCOL", "TOROW", "WRAPROWS",
    "WRAPCOLS", "CHOOSECOLS", "CHOOSEROWS", "EXPAND", "TEXTSPLIT", "TEXTBEFORE", "TEXTAFTER", "VALUETOTEXT",
    "ARRAYTOTEXT", "GROUPBY", "PIVOTBY", "PERCENTOF", "TRIMRANGE", "REGEXTEST", "REGEXEXTRACT", "REGEXREPLACE",
]
NOT_EXCEL = ["SUMM", "MYLAMBDA", "XLRATING", "DIPPOUCH_VALUE"]


def excel_function_names() -> list[str]:
    """The names in file order, comment and blank lines skipped."""
    lines = FUNCTIONS_FILE.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def without_storage_prefixes(name: str) -> str:
    name = name.upper()
    while name.startswith(("_XLFN.", "_XLWS.")):
        name = name[len("_XLFN.") :]
    return name


def test_file_starts_with_a_comment_saying_where_the_list_comes_from() -> None:
    first = FUNCTIONS_FILE.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("#")
    assert "Excel functions (alphabetical)" in FUNCTIONS_FILE.read_text(encoding="utf-8")


def test_names_are_sorted_upper_case_and_unique() -> None:
    names = excel_function_names()
    assert names == sorted(names)
    assert all(name == name.upper() and " " not in name for name in names)
    assert len(names) == len(set(names))
    assert len(names) >= 480


@pytest.mark.parametrize("name", SAMPLE)
def test_well_known_functions_are_listed(name: str) -> None:
    assert name in set(excel_function_names())


@pytest.mark.parametrize("name", NOT_EXCEL)
def test_names_that_are_not_excel_functions_are_not_listed(name: str) -> None:
    assert name not in set(excel_function_names())


def test_every_excel_function_formulas_knows_is_listed() -> None:
    ours = set(excel_function_names())
    theirs = {without_storage_prefixes(name) for name in formulas.get_functions()}
    missing = sorted(theirs - ours)
    print("formulas names not in excel_functions.txt:", missing)
    assert set(missing) <= set(FORMULAS_INTERNAL), sorted(set(missing) - set(FORMULAS_INTERNAL))
    assert not ours & set(FORMULAS_INTERNAL)
