"""Validation reports: text for people, JSON for machines."""

from __future__ import annotations

import json
from collections.abc import Sequence

from xlrating.sheets.findings import Finding


def text_report(file: str, findings: Sequence[Finding]) -> list[str]:
    """``file: valid|INVALID (e errors, w warnings)`` then one line per finding at its cell."""
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    verdict = "INVALID" if errors else "valid"
    lines = [f"{file}: {verdict} ({_count(errors, 'error')}, {_count(warnings, 'warning')})"]
    for f in findings:
        lines.append(f"  {f.sheet}!{f.cell}: {f.severity} {f.code}: {f.message}")
    return lines


def json_report(per_file: Sequence[tuple[str, Sequence[Finding]]]) -> str:
    """A JSON list of findings; each carries ``file`` when several files are reported."""
    several = len(per_file) > 1
    records = []
    for file, findings in per_file:
        for f in findings:
            record = f.as_dict()
            if several:
                record["file"] = file
            records.append(record)
    return json.dumps(records, indent=2, ensure_ascii=False)


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
