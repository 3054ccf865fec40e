"""Excel's arithmetic of plain numbers, below both ways of computing a formula: DATE and the parts of
a date, MOD, INT (:mod:`.plain_numbers`), ROUND, ROUNDUP and ROUNDDOWN (:mod:`.rounding`), text read
as a number wherever Excel needs one (:mod:`.text_numbers`: VALUE, the operators, a function's
number arguments), each the one implementation the column-at-once path (``evaluate/``) and the
cell-by-cell functions (``functions/``) both call. Free of ``formulas`` and of workbooks."""
