"""A player's rating explained as a workbook that recomputes it (``xlrating explain -o FILE.xlsx``).

:mod:`.book` writes the workbook of any :class:`~xlrating.core.explanation.Explanation`: the
settings, the rule in words and a table of the rows. A system that declares a layout
(:attr:`~xlrating.systems.base.RatingSystem.explain_sheet`: :mod:`.mers`, :mod:`.dippouch`,
:mod:`.dci`) has each row's inputs written as values and every number derived from them as a
plain spreadsheet formula, the plain calculators' forms of xlrating's functions
(:mod:`xlrating.sheets.templates.plain_formulas`), so the workbook recomputes the rating with
nothing installed, in Excel, LibreOffice or ``xlrating convert``; each formula's value is stored
with it (:mod:`.cells`), so a viewer that does not recalculate shows the numbers too.
"""
