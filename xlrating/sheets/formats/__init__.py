"""Files that tournament software and federations write, turned into our tables and back.

Each format is one module with a ``read`` function: the file's bytes -> the sheets of ours made
from it (:class:`~xlrating.sheets.formats.produced.Produced`), every problem a finding at its place
in the file (:mod:`~xlrating.sheets.formats.findings`). ``xlrating import FORMAT FILE`` runs the
system's own validator over each sheet and writes it only when nothing is an error; ``xlrating
export`` writes the federations' files from the store (:mod:`~xlrating.sheets.formats.wdd`).

The formats, their sources and what each gives: docs/formats.md.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xlrating.gate.limits import Limits
    from xlrating.sheets.formats.findings import Findings
    from xlrating.sheets.formats.options import ImportOptions
    from xlrating.sheets.formats.produced import Produced

Reader = Callable[[str, bytes, "ImportOptions", "Findings", "Limits"], "list[Produced]"]


@dataclass(frozen=True)
class ImportFormat:
    key: str  # what ``xlrating import`` calls it
    title: str  # "the WDD's classification upload (CSV)"
    module: str  # under xlrating.sheets.formats, with ``read``
    makes: str  # the table it makes
    outputs: tuple[str, ...] = (".csv", ".xlsx")
    reads_csv: bool = False  # read with the limits of a history table (else a web upload's)  # what -o may be: EMA sheets only .xlsx (a CSV's IDs read as numbers)

    def reader(self) -> Reader:
        read: Reader = importlib.import_module(f"xlrating.sheets.formats.{self.module}").read
        return read


FORMATS: dict[str, ImportFormat] = {f.key: f for f in (
    ImportFormat("ema-workbook", "an EMA results workbook (one sheet per tournament)", "ema_workbook",
                 "EMA results sheets", (".xlsx",)),
    ImportFormat("wdd", "the World Diplomacy Database's classification upload (CSV)", "wdd", "Dip Pouch results",
                 reads_csv=True),
    ImportFormat("wdr", "a World Diplomacy Reference tournament classification (JSON)", "wdr", "Dip Pouch results"),
    ImportFormat("wer", "a Wizards Event Reporter event file (XML)", "wer", "DCI matches"),
)}
