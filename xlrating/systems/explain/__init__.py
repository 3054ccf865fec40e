"""How each system explains one player's rating (:class:`xlrating.core.explanation.Explanation`):
:mod:`.default` for any system from its leaderboard and its breakdown, and the three built-in
systems' own (:mod:`.mers`, :mod:`.dippouch`, :mod:`.dci`), each row with its inputs and every
number the rules derive from them, so that the workbook of :mod:`xlrating.sheets.explain` can
write the inputs as values and the rest as formulas."""
