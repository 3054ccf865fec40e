"""The officer's ``xlrating ingest`` of a federation's whole DCI history: time and peak memory.

    python benchmarks/bench_ingest.py [--scale 1.0] [--seed 7] [--keep DIR]

Writes the DCI history of benchmarks/federation.py (about 150,000 matches over 1,400 events at
scale 1, each player's country given) as one matches CSV, then runs ``xlrating ingest`` of it into
a new store in a process of its own, and prints its wall time and peak resident memory, against a
peer measured in the same run: the least any ingest of that file does, Python's ``csv`` reading it
and ``sqlite3`` inserting its rows as they are, in one transaction, in a process of its own too.
Then ``xlrating rank dci`` of the store, to show the history stored ranks.

Target (issue 38): the 150,000-match history ingests in about a minute or less, in well under 1 GB.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from federation import COUNTRIES, dci_history

HEADER = ["event", "date", "round", "player", "opponent", "result", "k", "category", "player_country",
          "opponent_country"]
RESULTS = {1.0: "W", 0.5: "D", 0.0: "L"}

# The peer: read the CSV and insert its rows unchanged, in one transaction (no checks, no events).
PEER = """
import csv, sqlite3, sys
db = sqlite3.connect(sys.argv[2])
db.execute("CREATE TABLE rows (" + ", ".join(f"c{i}" for i in range(10)) + ")")
with open(sys.argv[1], newline="", encoding="utf-8") as f, db:
    rows = csv.reader(f)
    next(rows)
    db.executemany("INSERT INTO rows VALUES (" + ",".join("?" * 10) + ")", rows)
print(db.execute("SELECT count(*) FROM rows").fetchone()[0])
"""


def write_history(path: Path, *, scale: float = 1.0, seed: int = 7) -> int:
    """The DCI history of the federation's store as a matches CSV at ``path``; how many matches."""
    rng = random.Random(seed)
    matches = 0
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(HEADER)
        for name, day, entries in dci_history(rng, scale):
            for x in entries:
                out.writerow([name, day.isoformat(), x.round, x.player, x.opponent, RESULTS[float(x.result or 0)],
                              f"{x.facts['k']:g}", x.facts["category"], _country(x.player), _country(x.opponent)])
            matches += len(entries)
    return matches


def _country(name: str | None) -> str:
    """A player's country, from the number their generated name ends with (no draw from the random
    generator, so the history is the federation store's)."""
    return COUNTRIES[int((name or "#0").rsplit("#", 1)[1]) % len(COUNTRIES)]


Measured = tuple[float, float, float, subprocess.CompletedProcess[str]]


def measure(command: list[str], env: dict[str, str] | None = None) -> Measured:
    """Run ``command`` in a child of its own: wall seconds, CPU seconds (a machine shared with other
    work shows in the first only), its peak resident memory in MB, and what it printed.

    ``ru_maxrss`` of the children is the largest of any child waited for so far, so each
    measurement runs in a fresh intermediate process that reports its one child's peak."""
    runner = ("import json, resource, subprocess, sys, time\n"
              "t = time.perf_counter()\n"
              "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
              "t = time.perf_counter() - t\n"
              "used = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
              "peak = used.ru_maxrss / (1024 * 1024 if sys.platform == 'darwin' else 1024)  # bytes or KB\n"
              "print(json.dumps([t, used.ru_utime + used.ru_stime, peak, p.returncode, p.stdout, p.stderr]))\n")
    done = subprocess.run([sys.executable, "-c", runner, *command], capture_output=True, text=True, check=True,
                          env=env)
    seconds, cpu, peak, code, stdout, stderr = json.loads(done.stdout)
    return seconds, cpu, peak, subprocess.CompletedProcess(command, code, stdout, stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", type=Path, default=None, help="Folder to keep the CSV and the store in.")
    options = parser.parse_args()
    folder = options.keep or Path(tempfile.mkdtemp(prefix="bench_ingest_"))
    folder.mkdir(parents=True, exist_ok=True)
    table, store, peer_store = folder / "dci_history.csv", folder / "ingest.db", folder / "peer.db"
    for stale in (store, peer_store):
        stale.unlink(missing_ok=True)
    began = time.perf_counter()
    matches = write_history(table, scale=options.scale, seed=options.seed)
    print(f"wrote {matches:,} matches ({table.stat().st_size / 1e6:.1f} MB) to {table} in "
          f"{time.perf_counter() - began:.1f} s", file=sys.stderr)

    env = {k: v for k, v in os.environ.items() if not k.startswith("XLRATING_MAX_")}  # the limits as shipped
    peer = measure([sys.executable, "-c", PEER, str(table), str(peer_store)], env)
    if peer[3].returncode:
        raise SystemExit(f"the peer failed:\n{peer[3].stderr}")
    ingest = measure([sys.executable, "-m", "xlrating", "ingest", "--quiet", "--db", str(store), str(table)], env)
    if ingest[3].returncode:
        raise SystemExit(f"xlrating ingest failed ({ingest[3].returncode}):\n{ingest[3].stdout}{ingest[3].stderr}")
    rank = measure([sys.executable, "-m", "xlrating", "rank", "dci", "--db", str(store), "--limit", "3"], env)
    if rank[3].returncode:
        raise SystemExit(f"xlrating rank dci failed:\n{rank[3].stdout}{rank[3].stderr}")

    print(ingest[3].stdout.strip())
    print(f"{'':30}{'wall s':>8}{'CPU s':>8}{'peak MB':>9}")
    for what, (wall, cpu, peak, _) in (("csv + sqlite3 (the peer)", peer), ("xlrating ingest", ingest),
                                       ("xlrating rank dci (stored)", rank)):
        print(f"{what:30}{wall:8.1f}{cpu:8.1f}{peak:9.0f}")
    print(f"ingest / peer: {ingest[0] / peer[0]:.1f}x the wall time, {ingest[1] / peer[1]:.1f}x the CPU time, "
          f"{ingest[2] / peer[2]:.1f}x the memory")
    print(f"{matches:,} matches: {matches / ingest[0]:,.0f} a second, "
          f"{ingest[2] * 1024 / matches:.1f} KB of peak memory a match")
    if options.keep is None:
        for made in (table, store, peer_store):
            made.unlink(missing_ok=True)
        folder.rmdir()


if __name__ == "__main__":
    main()
