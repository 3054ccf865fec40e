"""The leaderboards for a Python without numpy, record by record.

LibreOffice's own Python (Windows, macOS) has no numpy, and its add-in ranks the small tables of a
spreadsheet. Each module here computes what its system's column engine computes (the same checks,
the same error for the same row, the same operations on the same doubles in an order that gives the
same sums), so a leaderboard is bit-identical with or without numpy. The column engines stay the
path wherever numpy is installed; ``tests/core/test_without_numpy.py`` holds the two together.
"""
