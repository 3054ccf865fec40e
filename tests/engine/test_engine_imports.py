"""A conversion imports only what its workbook needs: one function of ``formulas``' library loads that
function's module (:mod:`xlrating.engine.functions.library`), not the whole library with scipy, and a plain
conversion does not load openpyxl."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest
from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format

from xlrating.engine import REGISTRY, evaluate_workbook
from xlrating.engine.formula.function_names import BUILTIN_PREFIXES
from xlrating.engine.functions import library
from xlrating.engine.read.date_cells import BUILTIN_DATE_FORMATS

# Converts argv[1] to argv[2] (.xlsx) and argv[3] (.json) through the public API, then prints which
# of the heavy packages the conversion imported.
_CONVERT = """
import sys
from xlrating.engine import convert_file
convert_file(sys.argv[1], sys.argv[2])
convert_file(sys.argv[1], sys.argv[3], fmt="json")
heavy = ("scipy", "openpyxl", "pandas", "statsmodels", "formulas.functions.stat", "formulas.functions.comp",
         "xlrating.functions", "xlrating.core.dci", "xlrating.core.dippouch", "xlrating.core.mers", "numpy.ma",
         "xlrating.engine.read.tables", "xlrating.engine.read.external")  # no table, no link: not their readers
print(sorted(name for name in heavy if name in sys.modules))
"""


def test_a_plain_workbook_converts_without_scipy_openpyxl_or_the_rating_maths(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([2024, 3, 10, None, None, None])
    ws.append([2023, 12, -4, None, None, None])
    for r in (1, 2):
        ws[f"D{r}"] = f"=DATE(A{r},B{r},1)"
        ws[f"E{r}"] = f"=SUM(A{r}:C{r})"
        ws[f"F{r}"] = f'=IF(C{r}>0,"up","down")'
    ws["G1"] = "=YEAR(D1)+MONTH(D2)"
    wb.save(tmp_path / "book.xlsx")
    done = subprocess.run([sys.executable, "-c", _CONVERT, str(tmp_path / "book.xlsx"), str(tmp_path / "out.xlsx"),
                           str(tmp_path / "out.json")], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"

    values = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True).active
    assert [[values.cell(r, c).value for c in range(4, 8)] for r in (1, 2)] == [
        [45352, 2037, "up", 2036], [45261, 2031, "down", None]]  # DATE(2024,3,1), DATE(2023,12,1)
    document = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert "45352" in json.dumps(document) and "2037" in json.dumps(document)


def test_everyday_formulas_convert_without_loading_formulas(tmp_path: Path) -> None:
    """Dates, MOD, an exact VLOOKUP, a COUNTIF, a SUMPRODUCT: the vectorised path computes them itself,
    so a small workbook of them starts without ``formulas``' library (about 50 ms)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    for r, (item, price, units, day) in enumerate([("pen", 2.5, 4, 3), ("ink", 7.0, 1, 9), ("pad", 3.2, 10, 28)], 1):
        ws.append([item, price, units, day, f"=DATE(2024,MOD({r},12)+1,D{r})", f"=ROUND(B{r}*C{r},2)",
                   f'=IF(F{r}>20,"big","small")', '=VLOOKUP("ink",$A$1:$C$3,2,FALSE)'])
    ws.append(["=SUMPRODUCT(B1:B3,C1:C3)", '=COUNTIF(G1:G3,"big")', "=YEAR(E1)+MONTH(E3)",
               '=IFERROR(VLOOKUP("none",A1:C3,2,FALSE),-1)', "=MATCH(9,D1:D3,1)"])
    wb.save(tmp_path / "book.xlsx")
    check = _CONVERT.replace('heavy = ("scipy",', 'heavy = ("formulas", "schedula", "scipy",')
    done = subprocess.run([sys.executable, "-c", check, str(tmp_path / "book.xlsx"), str(tmp_path / "out.xlsx"),
                           str(tmp_path / "out.json")], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"
    values = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True).active
    assert [values.cell(r, 5).value for r in (1, 2, 3)] == [45325, 45360, 45410]  # 3 Feb, 9 Mar, 28 Apr 2024
    assert [values.cell(4, c).value for c in range(1, 6)] == [49, 1, 2028, -1, 2]
    assert values["H1"].value == 7


def test_a_workbook_of_one_systems_functions_loads_that_systems_maths_only(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([12, 2, 3, "=DIPPOUCH_PERCENTILE(A1,B1)", "=DIPPOUCH_VALUE(A1,C1)", "=DIPPOUCH_NEW_RATING(40,D1,E1)"])
    wb.save(tmp_path / "book.xlsx")
    done = subprocess.run([sys.executable, "-c", _CONVERT, str(tmp_path / "book.xlsx"), str(tmp_path / "out.xlsx"),
                           str(tmp_path / "out.json")], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip().splitlines()[-1] == "['xlrating.core.dippouch', 'xlrating.functions']"
    values = openpyxl.load_workbook(tmp_path / "out.xlsx", data_only=True).active
    assert [values.cell(1, c).value for c in (4, 5)] == [pytest.approx(87.5), pytest.approx(12 / 3.5 + 2)]
    assert values["F1"].value == pytest.approx(40 + (12 / 3.5 + 2) / 100 * (87.5 - 40))


def test_a_statistical_function_still_computes_as_excel(tmp_path: Path) -> None:
    """NORM.S.DIST and its compatibility name NORMSDIST live in formulas' statistical modules (scipy)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([1.5, "=NORM.S.DIST(A1,TRUE)", "=_xlfn.NORM.S.DIST(A1,FALSE)", "=NORMSDIST(A1)", "=DATE(2024,1,1)"])
    wb.save(tmp_path / "book.xlsx")
    sheet = evaluate_workbook(str(tmp_path / "book.xlsx")).grid.sheet("Sheet")
    assert sheet is not None
    assert sheet.get(1, 2) == pytest.approx(0.933192798731142, abs=1e-14)  # Excel's values
    assert sheet.get(1, 3) == pytest.approx(0.129517595665892, abs=1e-14)
    assert sheet.get(1, 4) == pytest.approx(0.933192798731142, abs=1e-14)
    assert sheet.get(1, 5) == 45292


_STATISTICS = """
import sys
from xlrating.engine import REGISTRY, evaluate_workbook
sheet = evaluate_workbook(sys.argv[1]).grid.sheet("Sheet")
print(repr([sheet.get(1, c) for c in range(3, 8)]))
print("scipy" in sys.modules)
"""


@pytest.mark.parametrize("with_distribution", [False, True])
def test_counting_and_averaging_need_no_scipy_and_a_distribution_still_gets_it(tmp_path: Path,
                                                                                with_distribution: bool) -> None:
    # AVERAGE, COUNTIF, MEDIAN ... live in formulas' statistical module, which imports scipy at its
    # top for its distributions; scipy loads only when a distribution runs, which then computes
    # Excel's value (BINOM.DIST(3,10,0.5,FALSE) = 0.1171875, T.DIST.RT(2,5) = 0.0509697394149).
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append([4, "big", '=COUNTIF(B1:B3,"big")', "=MEDIAN(A1:A3)", "=LARGE(A1:A3,2)",
               "=BINOM.DIST(3,10,0.5,FALSE)" if with_distribution else '=AVERAGEIF(B1:B3,"big",A1:A3)',
               "=_xlfn.T.DIST.RT(2,5)" if with_distribution else "=COUNTA(A1:B3)"])
    ws.append([9, "small"])
    ws.append([1, "big"])
    wb.save(tmp_path / "book.xlsx")
    done = subprocess.run([sys.executable, "-c", _STATISTICS, str(tmp_path / "book.xlsx")],
                          capture_output=True, text=True, check=True)
    values_line, scipy_loaded = done.stdout.strip().splitlines()
    values = eval(values_line)  # a list of numbers the child printed with repr()
    assert values[:3] == [2.0, 4.0, 4.0]
    if with_distribution:
        assert values[3:] == [pytest.approx(0.1171875), pytest.approx(0.0509697394149, abs=1e-12)]
        assert scipy_loaded == "True"
    else:
        assert values[3:] == [2.5, 6.0] and scipy_loaded == "False"


_RANDOM = """
import sys
from xlrating.engine import REGISTRY, evaluate_workbook
evaluated = evaluate_workbook(sys.argv[1])
print("numpy.random" in sys.modules)
evaluated = evaluate_workbook(sys.argv[2])
sheet = evaluated.grid.order[0]
print(repr([sheet.get(r, 1) for r in range(1, 5)]))
"""


def test_mod_does_not_import_numpy_random_and_rand_still_computes(tmp_path: Path) -> None:
    # formulas' math module (MOD, POWER, SQRT ...) takes np.random.rand for RAND at its top: it is
    # imported with numpy.random deferred until RAND or RANDBETWEEN runs
    for name, formulas_ in (("mod.xlsx", ["=MOD(A2,3)", 7]), ("rand.xlsx", ["=RAND()", "=RANDBETWEEN(1,6)",
                                                                              "=MOD(7,3)", "=SQRT(16)"])):
        wb = openpyxl.Workbook()
        for r, value in enumerate(formulas_, start=1):
            wb.active.cell(r, 1, value)
        wb.save(tmp_path / name)
    done = subprocess.run([sys.executable, "-c", _RANDOM, str(tmp_path / "mod.xlsx"), str(tmp_path / "rand.xlsx")],
                          capture_output=True, text=True, timeout=120, check=True)
    loaded, values_line = done.stdout.strip().splitlines()
    values = eval(values_line)  # a list of numbers the child printed with repr()
    assert loaded == "False"
    assert 0 <= values[0] < 1 and values[1] in (1, 2, 3, 4, 5, 6) and values[2:] == [1.0, 4.0]


def test_the_stored_index_is_the_installed_formulas_library() -> None:
    """data/formulas_functions.txt is current (after upgrading formulas: python -m xlrating.engine.functions.library)."""
    text = (Path(library.__file__).parent.parent / "data" / library.INDEX_FILE).read_text(encoding="utf-8")
    assert library.read_index(text, library.installed_version()) == library.build_index()


def test_an_index_written_for_another_formulas_is_not_used() -> None:
    text = library.index_text({"formulas.functions.date": ["DATE"]}, "0.0.1")
    assert library.read_index(text, "0.0.1") == {"formulas.functions.date": ["DATE"]}
    assert library.read_index(text, library.installed_version()) is None


def test_a_name_resolves_to_what_the_whole_registry_holds() -> None:
    """The lazy lookup keeps the registry's precedence: ours over formulas' (under the stored prefixes
    formulas knows), xlrating's functions over everything; formulas' own where we have nothing."""
    whole = REGISTRY.registry()
    for name, implementation in whole.items():
        assert REGISTRY.lookup(name) is implementation, name
    for name in ("SUMM", "_XLFN.SUMM", "_XLFN.DATE", "XLRATING.SUM", "_XLL.NOPE"):
        assert (name in whole) == (REGISTRY.lookup(name) is not None), name
    assert REGISTRY.lookup("ROUND") is not library.function("ROUND")  # ours, Excel's rounding
    assert REGISTRY.lookup("PI") is library.function("PI")  # formulas' own
    # formulas' own too, wrapped: its text argument read as Excel reads it (.number_arguments), its
    # parameter taking one value intersected in a legacy formula (.legacy_values)
    exp = library.function("EXP")
    assert REGISTRY.lookup("EXP") is not exp
    assert inspect.unwrap(REGISTRY.lookup("EXP"), stop=lambda function: function is exp) is exp
    assert all(prefix + "ROUND" not in whole for prefix in BUILTIN_PREFIXES)  # formulas has no _xlfn.ROUND


def test_the_built_in_date_formats_are_those_openpyxl_recognises() -> None:
    assert {i for i, code in BUILTIN_FORMATS.items() if is_date_format(code)} == BUILTIN_DATE_FORMATS
