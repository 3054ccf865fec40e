"""``xlrating functions``: the Excel functions, their arguments and what they return.

Reads the one function table (:mod:`xlrating.functions`), so the listing always matches what the
xlwings UDFs, the VBA wrappers and the headless engine offer.
"""

from __future__ import annotations

import json
from typing import Any

import click

from xlrating.cli.common import SystemChoice
from xlrating.functions import FUNCTIONS, ExcelFunction


def as_record(function: ExcelFunction) -> dict[str, Any]:
    """One function as plain data (the JSON listing)."""
    return {
        "name": function.name,
        "system": function.system,
        "signature": function.signature,
        "returns": "table (spills)" if function.spills else "number (an array when given a range)",
        "doc": function.doc,
        "arguments": [
            {"name": a.name, "kind": a.kind, "optional": a.optional, "doc": a.doc,
             **({"default": a.default} if a.optional else {})}
            for a in function.arguments
        ],
    }


def excel_literal(value: Any) -> str:
    """A default as it would be typed in a formula: TRUE, 16, "best"."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f'"{value}"' if isinstance(value, str) else str(value)


def _default_note(argument: Any) -> str:
    if not argument.optional or "default" in argument.doc:
        return ""
    return " (optional)" if argument.default is None else f" (default {excel_literal(argument.default)})"


def as_text(function: ExcelFunction) -> list[str]:
    lines = [function.signature, f"    {function.doc}"]
    for a in function.arguments:
        default = _default_note(a)
        lines.append(f"    {a.name:<20} {a.kind:<7} {a.doc}{default}")
    if function.spills:
        lines.append("    returns a table with a header row; it spills below and to the right")
    return lines


@click.command("functions")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people, json for machines.")
@click.option("--system", type=SystemChoice(), default=None, help="Only this rating system.")
def functions(fmt: str, system: str | None) -> None:
    """List the Excel functions with their arguments, grouped by rating system."""
    from xlrating.systems import all_systems

    wanted = {s.title for s in all_systems() if system is None or s.key == system}
    titles = list(dict.fromkeys(f.system for f in FUNCTIONS if f.system in wanted))  # in the table's order
    chosen = [f for f in FUNCTIONS if f.system in wanted]
    if fmt == "json":
        click.echo(json.dumps([as_record(f) for f in chosen], indent=2))
        return
    out: list[str] = []
    for name in titles:
        group = [f for f in chosen if f.system == name]
        if group:
            out.append(f"{name}\n{'=' * len(name)}")
            for function in group:
                out.extend(as_text(function))
                out.append("")
    click.echo("\n".join(out).rstrip())
