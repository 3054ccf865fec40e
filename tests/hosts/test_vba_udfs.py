"""macros/xlrating_udfs.bas: generated from the function table, committed, importable into Excel."""

from __future__ import annotations

import re
from pathlib import Path

from xlrating.functions import FUNCTIONS, Argument, ExcelFunction
from xlrating.hosts import vba

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "macros" / vba.BAS_NAME


def _declarations(text: str) -> dict[str, str]:
    return dict(re.findall(r"^Public Function (\w+)\((.*)\)\r?$", text, flags=re.MULTILINE))


def test_committed_bas_equals_the_generator_output() -> None:
    assert COMMITTED.read_bytes() == vba.render_udf_module().encode("ascii"), \
        "macros/xlrating_udfs.bas is stale: run `xlrating templates`"


def test_every_table_function_is_declared_with_the_table_arguments() -> None:
    declared = _declarations(vba.render_udf_module())
    assert set(declared) == {f.name for f in FUNCTIONS}
    for function in FUNCTIONS:
        expected = ", ".join(("Optional " if a.optional else "") + a.name for a in function.arguments)
        assert declared[function.name] == expected


def test_each_wrapper_calls_the_xlwings_udf_module_with_all_its_arguments() -> None:
    text = vba.render_udf_module()
    for function in FUNCTIONS:
        args = ", ".join(a.name for a in function.arguments)
        assert (f'{function.name} = XlratingResult(XLPy.CallUDF(UDF_MODULE, "{function.name}", Array({args}), '
                f"ThisWorkbook, Application.Caller))") in text
    assert 'Private Const UDF_MODULE As String = "xlrating.hosts.xlwings_udfs"' in text


def test_registration_gives_one_argument_description_per_argument() -> None:
    text = vba.render_udf_module().replace("\r\n", "\n")
    for function in FUNCTIONS:
        block = text.split(f'Macro:="{function.name}"', 1)[1].split("Application.MacroOptions", 1)[0]
        assert block.count('", _\n') + 1 == len(function.arguments) + 1  # + the Description line


def test_module_uses_windows_line_endings_and_ascii() -> None:
    data = vba.render_udf_module().encode("ascii")
    assert data.count(b"\n") == data.count(b"\r\n")
    assert data.startswith(b'Attribute VB_Name = "xlrating_udfs"\r\n')


def test_no_line_exceeds_the_vba_line_limit() -> None:
    assert max(len(line) for line in vba.render_udf_module().split("\r\n")) < 1024


def test_error_text_maps_to_every_excel_error_code() -> None:
    text = vba.render_udf_module()
    for code, number in vba.ERROR_NUMBERS:
        assert f'If value = "{code}" Or Left$(value, {len(code) + 1}) = "{code} " Then XlratingCell = CVErr({number})' \
            in text


def test_quotes_in_docs_are_doubled_for_vba() -> None:
    fn = ExcelFunction("SAY", "Test", (Argument("mode", "text", 'either "a" or "b"', "a"),), "number",
                       'Says "hello".', lambda mode: 1)
    text = vba.render_udf_module([fn])
    assert 'Description:="Says ""hello"".", Category:="xlrating"' in text
    assert '"mode: either ""a"" or ""b"""' in text
    assert "Public Function SAY(Optional mode)" in text


def test_write_creates_the_folder_and_the_file(tmp_path: Path) -> None:
    path = vba.write_udf_module(tmp_path / "out")
    assert path.read_bytes() == COMMITTED.read_bytes()
