"""Every accepted format read into one grid of cells (:class:`~.xlsx.SheetGrid`), so that one
validator serves them all: .xlsx/.xlsm (:mod:`.xlsx`), .xls and .ods (:mod:`.calamine`), .csv
(:mod:`.csv_grid`); the file judged by its bytes (:mod:`.submitted`); cells read as the validators
take them (:mod:`.cells`); plain tables for ``rank`` and the player registry (:mod:`.table_files`)."""
