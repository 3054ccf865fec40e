"""Generator of ``macros/xlrating_udfs.bas``: VBA wrappers for every function of the table.

The wrappers do what xlwings' "Import Functions" button generates (a VBA ``Function`` per UDF that
calls Python through ``XLPy.CallUDF`` in the xlwings add-in), plus two things xlwings cannot:

- they turn xlrating's error text (``"#VALUE! place: expected ..."``, see
  :mod:`xlrating.hosts.xlwings_udfs`) into the real Excel error value with ``CVErr``, so
  ``IFERROR``/``ISNA`` behave as with built-in functions; set ``ShowErrorReasons`` to ``True`` to
  see the reason in the cell instead;
- ``RegisterXlratingFunctions`` gives every function its description, its argument help and the
  "xlrating" category in Excel's Insert Function dialog.

Run ``python -m xlrating.hosts.vba [FOLDER]`` (or ``xlrating templates``) to rewrite the file; a
test checks that the committed copy equals this generator's output.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from xlrating.functions import FUNCTIONS, ExcelFunction
from xlrating.hosts.xlwings_udfs import CATEGORY, MAX_TEXT, MODULE_NAME

BAS_NAME = "xlrating_udfs.bas"
VBA_MODULE = "xlrating_udfs"
NEWLINE = "\r\n"  # the VBA editor imports and exports modules with Windows line endings

# Excel's error codes and their CVErr numbers (XlCVError enumeration)
ERROR_NUMBERS = (("#NULL!", 2000), ("#DIV/0!", 2007), ("#VALUE!", 2015), ("#REF!", 2023),
                 ("#NAME?", 2029), ("#NUM!", 2036), ("#N/A", 2042))

_HEADER = f"""\
Attribute VB_Name = "{VBA_MODULE}"
' xlrating's Excel functions for Excel on Windows, through xlwings.
' GENERATED from xlrating/functions.py by `xlrating templates` - do not edit; changes are lost.
'
' Needs: Python with xlrating installed, the xlwings add-in, and in the VBA editor
' Tools > References > "xlwings" ticked (XLPy.CallUDF lives there). Import this file with
' File > Import File... and do NOT also click xlwings' "Import Functions" (same names twice).
' Run RegisterXlratingFunctions once to get descriptions in Insert Function.
Option Explicit

' False: a failed cell holds the real Excel error (#VALUE!, #NUM!, #N/A), so IFERROR/ISNA work.
' True: the cell shows the error code and the reason as text, e.g. "#NUM! place: expected ...".
Public Const ShowErrorReasons As Boolean = False

Private Const UDF_MODULE As String = "{MODULE_NAME}"
"""

_HELPERS = """\
' xlrating's Python functions return a failed cell as its error code plus the reason as text,
' because an xlwings UDF cannot return an Excel error value. Turn it into the real error here.
Private Function XlratingCell(ByVal value As Variant) As Variant
    XlratingCell = value
    If ShowErrorReasons Or VarType(value) <> vbString Then Exit Function
{error_cases}End Function

Private Function XlratingResult(ByVal result As Variant) As Variant
    Dim i As Long, j As Long
    If Not IsArray(result) Then
        XlratingResult = XlratingCell(result)
        Exit Function
    End If
    For i = LBound(result, 1) To UBound(result, 1)
        For j = LBound(result, 2) To UBound(result, 2)
            result(i, j) = XlratingCell(result(i, j))
        Next j
    Next i
    If LBound(result, 1) = UBound(result, 1) And LBound(result, 2) = UBound(result, 2) Then
        XlratingResult = result(LBound(result, 1), LBound(result, 2))  ' one cell: no array
    Else
        XlratingResult = result
    End If
End Function

Private Function XlratingFailed(ByVal description As String) As Variant
    If ShowErrorReasons Then
        XlratingFailed = "#VALUE! " & Left$(description, 240)
    Else
        XlratingFailed = CVErr(2015)  ' #VALUE!: Python or xlwings could not be reached
    End If
End Function
"""


def _quote(text: str) -> str:
    """A VBA string literal (quotes doubled, ASCII only, at most Excel's 255 characters)."""
    ascii_text = text.encode("ascii", "replace").decode("ascii")[:MAX_TEXT]
    return '"' + ascii_text.replace('"', '""') + '"'


def _error_cases() -> str:
    lines = []
    for code, number in ERROR_NUMBERS:
        lines.append(f"    If value = {_quote(code)} Or Left$(value, {len(code) + 1}) = {_quote(code + ' ')} Then "
                     f"XlratingCell = CVErr({number}): Exit Function")
    return "\n".join(lines) + "\n"


def _parameters(function: ExcelFunction) -> str:
    return ", ".join(("Optional " if a.optional else "") + a.name for a in function.arguments)


def _wrapper(function: ExcelFunction) -> str:
    name = function.name
    args = ", ".join(a.name for a in function.arguments)
    comments = "".join(f"' {a.name}{' (optional)' if a.optional else ''}: {a.doc}\n" for a in function.arguments)
    return (
        f"' {function.signature} - {function.system}\n"
        f"' {function.doc}\n"
        f"{comments}"
        f"Public Function {name}({_parameters(function)})\n"
        f"Attribute {name}.VB_Description = {_quote(function.doc)}\n"
        f"    On Error GoTo failed\n"
        f"    {name} = XlratingResult(XLPy.CallUDF(UDF_MODULE, \"{name}\", Array({args}), "
        f"ThisWorkbook, Application.Caller))\n"
        f"    Exit Function\n"
        f"failed:\n"
        f"    {name} = XlratingFailed(Err.Description)\n"
        f"End Function\n"
    )


def _registration(functions: Sequence[ExcelFunction]) -> str:
    lines = [
        "' Descriptions, argument help and the category shown by Insert Function (Excel 2010 and later).",
        "Public Sub RegisterXlratingFunctions()",
    ]
    for function in functions:
        docs = ", _\n        ".join(_quote(f"{a.name}: {a.doc}") for a in function.arguments)
        lines.append(f"    Application.MacroOptions Macro:=\"{function.name}\", "
                     f"Description:={_quote(function.doc)}, Category:=\"{CATEGORY}\", _")
        lines.append(f"        ArgumentDescriptions:=Array( _\n        {docs})")
    lines.append("End Sub")
    return "\n".join(lines) + "\n"


def render_udf_module(functions: Iterable[ExcelFunction] = FUNCTIONS) -> str:
    """The text of ``xlrating_udfs.bas`` for ``functions`` (Windows line endings)."""
    functions = tuple(functions)
    parts = [_HEADER, _HELPERS.format(error_cases=_error_cases()), _registration(functions)]
    parts.extend(_wrapper(f) for f in functions)
    return NEWLINE.join("\n".join(parts).split("\n"))


def write_udf_module(folder: str | Path) -> Path:
    """Write ``xlrating_udfs.bas`` into ``folder`` (created if needed); return its path."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    path = target / BAS_NAME
    path.write_bytes(render_udf_module().encode("ascii"))
    return path


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    print(write_udf_module(args[0] if args else "macros"))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
