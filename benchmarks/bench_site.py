"""The public site at a federation's size: each page's time, and a crowd of visitors at once.

    python benchmarks/bench_site.py [--store STORE.db] [--scale 1.0] [--visitors 100] [--seconds 60]

Builds the store of benchmarks/federation.py (unless ``--store`` names one already built), starts
``xlrating serve`` on the loopback, and reads through it as visitors do:

1. every kind of public page once after the start (what it costs to compute after a change: the
   rankings are computed once per change of the store and kept), then 20 times each: median and
   95th percentile, against ``/healthz`` (the server answering without any work) in the same run;
2. ``--visitors`` visitors at once, each reading a page a second for ``--seconds`` (pages of every
   kind, players chosen at random): pages served, failures, median and 95th percentile wait.

Targets (issue 38): every page's median under 50 ms and 95th percentile under 150 ms; the crowd gets
every page, its 95th percentile under 0.5 s. The machine's speed shows in ``/healthz``'s times.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import httpx2

sys.path.insert(0, str(Path(__file__).parent))
from federation import make_store

PAGES = ["/", "/rankings/MCR/2018", "/rankings/Riichi/2018?page=3", "/rankings/MCR/2018/countries",
         "/rankings/MCR/2018.json", "/rankings/Riichi/2018?country=FRA", "/players/{mers}", "/tournaments",
         "/tournaments/600", "/rankings/dippouch", "/rankings/dippouch?year=2020", "/dippouch/events/700",
         "/dippouch/players/{dippouch}", "/rankings/dci", "/rankings/dci/Constructed", "/dci/events/400",
         "/dci/players/{dci}", "/search?q=Dupont", "/search?q=fnm+12"]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _players(client: httpx2.Client) -> dict[str, list[str]]:
    """Players of each system, from the rankings themselves (as a visitor would follow links)."""
    def names(path: str, key: str) -> list[str]:
        return [line[key] for line in client.get(path).json()["ranking"]][:500]

    return {"mers": names("/rankings/MCR/2018.json", "player"), "dippouch": names("/rankings/dippouch.json", "player"),
            "dci": names("/rankings/dci/Constructed.json", "player")}


def _address(page: str, players: dict[str, list[str]], rng: random.Random) -> str:
    for system, names in players.items():
        page = page.replace("{" + system + "}", quote(rng.choice(names), safe=""))
    return page


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def pages_one_by_one(url: str, players: dict[str, list[str]], repeats: int) -> list[tuple[str, float, float, float]]:
    rng = random.Random(1)
    rows = []
    with httpx2.Client(base_url=url, timeout=60) as client:
        for page in ["/healthz", *PAGES]:
            times = []
            first = 0.0
            for i in range(repeats + 1):
                address = _address(page, players, rng)
                began = time.perf_counter()
                response = client.get(address)
                took = time.perf_counter() - began
                if response.status_code != 200:
                    raise SystemExit(f"{address}: {response.status_code}")
                if i == 0:
                    first = took
                else:
                    times.append(took)
            rows.append((page, first, statistics.median(times), _percentile(times, 0.95)))
    return rows


async def crowd(url: str, players: dict[str, list[str]], visitors: int, seconds: float) -> dict[str, float]:
    waits: list[float] = []
    failures = 0
    deadline = time.monotonic() + seconds
    limits = httpx2.Limits(max_connections=visitors, max_keepalive_connections=visitors)

    async with httpx2.AsyncClient(base_url=url, timeout=30, limits=limits) as client:
        async def visitor(n: int) -> None:
            nonlocal failures
            rng = random.Random(n)
            await asyncio.sleep(rng.random())  # visitors do not arrive in step
            while time.monotonic() < deadline:
                began = time.monotonic()
                try:
                    response = await client.get(_address(rng.choice(PAGES), players, rng))
                    if response.status_code != 200:
                        failures += 1
                except httpx2.HTTPError:
                    failures += 1
                waits.append(time.monotonic() - began)
                await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - began)))

        await asyncio.gather(*(visitor(n) for n in range(visitors)))
    return {"pages": len(waits), "failures": failures, "median": statistics.median(waits),
            "p95": _percentile(waits, 0.95), "max": max(waits)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--visitors", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--repeats", type=int, default=20)
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="xlrating-site-"))
    store = options.store or folder / "federation.db"
    if not store.exists():
        print(f"building a federation's store in {store} ...", file=sys.stderr)
        print(make_store(store, scale=options.scale), file=sys.stderr)
    port = _port()
    env = os.environ | {"XLRATING_SECRET_KEY": "benchmark"}
    server = subprocess.Popen([sys.executable, "-m", "xlrating", "serve", "--db", str(store), "--port", str(port)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx2.get(f"{url}/healthz", timeout=1)
                break
            except httpx2.HTTPError:
                time.sleep(0.2)
        with httpx2.Client(base_url=url, timeout=120) as client:
            players = _players(client)
        rows = pages_one_by_one(url, players, options.repeats)
        print(f"\n{'page':42s} {'first':>9s} {'median':>9s} {'p95':>9s}   (ms)")
        for page, first, median, p95 in rows:
            print(f"{page:42s} {first * 1000:9.1f} {median * 1000:9.1f} {p95 * 1000:9.1f}")
        healthz = rows[0][2]
        worst = max(rows[1:], key=lambda row: row[2])
        print(f"\nslowest page median {worst[2] * 1000:.1f} ms ({worst[0]}), {worst[2] / healthz:.0f}x /healthz; "
              f"target: every median under 50 ms, every p95 under 150 ms")
        result = asyncio.run(crowd(url, players, options.visitors, options.seconds))
        print(f"\n{options.visitors} visitors, a page a second each, for {options.seconds:g} s: {result['pages']:,} pages, "
              f"{result['failures']} failed; wait median {result['median'] * 1000:.0f} ms, "
              f"p95 {result['p95'] * 1000:.0f} ms, max {result['max'] * 1000:.0f} ms (target: none failed, p95 under "
              f"500 ms)")
    finally:
        server.terminate()
        server.wait(20)


if __name__ == "__main__":
    main()
