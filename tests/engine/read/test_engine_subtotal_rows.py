"""SUBTOTAL leaves out hidden rows as Excel does: 101-111 every hidden row, 1-11 only the rows a
filter filtered out, which for Excel are every hidden row of a sheet one of whose filters filters.
Data and expected values of sheets "Hidden" and "filters" are those of IronCalc's
``calc_test_no_export_tables.xlsx``, saved by Excel; the rows hidden by hand beside a filter follow
EPPlus's ``SubtotalFilters.xlsx``, saved by Excel (sheets HiddenByAutoFilter, HiddenByTableFilter,
HiddenRowWithAutoFilterNoFilter)."""

from __future__ import annotations

import openpyxl
import pytest
from openpyxl.worksheet.filters import FilterColumn, Filters
from openpyxl.worksheet.table import Table, TableStyleInfo

from xlrating.engine import evaluate_workbook
from xlrating.engine.read.grid import Sheet

ROWS = [[12, 2, 3, 4], [3, 4, 5, 7], [1, 2, 3, 5], [12, 34, 7, 5]]
ANIMALS = [[1, 1, 2, 34], [23, 4, 5, 1], [7, 4, 8, 1], [1, 2, 3, 4], [45, 6, 7, 7]]


def _table(name: str, ref: str, headers: list[str], filtering: bool) -> Table:
    table = Table(displayName=name, ref=ref)
    table.tableStyleInfo = TableStyleInfo(name="TableStyleMedium2")
    table._initialise_columns()
    for column, header in zip(table.tableColumns, headers):
        column.name = header
    if filtering:  # a filter applied on the first column, as Excel saves it
        table.autoFilter.filterColumn.append(FilterColumn(colId=0, filters=Filters(filter=["23"])))
    return table


@pytest.fixture(scope="module")
def sheets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Sheet]:
    book = openpyxl.Workbook()
    hidden = book.active
    hidden.title = "Hidden"  # row 3 hidden by hand; its table filters nothing
    hidden.append(HEADERS := ["The one", "the two ", "three", "last"])
    for row in ROWS:
        hidden.append(row)
    hidden.row_dimensions[3].hidden = True
    hidden.add_table(_table("Table3", "A1:D5", HEADERS, filtering=False))
    hidden["B6"] = "=SUBTOTAL(109,Table3[[the two ]])"  # 38
    hidden["B7"] = "=SUBTOTAL(109,B2:B6)"  # 38: B6 is itself a subtotal
    hidden["B8"] = "=SUM(Table3[[the two ]])"  # 42
    hidden["B9"] = "=SUBTOTAL(9,Table3[[the two ]])"  # 42: rows hidden by hand count for 1-11
    hidden["B10"] = "=SUBTOTAL(102,B2:B5)"  # 3
    hidden["B11"] = "=SUBTOTAL(104,A2:D5)"  # 34: hidden columns would count, hidden rows do not
    hidden["B12"] = "=SUBTOTAL(205,B2:B5)"  # #VALUE!: only 1-11 and 101-111
    filters = book.create_sheet("filters")  # rows 2, 4, 5, 6 filtered out by the table's filter
    filters.append(ANIMAL_HEADERS := ["Dogs", "Cats", "Elephants", "Tigers"])
    for row in ANIMALS:
        filters.append(row)
    for row in (2, 4, 5, 6):
        filters.row_dimensions[row].hidden = True
    filters.add_table(_table("Table4", "A1:D6", ANIMAL_HEADERS, filtering=True))
    filters["A7"] = "=SUBTOTAL(109,Table4[Dogs])"  # 23
    filters["B7"] = "=SUBTOTAL(109,Table4[Cats])"  # 4
    filters["B8"] = "=SUBTOTAL(9,B3:B6)"  # 4: 1-11 leave filtered rows out too
    filters["B9"] = "=SUM(B3:B6)"  # 16
    filters["B10"] = "=SUBTOTAL(9, Table4[Cats])"  # 4
    filters["B11"] = "=SUBTOTAL(9,B2:B6)+SUBTOTAL(3,A1:A6)"  # 4 + 2 (the header and 23)
    own = book.create_sheet("own filter")  # the sheet's AutoFilter filters row 3; row 7 is hidden by hand
    for row, value in enumerate([1, 2, 4, 8, None, 16], start=2):
        own.cell(row, 1, value)
    own["A1"] = "n"
    own.auto_filter.ref = "A1:A5"
    own.auto_filter.add_filter_column(0, ["1", "4", "8"])
    for row in (3, 7):
        own.row_dimensions[row].hidden = True
    # 13: filtered row 3 left out, and row 7 too: while a filter of the sheet filters, Excel takes
    # every hidden row of the sheet for a filtered one (EPPlus's SubtotalFilters.xlsx, saved by Excel)
    own["B1"] = "=SUBTOTAL(9,A2:A7)"
    own["B2"] = "=SUBTOTAL(109,A2:A7)"  # 13
    own["B3"] = "=SUBTOTAL(9,A7)"  # 0
    idle = book.create_sheet("idle filter")  # an AutoFilter filtering nothing: rows 3 and 7 hidden by hand
    for row, value in enumerate([1, 2, 4, 8, None, 16], start=2):
        idle.cell(row, 1, value)
    idle["A1"] = "n"
    idle.auto_filter.ref = "A1:A5"
    for row in (3, 7):
        idle.row_dimensions[row].hidden = True
    idle["B1"] = "=SUBTOTAL(9,A2:A7)"  # 31: rows hidden by hand count for 1-11
    idle["B2"] = "=SUBTOTAL(109,A2:A7)"  # 13
    table = book.create_sheet("table filter")  # its table's filter hides row 3; row 7, below it, hidden by hand
    table.append(["n"])
    for value in [1, 2, 4, 8]:
        table.append([value])
    table["A7"] = 16
    for row in (3, 7):
        table.row_dimensions[row].hidden = True
    filtering = Table(displayName="Numbers", ref="A1:A5")
    filtering.tableStyleInfo = TableStyleInfo(name="TableStyleMedium2")
    filtering._initialise_columns()
    filtering.tableColumns[0].name = "n"
    filtering.autoFilter.filterColumn.append(FilterColumn(colId=0, filters=Filters(filter=["1", "4", "8"])))
    table.add_table(filtering)
    table["B1"] = "=SUBTOTAL(9,A2:A7)"  # 13: both left out, as on the sheet of a filtering AutoFilter
    table["B2"] = "=SUBTOTAL(3,A1:A7)"  # 4: the header, 1, 4 and 8
    mode = book.create_sheet("filter mode")  # the sheet says it is filtered (filterMode), row 3 hidden
    mode.sheet_properties.filterMode = True
    for row, value in enumerate([1, 2, 4], start=1):
        mode.cell(row, 1, value)
    mode.row_dimensions[3].hidden = True
    mode["B1"] = "=SUBTOTAL(9,A1:A3)"  # 3
    path = tmp_path_factory.mktemp("subtotal") / "rows.xlsx"
    book.save(path)
    evaluated = evaluate_workbook(str(path))
    return {sheet.name: sheet for sheet in evaluated.grid.order}


@pytest.mark.parametrize(("sheet", "cell", "expected"), [
    ("Hidden", (6, 2), 38.0), ("Hidden", (7, 2), 38.0), ("Hidden", (8, 2), 42.0), ("Hidden", (9, 2), 42.0),
    ("Hidden", (10, 2), 3.0), ("Hidden", (11, 2), 34.0), ("Hidden", (12, 2), "#VALUE!"),
    ("filters", (7, 1), 23.0), ("filters", (7, 2), 4.0), ("filters", (8, 2), 4.0), ("filters", (9, 2), 16.0),
    ("filters", (10, 2), 4.0), ("filters", (11, 2), 6.0),
    ("own filter", (1, 2), 13.0), ("own filter", (2, 2), 13.0), ("own filter", (3, 2), 0.0),
    ("idle filter", (1, 2), 31.0), ("idle filter", (2, 2), 13.0),
    ("table filter", (1, 2), 13.0), ("table filter", (2, 2), 4.0), ("filter mode", (1, 2), 3.0),
])
def test_subtotal_leaves_out_the_rows_excel_does(sheets: dict[str, Sheet], sheet: str, cell: tuple[int, int],
                                                 expected: object) -> None:
    value = sheets[sheet].get(*cell)
    assert (value if isinstance(value, float) else value.code) == expected
