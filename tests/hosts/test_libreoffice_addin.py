"""The LibreOffice add-in's generated sources, its .oxt, its runtime and its command line (no LibreOffice)."""

from __future__ import annotations

import ast
import math
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from xlrating.cli import main
from xlrating.functions import FUNCTIONS, Argument, ExcelError, ExcelFunction
from xlrating.hosts import libreoffice, libreoffice_cells, libreoffice_install

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "libreoffice"


def _idl_methods(text: str) -> dict[str, list[tuple[str, str]]]:
    methods = {}
    for name, params in re.findall(r"sequence< sequence< any > > (\w+)\(\s*(.*?)\);", text, flags=re.DOTALL):
        methods[name] = re.findall(r"\[in\] (sequence< sequence< any > >|any) (\w+)", params)
    return methods


def test_committed_sources_equal_the_generator_output() -> None:
    for name, data in libreoffice.sources().items():
        assert (COMMITTED / name).read_bytes() == data, f"libreoffice/{name} is stale: run `xlrating templates`"


def test_the_idl_declares_every_function_with_its_arguments_in_order() -> None:
    methods = _idl_methods(libreoffice.render_idl())
    assert list(methods) == [f.name for f in FUNCTIONS]
    for function in FUNCTIONS:
        assert [name for _, name in methods[function.name]] == \
            [libreoffice.idl_argument(a.name) for a in function.arguments]


def test_only_optional_arguments_are_any_which_calc_lets_a_formula_omit() -> None:
    methods = _idl_methods(libreoffice.render_idl())
    for function in FUNCTIONS:
        kinds = [kind for kind, _ in methods[function.name]]
        assert kinds == ["any" if a.optional else "sequence< sequence< any > >" for a in function.arguments]


def test_idl_argument_names_are_identifiers_unoidl_accepts() -> None:
    assert libreoffice.idl_argument("world_championship") == "worldChampionship"
    assert libreoffice.idl_argument("k") == "k"
    with pytest.raises(ValueError, match="cannot be a UNO IDL identifier"):
        libreoffice.render_idl([ExcelFunction("F", "T", (Argument("type", "number", "x"),), "number", "d", abs)])


def test_the_component_has_one_method_per_function_and_the_tables_docs() -> None:
    tree = ast.parse(libreoffice.render_component())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    methods = {n.name: [a.arg for a in n.args.args[1:]] for n in cls.body if isinstance(n, ast.FunctionDef)}
    metadata = next(ast.literal_eval(n.value) for n in tree.body
                    if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "FUNCTIONS")
    for function in FUNCTIONS:
        assert methods[function.name] == [a.name for a in function.arguments]
        assert metadata[function.name] == (function.doc, tuple((a.name, a.doc) for a in function.arguments))
    for method in ("getDisplayFunctionName", "getFunctionDescription", "getDisplayArgumentName",
                   "getArgumentDescription", "getProgrammaticCategoryName", "getCompatibilityNames",
                   "getServiceName", "getSupportedServiceNames"):
        assert method in methods


def test_the_manifest_registers_the_type_library_and_the_python_component() -> None:
    manifest = libreoffice.render_manifest()
    assert 'media-type="application/vnd.sun.star.uno-typelibrary;type=RDB"' in manifest
    assert f'full-path="{libreoffice.TYPE_LIBRARY}"' in manifest
    assert 'media-type="application/vnd.sun.star.uno-component;type=Python"' in manifest
    assert f'full-path="{libreoffice.COMPONENT}"' in manifest


def test_the_oxt_holds_the_sources_and_the_numpy_free_modules_it_carries(tmp_path: Path) -> None:
    oxt = libreoffice.build_oxt(tmp_path / "xlrating.oxt")
    with zipfile.ZipFile(oxt) as archive:
        names = set(archive.namelist())
        assert archive.read("META-INF/manifest.xml") == libreoffice.render_manifest().encode()
    assert set(libreoffice.sources()) <= names
    for module in ("functions.py", "core/dci/rules.py", "core/mers/rules.py", "core/data/fide_table_8_1b.csv",
                   "core/dci/replay.py", "core/mers/replay.py", "hosts/libreoffice_cells.py"):
        assert f"pythonpath/xlrating/{module}" in names
    assert not any("/engine/" in n or "/sheets/" in n or "/cli/" in n or "__pycache__" in n for n in names)


def test_the_runtime_imports_no_function_table_and_no_numpy_until_called() -> None:
    code = ("import sys, xlrating.hosts.libreoffice_cells; "
            "print(any(m in sys.modules for m in ('numpy', 'xlrating.functions', 'xlrating.core')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def _office_with_python(tmp_path: Path, python: Path | str) -> libreoffice_install.Office:
    return libreoffice_install.Office(tmp_path / "soffice", tmp_path / "unopkg", str(python))


@pytest.mark.skipif(sys.platform == "win32", reason="a shell script stands in for LibreOffice's Python")
def test_install_does_not_warn_when_libreoffices_python_lacks_numpy(tmp_path: Path) -> None:
    blocked = tmp_path / "blocked"
    (blocked / "numpy").mkdir(parents=True)
    (blocked / "numpy" / "__init__.py").write_text("raise ImportError('no numpy in this Python')\n")
    python = tmp_path / "python"  # LibreOffice's own Python on Windows and macOS: no numpy
    python.write_text(f'#!/bin/sh\nPYTHONPATH={blocked} exec {sys.executable} "$@"\n')
    python.chmod(0o755)
    assert subprocess.run([str(python), "-c", "import numpy"], capture_output=True, check=False).returncode != 0
    assert libreoffice_install.import_warning(_office_with_python(tmp_path, python)) is None
    assert libreoffice_install.import_warning(_office_with_python(tmp_path, sys.executable)) is None


@pytest.mark.skipif(sys.platform == "win32", reason="a shell script stands in for LibreOffice's Python")
def test_install_warns_when_libreoffices_python_cannot_run_the_functions(tmp_path: Path) -> None:
    python = tmp_path / "python"
    python.write_text("#!/bin/sh\necho 'SyntaxError: invalid syntax' >&2\nexit 1\n")
    python.chmod(0o755)
    warning = libreoffice_install.import_warning(_office_with_python(tmp_path, python))
    assert warning is not None and "SyntaxError: invalid syntax" in warning and "#VALUE!" in warning


@pytest.mark.parametrize("code", ["#N/A", "#VALUE!", "#NUM!", "#DIV/0!", "#REF!", "#NAME?", "#NULL!"])
def test_an_error_is_a_nan_carrying_calcs_error_number(code: str) -> None:
    value = libreoffice_cells.error_double(code)
    assert math.isnan(value)
    assert libreoffice_cells.error_of_double(value) == code


def test_results_are_rows_a_value_is_one_cell() -> None:
    assert libreoffice_cells.to_calc(75) == ((75.0,),)
    assert libreoffice_cells.to_calc([["player", 1], ["Ann", None]]) == (("player", 1.0), ("Ann", ""))
    (cell,), = libreoffice_cells.to_calc(ExcelError("#N/A", "not ranked"))
    assert libreoffice_cells.error_of_double(cell) == "#N/A"


def test_evaluate_calls_the_function_table_with_calcs_values() -> None:
    assert libreoffice_cells.evaluate("DIPPOUCH_PERCENTILE", (((10.0,),), ((3.0,),))) == ((75.0,),)
    assert libreoffice_cells.evaluate("DIPPOUCH_VALUE", (((21.0,),), ((7.0,),), None, None)) == ((8.0,),)
    rows = libreoffice_cells.evaluate("MERS_BASE_RANK", (((20.0,), (20.0,)), ((1.0,), (20.0,)), None))
    assert rows == ((1000.0,), (0.0,))
    (cell,), = libreoffice_cells.evaluate("DIPPOUCH_PERCENTILE", (((10.0,),), ((11.0,),)))
    assert libreoffice_cells.error_of_double(cell) == "#NUM!"


def test_a_failure_inside_is_value_never_an_exception() -> None:
    (cell,), = libreoffice_cells.evaluate("NO_SUCH_FUNCTION", ())
    assert libreoffice_cells.error_of_double(cell) == "#VALUE!"


def test_build_writes_the_extension(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["libreoffice", "build", "-o", str(tmp_path / "out" / "x.oxt")])
    assert result.exit_code == 0, result.output
    assert zipfile.is_zipfile(tmp_path / "out" / "x.oxt")


def test_install_without_libreoffice_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")
    monkeypatch.setattr(libreoffice_install, "KNOWN_PROGRAMS", ())
    for command in ("install", "uninstall"):
        result = CliRunner().invoke(main, ["libreoffice", command])
        assert result.exit_code == 2
        assert "LibreOffice is not installed" in result.output


def test_install_without_the_python_bridge_is_a_clear_error(tmp_path: Path) -> None:
    program = tmp_path / "program"
    program.mkdir()
    for name in ("soffice", "unopkg"):
        (program / name).write_text("#!/bin/sh\nexit 0\n")
        (program / name).chmod(0o755)
    result = CliRunner().invoke(main, ["libreoffice", "install", "--soffice", str(program / "soffice")])
    assert result.exit_code == 2
    assert "Python bridge is not installed" in result.output and "python3-uno" in result.output


def _fake_office(tmp_path: Path, unopkg_script: str) -> libreoffice_install.Office:
    program = tmp_path / "program"
    program.mkdir()
    (program / "pythonloader.py").write_text("")
    for name, script in (("soffice", "exit 0"), ("unopkg", unopkg_script)):
        (program / name).write_text(f"#!/bin/sh\n{script}\n")
        (program / name).chmod(0o755)
    return libreoffice_install.Office(program / "soffice", program / "unopkg", None)


@pytest.mark.skipif(sys.platform == "win32", reason="shell scripts stand in for unopkg")
def test_install_adds_the_built_extension_with_unopkg_into_the_profile(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "args.txt"
    office = _fake_office(tmp_path, f'echo "$@" > {log}; cp "$4" {tmp_path}/added.oxt')
    monkeypatch.setattr(libreoffice_install, "_is_root", lambda: False)
    libreoffice_install.install(office, tmp_path / "profile")
    args = log.read_text().split()
    assert args[:3] == ["add", "--force", "--suppress-license"]
    assert args[4] == f"-env:UserInstallation={(tmp_path / 'profile').resolve().as_uri()}"
    with zipfile.ZipFile(tmp_path / "added.oxt") as oxt:
        assert libreoffice.COMPONENT in oxt.namelist()


@pytest.mark.skipif(sys.platform == "win32", reason="shell scripts stand in for unopkg")
def test_uninstall_of_an_extension_not_installed_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    office = _fake_office(tmp_path, 'echo "ERROR: There is no such extension deployed: $2" >&2; exit 1')
    monkeypatch.setattr(libreoffice_install, "_is_root", lambda: False)
    assert libreoffice_install.uninstall(office) == "org.xlrating.functions is not installed"


@pytest.mark.skipif(sys.platform == "win32", reason="shell scripts stand in for unopkg")
def test_unopkg_refusing_is_exit_status_2_with_its_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    office = _fake_office(tmp_path, 'echo "ERROR: the office is running" >&2; exit 1')
    monkeypatch.setattr(libreoffice_install, "_is_root", lambda: False)
    monkeypatch.setattr(libreoffice_install, "find_office", lambda soffice=None: office)
    result = CliRunner().invoke(main, ["libreoffice", "install"])
    assert result.exit_code == 2
    assert "LibreOffice did not add the extension: ERROR: the office is running" in result.output


def test_templates_for_calc_name_the_functions_as_calc_stores_them_and_convert_reverses_it() -> None:
    import io
    import zipfile

    from xlrating.engine.write.sheet_xml import excel_function_names
    from xlrating.hosts.libreoffice_templates import calc_formula, for_libreoffice
    from xlrating.sheets.templates import build

    assert calc_formula('IF(B6="",16,DCI_K(B6))+_xldudf_MERS_BASE_RANK(9,1)') == \
        'IF(B6="",16,xlrating.DCI_K(B6))+xlrating.MERS_BASE_RANK(9,1)'
    assert calc_formula('"DCI_K(" & MYDCI_K(1) & xlrating.DCI_K(2)') == '"DCI_K(" & MYDCI_K(1) & xlrating.DCI_K(2)'
    original = build("dci_match_calculator.xlsx")
    with zipfile.ZipFile(io.BytesIO(original)) as before, zipfile.ZipFile(io.BytesIO(for_libreoffice(original))) as after:
        assert before.namelist() == after.namelist()
        for name in before.namelist():
            old, new = before.read(name), after.read(name)
            if name.startswith("xl/worksheets/"):
                assert (b"xlrating.DCI_DELTA(" in new) == (b"DCI_DELTA(" in old)
                assert excel_function_names(new.decode()) == old.decode()
            else:
                assert old == new  # styles, validations, names: every other part as it was
