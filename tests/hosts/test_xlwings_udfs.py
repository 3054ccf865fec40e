"""The UDF module, run through xlwings' own Windows UDF machinery (xlwings 0.37.8).

On Linux ``xw.func`` does nothing, so testing the plain Python functions would prove little. These
tests import xlwings' real Windows modules (``xlwings.udfs``, ``xlwings._xlwindows``) with only
pywin32 and the Win32 DLLs replaced by inert stand-ins, then drive ``call_udf`` - the function the
xlwings COM server runs for every UDF call from a cell - ``generate_vba_wrapper`` and
``import_udfs``, which register the functions in a workbook. What still needs Excel itself: the COM
transport (VBA Variant <-> Python), dynamic-array spilling on screen and the Function Wizard.
"""

from __future__ import annotations

import ctypes
import datetime as dt
import importlib
import io
import re
import sys
import types
from typing import Any

import numpy as np
import pytest

from xlrating.functions import FUNCTIONS

UDF_MODULE = "xlrating.hosts.xlwings_udfs"
RANGE_IID = "{00020846-0000-0000-C000-000000000046}"  # what xlwings checks to recognise a Range
MISSING = -2147352572  # what COM passes for an omitted optional argument
NA, VALUE, DIV0 = -2146826246, -2146826273, -2146826281  # Excel error cells as pywin32 reads them


class _Inert:
    """Stands in for any pywin32 object that xlwings touches at import time but never uses here."""

    def __getattr__(self, item: str) -> _Inert:
        return _Inert()

    def __call__(self, *args: Any, **kwargs: Any) -> _Inert:
        return _Inert()


def _module(name: str, **attrs: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    module.__getattr__ = lambda item: _Inert()  # type: ignore[method-assign]
    return module


class TimeType(dt.datetime):
    """pywintypes.TimeType: what a date cell's value is over COM (a datetime subclass)."""


class ComError(Exception):
    pass


@pytest.fixture(scope="module")
def xlwings_windows() -> Any:
    """xlwings.udfs and xlwings._xlwindows, imported for real with pywin32 stubbed out."""
    mp = pytest.MonkeyPatch()
    stubs = {
        "pywintypes": _module("pywintypes", TimeType=TimeType, com_error=ComError, IID=lambda s: s),
        "pythoncom": _module("pythoncom"),
        "win32api": _module("win32api"),
        "win32con": _module("win32con"),
        "win32gui": _module("win32gui"),
        "win32process": _module("win32process", GetWindowThreadProcessId=lambda hwnd: (0, 4242)),
        "win32timezone": _module("win32timezone"),
        "win32com": _module("win32com"),
        "win32com.client": _module("win32com.client", CDispatch=type("CDispatch", (), {}),
                                   CoClassBaseClass=type("CoClassBaseClass", (), {}),
                                   DispatchBaseClass=type("DispatchBaseClass", (), {}),
                                   Dispatch=lambda obj: obj, DispatchEx=lambda obj: obj),
        # the COM server module itself; call_udf only reads its event loop (for async UDFs)
        "xlwings.com_server": _module("xlwings.com_server", loop=None),
    }
    for name, module in stubs.items():
        mp.setitem(sys.modules, name, module)
    for name in ("windll", "oledll", "PyDLL"):
        mp.setattr(ctypes, name, _Inert(), raising=False)
    for name in ("xlwings._xlwindows", "xlwings.udfs"):
        mp.delitem(sys.modules, name, raising=False)

    import xlwings

    windows = importlib.import_module("xlwings._xlwindows")
    udfs = importlib.import_module("xlwings.udfs")
    # what xlwings/__init__.py does on Windows: register the Excel engine, use the real decorators
    mp.setattr(xlwings, "engines", xlwings.main.Engines())
    xlwings.engines.add(xlwings.main.Engine(impl=windows.engine))
    mp.setattr(xlwings, "func", udfs.xlfunc)
    mp.setattr(xlwings, "arg", udfs.xlarg)
    mp.setattr(xlwings, "ret", udfs.xlret)
    module = importlib.reload(importlib.import_module(UDF_MODULE))
    yield types.SimpleNamespace(udfs=udfs, windows=windows, module=module)
    mp.undo()
    for name in ("xlwings._xlwindows", "xlwings.udfs"):
        sys.modules.pop(name, None)
    importlib.reload(importlib.import_module(UDF_MODULE))  # back to the no-op decorators


# --- a COM Range as Excel hands it to the UDF ----------------------------------------------------

class _TypeAttr:
    iid = RANGE_IID


class _OleObj:
    def GetTypeInfo(self) -> Any:
        return types.SimpleNamespace(GetTypeAttr=lambda: _TypeAttr())


class ComRange:
    """The attributes of an Excel.Range COM object that xlwings reads for a UDF argument."""

    def __init__(self, *rows: tuple[Any, ...]):
        self._oleobj_ = _OleObj()
        # COM gives a single cell's value as a scalar, a block as a tuple of row tuples
        self.Value = rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else tuple(rows)
        app = types.SimpleNamespace(Hwnd=1)
        self.Worksheet = types.SimpleNamespace(Parent=types.SimpleNamespace(Application=app))
        self.Row, self.Column = 1, 1
        self.Rows = types.SimpleNamespace(Count=len(rows))
        self.Columns = types.SimpleNamespace(Count=len(rows[0]))
        self.Count = len(rows) * len(rows[0])


def cell(udfs: Any, name: str, *args: Any) -> Any:
    """What the xlwings COM server hands back to VBA for ``=name(args)``."""
    return udfs.call_udf(UDF_MODULE, name, args)


def test_runs_against_the_pinned_xlwings_minor_version() -> None:
    import xlwings

    # the stand-ins above mirror xlwings 0.37's internals (pyproject pins >=0.37.8,<0.38)
    assert xlwings.__version__.split(".")[:2] == ["0", "37"]


# --- registration: the table reaches xlwings' metadata ---------------------------------------------

def test_every_table_function_is_an_xlwings_udf_with_the_table_arguments(xlwings_windows: Any) -> None:
    for function in FUNCTIONS:
        info = getattr(xlwings_windows.module, function.name).__xlfunc__
        assert info["name"] == function.name
        assert [a["name"] for a in info["args"]] == [a.name for a in function.arguments]
        assert [("optional" in a) for a in info["args"]] == [a.optional for a in function.arguments]
        assert [a["doc"] for a in info["args"]] == [a.doc for a in function.arguments]
        assert info["category"] == "xlrating"


def test_every_argument_reads_two_dimensional_with_error_cells_as_text(xlwings_windows: Any) -> None:
    for function in FUNCTIONS:
        for arg in getattr(xlwings_windows.module, function.name).__xlfunc__["args"]:
            assert arg["options"] == {"ndim": 2, "err_to_str": True, "dates": dt.date, "empty": None}


def test_generated_vba_declares_each_function_with_its_arguments(xlwings_windows: Any) -> None:
    out = io.StringIO()
    workbook = types.SimpleNamespace(Name="ratings.xlsm")
    xlwings_windows.udfs.generate_vba_wrapper(UDF_MODULE, xlwings_windows.module, out, workbook)
    vba = out.getvalue()
    for function in FUNCTIONS:
        params = ", ".join(("Optional " if a.optional else "") + a.name for a in function.arguments)
        assert f"Function {function.name}({params})" in vba
        assert f'XLPy.CallUDF("{UDF_MODULE}", "{function.name}", ' in vba
    assert len(re.findall(r"^Function ", vba, flags=re.MULTILINE)) == len(FUNCTIONS)


class _RecordingWorkbook:
    """The parts of a COM Workbook that ``import_udfs`` uses; records what it registers."""

    Name = "ratings.xlsm"

    def __init__(self) -> None:
        self.imported: list[str] = []
        self.macro_options: dict[str, dict[str, Any]] = {}
        components = types.SimpleNamespace(Remove=lambda component: None, Import=self._import)
        self.VBProject = types.SimpleNamespace(VBComponents=lambda name=None: components)
        self.VBProject.VBComponents.Remove = components.Remove  # type: ignore[attr-defined]
        self.VBProject.VBComponents.Import = components.Import  # type: ignore[attr-defined]
        self.Application = types.SimpleNamespace(Version="16.0", MacroOptions=self._macro_options)
        self.Worksheets = [types.SimpleNamespace(Name="Results")]  # no embedded-code ".py" sheets

    def _import(self, path: str) -> None:
        with open(path, encoding="utf-8") as file:
            self.imported.append(file.read())

    def _macro_options(self, macro: str, **options: Any) -> None:
        self.macro_options[macro] = options


def test_import_functions_registers_descriptions_and_argument_help(xlwings_windows: Any) -> None:
    workbook = _RecordingWorkbook()
    xlwings_windows.udfs.import_udfs(UDF_MODULE, workbook)
    assert 'Attribute VB_Name = "xlwings_udfs"' in workbook.imported[0]
    for function in FUNCTIONS:
        options = workbook.macro_options[f"'ratings.xlsm'!{function.name}"]
        assert options["Category"] == "xlrating"
        assert options["Description"].startswith(function.doc)
        assert options["ArgumentDescriptions"] == [a.doc for a in function.arguments]


# --- calls from cells: values in, values out ----------------------------------------------------------

def test_scalar_arguments_give_a_number(xlwings_windows: Any) -> None:
    result = cell(xlwings_windows.udfs, "DIPPOUCH_NEW_RATING", 55.0, 88.46153846153845, 15.0)
    assert result == [[pytest.approx(60.019, abs=5e-4)]]


def test_omitted_optional_argument_takes_the_table_default(xlwings_windows: Any) -> None:
    assert cell(xlwings_windows.udfs, "DCI_DELTA", 1600.0, 1600.0, "W", MISSING) == [[8.0]]
    assert cell(xlwings_windows.udfs, "MERS_BASE_RANK", 100.0, 25.0, MISSING) == [[pytest.approx(757.5757, 1e-6)]]


def test_text_argument_from_a_cell(xlwings_windows: Any) -> None:
    assert cell(xlwings_windows.udfs, "DCI_K", ComRange(("grand prix",))) == [[40.0]]


def test_range_argument_broadcasts_one_value_per_cell_as_a_numpy_array(xlwings_windows: Any) -> None:
    places = ComRange((1.0,), (2.0,), (10.0,))
    result = cell(xlwings_windows.udfs, "MERS_BASE_RANK", 10.0, places, "round")
    assert result == [[1000.0], [889.0], [0.0]]
    assert isinstance(xlwings_windows.module.MERS_BASE_RANK(10.0, [[1.0], [2.0]], None), np.ndarray)


def test_a_row_range_keeps_its_orientation(xlwings_windows: Any) -> None:
    result = cell(xlwings_windows.udfs, "DIPPOUCH_PERCENTILE", 10.0, ComRange((1.0, 10.0)))
    assert result == [[pytest.approx(95.0), pytest.approx(5.0)]]


def test_error_cell_in_an_argument_propagates(xlwings_windows: Any) -> None:
    assert cell(xlwings_windows.udfs, "DCI_K", NA) == [["#N/A"]]
    result = cell(xlwings_windows.udfs, "MERS_BASE_RANK", 10.0, ComRange((1.0,), (DIV0,)), MISSING)
    assert result == [[1000.0], ["#DIV/0!"]]


def test_bad_input_returns_the_error_code_and_the_reason_not_a_traceback(xlwings_windows: Any) -> None:
    [[text]] = cell(xlwings_windows.udfs, "MERS_BASE_RANK", 10.0, 11.0, MISSING)
    assert text.startswith("#NUM! place")
    assert "Traceback" not in text
    [[text]] = cell(xlwings_windows.udfs, "DCI_DELTA", 1600.0, 1600.0, "won", MISSING)
    assert text.startswith("#VALUE! result")


def test_error_text_fits_excel_255_character_limit(xlwings_windows: Any) -> None:
    [[text]] = cell(xlwings_windows.udfs, "DCI_K", "x" * 400)
    assert text.startswith("#")
    assert len(text) <= 255


def test_empty_required_cell_is_an_error_naming_the_argument(xlwings_windows: Any) -> None:
    [[text]] = cell(xlwings_windows.udfs, "DIPPOUCH_PERCENTILE", 10.0, ComRange((None,)))
    assert text.startswith("#VALUE! place")


def test_date_cells_arrive_as_dates(xlwings_windows: Any) -> None:
    base_ranks = ComRange((900.0,), (800.0,), (700.0,))
    weights = ComRange((1.0,), (1.0,), (2.0,))
    dates = ComRange((TimeType(2023, 5, 1),), (TimeType(2023, 9, 1),), (TimeType(2024, 2, 1),))
    [[total]] = cell(xlwings_windows.udfs, "MERS_RANKING", base_ranks, weights, dates, MISSING, MISSING)
    # no as_of and no rules: on the latest result date (2024-02-01), under the rules then in force (2018):
    # padded with base rank 0, weight 1 up to five; half the best five (all) and half the best four
    assert total == pytest.approx(0.5 * (900 + 800 + 2 * 700) / 6 + 0.5 * (900 + 800 + 2 * 700) / 5)


def test_not_ranked_player_is_na(xlwings_windows: Any) -> None:
    [[text]] = cell(xlwings_windows.udfs, "MERS_RANKING", ComRange((900.0,)), ComRange((1.0,)),
                    ComRange((TimeType(2024, 1, 1),)), MISSING, MISSING)
    assert text.startswith("#N/A not ranked")


def test_table_function_spills_a_table_with_its_header(xlwings_windows: Any) -> None:
    results = ComRange(
        ("event", "date", "players", "rounds", "player", "place"),
        ("Open", TimeType(2020, 3, 1), 10.0, 3.0, "Ann", 1.0),
        ("Open", TimeType(2020, 3, 1), 10.0, 3.0, "Bob", 2.0),
    )
    board = cell(xlwings_windows.udfs, "DIPPOUCH_RATINGS", results, MISSING)
    assert board[0] == ["player", "rating", "events"]
    assert [row[0] for row in board[1:]] == ["Ann", "Bob"]
    assert board[1][1] == pytest.approx(40 + 4.857142857 / 100 * (95 - 40), 1e-6)


def test_table_with_an_error_cell_returns_that_error(xlwings_windows: Any) -> None:
    results = ComRange(("event", "date", "players", "rounds", "player", "place"),
                       ("Open", TimeType(2020, 3, 1), 10.0, 3.0, "Ann", VALUE))
    assert cell(xlwings_windows.udfs, "DIPPOUCH_RATINGS", results, MISSING) == [["#VALUE!"]]


def test_macros_bas_declares_the_same_functions_as_xlwings_import_functions(xlwings_windows: Any) -> None:
    from xlrating.hosts import vba

    out = io.StringIO()
    xlwings_windows.udfs.generate_vba_wrapper(UDF_MODULE, xlwings_windows.module, out,
                                              types.SimpleNamespace(Name="ratings.xlsm"))
    by_xlwings = dict(re.findall(r"^Function (\w+)\((.*)\)$", out.getvalue(), flags=re.MULTILINE))
    ours = dict(re.findall(r"^Public Function (\w+)\((.*)\)\r$", vba.render_udf_module(), flags=re.MULTILINE))
    assert ours == by_xlwings
