"""``xlrating demo``: the results pipeline end to end on the bundled example submissions.

Validates every example (showing the findings of the one with mistakes and writing an annotated
copy of it), ingests the valid ones into a fresh store in the output folder, then writes the MERS
ranking of each ruleset (.xlsx with a per-player breakdown, and .json) and prints its top lines.
Exit 0 when the pipeline ran as designed: valid sheets stored, invalid ones rejected.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from xlrating.cli.common import EXIT_INVALID, EXIT_OK, date_option, fail

DEMO_AS_OF = dt.date(2025, 12, 31)  # fixed, so the demo prints the same ranking on every run


def bundled_examples() -> Path | None:
    """The repository's examples/ folder when xlrating runs from a checkout, else None."""
    folder = Path(__file__).resolve().parents[2] / "examples"
    return folder if any(folder.glob("*.xlsx")) else None


@click.command("demo")
@click.option("--out", "out", default="demo-out", show_default=True, metavar="FOLDER",
              help="Folder for the store, the annotated sheet and the rankings (created if needed).")
@click.option("--as-of", "as_of", default=DEMO_AS_OF.isoformat(), show_default=True, metavar="YYYY-MM-DD",
              callback=date_option,
              help="Ranking date.")
@click.option("--rules", type=click.Choice(["2005", "2010", "2018"]), default="2005", show_default=True,
              help="MERS rule era.")
@click.option("--top", default=5, show_default=True, type=click.IntRange(1), help="Lines of each ranking shown.")
def demo(out: str, as_of: dt.date, rules: str, top: int) -> None:
    """Run validate -> ingest -> rank on the bundled example submissions."""
    from xlrating.cli.ingest import ingest_one
    from xlrating.sheets.annotate import annotate_workbook
    from xlrating.sheets.example_submissions import write_examples
    from xlrating.store import StoreError

    day = as_of
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"--out {out}: cannot create the output folder ({exc.strerror or exc})")
    source = bundled_examples()
    files = sorted(source.glob("*.xlsx")) if source else write_examples(folder / "submissions")
    click.echo(f"== 1. validate and ingest {len(files)} submissions from {source or folder / 'submissions'}")
    db = folder / "xlrating.db"
    db.unlink(missing_ok=True)  # the demo's own store starts fresh on every run
    store = None
    stored, rejected = 0, 0
    try:
        for file in files:
            status, store, validation = ingest_one(str(file), store, str(db), None, replace=False)
            if status == EXIT_OK:
                stored += 1
                continue
            rejected += 1
            if validation is None:
                continue
            annotated = annotate_workbook(file, validation.findings,
                                          folder / "annotated" / f"{file.stem}.annotated.xlsx")
            click.echo(f"   annotated copy for the submitter: {annotated}")
        if store is None:
            fail("no example submission was valid; nothing to rank", EXIT_INVALID)
        click.echo(f"\n== 2. store {db}: {stored} stored, {rejected} rejected")
        click.echo(f"\n== 3. MERS rankings on {day} (rules {rules})")
        written = _rankings(store, folder, day, rules, top)
    except StoreError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"{getattr(exc, 'filename', None) or out}: cannot write ({exc.strerror or exc})")
    finally:
        if store is not None:
            store.close()
    click.echo("\nwrote " + ", ".join(str(p) for p in written))
    raise SystemExit(EXIT_OK if stored and written else EXIT_INVALID)


def _rankings(store, folder: Path, day: dt.date, rules: str, top: int) -> list[Path]:  # type: ignore[no-untyped-def]
    from xlrating.exports import print_leaderboard, write_leaderboard
    from xlrating.leaderboards import mers_leaderboard

    names = store.player_names()
    written = []
    for ruleset in ("MCR", "Riichi"):
        results = store.mers_results(ruleset)
        if not results:
            continue
        board = mers_leaderboard(results, day, rules=rules, ruleset=ruleset, names=names)
        for suffix in ("xlsx", "json"):
            path = folder / f"ranking-{ruleset.lower()}.{suffix}"
            write_leaderboard(board, path)
            written.append(path)
        print_leaderboard(board, limit=top)
    return written
