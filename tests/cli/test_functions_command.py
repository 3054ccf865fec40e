"""``xlrating functions`` and ``xlrating templates``: listings and generated files from the table."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from xlrating.cli import main
from xlrating.functions import FUNCTIONS
from xlrating.hosts.vba import BAS_NAME
from xlrating.sheets.templates import BUTTONS_BAS, TEMPLATES


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_functions_lists_every_function_with_its_signature_and_doc() -> None:
    code, out = run("functions")
    assert code == 0
    for function in FUNCTIONS:
        assert function.signature in out
        assert function.doc in out


def test_functions_groups_by_system_in_table_order() -> None:
    _, out = run("functions")
    assert out.index("Dip Pouch\n") < out.index("DCI\n") < out.index("MERS\n")
    assert out.index("DIPPOUCH_PERCENTILE(") < out.index("DIPPOUCH_VALUE(")


def test_functions_json_has_the_same_arguments_as_the_table() -> None:
    code, out = run("functions", "--format", "json")
    assert code == 0
    records = json.loads(out)
    assert [r["name"] for r in records] == [f.name for f in FUNCTIONS]
    for record, function in zip(records, FUNCTIONS):
        assert [a["name"] for a in record["arguments"]] == [a.name for a in function.arguments]
        assert [a["optional"] for a in record["arguments"]] == [a.optional for a in function.arguments]
        assert record["signature"] == function.signature


def test_functions_json_gives_defaults_of_optional_arguments_only() -> None:
    _, out = run("functions", "--format", "json")
    delta = next(r for r in json.loads(out) if r["name"] == "DCI_DELTA")
    assert "default" not in delta["arguments"][0]
    assert delta["arguments"][3] == {"name": "k", "kind": "any", "optional": True,
                                     "doc": "K-value (a number or a tier name); default 16", "default": 16}


def test_functions_system_filter() -> None:
    _, out = run("functions", "--system", "mers")
    assert "MERS_BASE_RANK(" in out
    assert "DCI_K(" not in out


def test_functions_text_shows_defaults_as_typed_in_excel() -> None:
    _, out = run("functions")
    assert "TRUE for a World Championship (value 20) (default FALSE)" in out


def test_templates_out_writes_every_workbook_and_both_vba_modules(tmp_path: Path) -> None:
    code, out = run("templates", "-o", str(tmp_path / "gen"))
    assert code == 0
    written = {p.name for p in (tmp_path / "gen").iterdir() if p.is_file()}
    assert written == set(TEMPLATES) | {BAS_NAME, BUTTONS_BAS}
    assert out.count("wrote ") == sum(p.is_file() for p in (tmp_path / "gen").rglob("*"))


def test_templates_second_run_changes_nothing(tmp_path: Path) -> None:
    run("templates", "--out", str(tmp_path))
    code, out = run("templates", "--out", str(tmp_path))
    assert code == 0
    assert "wrote" not in out


def test_templates_check_reports_a_stale_file_with_exit_1(tmp_path: Path) -> None:
    run("templates", "--out", str(tmp_path))
    (tmp_path / BAS_NAME).write_text("edited by hand")
    code, out = run("templates", "--out", str(tmp_path), "--check")
    assert code == 1
    assert f"out of date: {tmp_path / BAS_NAME}" in out


def test_templates_check_passes_on_the_committed_files() -> None:
    code, out = run("templates", "--check")
    assert code == 0, out


# The Excel functions of docs/interfaces.md (the public contract), with their arguments in order.
CONTRACT = json.loads((Path(__file__).resolve().parents[1] / "data" / "interface_functions.json").read_text())["functions"]


def test_listing_covers_the_interfaces_contract() -> None:
    _, out = run("functions", "--format", "json")
    listed = {r["name"]: [a["name"] if not a["optional"] else f"[{a['name']}]" for a in r["arguments"]]
              for r in json.loads(out)}
    for name, arguments in CONTRACT.items():
        assert listed[name][:len(arguments)] == arguments, name
        assert all(a.startswith("[") for a in listed[name][len(arguments):]), f"{name}: extra required argument"
