"""The headless formula engine behind ``xlrating convert``.

Recalculates workbooks that use xlrating's functions and ordinary Excel functions, without Excel.
Its folders, in the order data flows through them (each imports only those before it; the
functions only what reading and formulas define):

- :mod:`.read`: the package (zip, parts, limits), cells, shared strings, styles, tables, defined
  names, links to other workbooks, and the :mod:`~.read.grid` of column arrays the cells go into;
- :mod:`.formula`: formula text -> expression tree (:mod:`~.formula.reader`, ``formulas``'
  tokenizer for what it leaves), and the R1C1 shape that groups a filled-down column into a block;
- :mod:`.evaluate`: blocks (:mod:`~.evaluate.blocks`) in dependency order
  (:mod:`~.evaluate.schedule`), evaluated over whole columns with numpy (:mod:`~.evaluate.vector`,
  :mod:`~.evaluate.vector_compile`) or cell by cell with ``formulas`` (:mod:`~.evaluate.fallback`),
  references computed at run time (:mod:`~.evaluate.references`), and the function registry the
  evaluator owns (:mod:`~.evaluate.registry`: a private copy of ``formulas``' functions, never the
  global one); :mod:`~.evaluate.model` runs it all;
- :mod:`.functions`: Excel's functions we compute, one module per Excel category, and ``formulas``'
  own loaded one category module at a time (:mod:`~.functions.library`): the catalogue
  :data:`REGISTRY` is made with;
- :mod:`.write`: the workbook written back with fresh cached values, values only, CSV or JSON.

Here the pieces meet: :func:`evaluate_workbook` and :func:`convert_file` run the evaluator with
:data:`REGISTRY`. :mod:`.batch` converts many files (``xlrating convert``), :mod:`.cluster` on a
Dask cluster (``--scheduler``); :mod:`.libreoffice` drives LibreOffice as a peer for the tests and
the benchmark.

One cell never sinks a workbook: what the engine cannot compute as Excel would (references into
other workbooks, data tables, an Excel function it does not implement) is left without a value and
named in the warnings; a function Excel does not know either is ``#NAME?``, as in Excel.
"""

from __future__ import annotations

from pathlib import Path

from xlrating.gate.limits import Limits

from . import functions
from .evaluate import model
from .evaluate.model import ConversionError, Evaluated
from .evaluate.registry import FunctionRegistry
from .read.clock import NowOption

FORMATS = ("xlsx", "csv", "json")

# The functions every workbook is evaluated with: ``formulas``' own with ours in their place. Made
# without importing ``formulas``; each name is looked up (and its module imported) when first used.
REGISTRY = FunctionRegistry(functions)


def evaluate_workbook(path: str, *, limits: Limits | None = None, now: NowOption = None,
                      data: bytes | None = None) -> Evaluated:
    """Recalculate every formula of the workbook at ``path`` (:func:`.evaluate.model.evaluate_workbook`).

    ``limits``: the size limits of :mod:`xlrating.gate.safe_open` (default: its defaults) and the
    time limit (``max_seconds``, naming the cell being computed). ``now``: the moment TODAY() and
    NOW() see: None (the computer's clock), a ``datetime``, or ``"saved"`` (the workbook's save time).
    ``data``: the file's bytes when they were read elsewhere (sent to a cluster's worker); ``path``
    still names the file (in messages and ``CELL("filename")``).
    """
    return model.evaluate_workbook(path, REGISTRY, limits=limits, now=now, data=data)


def output_suffix(source: Path, fmt: str, values_only: bool) -> str:
    """The extension of the output: the input's for a recalculated workbook (.xlsm keeps its VBA),
    .xlsx for values only, else the format's."""
    if fmt == "xlsx":
        return ".xlsx" if values_only else source.suffix.lower() if source.suffix.lower() in (".xlsx", ".xlsm") \
            else ".xlsx"
    return "." + fmt


def convert_file(source: str | Path, target: str | Path, *, fmt: str = "xlsx", values_only: bool = False,
                 limits: Limits | None = None, warnings: list[str] | None = None,
                 now: NowOption = None, notes: list[str] | None = None, data: bytes | None = None) -> list[Path]:
    """Recalculate ``source`` and write it to ``target`` in ``fmt``; the paths written.

    ``warnings``, when given, receives one line per cell not computed as Excel would ("Sheet!A1:
    why"); those cells are written without a value, for Excel or LibreOffice to compute on open.
    ``now``: the moment of TODAY() and NOW() (:func:`evaluate_workbook`); ``notes``, when given,
    receives the warnings about the workbook as a whole (no save time for ``now="saved"``).
    ``data``: the bytes of ``source`` read elsewhere (:func:`evaluate_workbook`).
    Raises :class:`ConversionError` (the time limit, naming the cell) or
    :class:`xlrating.gate.safe_open.UnreadableWorkbook`.
    """
    source, target = Path(source), Path(target)
    evaluated = evaluate_workbook(str(source), limits=limits, now=now, data=data)
    if warnings is not None:
        warnings.extend(evaluated.warnings)
    if notes is not None:
        notes.extend(evaluated.notes)
    if fmt in ("csv", "json"):
        from .write import values

        most = (limits or Limits()).max_output_cells
        if fmt == "csv":
            return values.write_csv(evaluated, target, most)
        values.write_json(evaluated, target, most)
        return [target]
    from .write import writer

    writer.write_xlsx(evaluated, target, values_only=values_only)
    return [target]


__all__ = ["FORMATS", "REGISTRY", "ConversionError", "Evaluated", "convert_file", "evaluate_workbook", "output_suffix"]
