"""Validation reports: text for people, JSON for machines."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from xlrating.sheets.validate.findings import Finding, grouped


def text_report(file: str, findings: Sequence[Finding]) -> list[str]:
    """``file: valid|INVALID (e errors, w warnings)`` then one line per finding at its cell."""
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    verdict = "INVALID" if errors else "valid"
    lines = [f"{file}: {verdict} ({_count(errors, 'error')}, {_count(warnings, 'warning')})"]
    shown, more = grouped(list(findings))
    for f in shown:
        lines.append(f"  {f.sheet}!{f.cell}: {f.severity} {f.code}: {f.message}")
    for code, n in more.items():
        lines.append(f"  ... and {n:,} more {code} like these (validate --format json lists every one)")
    return lines


def file_report(file: str, findings: Sequence[Finding]) -> dict[str, Any]:
    """One checked file for the JSON report: ``file`` (as given), ``valid``, the counts of
    ``errors`` and ``warnings``, and its ``findings`` (each with code, severity, sheet, cell,
    message, and ``file`` too, so that findings gathered from several reports still say where)."""
    errors = sum(f.severity == "error" for f in findings)
    return {"file": file, "valid": not errors, "errors": errors, "warnings": len(findings) - errors,
            "findings": [f.as_dict() | {"file": file} for f in findings]}


def unreadable_report(file: str, reason: str) -> dict[str, Any]:
    """A file that could not be read, for the JSON report: not valid, with ``unreadable`` saying why."""
    return {"file": file, "valid": False, "unreadable": reason, "errors": 0, "warnings": 0, "findings": []}


def json_report(reports: Sequence[dict[str, Any]]) -> str:
    """The JSON report: a list with one object per file checked, in the order given (valid files
    and unreadable ones included), from :func:`file_report` and :func:`unreadable_report`."""
    return json.dumps(list(reports), indent=2, ensure_ascii=False)


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
