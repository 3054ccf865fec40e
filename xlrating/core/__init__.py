"""Pure rating maths: no spreadsheet, file or network access; stdlib and numpy only."""

from xlrating.core import dci, dippouch, mers
from xlrating.core.errors import InvalidArgument, NotRanked, RatingError, TableError

__all__ = ["InvalidArgument", "NotRanked", "RatingError", "TableError", "dci", "dippouch", "mers"]
