"""The one-pass reader sees what openpyxl's two public loads see: values, formulas, merges."""

from __future__ import annotations

import datetime as dt

from xlrating.sheets.read import xlsx as reader


def test_streamed_grid_equals_the_public_api_reading(make_sheet):
    def decorate(wb):
        ws = wb["Results"]
        ws["H13"] = "Base rank"
        ws["H14"] = "=(4-A14)/3*1000"
        ws.merge_cells("D1:F1")
        wb.create_sheet("Notes")["B2"] = dt.datetime(2024, 1, 5)

    path = make_sheet(edit=decorate)
    streamed = reader.read_workbook(path)
    public = reader._read_with_public_api(path)
    assert [g.name for g in streamed] == [g.name for g in public] == ["Results", "Notes"]
    for a, b in zip(streamed, public):
        width = max(max((len(r) for r in a.rows), default=0), max((len(r) for r in b.rows), default=0))
        assert [r + [None] * (width - len(r)) for r in a.rows] == [r + [None] * (width - len(r)) for r in b.rows]
        assert a.formulas == b.formulas
        assert a.merged == b.merged
    assert streamed[0].formulas == {(14, 8): "=(4-A14)/3*1000"}
    assert streamed[0].merged == [(1, 4, 1, 6)]
