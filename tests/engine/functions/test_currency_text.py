"""DOLLAR and BAHTTEXT: amounts of money as text (functions.currency_text), with the values of
Microsoft's DOLLAR and BAHTTEXT pages and of formulas' test.xlsx (saved by Excel)."""

from __future__ import annotations

from pathlib import Path

from function_books import assert_excel_value, recalculated

DOLLARS = [
    # Microsoft's DOLLAR page
    ("DOLLAR(1234.567, 2)", "$1,234.57"), ("DOLLAR(1234.567, -2)", "$1,200"), ("DOLLAR(-1234.567, -2)", "($1,200)"),
    ("DOLLAR(-0.123, 4)", "($0.1230)"), ("DOLLAR(99.888)", "$99.89"), ("DOLLAR(99.888, 3)", "$99.888"),
    # rounded as ROUND rounds, then written; a fraction of decimals is truncated; beyond 127 #VALUE!
    ("DOLLAR(2.5, 0)", "$3"), ("DOLLAR(-0.001, 2)", "$0.00"), ("DOLLAR(1234567.891, 1.9)", "$1,234,567.9"),
    ('DOLLAR("12", 1)', "$12.0"), ("DOLLAR(1, 128)", "#VALUE!"), ('DOLLAR("twelve")', "#VALUE!"),
]

BAHT = [
    # formulas' test.xlsx, sheet TEXT, row 6 (Excel): 0, 157, 65, 65.8, -1, an empty cell, TRUE, "ciao"
    ("BAHTTEXT(0)", "ศูนย์บาทถ้วน"), ("BAHTTEXT(157)", "หนึ่งร้อยห้าสิบเจ็ดบาทถ้วน"), ("BAHTTEXT(65)", "หกสิบห้าบาทถ้วน"),
    ("BAHTTEXT(65.8)", "หกสิบห้าบาทแปดสิบสตางค์"), ("BAHTTEXT(-1)", "ลบหนึ่งบาทถ้วน"), ("BAHTTEXT(A1)", "ศูนย์บาทถ้วน"),
    ("BAHTTEXT(A2)", "หนึ่งบาทถ้วน"), ("BAHTTEXT(A3)", "#VALUE!"), ("BAHTTEXT(NA())", "#N/A"),
    # Microsoft's BAHTTEXT page
    ("BAHTTEXT(1234)", "หนึ่งพันสองร้อยสามสิบสี่บาทถ้วน"),
    # ten is สิบ, twenty ยี่สิบ, a final one after tens เอ็ด; millions in blocks; satang alone
    ("BAHTTEXT(21)", "ยี่สิบเอ็ดบาทถ้วน"), ("BAHTTEXT(11.11)", "สิบเอ็ดบาทสิบเอ็ดสตางค์"), ("BAHTTEXT(0.5)", "ห้าสิบสตางค์"),
    ("BAHTTEXT(2000000)", "สองล้านบาทถ้วน"), ("BAHTTEXT(1000000000000)", "หนึ่งล้านล้านบาทถ้วน"),
]


def _assert_table(tmp_path: Path, table: list[tuple[str, object]]) -> None:
    sheet = recalculated(tmp_path, [[None], [True], ["ciao"]],
                         {f"C{row}": "=" + formula for row, (formula, _) in enumerate(table, 1)})
    wrong = []
    for row, (formula, expected) in enumerate(table, start=1):
        got = sheet.get(row, 3)
        try:
            if isinstance(expected, str) and expected.startswith("#"):
                assert_excel_value(got, expected)
            else:
                assert got == expected
        except AssertionError:
            wrong.append((formula, expected, got))
    assert not wrong


def test_dollar_writes_the_currency_format_rounded(tmp_path: Path) -> None:
    _assert_table(tmp_path, DOLLARS)


def test_bahttext_writes_thai_words_for_baht_and_satang(tmp_path: Path) -> None:
    _assert_table(tmp_path, BAHT)
