"""The leaderboards for a Python without numpy, record by record.

LibreOffice's own Python (Windows, macOS) has no numpy, and its add-in ranks the small tables of a
spreadsheet. Each module here computes what its system's column engine computes (the same checks,
the same error for the same row, the same operations on the same doubles in an order that gives the
same sums), so a leaderboard is bit-identical with or without numpy. The column engines stay the
path wherever numpy is installed; ``tests/core/test_without_numpy.py`` holds the two together.

What makes that hold on every machine: both sides use only operations IEEE 754 rounds exactly
(``+ - * /``, comparisons, ``floor``, sums in one order), and the one transcendental, DCI's
``10 ** x``, is :func:`xlrating.core.powers.power` on both (the column engine applies it value by
value, never numpy's SIMD power). Bit-identical on the same machine; across machines a DCI rating
may differ in the last place where the C library's ``pow`` does (Dip Pouch and MERS cannot).
"""
