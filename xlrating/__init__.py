"""xlrating: tournament rating systems for spreadsheets.

The rating maths lives in :mod:`xlrating.core`; the three systems are re-exported here so that
``from xlrating import dippouch, dci, mers`` works.
"""

from xlrating.core import dci, dippouch, mers

__all__ = ["dci", "dippouch", "mers"]
__version__ = "0.1.0"
