"""Headless recalculation: ``xlrating convert`` against plain ``formulas`` and LibreOffice headless.

    python benchmarks/bench_convert.py [--rows 10000] [--million] [--runs 3]

Builds (deterministically) a rating workbook of ``rows`` x 5 formula cells (default 50,000):
DIPPOUCH_PERCENTILE, DIPPOUCH_VALUE, DIPPOUCH_NEW_RATING, a difference and a RANK over the
column, plus SUM/AVERAGE/MAX summary cells; and the same workbook with our functions written out
as native formulas (the Dip Pouch formulas of RATING_RULES.md) for the peers, which cannot run
ours. Each engine runs as a fresh process (what a user runs), measured with ``/usr/bin/time``
(wall and peak RSS), best of ``--runs``:

- ours: ``xlrating convert book.xlsx -o out.xlsx`` (the full command: start-up, the safe_open
  package checks, reading, evaluating and writing the workbook with cached values);
- LibreOffice: ``soffice --convert-to xlsx`` on the native workbook with recalculation on load
  forced (a private profile, see xlrating.engine.libreoffice);
- plain formulas: ``ExcelModel().loads().finish().calculate()`` and ``write()`` on the native
  workbook with ``--formulas-rows`` rows (default 400, i.e. 2,000 formula cells); its time and
  memory are extrapolated linearly to the full size, and the table says so.

Then checks that the values agree: ours against LibreOffice on every formula cell of the full
workbook, ours against plain formulas on the subset. Absolute times are context; the ratios are
the figures to compare across machines. ``--million`` adds a 200,000-row (1,000,000 formula
cell) run of ours alone (target under 15 s).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

HEADER = ["event", "players", "rounds", "place", "rating", "percentile", "value", "new_rating", "change", "rank"]


def _formulas(r: int, last: int, native: bool, rank: bool = True) -> list[str]:
    if native:
        first = [f"(B{r}+0.5-D{r})/B{r}*100", f"MIN(IF(C{r}=1,B{r}/7+2,B{r}/3.5+2),15)", f"E{r}+G{r}/100*(F{r}-E{r})"]
    else:
        first = [f"DIPPOUCH_PERCENTILE(B{r},D{r})", f"DIPPOUCH_VALUE(B{r},C{r})", f"DIPPOUCH_NEW_RATING(E{r},F{r},G{r})"]
    return first + [f"H{r}-E{r}", f"RANK(H{r},H$2:H${last})" if rank else f"I{r}*2"]


def build_workbook(path: Path, rows: int, native: bool, seed: int = 7, rank: bool = True) -> int:
    """Write the rating workbook as Excel lays it out (written directly: openpyxl would take minutes
    for a million cells). Returns the number of formula cells."""
    rng = random.Random(seed)
    last = rows + 1
    letters = "ABCDEFGHIJ"
    parts = ['<row r="1">' + "".join(f'<c r="{letters[j]}1" t="inlineStr"><is><t>{h}</t></is></c>'
                                     for j, h in enumerate(HEADER)) + "</row>"]
    for r in range(2, last + 1):
        players = rng.randint(7, 60)
        values = (players, rng.randint(1, 4), rng.randint(1, players), round(rng.uniform(20, 80), 2))
        cells = [f'<c r="A{r}" t="inlineStr"><is><t>E{r % 97}</t></is></c>']
        cells += [f'<c r="{letters[1 + j]}{r}"><v>{v}</v></c>' for j, v in enumerate(values)]
        cells += [f'<c r="{letters[5 + j]}{r}"><f>{escape(t)}</f></c>' for j, t in enumerate(_formulas(r, last, native, rank))]
        parts.append(f'<row r="{r}">' + "".join(cells) + "</row>")
    s = last + 2
    summary = [f"SUM(H2:H{last})", f"AVERAGE(H2:H{last})", f"MAX(I2:I{last})"]
    parts.append(f'<row r="{s}">' + "".join(f'<c r="{letters[7 + j]}{s}"><f>{t}</f></c>'
                                            for j, t in enumerate(summary)) + "</row>")
    ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    rel_ns = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
    sheet = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet {ns}><dimension ref="A1:J{s}"/>'
             "<sheetData>" + "".join(parts) + "</sheetData></worksheet>")
    pkg = "http://schemas.openxmlformats.org/package/2006"
    office = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    sml = "application/vnd.openxmlformats-officedocument.spreadsheetml"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml",
                   f'<Types xmlns="{pkg}/content-types"><Default Extension="rels" '
                   f'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   f'<Default Extension="xml" ContentType="application/xml"/>'
                   f'<Override PartName="/xl/workbook.xml" ContentType="{sml}.sheet.main+xml"/>'
                   f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{sml}.worksheet+xml"/></Types>')
        z.writestr("_rels/.rels", f'<Relationships xmlns="{pkg}/relationships"><Relationship Id="rId1" '
                                  f'Type="{office}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
        z.writestr("xl/workbook.xml", f'<workbook {ns} {rel_ns}><sheets><sheet name="Ratings" sheetId="1" '
                                      f'r:id="rId1"/></sheets></workbook>')
        z.writestr("xl/_rels/workbook.xml.rels",
                   f'<Relationships xmlns="{pkg}/relationships"><Relationship Id="rId1" '
                   f'Type="{office}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>')
        z.writestr("xl/worksheets/sheet1.xml", sheet)
    return rows * 5 + len(summary)


# --- running one engine as a fresh process ------------------------------------------------------------

def measure(command: list[str], runs: int, env: dict[str, str] | None = None) -> tuple[float, float]:
    """Best wall time (s) and the peak RSS (MB) of that run, from /usr/bin/time -v."""
    best = (math.inf, 0.0)
    for _ in range(runs):
        done = subprocess.run(["/usr/bin/time", "-v", *command], capture_output=True, text=True, env=env, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {done.stderr[-800:]}")
        wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", done.stderr)
        rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
        assert wall and rss, done.stderr[-500:]
        seconds = int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
        if seconds < best[0]:
            best = (seconds, int(rss.group(1)) / 1024)
    return best


FORMULAS_SCRIPT = """
import sys, formulas
model = formulas.ExcelModel().loads(sys.argv[1]).finish()
model.calculate()
model.write(dirpath=sys.argv[2])
"""


def formula_values(path: Path) -> dict[str, float]:
    """The numbers in the formula columns (F:J) as the workbook holds them (cached or plain values)."""
    with zipfile.ZipFile(path) as z:
        name = next(n for n in z.namelist() if re.fullmatch(r"xl/worksheets/sheet1\.xml", n, re.IGNORECASE))
        text = z.read(name).decode()
    values: dict[str, float] = {}
    for m in re.finditer(r'<c r="([F-J]\d+)"[^>]*?(?:/>|>(.*?)</c>)', text, re.DOTALL):
        v = re.search(r"<v>([^<]*)</v>", m.group(2) or "")
        if v is not None:
            try:
                values[m.group(1)] = float(v.group(1))
            except ValueError:  # a text or error value
                pass
    return values


def compare(ours: dict[str, float], theirs: dict[str, float]) -> tuple[int, int]:
    """(cells compared, cells differing beyond 1e-9 relative)."""
    common = [k for k in ours if k in theirs]
    bad = [k for k in common if not math.isclose(ours[k], theirs[k], rel_tol=1e-9, abs_tol=1e-9)]
    return len(common), len(bad)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10_000, help="rows of 5 formula cells (default 10,000 = 50k)")
    parser.add_argument("--formulas-rows", type=int, default=400, help="rows for plain formulas (extrapolated)")
    parser.add_argument("--runs", type=int, default=3, help="best of this many runs for ours and LibreOffice")
    parser.add_argument("--million", action="store_true", help="also convert 1,000,000 formula cells (ours only)")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="bench_convert_"))
    python = sys.executable
    xlrating = [python, "-m", "xlrating"]
    ours_book, native_book = work / "ratings.xlsx", work / "ratings_native.xlsx"
    cells = build_workbook(ours_book, args.rows, native=False)
    build_workbook(native_book, args.rows, native=True)
    print(f"workbook: {cells:,} formula cells ({args.rows:,} rows x 5 + 3 summary cells); machine: "
          f"{os.cpu_count()} cores; best of {args.runs}\n")

    rows = []
    ours = measure([*xlrating, "convert", str(ours_book), "-o", str(work / "ours_out.xlsx")], args.runs)
    rows.append(("xlrating convert (our functions)", cells, *ours, ""))
    ours_native = measure([*xlrating, "convert", str(native_book), "-o", str(work / "ours_native.xlsx")], args.runs)
    rows.append(("xlrating convert (native formulas)", cells, *ours_native, ""))

    lo = None
    if shutil.which("soffice"):
        from xlrating.engine.libreoffice import make_profile

        profile = make_profile(work / "lo_profile")
        command = ["soffice", f"-env:UserInstallation={profile.resolve().as_uri()}", "--headless", "--norestore",
                   "--convert-to", "xlsx", "--outdir", str(work / "lo"), str(native_book)]
        measure(command, 1)  # first start initialises the profile; not counted
        lo = measure(command, args.runs)
        rows.append(("LibreOffice headless (native, recalc on load)", cells, *lo, ""))
        # LibreOffice's RANK costs it most of its time (each of 10,000 cells scans the column);
        # the same workbook without the RANK column, for both, shows the rest of the comparison
        plain = work / "ratings_norank.xlsx"
        build_workbook(plain, args.rows, native=True, rank=False)
        ours_plain = measure([*xlrating, "convert", str(plain), "-o", str(work / "ours_norank.xlsx")], args.runs)
        command[-1] = str(plain)
        lo_plain = measure(command, args.runs)
        rows.append(("xlrating convert (native, no RANK column)", cells, *ours_plain, ""))
        rows.append(("LibreOffice headless (native, no RANK column)", cells, *lo_plain,
                     f"{lo_plain[0] / ours_plain[0]:.1f}x ours on this variant"))

    subset = work / "subset_native.xlsx"
    subset_cells = build_workbook(subset, args.formulas_rows, native=True)
    fx = measure([python, "-c", FORMULAS_SCRIPT, str(subset), str(work / "fx")], 1)
    scale = cells / subset_cells
    rows.append((f"plain formulas (native; measured on {subset_cells:,} cells, x{scale:.0f})", cells,
                 fx[0] * scale, fx[1] * scale, "extrapolated"))

    print(f"{'engine':<58} {'cells':>9} {'wall s':>8} {'peak MB':>8} {'ours is':>10}")
    for name, n, wall, rss, note in rows:
        ratio = wall / ours[0]
        print(f"{name:<58} {n:>9,} {wall:>8.2f} {rss:>8.0f} {ratio:>9.1f}x {note}")

    ours_values = formula_values(work / "ours_out.xlsx")
    if lo is not None:
        n, bad = compare(ours_values, formula_values(work / "lo" / "ratings_native.xlsx"))
        print(f"\nvalues, ours vs LibreOffice: {n:,} formula cells compared, {bad} differ")
    measure([*xlrating, "convert", str(subset), "-o", str(work / "ours_subset.xlsx")], 1)
    fx_out = next(p for p in (work / "fx").iterdir() if p.suffix.lower() == ".xlsx")
    n, bad = compare(formula_values(work / "ours_subset.xlsx"), formula_values(fx_out))
    print(f"values, ours vs plain formulas (subset): {n:,} formula cells compared, {bad} differ")

    if args.million:
        big = work / "million.xlsx"
        big_cells = build_workbook(big, 200_000, native=False)
        wall, rss = measure([*xlrating, "convert", str(big), "-o", str(work / "million_out.xlsx")], 1)
        print(f"\n1M: xlrating convert, {big_cells:,} formula cells: {wall:.2f} s wall, {rss:.0f} MB peak")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
