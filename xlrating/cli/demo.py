"""``xlrating demo``: the results pipeline end to end on the bundled examples, for every system.

Dates the examples for the ranking date (default today), validates every one (showing the findings
of the sheet with mistakes and writing an annotated copy of it), ingests the valid ones into the
store of the output folder (``xlrating.db``, the store ``make serve`` serves): the EMA results
sheets (MERS tournaments), the Dip Pouch results and the DCI matches tables, each told apart by the
registry of systems as ``ingest`` tells them; then writes each system's ranking (.xlsx and .json;
MERS one per ruleset) and prints its top lines.

Dating: each system's examples move by whole weeks so that its latest event falls in the week up to
the ranking date, their spacing and days of the week kept (MERS counts the results of the last two
years: at the dates they were written with, the examples would age out of its ranking). The dated
copies go to ``submissions/`` of the output folder with a record of the move (``dated.json``), and
a store made from them keeps them: run again, the demo ingests the same copies and finds them stored.

The demo never deletes or changes what it did not put in the store: run again, it finds its
examples already stored (nothing changes). When the store holds anything else (an event the
examples do not hold, a submission to the web intake), the demo stops before writing anything,
says what it found and how to start afresh (exit 2).
Exit 0 when the pipeline ran as designed: valid files stored, invalid ones rejected.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from xlrating.cli.common import EXIT_INVALID, EXIT_OK, date_option, fail

DATED = "dated.json"  # in submissions/: the day the copies were dated for, each system's move, the files


def bundled_examples() -> Path | None:
    """The repository's examples/ folder when xlrating runs from a checkout, else None."""
    folder = Path(__file__).resolve().parents[2] / "examples"
    return folder if any(folder.glob("*.xlsx")) else None


@dataclass
class Examples:
    """The demo's submissions: the dated copies to ingest and how they were dated."""

    files: list[Path]
    dated_for: dt.date
    moves: dict[str, dict[str, Any]]  # system key -> {"days", "from": [first, last], "to": [first, last], "files"}
    reused: bool = False
    originals: set[str] = field(default_factory=set)  # SHA-256 of the examples as bundled (fresh copies only)


@click.command("demo")
@click.option("--out", "out", default="demo-out", show_default=True, metavar="FOLDER",
              help="Folder for the store, the dated submissions, the annotated sheet and the rankings (created "
                   "if needed; a store there is never deleted).")
@click.option("--as-of", "as_of", default=None, metavar="YYYY-MM-DD", callback=date_option,
              help="Ranking date, and the day a new store's examples are dated for (default: today).")
@click.option("--rules", type=click.Choice(["2005", "2010", "2018"]), default=None,
              help="MERS rule era (default: the era in force on the ranking date).")
@click.option("--top", default=5, show_default=True, type=click.IntRange(1), help="Lines of each ranking shown.")
def demo(out: str, as_of: dt.date | None, rules: str | None, top: int) -> None:
    """Run date -> validate -> ingest -> rank on the bundled examples of every rating system."""
    from xlrating.cli.ingest import EXIT_STATUS, ingest_one, ingest_summary
    from xlrating.core.mers import rules_in_force
    from xlrating.sheets.validate.annotate import annotate_workbook
    from xlrating.store import StoreError

    day = as_of or dt.date.today()
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"--out {out}: cannot create the output folder ({exc.strerror or exc})")
    db = folder / "xlrating.db"
    submissions = folder / "submissions"
    with tempfile.TemporaryDirectory(prefix="xlrating-demo-") as scratch:
        examples = _examples(submissions, Path(scratch), day, reuse=db.exists())
        _refuse_a_store_with_other_data(db, examples)
        if not examples.reused:
            examples.files = _keep(examples, submissions)
    _show_dating(examples, submissions, db)
    click.echo(f"\n== 2. validate and ingest {len(examples.files)} submissions from {submissions}")
    store = None
    outcomes = []
    try:
        for file in examples.files:
            outcome, store, validation = ingest_one(str(file), store, str(db), None, replace=False)
            outcomes.append(outcome)
            if outcome != "rejected" or validation is None:
                continue
            annotated = annotate_workbook(file, validation.findings,
                                          folder / "annotated" / f"{file.stem}.annotated.xlsx")
            click.echo(f"   annotated copy for the submitter: {annotated}")
        if store is None:
            fail("no example submission was valid; nothing to rank", EXIT_INVALID)
        click.echo(f"\n== 3. store {db}: {ingest_summary(outcomes)}")
        era = rules or rules_in_force(day)
        click.echo(f"\n== 4. rankings on {day} (MERS rules {era})")
        written = _rankings(store, folder, day, era, top)
    except StoreError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"{getattr(exc, 'filename', None) or out}: cannot write ({exc.strerror or exc})")
    finally:
        if store is not None:
            store.close()
    click.echo("\nwrote " + ", ".join(str(p) for p in written))
    click.echo(f"the site over this store: make serve (or xlrating serve --db {db})")
    in_store = any(EXIT_STATUS[outcome] == EXIT_OK for outcome in outcomes)
    raise SystemExit(EXIT_OK if in_store and written else EXIT_INVALID)


# --- the examples, dated -------------------------------------------------------------------------

def _examples(submissions: Path, scratch: Path, day: dt.date, *, reuse: bool) -> Examples:
    """The copies an earlier run dated for the store in the output folder (``reuse``: the store
    exists, and its run's record and every copy it names are there); else the bundled examples
    (generated into ``scratch`` without a checkout) dated afresh for ``day`` into ``scratch``."""
    earlier = _earlier_examples(submissions) if reuse else None
    if earlier is not None:
        return earlier
    from xlrating.sheets.examples.dated import dates_in, moved_copy, weeks_back
    from xlrating.systems import keys

    by_system: dict[str, list[Path]] = {key: [] for key in keys()}
    for path, key in _bundled_submissions(scratch / "generated"):
        by_system.setdefault(key, []).append(path)
    files, moves, originals = [], {}, set()
    for key, paths in by_system.items():
        dates = [d for path in paths for d in dates_in(path)]
        if not dates:
            continue
        days = weeks_back(max(dates), day)
        files.extend(moved_copy(path, scratch / "dated", days) for path in paths)
        originals.update(hashlib.sha256(path.read_bytes()).hexdigest() for path in paths)
        shift = dt.timedelta(days=days)
        moves[key] = {"days": days, "from": [min(dates).isoformat(), max(dates).isoformat()],
                      "to": [(min(dates) + shift).isoformat(), (max(dates) + shift).isoformat()],
                      "files": len(paths)}
    return Examples(files, day, moves, originals=originals)


def _bundled_submissions(generated: Path) -> list[tuple[Path, str]]:
    """The bundled example files a system takes as a submission, each with that system's key (as
    ``ingest`` tells them apart): the EMA results sheets of examples/ and the tables of
    examples/tables/ whose columns are a registered system's table (a table only ``rank`` reads is
    left out). Without a checkout: the EMA results sheets, generated into ``generated``."""
    from xlrating.sheets.read.submitted import open_submission, read_grids
    from xlrating.systems import detect

    source = bundled_examples()
    if source is None:
        from xlrating.sheets.examples.submissions import write_examples

        candidates = write_examples(generated)
    else:
        candidates = [*sorted(source.glob("*.xlsx")), *sorted((source / "tables").glob("*.csv"))]
    found = []
    for path in candidates:
        grids = read_grids(open_submission(path))
        system = detect(grids, str(path))
        if system.fit(grids) == "complete" or system.recognises(grids):
            found.append((path, system.key))
    return found


def _earlier_examples(submissions: Path) -> Examples | None:
    try:
        record = json.loads((submissions / DATED).read_text(encoding="utf-8"))
        files = [submissions / name for name in record["files"]]
        dated = Examples(files, dt.date.fromisoformat(record["dated_for"]), dict(record["moves"]), reused=True)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return dated if files and all(file.is_file() for file in files) else None


def _keep(examples: Examples, submissions: Path) -> list[Path]:
    """Copy the freshly dated files into ``submissions`` with the record of how they were dated."""
    submissions.mkdir(parents=True, exist_ok=True)
    kept = [Path(shutil.copyfile(file, submissions / file.name)) for file in examples.files]
    record = {"dated_for": examples.dated_for.isoformat(), "moves": examples.moves, "files": [p.name for p in kept]}
    (submissions / DATED).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return kept


def _show_dating(examples: Examples, submissions: Path, db: Path) -> None:
    from xlrating.systems import get

    if examples.reused:
        click.echo(f"== 1. the examples as dated for {examples.dated_for} when this store was made "
                   f"({submissions}); to date them for another day, run the demo into another folder (--out) "
                   f"or move {db} away")
    else:
        click.echo(f"== 1. the bundled examples, dated for {examples.dated_for}: each system's moved by whole "
                   f"weeks so that its latest event falls in the week up to that day (spacing and weekdays kept)")
    for key, move in examples.moves.items():
        title = get(key).title
        click.echo(f"   {title}: {_count(move['files'], 'file')}, {move['from'][0]} to {move['from'][1]} moved "
                   f"{move['days']} days, to {move['to'][0]} to {move['to'][1]}")
    if bundled_examples() is None:
        click.echo("   (the Dip Pouch results and DCI matches tables come with a checkout of the repository, "
                   "in examples/tables/)")


# --- a store with other data ---------------------------------------------------------------------

def _refuse_a_store_with_other_data(db: Path, examples: Examples) -> None:
    """Exit 2 (before anything is written) when the store ``db`` holds data the demo did not put
    there: an event version from a file that is not one of the examples' dated copies, or any
    submission made through the web intake. A store holding only those copies (an earlier demo's)
    passes."""
    from xlrating.store import StoreError, open_store
    from xlrating.systems import all_systems

    if not db.exists():
        return
    ours = {hashlib.sha256(file.read_bytes()).hexdigest() for file in examples.files}
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
    undated = all(e.sha256 in examples.originals for events in others.values() for e in events)
    if undated and not submissions:
        fail(f"{db} was made by an earlier demo, which stored the examples at the dates they were written with; "
             f"the demo now dates them for the ranking date and never changes a store's data, so it stopped "
             f"before writing anything. To run it afresh, move {db} away or give it another folder "
             f"(xlrating demo --out OTHER_FOLDER).")
    fail(f"{db} holds data the demo did not put there: {' and '.join(found)}. The demo never changes such "
         f"data, so it stopped before writing anything. To run the demo afresh, give it another folder "
         f"(xlrating demo --out OTHER_FOLDER), or move {db} away (it is the store make serve serves).")


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# --- the rankings --------------------------------------------------------------------------------

def _rankings(store: Any, folder: Path, day: dt.date, rules: str, top: int) -> list[Path]:
    """Each registered system's ranking of the store (one per ruleset where a system ranks
    rulesets apart), written as ``ranking-NAME.xlsx`` and ``.json`` and shown to ``top`` lines."""
    from xlrating.exports import print_leaderboard, write_leaderboard
    from xlrating.systems import all_systems

    written = []
    for system in all_systems():
        declared = {option.name for option in system.rank_options}
        options = {name: value for name, value in (("as_of", day), ("rules", rules)) if name in declared}
        for name, chosen in _boards(system):
            records = system.stored_records(store, **chosen)
            if not records:
                continue
            board = system.leaderboard(records, source=str(store.path), stored=store, **options, **chosen)
            for suffix in ("xlsx", "json"):
                path = folder / f"ranking-{name}.{suffix}"
                write_leaderboard(board, path)
                written.append(path)
            click.echo()
            print_leaderboard(board, limit=top)
    return written


def _boards(system: Any) -> list[tuple[str, dict[str, str]]]:
    """The demo's leaderboards of ``system``: one per ruleset where its rankings keep rulesets
    apart (MERS: MCR and Riichi), else one; each as (file name part, options)."""
    split = next((option for option in system.rank_options if option.name == "ruleset"), None)
    if split is None:
        return [(system.key, {})]
    return [(choice.lower(), {"ruleset": choice}) for choice in split.choices]
