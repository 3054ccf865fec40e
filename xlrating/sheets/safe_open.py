"""The one door through which xlrating opens a workbook file.

Submitted workbooks are untrusted. Every reader (validator, converter, rank) opens files through
:func:`load_workbook` so that the checks made here apply everywhere.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


class UnreadableWorkbook(Exception):
    """A file that cannot be opened as a workbook; the message names the file and the reason."""

    def __init__(self, path: str | os.PathLike[str], reason: str):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


def load_workbook(path: str | os.PathLike[str], *, read_only: bool = False, data_only: bool = False,
                  keep_vba: bool = False, keep_links: bool = False) -> Any:
    """Open ``path`` with openpyxl, or raise :class:`UnreadableWorkbook` naming the reason."""
    import openpyxl

    file = Path(path)
    if not file.is_file():
        raise UnreadableWorkbook(path, "no such file")
    try:
        return openpyxl.load_workbook(file, read_only=read_only, data_only=data_only, keep_vba=keep_vba,
                                      keep_links=keep_links)
    except Exception as exc:  # openpyxl raises many unrelated types for a bad file
        raise UnreadableWorkbook(path, f"not a readable .xlsx/.xlsm workbook ({type(exc).__name__}: {exc})") from None
