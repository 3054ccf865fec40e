"""A part the scan passed before in this process (a batch of one template has the same styles,
content types and relationships in every workbook) is counted, not scanned again: but only when
it is the same part byte for byte under the same limits, and never a part that tells the scan
more than its records (sheets, strings, the workbook and its relationships). A changed part is
scanned again and refused for what it holds; the counts and the limits come out as a full scan's."""

from __future__ import annotations

import pytest
from package_bytes import billion_laughs, results_workbook, rezip

from xlrating.gate import package_guard, part_scan
from xlrating.gate.limits import Limits
from xlrating.gate.package_guard import PackageCheck, Refused, check_package

BASE = results_workbook()


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The parts scanned with a parser, in order, the memory of parts seen starting empty."""
    monkeypatch.setattr(package_guard, "_SEEN", {})
    parsed: list[str] = []
    original = part_scan.PartParser.__init__

    def counted(self, scan, part):  # type: ignore[no-untyped-def]
        parsed.append(part)
        original(self, scan, part)

    monkeypatch.setattr(part_scan.PartParser, "__init__", counted)
    return parsed


def _report(data: bytes, limits: Limits) -> tuple[int, int, int]:
    with PackageCheck(data, limits) as check:
        check.scan_parts()
        return check.scan.records, check.report.unpacked_bytes, len(check.scan.kept)


def test_the_same_parts_again_are_counted_as_their_scan_counted_them(scans: list[str]) -> None:
    first = _report(BASE, Limits())
    scanned_first = list(scans)
    scans.clear()
    again = _report(BASE, Limits())
    assert again == first
    assert "xl/styles.xml" in scanned_first and "xl/styles.xml" not in scans  # counted, not parsed again
    assert {"xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/worksheets/sheet1.xml"} <= set(scans)  # telling


def test_a_changed_part_under_a_known_name_is_scanned_and_refused(scans: list[str]) -> None:
    check_package(BASE, Limits())
    hostile = rezip(BASE, {"xl/styles.xml": billion_laughs("styleSheet")})
    with pytest.raises(Refused, match="xl/styles.xml declares a DTD"):
        check_package(hostile, Limits())


def test_limits_are_those_of_each_package_not_of_the_one_seen_first(scans: list[str]) -> None:
    records, _, _ = _report(BASE, Limits())
    assert records > 2
    with pytest.raises(Refused, match="records"):
        check_package(BASE, Limits(max_records=records - 1))  # the same styles, fewer records allowed
    _report(BASE, Limits())  # remembered under the default limits
    with pytest.raises(Refused, match="records"):
        check_package(BASE, Limits(max_records=records - 1))
