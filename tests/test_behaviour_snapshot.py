"""What a user sees of the bundled examples, held still while the code beneath is reshaped.

Every command a user runs on the examples (``functions``, ``validate``, ``ingest``, ``rank``, from
files and from the store) and every public page's JSON (and a CSV of each kind of page) for a store
holding all three systems are recorded in ``tests/data/behaviour``. A change that alters any of
them fails here with the first difference; a change meant to alter them regenerates the record
(``python tests/test_behaviour_snapshot.py --regenerate``) and the diff of the record shows, line
by line, what a user will see differently.

Only what cannot be the same from one run to the next is masked: the store's timestamps and the
temporary folder's path.
"""

from __future__ import annotations

import json
import re
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from xlrating.cli import main
from xlrating.web.app import Settings, create_app

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
TABLES = EXAMPLES / "tables"
RECORD = ROOT / "tests" / "data" / "behaviour"
AS_OF = "2025-12-31"
STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:\+00:00|Z)?")
HUMAN_STAMP = re.compile(r"\d{1,2} [A-Z][a-z]+ \d{4}, \d\d:\d\d UTC")
PLAYER_PAGES = 6  # players' pages recorded per system (the first of each listing)


def _masked(text: str, folder: Path) -> str:
    text = text.replace(str(folder), "<tmp>").replace(str(ROOT), "<repo>")
    return HUMAN_STAMP.sub("<when>", STAMP.sub("<stamp>", text))


def _masked_data(value: Any, folder: Path) -> Any:
    return json.loads(_masked(json.dumps(value, ensure_ascii=False, sort_keys=True), folder))


def _run(folder: Path, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return {"exit": result.exit_code, "stdout": _masked(result.stdout, folder).splitlines(),
            "stderr": _masked(result.stderr, folder).splitlines()}


def _corrected_lyon(folder: Path) -> Path:
    """Example 01 with a title in its properties: the same tournament from a different file, the
    same bytes on every run (no save time in it)."""
    corrected = folder / "lyon_corrected.xlsx"
    with zipfile.ZipFile(EXAMPLES / "01_lyon_mcr_open_2024.xlsx") as source, \
            zipfile.ZipFile(corrected, "w", zipfile.ZIP_DEFLATED) as copy:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "docProps/core.xml":
                data = data.replace(b"</cp:coreProperties>", b'<dc:title xmlns:dc="http://purl.org/dc/elements/1.1/">'
                                    b"corrected</dc:title></cp:coreProperties>")
            copy.writestr(zipfile.ZipInfo(info.filename, (2025, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return corrected


def command_outputs(folder: Path) -> dict[str, Any]:
    """Every command on the examples, keyed by what was typed; the store is built along the way."""
    db = str(folder / "store.db")
    sheets = sorted(str(p) for p in EXAMPLES.glob("*.xlsx"))
    tables = [str(TABLES / name) for name in ("dippouch_results.csv", "dci_matches.csv", "mers_results.csv")]
    out: dict[str, Any] = {}

    def run(*args: str, files: tuple[str, ...] = ()) -> None:
        key = " ".join(_masked(a, folder).replace(str(ROOT), "<repo>") for a in args)
        key = key.replace(str(ROOT), "<repo>")
        record = _run(folder, *args)
        for name in files:
            path = folder / name
            record[name] = (json.loads(path.read_text(encoding="utf-8")) if name.endswith(".json")
                            else path.read_text(encoding="utf-8-sig").splitlines())
        out[key.replace(str(folder), "<tmp>")] = record

    run("functions")
    for sheet in [*sheets, *tables]:
        run("validate", sheet)
        run("validate", "--format", "json", sheet)
    run("ingest", "--db", db, *sheets[:5])
    run("ingest", "--db", db, sheets[0])
    run("ingest", "--db", db, str(_corrected_lyon(folder)))
    run("ingest", "--db", db, "--replace", str(folder / "lyon_corrected.xlsx"))
    run("ingest", "--db", db, sheets[5])
    run("ingest", "--db", db, *tables[:2])
    run("ingest", "--db", db, *tables[:2])
    for system, table, options in (("dippouch", tables[0], ()), ("dippouch", tables[0], ("--ties", "average")),
                                   ("dci", tables[1], ()), ("dci", tables[1], ("--method", "table")),
                                   ("dci", tables[1], ("--category", "Constructed")),
                                   ("mers", tables[2], ("--ruleset", "MCR", "--as-of", AS_OF)),
                                   ("mers", tables[2], ("--ruleset", "Riichi", "--as-of", AS_OF, "--rules", "2018"))):
        run("rank", system, table, *options)
        run("rank", system, table, *options, "-o", str(folder / "board.json"), files=("board.json",))
        run("rank", system, table, *options, "-o", str(folder / "board.csv"), files=("board.csv",))
    for system, options in (("dippouch", ()), ("dci", ()),
                            ("mers", ("--ruleset", "MCR", "--as-of", AS_OF)),
                            ("mers", ("--ruleset", "Riichi", "--as-of", AS_OF, "--rules", "2010"))):
        run("rank", system, "--db", db, *options)
        run("rank", system, "--db", db, *options, "-o", str(folder / "board.json"), files=("board.json",))
    return out


def _addresses(listing: list[dict[str, Any]], key: str = "address") -> list[str]:
    return [row[key] for row in listing if row.get(key)]


def page_data(client: TestClient, folder: Path) -> dict[str, Any]:
    """Every public page's JSON (and the CSV of one page of each kind) for the store."""
    out: dict[str, Any] = {}

    def get(address: str) -> Any:
        separator = "&" if "?" in address else "?"
        with_date = address if "as_of=" in address or "/dippouch" in address or "/dci" in address \
            or address.startswith("/search") else f"{address}{separator}as_of={AS_OF}"
        path, _, query = with_date.partition("?")
        response = client.get(f"{path}.json" + (f"?{query}" if query else ""))
        data = response.json()
        out[with_date] = {"status": response.status_code, "json": _masked_data(data, folder)}
        return data

    def csv(address: str) -> None:
        path, _, query = address.partition("?")
        response = client.get(f"{path}.csv" + (f"?{query}" if query else ""))
        out[f"{address} (csv)"] = {"status": response.status_code,
                                   "csv": _masked(response.content.decode("utf-8-sig"), folder).splitlines()}

    get("/rankings")
    for ruleset in ("MCR", "Riichi"):
        for rules in ("2005", "2010", "2018"):
            get(f"/rankings/{ruleset}/{rules}")
            get(f"/rankings/{ruleset}/{rules}/countries")
    get("/rankings/MCR/2005?country=FRA")
    get("/rankings/MCR/2005?as_of=2024-12-31")
    csv(f"/rankings/MCR/2005?as_of={AS_OF}")
    csv(f"/rankings/MCR/2005/countries?as_of={AS_OF}")
    tournaments = get("/tournaments")["tournaments"]
    for address in _addresses(tournaments):
        get(address)
    get("/tournaments/1")  # the replaced version of Lyon
    csv(f"/tournaments/2?as_of={AS_OF}")
    ranked = [line["player"] for line in get("/rankings/MCR/2005")["ranking"]]
    ranked += [line["player"] for line in get("/rankings/Riichi/2005")["ranking"]]
    for player in ranked[:PLAYER_PAGES]:
        get(f"/players/{player}")
    csv(f"/players/{ranked[0]}?as_of={AS_OF}")

    board = get("/rankings/dippouch")["ranking"]
    get("/rankings/dippouch?year=2023")
    get("/rankings/dippouch?country=FRA")
    csv("/rankings/dippouch")
    events = get("/dippouch/events")["events"]
    for address in _addresses(events):
        get(address)
    csv(events[0]["address"])
    for address in _addresses(board)[:PLAYER_PAGES]:
        get(address)

    lists = get("/rankings/dci")
    for category in lists["categories"]:
        ranking = get(category["address"])
        for line in ranking["ranking"][:2]:
            get(f"/dci/players/{line['player']}")
    get("/rankings/dci/Constructed?method=table")
    get("/rankings/dci/Constructed?country=USA")
    csv("/rankings/dci/Constructed")
    dci_events = get("/dci/events")["events"]
    for address in _addresses(dci_events):
        get(address)
    csv(dci_events[0]["address"])

    for text in ("a", "lyon", "Dora", "friday", "0400", "zzz"):
        get(f"/search?q={text}")
    csv("/search?q=a")
    return out


def record(folder: Path) -> dict[str, Any]:
    commands = command_outputs(folder)
    with TestClient(create_app(Settings(str(folder / "store.db"), check_processes=1))) as client:
        pages = page_data(client, folder)
    return {"commands": commands, "pages": pages}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    yield record(tmp_path_factory.mktemp("behaviour"))


def _first_difference(expected: Any, actual: Any, where: str = "", *, new_keys: bool = False) -> str | None:
    """The first place where ``actual`` differs from ``expected``, or None; with ``new_keys`` an
    object may hold keys the record does not (what a later release adds, where nothing is lost)."""
    if type(expected) is not type(actual):
        return f"{where}: expected {expected!r}, got {actual!r}"
    if isinstance(expected, dict):
        for key in sorted(expected.keys() | actual.keys()):
            if key not in actual:
                return f"{where}/{key}: missing"
            if key not in expected:
                if new_keys:
                    continue
                return f"{where}/{key}: not in the record ({str(actual[key])[:200]})"
            found = _first_difference(expected[key], actual[key], f"{where}/{key}", new_keys=new_keys)
            if found:
                return found
        return None
    if isinstance(expected, list):
        for i, (e, a) in enumerate(zip(expected, actual)):
            found = _first_difference(e, a, f"{where}[{i}]", new_keys=new_keys)
            if found:
                return found
        if len(expected) != len(actual):
            return f"{where}: {len(expected)} items recorded, {len(actual)} now"
        return None
    return None if expected == actual else f"{where}: expected {expected!r}, got {actual!r}"


@pytest.mark.parametrize("part", ["commands", "pages"])
def test_what_users_see_of_the_examples_is_unchanged(recorded: dict[str, Any], part: str) -> None:
    expected = json.loads((RECORD / f"{part}.json").read_text(encoding="utf-8"))
    assert _first_difference(expected, recorded[part]) is None


if __name__ == "__main__" and "--regenerate" in sys.argv:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        made = record(Path(tmp))
    RECORD.mkdir(parents=True, exist_ok=True)
    for part, data in made.items():
        (RECORD / f"{part}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
                                             encoding="utf-8")
        print("wrote", RECORD / f"{part}.json")
