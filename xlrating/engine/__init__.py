"""The headless formula engine behind ``xlrating convert``.

Recalculates workbooks that use xlrating's functions and ordinary Excel functions, without Excel:

- :mod:`.package` reads cells and formulas straight from the .xlsx XML;
- :mod:`.formula` parses a formula with ``formulas``' tokenizer into a small tree and computes the
  R1C1 shape that groups a filled-down column into one :mod:`.blocks` block;
- :mod:`.schedule` orders blocks (and cells, where blocks depend on each other);
- :mod:`.vector` and :mod:`.vector_compile` evaluate a block over all its rows with numpy;
  :mod:`.fallback` evaluates what they do not cover cell by cell with ``formulas``, our functions
  registered in :mod:`.registry` (a private copy of ``formulas``' registry, never the global one,
  that loads ``formulas``' own functions one category module at a time: :mod:`.library`);
- :mod:`.model` runs it all over a :mod:`.grid` of column arrays;
- :mod:`.writer` writes the workbook back with fresh cached values, values only, CSV or JSON;
- :mod:`.batch` converts many files (``xlrating convert``); :mod:`.libreoffice` drives LibreOffice
  as a peer for the tests and the benchmark.

One cell never sinks a workbook: what the engine cannot compute as Excel would (references into
other workbooks, data tables, an Excel function it does not implement) is left without a value and
named in the warnings; a function Excel does not know either is ``#NAME?``, as in Excel.
"""

from __future__ import annotations

from pathlib import Path

from xlrating.sheets.limits import Limits

from .evaluate.model import ConversionError, Evaluated, evaluate_workbook

FORMATS = ("xlsx", "csv", "json")


def output_suffix(source: Path, fmt: str, values_only: bool) -> str:
    """The extension of the output: the input's for a recalculated workbook (.xlsm keeps its VBA),
    .xlsx for values only, else the format's."""
    if fmt == "xlsx":
        return ".xlsx" if values_only else source.suffix.lower() if source.suffix.lower() in (".xlsx", ".xlsm") \
            else ".xlsx"
    return "." + fmt


def convert_file(source: str | Path, target: str | Path, *, fmt: str = "xlsx", values_only: bool = False,
                 limits: Limits | None = None, warnings: list[str] | None = None) -> list[Path]:
    """Recalculate ``source`` and write it to ``target`` in ``fmt``; the paths written.

    ``warnings``, when given, receives one line per cell not computed as Excel would ("Sheet!A1:
    why"); those cells are written without a value, for Excel or LibreOffice to compute on open.
    Raises :class:`ConversionError` (the time limit, naming the cell) or
    :class:`xlrating.sheets.safe_open.UnreadableWorkbook`.
    """
    from .write import writer

    source, target = Path(source), Path(target)
    evaluated = evaluate_workbook(str(source), limits=limits)
    if warnings is not None:
        warnings.extend(evaluated.warnings)
    if fmt == "csv":
        return writer.write_csv(evaluated, target)
    if fmt == "json":
        writer.write_json(evaluated, target)
        return [target]
    writer.write_xlsx(evaluated, target, values_only=values_only)
    return [target]


__all__ = ["FORMATS", "ConversionError", "Evaluated", "convert_file", "evaluate_workbook", "output_suffix"]
