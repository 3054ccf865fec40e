"""Running the command line in-process, and what a store holds, for the importers' tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"


class Ran:
    def __init__(self, code: int, stdout: str, stderr: str):
        self.code, self.stdout, self.stderr = code, stdout, stderr

    def __repr__(self) -> str:
        return f"exit {self.code}\nstdout:\n{self.stdout}\nstderr:\n{self.stderr}"


def xlrating(*args: object) -> Ran:
    """``xlrating ARGS`` run in this process, as a user runs it."""
    from xlrating.cli import main

    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return Ran(result.exit_code, result.stdout, result.stderr)


def store_contents(db: Path, system: str) -> list[dict[str, Any]]:
    """Every current event of ``system`` in the store, with its entries in a stable order: what
    the rankings and pages read, without where it came from (file names, times, row numbers)."""
    from xlrating.store import open_store

    with open_store(str(db), read_only=True) as store:
        events = store.events(system)
        entries = store.entries(events)
        return [{"name": e.name, "start": e.start_date.isoformat(), "end": e.end_date.isoformat(),
                 "players": e.players, "facts": e.facts,
                 "entries": sorted((json.dumps([x.player, x.place, x.opponent, x.result, x.round,
                                                x.date.isoformat() if x.date else None, x.facts], sort_keys=True)
                                    for x in entries[e.id]))}
                for e in sorted(events, key=lambda e: (e.start_date, e.name))]


def ranking(db: Path, system: str, tmp: Path, *options: str) -> Any:
    """The leaderboard ``rank SYSTEM`` gives from the store (MERS: on 1 January 2026, ``--ruleset`` in ``options``)."""
    out = tmp / f"{system}-{db.stem}.json"
    ran = xlrating("rank", system, "--db", db, "-o", out, *(("--as-of", "2026-01-01") if system == "mers" else ()),
                   *options)
    assert ran.code == 0, ran
    return json.loads(out.read_text())


def same_store(imported: Path, hand_made: Path, system: str, tmp: Path) -> None:
    """Ingesting the imported table and the hand-made one gives the same store and the same ranking."""
    stores = []
    for table in (imported, hand_made):
        db = tmp / f"{table.stem}.db"
        ran = xlrating("ingest", table, "--db", db, "--no-ask", "--system", system)
        assert ran.code == 0, ran
        stores.append(db)
    assert store_contents(stores[0], system) == store_contents(stores[1], system)
    assert ranking(stores[0], system, tmp) == ranking(stores[1], system, tmp)
