"""Untrusted XML and JSON (xlrating.gate.structured_text), and what ``xlrating import`` says of them:
a DTD or an entity is refused before anything is expanded, nesting and size are bounded, and a
file that is not well-formed is named at its line and column."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.formats.helpers import xlrating
from xlrating.gate.limits import Limits
from xlrating.gate.structured_text import MAX_DEPTH, NotWellFormed, parse_json, parse_xml

BILLION_LAUGHS = (b'<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
                  + b"".join(b' <!ENTITY lol%d "%s">\n' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
                             for i in range(1, 10))
                  + b']>\n<event title="&lol9;"/>\n')
EXTERNAL = b'<?xml version="1.0"?>\n<!DOCTYPE e [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<event title="&x;"/>'
DTD_ONLY = b'<?xml version="1.0"?>\n<!DOCTYPE event SYSTEM "http://example.com/event.dtd">\n<event/>'


@pytest.mark.parametrize("data", [BILLION_LAUGHS, EXTERNAL, DTD_ONLY], ids=["billion-laughs", "external", "dtd"])
def test_a_dtd_is_refused_before_anything_is_expanded_or_fetched(data: bytes) -> None:
    started = time.perf_counter()
    with pytest.raises(NotWellFormed) as refused:
        parse_xml(data)
    assert "declares a DTD or an entity" in refused.value.reason
    assert refused.value.line == 2
    assert time.perf_counter() - started < 1


def test_deep_nesting_is_refused_at_the_element_too_deep() -> None:
    data = b"<a>" * (MAX_DEPTH + 1) + b"</a>" * (MAX_DEPTH + 1)
    with pytest.raises(NotWellFormed) as refused:
        parse_xml(data)
    assert f"nested more than {MAX_DEPTH} deep" in refused.value.reason
    assert (refused.value.line, refused.value.column) == (1, MAX_DEPTH * 3 + 1)
    with pytest.raises(NotWellFormed) as deep_json:
        parse_json(b"[" * 100_000 + b"]" * 100_000)  # never a RecursionError
    assert f"nested more than {MAX_DEPTH} deep" in deep_json.value.reason


def test_the_count_of_elements_and_values_is_bounded() -> None:
    small = Limits.from_env().__class__(**{**Limits.from_env().__dict__, "max_cells": 100})
    with pytest.raises(NotWellFormed, match="more than 100 elements"):
        parse_xml(b"<r>" + b"<m/>" * 200 + b"</r>", small)
    with pytest.raises(NotWellFormed, match="more than 100 values"):
        parse_json(b"[" + b",".join(b"1" for _ in range(200)) + b"]", small)


@pytest.mark.parametrize("data, line, column", [
    (b"<event>\n  <round number='1'>\n</event>", 3, 3),
    (b"<event>\n<m a='1' a='2'/></event>", 2, 10),
    (b"", 1, 1),
], ids=["mismatched-tag", "duplicate-attribute", "empty"])
def test_xml_that_is_not_well_formed_is_named_at_its_line_and_column(data: bytes, line: int, column: int) -> None:
    with pytest.raises(NotWellFormed) as fault:
        parse_xml(data)
    assert (fault.value.line, fault.value.column) == (line, column), fault.value.reason


@pytest.mark.parametrize("data, line, column, reason", [
    (b'{"a": [1, 2,\n   ]}', 2, 4, "expected a value"),
    (b'{"a": NaN}', 1, 7, "expected a value"),
    (b'{"a": 1}\n{"b": 2}', 2, 1, "more text after the JSON value"),
    (b'{"a": "\xff"}', 1, 8, "not UTF-8"),
    (b"{'a': 1}", 1, 2, "expected a key in double quotes"),
])
def test_json_that_is_not_json_is_named_at_its_line_and_column(data: bytes, line: int, column: int,
                                                                 reason: str) -> None:
    with pytest.raises(NotWellFormed) as fault:
        parse_json(data)
    assert (fault.value.line, fault.value.column) == (line, column)
    assert reason in fault.value.reason


def test_json_values_keep_where_they_start() -> None:
    document = parse_json('\ufeff{"t": [\n  {"rank": 1},\n  {"rank": "x"}\n]}'.encode())
    assert document.value == {"t": [{"rank": 1}, {"rank": "x"}]}
    assert document.where(("t", 1, "rank")) == (3, 12)
    assert document.where(("t", 1, "missing")) == (3, 3)


def test_the_import_refuses_a_billion_laughs_with_exit_2_and_writes_nothing(tmp_path: Path) -> None:
    bomb = tmp_path / "event.wer"
    bomb.write_bytes(BILLION_LAUGHS)
    target = tmp_path / "t.csv"
    ran = xlrating("import", "wer", bomb, "-o", target)
    assert ran.code == 2, ran
    assert "line 2, column" in ran.stdout
    assert "error IMPORT_NOT_WELL_FORMED: the file declares a DTD or an entity" in ran.stdout
    assert not target.exists()


def test_the_import_names_where_a_truncated_file_ends(tmp_path: Path) -> None:
    cut = tmp_path / "event.wer"
    cut.write_bytes(b'<event title="X">\n<participation>\n<person id="1" first="A')
    ran = xlrating("import", "wer", cut, "-o", tmp_path / "t.csv")
    assert ran.code == 2 and "line 3, column" in ran.stdout and "not well-formed XML" in ran.stdout


def test_a_file_of_more_elements_than_any_results_file_is_refused_quickly() -> None:
    from xlrating.gate.structured_text import MAX_ITEMS

    data = b"<event>" + b'<match person="1" opponent="2" outcome="1"/>' * (MAX_ITEMS + 10) + b"</event>"
    started = time.perf_counter()
    with pytest.raises(NotWellFormed, match=f"more than {MAX_ITEMS:,} elements, more than any results file holds"):
        parse_xml(data, Limits.for_history())
    assert time.perf_counter() - started < 10
