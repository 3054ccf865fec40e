"""What a workbook holds, read straight from its package: the zip and its parts (within the limits),
cells, shared strings, styles (which cells show dates), tables, defined names, links to other
workbooks, hidden rows; and the grid of column arrays the cells are read into."""
