"""Computing the cells: formulas grouped into column blocks (:mod:`.blocks`) put in dependency order
(:mod:`.schedule`), evaluated over whole columns (:mod:`.vector`, :mod:`.vector_compile`) or cell by
cell with ``formulas`` (:mod:`.fallback`), references known only when computed (:mod:`.references`),
the function registry (:mod:`.registry`); :mod:`.model` runs it all over a workbook."""
