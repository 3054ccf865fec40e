"""The workbook templates in ``workbook_templates/``, built with openpyxl, and the VBA buttons
module that goes with them.

``build_all(folder)`` writes every template. Files are byte-for-byte reproducible: the document
properties carry a fixed date and every zip entry a fixed timestamp, so rebuilding an unchanged
template leaves git with nothing to commit and a test can compare the committed copies with fresh
output exactly.

The buttons module (``xlrating_buttons.bas``: validate, ingest, ranking through xlwings' RunPython)
is hand-written VBA kept here as package data, so an installed xlrating can write it out
(``xlrating templates``); ``macros/xlrating_buttons.bas`` in a checkout is that copy.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from openpyxl.workbook import Workbook
from openpyxl.writer.excel import ExcelWriter

from xlrating.sheets.templates import calculators, ema_results, plain_calculators

TEMPLATES: dict[str, Callable[[], Workbook]] = {
    ema_results.FILE_NAME: ema_results.build,
    calculators.DIPPOUCH_FILE: calculators.dippouch_event,
    calculators.DCI_FILE: calculators.dci_match_calculator,
    calculators.MERS_FILE: calculators.mers_personal_ranking,
    **plain_calculators.TEMPLATES,
}

BUTTONS_BAS = "xlrating_buttons.bas"

FIXED_DATE = dt.datetime(2026, 1, 1)
_ZIP_TIME = (2026, 1, 1, 0, 0, 0)


def to_bytes(wb: Workbook) -> bytes:
    """The .xlsx file of ``wb``, identical for identical content."""
    wb.properties.creator = "xlrating"
    wb.properties.lastModifiedBy = "xlrating"
    wb.properties.created = wb.properties.modified = FIXED_DATE
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as archive:
        ExcelWriter(wb, archive).save()  # openpyxl's save_workbook would stamp "modified" with now
    fixed = io.BytesIO()
    with zipfile.ZipFile(raw) as source, zipfile.ZipFile(fixed, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            entry = zipfile.ZipInfo(item.filename, date_time=_ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o600 << 16
            target.writestr(entry, source.read(item.filename))
    return fixed.getvalue()


def build(name: str) -> bytes:
    """The bytes of the template called ``name`` (a file name from :data:`TEMPLATES`)."""
    return to_bytes(TEMPLATES[name]())


def build_all(folder: str | Path) -> list[Path]:
    """Write every template into ``folder`` (created if needed); return the paths written."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name in TEMPLATES:
        path = target / name
        path.write_bytes(build(name))
        written.append(path)
    return written


def buttons_module() -> bytes:
    """The bytes of the hand-written VBA buttons module (CRLF line ends, as the VBA editor writes)."""
    return resources.files(__package__).joinpath(BUTTONS_BAS).read_bytes()
