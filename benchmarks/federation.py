"""A results store the size of a federation's, built deterministically for the site's benchmarks.

    python benchmarks/federation.py STORE.db [--scale 1.0] [--seed 7]

At scale 1: 1,200 EMA tournaments in two rulesets over 16 years (10,000 players with EMA IDs,
about 72,000 results, a few players without an ID in each), 1,500 Dip Pouch events (about 5,000
players, 60,000 standings) and a DCI history of about 150,000 matches over 1,400 events. Every event is
stored through the store's own ingest, as a validated file's records, with a file of its own (the
bytes of its records), so the store is what months of ``ingest`` would have left.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from xlrating.store import EntryRecord, EventRecord, PlayerRecord, open_store
from xlrating.systems import get

COUNTRIES = ["AUT", "BEL", "DEN", "FRA", "GER", "HUN", "ITA", "NED", "SWE", "ESP", "GBR", "POR", "FIN", "RUS",
             "SUI", "SVK", "POL"]
PREFIXES = {"AUT": "01", "BEL": "02", "DEN": "03", "FRA": "04", "GER": "05", "HUN": "06", "ITA": "07",
            "NED": "08", "SWE": "09", "ESP": "10", "GBR": "11", "POR": "12", "FIN": "14", "RUS": "15",
            "SUI": "16", "SVK": "17", "POL": "19"}
FIRST = ["Anna", "Bastien", "Chiara", "Daan", "Elise", "Florian", "Greta", "Hugo", "Inès", "Jonas", "Katharina",
         "Lukas", "Mia", "Noah", "Olga", "Pablo", "Quentin", "Rosa", "Stefan", "Tobias", "Ute", "Vera", "Wout",
         "Xavier", "Yara", "Zoé", "Dóra", "Émile", "Søren", "Łucja"]
LAST = ["Aubert", "Bakker", "Conti", "Dupont", "Eriksson", "Fabre", "Garnier", "Huber", "Ivanov", "Jansen",
        "Kowalski", "Lefèvre", "Moser", "Nagy", "Olsen", "Peeters", "Quist", "Rossi", "Schäfer", "Toivonen",
        "Urban", "Visser", "Wolf", "Xu", "Young", "Zimmermann", "Müller", "García", "Novák", "Horváth"]
START = dt.date(2010, 1, 9)
DAYS = 16 * 365


def _file(name: str, records: Any) -> bytes:
    return json.dumps([name, records], sort_keys=True, default=str).encode()


def _mers(store: Any, rng: random.Random, scale: float) -> int:
    system = get("mers")
    players = []
    for i in range(int(10_000 * scale)):
        country = COUNTRIES[i % len(COUNTRIES)]
        players.append((f"{PREFIXES[country]}{i:06d}", rng.choice(FIRST), rng.choice(LAST), country))
    results = 0
    for t in range(int(1_200 * scale)):
        ruleset = "MCR" if t % 2 else "Riichi"
        start = START + dt.timedelta(days=int(t * DAYS / (1_200 * scale)))
        home = COUNTRIES[rng.randrange(len(COUNTRIES))]
        n = rng.randint(24, 96)
        local = [p for p in rng.sample(players, min(n * 3, len(players))) if p[3] == home or rng.random() < 0.3][:n]
        while len(local) < n:
            local.append(rng.choice(players))
        seated = list(dict.fromkeys(local))
        entries = []
        for place, (ema_id, first, last, country) in enumerate(seated, start=1):
            entries.append(EntryRecord(place + 1, ema_id if rng.random() > 0.02 else None, place,
                                       facts={"first_name": first, "last_name": last, "country": country}))
        name = f"{home} {ruleset} Open {t}"
        weight = float(rng.choice((1, 1, 2, 5))) if start.year < 2018 else 1.0 + rng.choice((0, 0.5, 1, 1.5, 2))
        facts = {"ruleset": ruleset, "city": f"City {t % 97}", "country": home, "days": rng.choice((1, 2, 3)),
                 "countries": rng.randint(1, 12), "weight": weight}
        content = _file(name, [e.player for e in entries])
        event = EventRecord(f"{ruleset}|{name.lower()}|{start}", name, start, start + dt.timedelta(days=1),
                            len(entries), hashlib.sha256(content).hexdigest(), f"{name} ({ruleset}, {start})",
                            tuple(entries), facts, "Results")
        people = tuple(PlayerRecord(e.player, {"first_name": e.facts["first_name"], "last_name": e.facts["last_name"],
                                               "country": e.facts["country"]}) for e in entries if e.player)
        store.ingest(f"{name}.xlsx", content, system.submission_of((event,), people))
        results += len(entries)
    return results


def _dippouch(store: Any, rng: random.Random, scale: float) -> int:
    system = get("dippouch")
    names = [f"{rng.choice(FIRST)} {rng.choice(LAST)} {i}" for i in range(int(5_000 * scale))]
    nationality = {name: rng.choice(COUNTRIES) for name in names}
    standings = 0
    for e in range(int(1_500 * scale)):
        day = START + dt.timedelta(days=int(e * DAYS / (1_500 * scale)))
        n = rng.randint(14, 70)
        field = rng.sample(names, n)
        rounds = rng.choice((1, 3, 3, 4))
        championship = e % 250 == 0
        name = f"Diplomacy Cup {e}"
        entries = tuple(EntryRecord(i + 2, player, place=i + 1, facts={"country": nationality[player]})
                        for i, player in enumerate(field))
        content = _file(name, field)
        fingerprint = hashlib.sha256(content).hexdigest()
        event = EventRecord(f"{name.lower()}|{day}", name, day, day, n, fingerprint, f"{name} ({day})", entries,
                            {"rounds": rounds, "world_championship": championship, "location": f"Town {e % 53}"},
                            "Results")
        store.ingest(f"{name}.csv", content, system.submission_of((event,)))
        standings += n
    return standings


def dci_history(rng: random.Random, scale: float = 1.0) -> Iterator[tuple[str, dt.date, list[EntryRecord]]]:
    """The DCI history, event by event: its name, its day and its matches (one row per match, from
    the player's side); at scale 1 about 150,000 matches over 1,400 events among 8,000 players.
    ``benchmarks/bench_ingest.py`` writes it as a matches CSV."""
    names = [f"{rng.choice(FIRST)} {rng.choice(LAST)} #{i}" for i in range(int(8_000 * scale))]
    events = int(1_400 * scale)
    for e in range(events):
        day = START + dt.timedelta(days=int(e * DAYS / events))
        field = rng.sample(names, 2 * rng.randint(12, 24))
        rounds = 6
        entries = []
        for r in range(1, rounds + 1):
            rng.shuffle(field)
            for a, b in zip(field[::2], field[1::2]):
                entries.append(EntryRecord(len(entries) + 2, a, opponent=b, result=rng.choice((1.0, 0.0, 0.5, 1.0)),
                                           round=r, date=day, facts={"k": 16.0, "category": rng.choice(
                                               ("Constructed", "Limited")) if r == 1 else "Constructed"}))
        yield f"FNM {e}", day, entries


def _dci(store: Any, rng: random.Random, scale: float) -> int:
    system = get("dci")
    matches = 0
    for name, day, entries in dci_history(rng, scale):
        players = len({x.player for x in entries} | {x.opponent for x in entries})
        content = _file(name, [(x.player, x.opponent, x.result) for x in entries])
        event = EventRecord(f"{name.lower()}|{day}", name, day, day, players,
                            hashlib.sha256(content).hexdigest(), f"{name} ({day})", tuple(entries), {"rounds": 6},
                            "Matches")
        store.ingest(f"{name}.csv", content, system.submission_of((event,)))
        matches += len(entries)
    return matches


def make_store(path: Path, *, scale: float = 1.0, seed: int = 7) -> dict[str, int]:
    """Build the store at ``path`` (which must not exist); what it holds, counted."""
    if path.exists():
        raise SystemExit(f"{path} exists; give a new file")
    rng = random.Random(seed)
    with open_store(str(path)) as store:
        store._db.execute("PRAGMA synchronous = OFF")  # a benchmark's store: built fast, thrown away
        counts = {"mers_results": _mers(store, rng, scale), "dippouch_standings": _dippouch(store, rng, scale),
                  "dci_matches": _dci(store, rng, scale)}
    return counts


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("store", type=Path)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args()
    began = time.perf_counter()
    made = make_store(options.store, scale=options.scale, seed=options.seed)
    print(json.dumps(made), f"in {time.perf_counter() - began:.0f} s", file=sys.stderr)
