"""What every import shares: the formats the command offers and the codes the docs list."""

from __future__ import annotations

import re
from pathlib import Path

from xlrating.cli.import_file import FORMAT_KEYS
from xlrating.sheets.formats import FORMATS
from xlrating.sheets.formats.findings import CATALOGUE

INTERFACES = Path(__file__).resolve().parents[2] / "docs" / "interfaces.md"


def test_the_command_offers_every_format_there_is() -> None:
    assert set(FORMAT_KEYS) == set(FORMATS)


def test_the_documented_import_codes_are_the_catalogues() -> None:
    text = INTERFACES.read_text(encoding="utf-8")
    block = text[text.index("### `xlrating import"):text.index("### `xlrating export")]
    documented = dict(re.findall(r"^\| `(IMPORT_[A-Z_]+)` \| (error|warning) \|", block, re.MULTILINE))
    assert documented == {code: severity for code, (severity, _) in CATALOGUE.items()}


def test_every_format_is_documented_with_its_source() -> None:
    formats = (INTERFACES.parent / "formats.md").read_text(encoding="utf-8")
    for key in FORMATS:
        assert f"(`{key}`)" in formats, key
