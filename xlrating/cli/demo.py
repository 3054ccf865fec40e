"""``xlrating demo``: the results pipeline end to end on the bundled example submissions.

Validates every example (showing the findings of the one with mistakes and writing an annotated
copy of it), ingests the valid ones into the store of the output folder (``xlrating.db``, the store
``make serve`` serves), then writes the MERS ranking of each ruleset (.xlsx with a per-player
breakdown, and .json) and prints its top lines.

The demo never deletes or changes what it did not put in the store: run again, it finds its
examples already stored (nothing changes, the ranking is the same). When the store holds anything
else (a tournament the examples do not hold, a submission to the web intake), the demo stops before
writing anything, says what it found and how to start afresh (exit 2).
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
              help="Folder for the store, the annotated sheet and the rankings (created if needed; "
                   "a store there is never deleted).")
@click.option("--as-of", "as_of", default=DEMO_AS_OF.isoformat(), show_default=True, metavar="YYYY-MM-DD",
              callback=date_option,
              help="Ranking date.")
@click.option("--rules", type=click.Choice(["2005", "2010", "2018"]), default=None,
              help="MERS rule era (default: the era in force on the ranking date).")
@click.option("--top", default=5, show_default=True, type=click.IntRange(1), help="Lines of each ranking shown.")
def demo(out: str, as_of: dt.date, rules: str | None, top: int) -> None:
    """Run validate -> ingest -> rank on the bundled example submissions."""
    from xlrating.cli.ingest import EXIT_STATUS, ingest_one, ingest_summary
    from xlrating.core.mers import rules_in_force
    from xlrating.sheets.validate.annotate import annotate_workbook
    from xlrating.store import StoreError

    day = as_of
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"--out {out}: cannot create the output folder ({exc.strerror or exc})")
    source = bundled_examples()
    files = sorted(source.glob("*.xlsx")) if source else _generated_examples(folder / "submissions")
    db = folder / "xlrating.db"
    _refuse_a_store_with_other_data(db, files)
    click.echo(f"== 1. validate and ingest {len(files)} submissions from {source or folder / 'submissions'}")
    store = None
    outcomes = []
    try:
        for file in files:
            outcome, store, validation = ingest_one(str(file), store, str(db), None, replace=False)
            outcomes.append(outcome)
            if outcome != "rejected" or validation is None:
                continue
            annotated = annotate_workbook(file, validation.findings,
                                          folder / "annotated" / f"{file.stem}.annotated.xlsx")
            click.echo(f"   annotated copy for the submitter: {annotated}")
        if store is None:
            fail("no example submission was valid; nothing to rank", EXIT_INVALID)
        click.echo(f"\n== 2. store {db}: {ingest_summary(outcomes)}")
        era = rules or rules_in_force(day)
        click.echo(f"\n== 3. MERS rankings on {day} (rules {era})")
        written = _rankings(store, folder, day, era, top)
    except StoreError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"{getattr(exc, 'filename', None) or out}: cannot write ({exc.strerror or exc})")
    finally:
        if store is not None:
            store.close()
    click.echo("\nwrote " + ", ".join(str(p) for p in written))
    in_store = any(EXIT_STATUS[outcome] == EXIT_OK for outcome in outcomes)
    raise SystemExit(EXIT_OK if in_store and written else EXIT_INVALID)


def _generated_examples(folder: Path) -> list[Path]:
    """The example submissions in ``folder``: those an earlier demo wrote there when all are
    present (so that a second run finds its own files already stored), else written afresh."""
    from xlrating.sheets.examples.submissions import BAD_FILE, EVENTS, write_examples

    names = [event.file for event in EVENTS] + [BAD_FILE]
    if all((folder / name).is_file() for name in names):
        return [folder / name for name in names]
    return write_examples(folder)


def _refuse_a_store_with_other_data(db: Path, files: list[Path]) -> None:
    """Exit 2 (before anything is written) when the store ``db`` holds data the demo did not put
    there: a tournament version from a file that is not one of ``files``, or any submission made
    through the web intake. A store holding only the examples (an earlier demo's) passes."""
    import hashlib

    from xlrating.store import StoreError, open_store
    from xlrating.systems import all_systems

    if not db.exists():
        return
    ours = {hashlib.sha256(file.read_bytes()).hexdigest() for file in files}
    try:
        with open_store(str(db), read_only=True) as store:
            others = {system: [e for e in store.events(system.key, history=True) if e.sha256 not in ours]
                      for system in all_systems()}
            submissions = store.intake_queue(decided=2**62)
    except StoreError as exc:
        fail(f"{exc}; the demo leaves it as it is: move it away, or give the demo another folder with --out")
    found = []
    for system, events in others.items():
        if events:
            listed = ", ".join(f"{e.name!r} ({system.event_detail(e)})" for e in events[:3])
            more = f" and {len(events) - 3} more" if len(events) > 3 else ""
            found.append(f"{_count(len(events), 'stored ' + system.event_word)} that the bundled examples do not "
                         f"hold ({listed}{more})")
    if submissions:
        found.append(f"{_count(len(submissions), 'submission')} made through the web intake")
    if not found:
        return
    fail(f"{db} holds data the demo did not put there: {' and '.join(found)}. The demo never changes such "
         f"data, so it stopped before writing anything. To run the demo afresh, give it another folder "
         f"(xlrating demo --out OTHER_FOLDER), or move {db} away (it is the store make serve serves).")


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _rankings(store, folder: Path, day: dt.date, rules: str, top: int) -> list[Path]:  # type: ignore[no-untyped-def]
    from xlrating.exports import print_leaderboard, write_leaderboard
    from xlrating.systems import get

    mers = get("mers")  # the demo's examples are EMA results sheets
    written = []
    for ruleset in ("MCR", "Riichi"):
        results = mers.stored_records(store, ruleset=ruleset)
        if not results:
            continue
        board = mers.leaderboard(results, source=str(store.path), stored=store, as_of=day, rules=rules, ruleset=ruleset)
        for suffix in ("xlsx", "json"):
            path = folder / f"ranking-{ruleset.lower()}.{suffix}"
            write_leaderboard(board, path)
            written.append(path)
        click.echo()
        print_leaderboard(board, limit=top)
    return written
