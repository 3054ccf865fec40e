"""Which character set CHAR and CODE number characters by: the one of the Excel that saved the workbook.

Microsoft's "CODE function" page: the code "corresponds to the character set used by your
computer", ANSI on Windows (code page 1252 for Western languages), the Macintosh character set on
the Mac. Workbooks each saved show it (CHAR(128) is "€" in one Excel for Windows saved, "Ä" in one
Excel for the Mac saved). The package reader (:mod:`.package`) reads which Excel saved a workbook
from its ``docProps/app.xml`` (:func:`of_application`); the model sets :data:`CHARACTER_SET` for
the workbook it computes; CHAR and CODE (:mod:`.functions.text`) read it.

A module of its own, importing nothing heavy, so that the model can set the character set without
loading the text functions.
"""

from __future__ import annotations

from contextvars import ContextVar

WINDOWS = "cp1252"  # Python's codec names
MAC = "mac_roman"

# What docProps/app.xml's <Application> says for Excel for the Mac; Excel for Windows writes
# "Microsoft Excel". Any other producer, or none, is taken for Windows: by far the most common.
MAC_APPLICATION = "Microsoft Macintosh Excel"

CHARACTER_SET: ContextVar[str] = ContextVar("xlrating_character_set", default=WINDOWS)


def of_application(application: str | None) -> str:
    """The character set of the application a workbook's docProps/app.xml names."""
    return MAC if application is not None and application.strip() == MAC_APPLICATION else WINDOWS
