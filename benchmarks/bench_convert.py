"""Headless recalculation: ``xlrating convert`` against IronCalc, Formualizer, LibreOffice and plain formulas.

    python benchmarks/bench_convert.py [--rows 10000] [--runs 3] [--million] [--small] [--only-small] [--baseline REV]
                                       [--small-batch] [--only-small-batch]

Builds a rating workbook of ``rows`` x 5 formula cells: DIPPOUCH_PERCENTILE, DIPPOUCH_VALUE,
DIPPOUCH_NEW_RATING, a difference and a fifth column, plus SUM/AVERAGE/MAX summary cells; and the
same workbook with our functions written out as native formulas (docs/rating-rules.md) for the peers.
The first table is the issue's reference workbook (fifth column ``I*2``); the second has a RANK
over the column instead, which makes IronCalc, Formualizer and LibreOffice quadratic.

Each engine runs as a fresh process per run, on this machine in this run, measured with
``/usr/bin/time -v`` (wall time, peak RSS), best of ``--runs``:

- ours: ``xlrating convert book.xlsx -o out.xlsx`` (start-up, package checks, reading, evaluating,
  writing with formulas kept and fresh cached values). ``python -m compileall -q xlrating`` runs
  first: the environment may set PYTHONDONTWRITEBYTECODE=1, and every run would then compile our
  modules, unlike an installed wheel;
- IronCalc (``pip install -e .[bench]``): ``load_from_xlsx``, ``evaluate``, ``save_to_xlsx``;
  native formulas only (it cannot run our functions);
- Formualizer (same extra): native formulas through ``recalculate_file``; our functions through
  ``Workbook.register_function`` with Python callables calling ``xlrating.functions.call``,
  then ``evaluate_all`` and ``to_xlsx_bytes`` written to a file;
- LibreOffice: ``soffice --convert-to xlsx`` with recalculation on load forced (a private profile,
  see xlrating.engine.libreoffice; its first start is not counted);
- plain formulas: ``ExcelModel`` load, calculate and write on ``--formulas-rows`` rows (default
  400) of the native workbook; time and memory extrapolated linearly.

"x ours" is a wall time over ``xlrating convert`` on the native workbook in the same table. Every
formula cell of our output is then compared with each peer's output (numbers within 1e-9
relative, text and errors exactly, a missing value differs). Peers not installed are skipped.
``--million``: 200,000 rows (1,000,000 formula cells), ours with the safety limits raised by
XLRATING_MAX_* variables (target under 5 s), and IronCalc on the native version if it finishes
within 60 s. ``--small``: a folder of 1,000 small workbooks of ordinary Excel functions with
``--jobs 2`` (target: no slower than when the speed issue was filed; ``--baseline REV`` converts
the same folder with the package as at git revision REV, 138b3c1 for that day, in the same run),
and one alone (target under 0.3 s; best and median of ``--runs``) against IronCalc;
``--only-small``: that alone, without the two tables.
``--small-batch``: a folder of 200 small workbooks (16 rows of ROUND, IF, DATE, a SUM over a growing
range and VLOOKUP: 80 formula cells each), ``xlrating convert in/*.xlsx -o out`` with ``--jobs 1``
and ``--jobs 2`` against IronCalc's ``load_from_xlsx`` / ``evaluate`` / ``save_to_xlsx`` over the
same files in a Python loop in one process, and one of those workbooks alone each way; the runs of
the engines interleaved (a round runs each once), best of ``--runs`` (targets: ``--jobs 1`` at
most 1.5x IronCalc, ``--jobs 2`` faster than ``--jobs 1``, one workbook at most 0.15 s);
``--only-small-batch``: that alone. ``--instructions`` (with either): ours and IronCalc's loop under
valgrind's callgrind on 1 and on 41 of those workbooks, the instructions of start-up with the first
workbook and per further workbook, and the ratio per workbook (a count the machine's noise does not
move, blind to time spent waiting on the file system).
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

from lxml import etree
from openpyxl.utils import column_index_from_string, get_column_letter

HEADER = ["event", "players", "rounds", "place", "rating", "percentile", "value", "new_rating", "change", "rank"]
LETTERS = "ABCDEFGHIJ"


def _formulas(r: int, last: int, native: bool, rank: bool = True) -> list[str]:
    if native:
        first = [f"(B{r}+0.5-D{r})/B{r}*100", f"MIN(IF(C{r}=1,B{r}/7+2,B{r}/3.5+2),15)", f"E{r}+G{r}/100*(F{r}-E{r})"]
    else:
        first = [f"DIPPOUCH_PERCENTILE(B{r},D{r})", f"DIPPOUCH_VALUE(B{r},C{r})", f"DIPPOUCH_NEW_RATING(E{r},F{r},G{r})"]
    return first + [f"H{r}-E{r}", f"RANK(H{r},H$2:H${last})" if rank else f"I{r}*2"]


def _header(row: int, names: list[str]) -> str:
    return f'<row r="{row}">' + "".join(f'<c r="{LETTERS[j]}{row}" t="inlineStr"><is><t>{h}</t></is></c>'
                                        for j, h in enumerate(names)) + "</row>"


def build_workbook(path: Path, rows: int, native: bool, seed: int = 7, rank: bool = True) -> int:
    """Write the rating workbook as Excel lays it out (written directly: openpyxl would take minutes
    for a million cells). Returns the number of formula cells."""
    rng = random.Random(seed)
    last = rows + 1
    parts = [_header(1, HEADER)]
    for r in range(2, last + 1):
        players = rng.randint(7, 60)
        values = (players, rng.randint(1, 4), rng.randint(1, players), round(rng.uniform(20, 80), 2))
        cells = [f'<c r="A{r}" t="inlineStr"><is><t>E{r % 97}</t></is></c>']
        cells += [f'<c r="{LETTERS[1 + j]}{r}"><v>{v}</v></c>' for j, v in enumerate(values)]
        cells += [f'<c r="{LETTERS[5 + j]}{r}"><f>{escape(t)}</f><v>0</v></c>'
                  for j, t in enumerate(_formulas(r, last, native, rank))]
        parts.append(f'<row r="{r}">' + "".join(cells) + "</row>")
    s = last + 2
    summary = [f"SUM(H2:H{last})", f"AVERAGE(H2:H{last})", f"MAX(I2:I{last})"]
    parts.append(f'<row r="{s}">' + "".join(f'<c r="{LETTERS[7 + j]}{s}"><f>{t}</f><v>0</v></c>'
                                            for j, t in enumerate(summary)) + "</row>")
    write_package(path, "Ratings", f"A1:J{s}", "".join(parts))
    return rows * 5 + len(summary)


def build_small_workbook(path: Path, seed: int) -> int:
    """A small order sheet of ordinary Excel functions (ROUND, IF, DATE, VLOOKUP, SUM, COUNTIF ...)."""
    rng = random.Random(seed)
    parts = [_header(1, ["item", "qty", "price", "day", "amount", "size", "date", "lookup"])]
    for r in range(2, 12):
        cells = [f'<c r="A{r}" t="inlineStr"><is><t>item{r}</t></is></c>', f'<c r="B{r}"><v>{rng.randint(1, 20)}</v></c>',
                 f'<c r="C{r}"><v>{round(rng.uniform(1, 30), 2)}</v></c>', f'<c r="D{r}"><v>{rng.randint(1, 28)}</v></c>']
        formulas = [f"ROUND(B{r}*C{r}*1.07,2)", f'IF(E{r}>100,"big","small")', f"DATE(2024,MOD({r},12)+1,D{r})",
                    f'VLOOKUP("item{13 - r}",$A$2:$C$11,3,FALSE)']
        cells += [f'<c r="{LETTERS[4 + j]}{r}"><f>{escape(t)}</f><v>0</v></c>' for j, t in enumerate(formulas)]
        parts.append(f'<row r="{r}">' + "".join(cells) + "</row>")
    summary = ["SUM(E2:E11)", "AVERAGE(C2:C11)", "MAX(B2:B11)", 'COUNTIF(F2:F11,"big")', "SUMPRODUCT(B2:B11,C2:C11)",
               "YEAR(G2)+MONTH(G3)", "MIN(H2:H11)", 'IFERROR(VLOOKUP("none",A2:C11,2,FALSE),-1)']
    parts.append('<row r="13">' + "".join(f'<c r="{LETTERS[j]}13"><f>{escape(t)}</f><v>0</v></c>'
                                          for j, t in enumerate(summary)) + "</row>")
    write_package(path, "Orders", "A1:H13", "".join(parts))
    return 40 + len(summary)


STYLES = ('<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
          '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>'
          '<fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders>'
          '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
          '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>'
          '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>')


def write_package(path: Path, sheet_name: str, dimension: str, sheet_data: str) -> None:
    """A minimal .xlsx of one sheet (with styles.xml: IronCalc refuses a package without it)."""
    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    rel_ns = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
    sheet = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet {ns}><dimension ref="{dimension}"/>'
             f"<sheetData>{sheet_data}</sheetData></worksheet>")
    pkg = "http://schemas.openxmlformats.org/package/2006"
    office = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    sml = "application/vnd.openxmlformats-officedocument.spreadsheetml"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml",
                   f'<Types xmlns="{pkg}/content-types"><Default Extension="rels" '
                   f'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   f'<Default Extension="xml" ContentType="application/xml"/>'
                   f'<Override PartName="/xl/workbook.xml" ContentType="{sml}.sheet.main+xml"/>'
                   f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{sml}.worksheet+xml"/>'
                   f'<Override PartName="/xl/styles.xml" ContentType="{sml}.styles+xml"/></Types>')
        z.writestr("_rels/.rels", f'<Relationships xmlns="{pkg}/relationships"><Relationship Id="rId1" '
                                  f'Type="{office}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
        z.writestr("xl/workbook.xml", f'<workbook {ns} {rel_ns}><sheets><sheet name="{sheet_name}" sheetId="1" '
                                      f'r:id="rId1"/></sheets></workbook>')
        z.writestr("xl/_rels/workbook.xml.rels",
                   f'<Relationships xmlns="{pkg}/relationships"><Relationship Id="rId1" '
                   f'Type="{office}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" '
                   f'Type="{office}/styles" Target="styles.xml"/></Relationships>')
        z.writestr("xl/styles.xml", STYLES)
        z.writestr("xl/worksheets/sheet1.xml", sheet)


def build_batch_workbook(path: Path, seed: int) -> int:
    """A small sheet of everyday formulas filled down 16 rows: ROUND, IF, DATE with MOD, a running
    SUM over a growing range, VLOOKUP (80 formula cells)."""
    rng = random.Random(seed)
    parts = [_header(1, ["item", "qty", "price", "day", "amount", "size", "date", "running", "lookup"])]
    last = 17
    for r in range(2, last + 1):
        cells = [f'<c r="A{r}" t="inlineStr"><is><t>item{r}</t></is></c>', f'<c r="B{r}"><v>{rng.randint(1, 20)}</v></c>',
                 f'<c r="C{r}"><v>{round(rng.uniform(1, 30), 2)}</v></c>', f'<c r="D{r}"><v>{rng.randint(1, 28)}</v></c>']
        formulas = [f"ROUND(B{r}*C{r}*1.07,2)", f'IF(E{r}>100,"big","small")', f"DATE(2024,MOD({r},12)+1,D{r})",
                    f"SUM($E$2:E{r})", f'VLOOKUP("item{last + 2 - r}",$A$2:$C${last},3,FALSE)']
        cells += [f'<c r="{LETTERS[4 + j]}{r}"><f>{escape(t)}</f><v>0</v></c>' for j, t in enumerate(formulas)]
        parts.append(f'<row r="{r}">' + "".join(cells) + "</row>")
    write_package(path, "Orders", f"A1:I{last}", "".join(parts))
    return (last - 1) * 5


# --- running one engine as a fresh process ------------------------------------------------------------

def measure(command: list[str], runs: int, env: dict[str, str] | None = None,
            walls: list[float] | None = None, cwd: Path | None = None) -> tuple[float, float]:
    """Best wall time (s) and the peak RSS (MB) of that run, from /usr/bin/time -v; every run's wall
    time is appended to ``walls`` when given. Raises RuntimeError with the program's last line of
    error output (never its whole output)."""
    best = (math.inf, 0.0)
    for _ in range(runs):
        done = subprocess.run(["/usr/bin/time", "-v", *command], capture_output=True, text=True, env=env, check=False,
                              cwd=cwd)
        if done.returncode != 0:
            lines = [x for x in (done.stdout + done.stderr.split("\tCommand being timed:")[0]).splitlines()
                     if x.strip() and not x.startswith(("Unexpected type", "Command exited"))]  # IronCalc: 1/cell
            raise RuntimeError(f"exit {done.returncode}: {' | '.join(lines[-2:])[:300]}")
        wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", done.stderr)
        rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
        assert wall and rss, done.stderr[-500:]
        seconds = int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
        if walls is not None:
            walls.append(seconds)
        if seconds < best[0]:
            best = (seconds, int(rss.group(1)) / 1024)
    return best


FORMULAS_SCRIPT = """
import sys, formulas
model = formulas.ExcelModel().loads(sys.argv[1]).finish()
model.calculate()
model.write(dirpath=sys.argv[2])
"""

IRONCALC_SCRIPT = """
import sys, pathlib, ironcalc
pathlib.Path(sys.argv[2]).unlink(missing_ok=True)  # save_to_xlsx refuses an existing file
model = ironcalc.load_from_xlsx(sys.argv[1], "en", "UTC")
model.evaluate()
model.save_to_xlsx(sys.argv[2])
"""

FORMUALIZER_NATIVE_SCRIPT = """
import sys, formualizer
summary = formualizer.recalculate_file(sys.argv[1], sys.argv[2])
if summary["status"] != "success":
    sys.exit(f"status {summary['status']}, {summary['errors']} errors")
"""

FORMUALIZER_OURS_SCRIPT = """
import sys, formualizer as fz
from xlrating import functions
KINDS = {"#N/A": "Na", "#NUM!": "Num", "#DIV/0!": "Div"}

def register(book, fn):
    def callback(*args):
        value = functions.call(fn, args)
        if isinstance(value, functions.ExcelError):
            return fz.LiteralValue.error(KINDS.get(value.code, "Value"), value.reason)
        return value
    book.register_function(fn.name, callback, min_args=sum(not a.optional for a in fn.arguments),
                           max_args=len(fn.arguments))

book = fz.load_workbook(sys.argv[1])
for name in ("DIPPOUCH_PERCENTILE", "DIPPOUCH_VALUE", "DIPPOUCH_NEW_RATING"):
    register(book, functions.BY_NAME[name])
book.evaluate_all()
with open(sys.argv[2], "wb") as out:
    out.write(book.to_xlsx_bytes())
"""


# --- reading the values back -------------------------------------------------------------------------

def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def read_cells(path: Path) -> tuple[dict[str, object], set[str]]:
    """The values of the first sheet's cells ({"F2": 53.7, "F3": "big", "F4": "#N/A"}) as the workbook
    holds them (cached or plain values) and the references of its formula cells. Reads whatever the
    engines write: shared strings, t="str"/"inlineStr"/"b"/"e", styles, namespace prefixes, rows
    or cells without an r attribute."""
    with zipfile.ZipFile(path) as z:
        names = {n.lower(): n for n in z.namelist()}
        book = etree.fromstring(z.read(names["xl/workbook.xml"]))
        rid = next(e for e in book.iter() if _local(e.tag) == "sheet").get(
            "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id")
        rels = etree.fromstring(z.read(names["xl/_rels/workbook.xml.rels"]))
        target = next(e.get("Target") for e in rels if e.get("Id") == rid)
        sheet = target.lstrip("/") if target.startswith("/") else "xl/" + target
        strings = []
        if "xl/sharedstrings.xml" in names:
            for si in etree.fromstring(z.read(names["xl/sharedstrings.xml"])):
                strings.append("".join(t.text or "" for t in si.iter("{*}t") if _local(t.getparent().tag) != "rPh"))
        values: dict[str, object] = {}
        formulas: set[str] = set()
        row = col = 0
        with z.open(names[sheet.lower()]) as stream:
            for event, e in etree.iterparse(stream, events=("start", "end"), tag=("{*}row", "{*}c")):
                if _local(e.tag) == "row":
                    if event == "start":
                        row, col = int(e.get("r") or row + 1), 0
                    else:
                        e.clear()
                    continue
                if event == "start":
                    continue
                ref = e.get("r") or f"{get_column_letter(col + 1)}{row}"
                col = column_index_from_string(re.match(r"[A-Za-z]+", ref).group())  # type: ignore[union-attr]
                kind = e.get("t", "n")
                v = e.find("{*}v")
                if e.find("{*}f") is not None:
                    formulas.add(ref)
                if kind == "inlineStr":
                    values[ref] = "".join(e.find("{*}is").itertext()) if e.find("{*}is") is not None else ""
                elif v is not None and v.text is not None:
                    text = v.text
                    values[ref] = (strings[int(text)] if kind == "s" else text if kind in ("str", "e", "d")
                                   else ("TRUE" if text.strip() in ("1", "true") else "FALSE") if kind == "b"
                                   else float(text))
                e.clear()
    return values, formulas


def compare(ours: Path, theirs: Path) -> tuple[int, list[str]]:
    """(our formula cells compared, descriptions of those that differ): numbers within 1e-9
    relative, anything else exactly; a cell the peer left without a value differs."""
    mine, formulas = read_cells(ours)
    other = read_cells(theirs)[0]
    bad = []
    compared = [k for k in mine if k in formulas]
    for k in compared:
        a, b = mine[k], other.get(k)
        same = (math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9) if isinstance(a, float) and isinstance(b, float)
                else a == b)
        if not same:
            bad.append(f"{k}: ours {a!r}, theirs {b!r}")
    return len(compared), bad


def report(label: str, ours: Path, theirs: Path) -> None:
    n, bad = compare(ours, theirs)
    print(f"values, {label}: {n:,} formula cells compared, {len(bad)} differ" + (" e.g. " if bad else ""))
    for line in bad[:3]:
        print(f"    {line}")


# --- the benchmark --------------------------------------------------------------------------------------

def installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def bench_variant(work: Path, args: argparse.Namespace, rank: bool, lo: list[str] | None) -> None:
    """One table: every engine on the workbook with (rank=True) or without the RANK column."""
    py, tag = sys.executable, "rank" if rank else "norank"
    out = work / tag
    out.mkdir()
    ours_book, native_book = out / "ours.xlsx", out / "native.xlsx"
    cells = build_workbook(ours_book, args.rows, native=False, rank=rank)
    build_workbook(native_book, args.rows, native=True, rank=rank)
    convert = [py, "-m", "xlrating", "convert", "-q"]
    rows: list[tuple[str, float | None, float | None, str]] = []
    checks: list[tuple[str, Path, Path]] = []

    def timed(name: str, command: list[str], runs: int = args.runs, note: str = "") -> tuple[float, float] | None:
        try:
            result = measure(command, runs)
        except RuntimeError as exc:
            rows.append((name, None, None, f"failed: {exc}"))
            return None
        rows.append((name, *result, note))
        return result

    ours_f = timed("xlrating convert (our functions)", [*convert, str(ours_book), "-o", str(out / "ours_f.xlsx")])
    ours = timed("xlrating convert (native formulas)", [*convert, str(native_book), "-o", str(out / "ours_n.xlsx")])
    if ours is None or ours_f is None:
        raise SystemExit(f"xlrating convert failed: {rows}")
    ours_out, ours_f_out = out / "ours_n.xlsx", out / "ours_f.xlsx"
    ironcalc = None
    if installed("ironcalc"):
        rows.append(("IronCalc 0.9.1 (our functions)", None, None, "cannot run them"))
        ironcalc = timed("IronCalc 0.9.1 (native)", [py, "-c", IRONCALC_SCRIPT, str(native_book), str(out / "ic.xlsx")])
        if ironcalc:
            checks.append(("ours vs IronCalc (native)", ours_out, out / "ic.xlsx"))
    else:
        rows.append(("IronCalc", None, None, "skipped: not installed (pip install -e .[bench])"))
    if installed("formualizer"):
        if timed("Formualizer 0.13.0 (our functions, registered)",
                 [py, "-c", FORMUALIZER_OURS_SCRIPT, str(ours_book), str(out / "fz_f.xlsx")],
                 note="Python callables; evaluate_all + to_xlsx_bytes"):
            checks.append(("ours vs Formualizer (our functions)", ours_f_out, out / "fz_f.xlsx"))
        if timed("Formualizer 0.13.0 (native)", [py, "-c", FORMUALIZER_NATIVE_SCRIPT, str(native_book),
                                                   str(out / "fz_n.xlsx")], note="recalculate_file"):
            checks.append(("ours vs Formualizer (native)", ours_out, out / "fz_n.xlsx"))
    else:
        rows.append(("Formualizer", None, None, "skipped: not installed (pip install -e .[bench])"))
    if lo is not None:
        rows.append(("LibreOffice headless (our functions)", None, None, "cannot run them"))
        if timed("LibreOffice headless (native, recalc on load)", [*lo, "--outdir", str(out / "lo"), str(native_book)]):
            checks.append(("ours vs LibreOffice (native)", ours_out, out / "lo" / "native.xlsx"))
    else:
        rows.append(("LibreOffice", None, None, "skipped: soffice not on PATH"))

    subset = out / "subset.xlsx"
    subset_cells = build_workbook(subset, args.formulas_rows, native=True, rank=rank)
    scale = cells / subset_cells
    fx = timed(f"plain formulas (native, {subset_cells:,} cells x{scale:.3g})",
               [py, "-c", FORMULAS_SCRIPT, str(subset), str(out / "fx")], 1, "extrapolated linearly")
    if fx:
        rows[-1] = (rows[-1][0], fx[0] * scale, fx[1] * scale, rows[-1][3])
        fx_out = next(p for p in (out / "fx").iterdir() if p.suffix.lower() == ".xlsx")
        if timed("xlrating convert (native subset)", [*convert, str(subset), "-o", str(out / "ours_subset.xlsx")], 1):
            checks.append(("ours vs plain formulas (native subset)", out / "ours_subset.xlsx", fx_out))
        if rows[-1][1] is not None:
            rows.pop()  # our run on the subset only produces the values to compare

    title = "WITH a RANK column (quadratic for IronCalc, Formualizer and LibreOffice)" if rank else \
        "no RANK column (the issue's reference workbook)"
    print(f"\n{title}: {cells:,} formula cells ({args.rows:,} rows x 5 + 3 summary cells), best of {args.runs}")
    print(f"{'engine':<52} {'wall s':>8} {'peak MB':>8} {'x ours':>8}  note")
    for name, wall, rss, note in rows:
        if wall is None:
            print(f"{name:<52} {'-':>8} {'-':>8} {'-':>8}  {note}")
        else:
            print(f"{name:<52} {wall:>8.2f} {rss:>8.0f} {wall / ours[0]:>7.2f}x  {note}")
    if ironcalc:
        print(f"ours/IronCalc (wall): {ours[0] / ironcalc[0]:.2f} native formulas, "
              f"{ours_f[0] / ironcalc[0]:.2f} ours with our functions vs IronCalc native")
    report("ours with our functions vs ours native", ours_f_out, ours_out)
    for label, mine, theirs in checks:
        report(label, mine, theirs)


def bench_million(work: Path) -> None:
    py = sys.executable
    big, native = work / "million.xlsx", work / "million_native.xlsx"
    cells = build_workbook(big, 200_000, native=False, rank=False)
    env = {**os.environ, "XLRATING_MAX_ROWS": "250000", "XLRATING_MAX_CELLS": "3000000",
           "XLRATING_MAX_MEMBER_BYTES": "268435456", "XLRATING_MAX_TOTAL_BYTES": "536870912"}
    wall, rss = measure([py, "-m", "xlrating", "convert", "-q", str(big), "-o", str(work / "million_out.xlsx")], 1, env)
    print(f"\n1M: xlrating convert (our functions, no RANK), {cells:,} formula cells: {wall:.2f} s wall, "
          f"{rss:.0f} MB peak (target under 5 s; limits raised by XLRATING_MAX_* variables)")
    if not installed("ironcalc"):
        print("1M: IronCalc skipped: not installed")
        return
    build_workbook(native, 200_000, native=True, rank=False)
    try:
        wall, rss = measure(["timeout", "60", py, "-c", IRONCALC_SCRIPT, str(native), str(work / "million_ic.xlsx")], 1)
        print(f"1M: IronCalc (native formulas), same cells: {wall:.2f} s wall, {rss:.0f} MB peak")
    except RuntimeError as exc:
        print(f"1M: IronCalc skipped: did not finish within 60 s ({exc})")


def baseline_tree(work: Path, revision: str) -> Path:
    """The ``xlrating`` package as it was at a git revision of this repository, byte-compiled, in
    ``work``: run with PYTHONPATH set to it (and a working directory outside the checkout)."""
    tree = work / f"xlrating_at_{revision}"
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(Path(__file__).resolve().parent.parent), "archive", "--format=tar",
                              revision, "xlrating"], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree)], check=True)
    return tree


def bench_small(work: Path, runs: int, baseline: str | None = None) -> None:
    py = sys.executable
    folder = work / "small"
    folder.mkdir()
    cells = sum(build_small_workbook(folder / f"book{i:04d}.xlsx", i) for i in range(1000))
    convert = [py, "-m", "xlrating", "convert", "-q", str(folder), "--jobs", "2", "-o"]
    wall, rss = measure([*convert, str(work / "small_out")], runs)
    print(f"\n1,000 small workbooks ({cells // 1000} formula cells each), xlrating convert FOLDER --jobs 2: "
          f"{wall:.2f} s wall, {wall * 0.24:.2f} s per 240 workbooks, {rss:.0f} MB peak (largest process)")
    if baseline:  # the target: no slower than the code was; that code, on this machine, in this run
        env = {**os.environ, "PYTHONPATH": str(baseline_tree(work, baseline))}
        then, _ = measure([*convert, str(work / "small_out_then")], min(runs, 3), env=env, cwd=work)
        print(f"the same folder, xlrating as at {baseline}: {then:.2f} s wall, {then * 0.24:.2f} s per 240 "
              f"(now/then {wall / then:.2f})")
    one = folder / "book0001.xlsx"
    walls: list[float] = []
    wall, rss = measure([py, "-m", "xlrating", "convert", "-q", str(one), "-o", str(work / "one.xlsx")], runs,
                        walls=walls)
    print(f"one small workbook, xlrating convert: {wall:.2f} s wall (median of {runs}: {statistics.median(walls):.2f}),"
          f" {rss:.0f} MB peak (target under 0.3 s)")
    if installed("ironcalc"):
        ic_wall, ic_rss = measure([py, "-c", IRONCALC_SCRIPT, str(one), str(work / "one_ic.xlsx")], runs)
        print(f"one small workbook, IronCalc: {ic_wall:.2f} s wall, {ic_rss:.0f} MB peak "
              f"(ours/IronCalc {wall / ic_wall:.2f})")
        report("small workbook, ours vs IronCalc", work / "one.xlsx", work / "one_ic.xlsx")
    else:
        print("one small workbook, IronCalc skipped: not installed")


IRONCALC_LOOP_SCRIPT = """
import sys, pathlib, ironcalc
out = pathlib.Path(sys.argv[1])
out.mkdir(exist_ok=True)
for name in sys.argv[2:]:
    target = out / pathlib.Path(name).name
    target.unlink(missing_ok=True)  # save_to_xlsx refuses an existing file
    model = ironcalc.load_from_xlsx(name, "en", "UTC")
    model.evaluate()
    model.save_to_xlsx(str(target))
"""


def bench_small_batch(work: Path, runs: int, count: int = 200) -> None:
    """200 small workbooks: ours with --jobs 1 and 2 against IronCalc in a loop, interleaved."""
    py = sys.executable
    folder = work / "batch"
    folder.mkdir()
    books = [folder / f"book{i:04d}.xlsx" for i in range(count)]
    cells = sum(build_batch_workbook(book, i) for i, book in enumerate(books))
    files = [str(b) for b in books]
    one = books[0]
    engines: list[tuple[str, list[str]]] = [
        ("xlrating convert in/*.xlsx -o out --jobs 1", [py, "-m", "xlrating", "convert", "-q", *files, "-o",
                                                          str(work / "batch_j1")]),
        ("xlrating convert in/*.xlsx -o out --jobs 2", [py, "-m", "xlrating", "convert", "-q", *files, "-o",
                                                          str(work / "batch_j2"), "--jobs", "2"]),
        ("one workbook: xlrating convert one.xlsx -o out.xlsx", [py, "-m", "xlrating", "convert", "-q", str(one), "-o",
                                                                 str(work / "one_batch.xlsx")]),
    ]
    if installed("ironcalc"):
        engines += [("IronCalc 0.9.1: load/evaluate/save, Python loop", [py, "-c", IRONCALC_LOOP_SCRIPT,
                                                                          str(work / "batch_ic"), *files]),
                    ("one workbook: IronCalc", [py, "-c", IRONCALC_SCRIPT, str(one), str(work / "one_batch_ic.xlsx")])]
    walls: dict[str, list[float]] = {name: [] for name, _ in engines}
    rss: dict[str, float] = {}
    for _ in range(runs):  # interleaved: a round runs every engine once, so a slow minute hits them all
        for name, command in engines:
            _, peak = measure(command, 1, walls=walls[name])
            rss[name] = max(rss.get(name, 0.0), peak)
    best = {name: min(w) for name, w in walls.items()}
    print(f"\n{count} small workbooks ({cells // count} formula cells each: ROUND, IF, DATE, a running SUM, VLOOKUP), "
          f"best of {runs} interleaved rounds")
    print(f"{'engine':<56} {'best s':>8} {'median s':>9} {'peak MB':>8}")
    for name, _ in engines:
        print(f"{name:<56} {best[name]:>8.3f} {statistics.median(walls[name]):>9.3f} {rss[name]:>8.0f}")
    j1, j2 = best[engines[0][0]], best[engines[1][0]]
    print(f"--jobs 2 / --jobs 1: {j2 / j1:.2f} (target: below 1); one workbook {best[engines[2][0]]:.3f} s "
          f"(target at most 0.15 s)")
    if installed("ironcalc"):
        ic = best[engines[3][0]]
        print(f"ours/IronCalc on {count} workbooks: {j1 / ic:.2f} with --jobs 1 (target at most 1.5), {j2 / ic:.2f} "
              f"with --jobs 2; one workbook {best[engines[2][0]] / best[engines[4][0]]:.2f}")
        differ = 0
        for book in books:
            _, bad = compare(work / "batch_j1" / book.name, work / "batch_ic" / book.name)
            differ += len(bad)
        print(f"values, ours vs IronCalc: {cells:,} formula cells compared, {differ} differ")


def callgrind_instructions(command: list[str]) -> int | None:
    """The instructions ``command`` ran, counted by valgrind's callgrind (the same count for the
    same program and input whatever else the machine does); None when it fails."""
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                          capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    return int(found.group(1)) if done.returncode == 0 and found else None


def bench_small_batch_instructions(work: Path, count: int = 41) -> None:
    """Ours (--jobs 1) and IronCalc's loop under callgrind, on 1 and on ``count`` small workbooks:
    the instructions per further workbook and those of start-up with the first, and their ratio.
    A count, not a time: the same on a noisy machine, but blind to waiting (file system, memory)."""
    if not shutil.which("valgrind"):
        print("\ninstructions: skipped, valgrind is not installed")
        return
    py = sys.executable
    folder = work / "batch_instructions"
    folder.mkdir()
    books = [str(folder / f"book{i:04d}.xlsx") for i in range(count)]
    for i, book in enumerate(books):
        build_batch_workbook(Path(book), i)
    engines = {"xlrating convert --jobs 1": lambda files, out: [py, "-m", "xlrating", "convert", "-q", *files,
                                                                "-o", str(out)]}
    if installed("ironcalc"):
        engines["IronCalc 0.9.1 in a Python loop"] = lambda files, out: [py, "-c", IRONCALC_LOOP_SCRIPT, str(out), *files]
    print(f"\ninstructions (valgrind callgrind) for 1 and {count} small workbooks")
    print(f"{'engine':<36} {'start-up + first, M':>20} {'per further workbook, M':>24}")
    per: dict[str, float] = {}
    for name, command in engines.items():
        one = callgrind_instructions(command(books[:1], work / f"instr1_{len(per)}"))
        many = callgrind_instructions(command(books, work / f"instr{count}_{len(per)}"))
        if one is None or many is None:
            print(f"{name:<36} failed under valgrind")
            continue
        per[name] = (many - one) / (count - 1)
        print(f"{name:<36} {one / 1e6:>20.0f} {per[name] / 1e6:>24.2f}")
    if len(per) == 2:
        ours, theirs = per.values()
        print(f"ours/IronCalc, instructions per workbook: {ours / theirs:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10_000, help="rows of 5 formula cells (default 10,000 = 50k)")
    parser.add_argument("--formulas-rows", type=int, default=400, help="rows for plain formulas (extrapolated)")
    parser.add_argument("--runs", type=int, default=3, help="best of this many fresh runs per engine")
    parser.add_argument("--million", action="store_true", help="also convert 1,000,000 formula cells")
    parser.add_argument("--small", action="store_true", help="also convert 1,000 small workbooks")
    parser.add_argument("--only-small", action="store_true", help="only the small workbooks (no 50k tables)")
    parser.add_argument("--baseline", metavar="REV", help="also convert the small workbooks with xlrating as at this "
                        "git revision (e.g. 138b3c1, when the speed issue was filed)")
    parser.add_argument("--small-batch", action="store_true", help="also 200 small workbooks: ours --jobs 1 and 2 "
                        "against IronCalc in a Python loop, interleaved, and one of them alone")
    parser.add_argument("--only-small-batch", action="store_true", help="only the 200 small workbooks")
    parser.add_argument("--instructions", action="store_true", help="with the small workbooks: ours and IronCalc "
                        "under valgrind's callgrind, instructions per workbook and at start-up")
    args = parser.parse_args()
    if args.only_small_batch:
        args.only_small = True

    package = Path(importlib.util.find_spec("xlrating").origin).parent  # type: ignore[arg-type, union-attr]
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)], check=True)
    work = Path(tempfile.mkdtemp(prefix="bench_convert_"))
    print(f"machine: {os.cpu_count()} cores; every engine a fresh process per run, best of {args.runs}")
    lo = None
    if shutil.which("soffice") and not args.only_small:
        from xlrating.engine.libreoffice import make_profile

        profile = make_profile(work / "lo_profile")
        lo = ["soffice", f"-env:UserInstallation={profile.resolve().as_uri()}", "--headless", "--norestore",
              "--convert-to", "xlsx"]
        first = work / "first.xlsx"
        build_workbook(first, 10, native=True)
        measure([*lo, "--outdir", str(work / "first"), str(first)], 1)  # initialises the profile; not counted
    try:
        if not args.only_small:
            bench_variant(work, args, rank=False, lo=lo)
            bench_variant(work, args, rank=True, lo=lo)
        if args.million and not args.only_small:
            bench_million(work)
        if (args.small or args.only_small) and not args.only_small_batch:
            bench_small(work, args.runs, args.baseline)
        if args.small_batch or args.only_small_batch:
            bench_small_batch(work, args.runs)
            if args.instructions:
                bench_small_batch_instructions(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
