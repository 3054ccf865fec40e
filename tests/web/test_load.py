"""A bounded load test of ``xlrating serve`` on loopback: 50 concurrent uploads of valid sheets (the
examples, also as saved by LibreOffice in .ods and .csv) and hostile files (from the safety tests'
corpus), each answered correctly, nothing lost or half-stored, the server still serving; and the
upload rate and size limits answering 429 and 413.

Run with ``-rP`` (or ``-s``) to see the timings.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import html
import io
import json
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from libreoffice_copies import libreoffice_copies
from live_server import running_server

SAFETY = Path(__file__).resolve().parents[1] / "safety"
if str(SAFETY) not in sys.path:
    sys.path.insert(0, str(SAFETY))

from make_hostile_corpus import build
from package_bytes import RawMember, billion_laughs, ole2, raw_zip, results_workbook, zeros_member

httpx2 = pytest.importorskip("httpx2")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CONCURRENT = 50
READABLE = 20  # uploads the validator reads (valid sheets, and the faulty example); the rest are hostile
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
UPLOAD_ERROR = re.compile(r'<p class="error" role="alert" id="upload-error">(.*?)</p>', re.DOTALL)
HOSTILE_CASES = [  # from the corpus: all under the 10 MB upload limit, refused with the default limits
    "bomb-1gb.xlsx", "bomb-ratio.xlsx", "bomb-lying-header.xlsx", "too-many-parts.xlsx",  # zip bombs
    "laughs-sheet.xlsx", "laughs-utf16.xlsx", "xxe-passwd.xlsx", "xxe-remote-dtd.xlsx",  # XML entities
    "dimension-lies.xlsx", "cell-at-xfd1048576.xlsx", "rows-200k.xlsx", "merge-bomb.xlsx",  # huge sheets
    "hyperlink-bomb.xlsx", "styles-bomb.xlsx",
    "random.xlsx", "page.xlsx", "results-csv.xlsx", "calc.xlsx", "encrypted.xlsx",  # disguised, garbage
    "truncated.xlsx", "zip-encrypted-part.xlsx",  # damaged
]
ODS_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"


def other_formats_hostile(folder: Path) -> list[str]:
    """Hostile files named .xls, .ods and .csv, made with the corpus's byte writers."""
    laughs = io.BytesIO()
    with zipfile.ZipFile(laughs, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", ODS_MIMETYPE, compress_type=zipfile.ZIP_STORED)
        archive.writestr("content.xml", billion_laughs("office:document-content"))
    mimetype = RawMember("mimetype", ODS_MIMETYPE, zlib.crc32(ODS_MIMETYPE), len(ODS_MIMETYPE), 0)
    files = {
        "garbage.xls": bytes(range(7, 256)) * 40,
        "damaged.xls": ole2({"Workbook": b"\x09\x08" + bytes(200)}),
        "encrypted.xls": ole2({"EncryptionInfo": b"\x04\x00\x04\x00" + bytes(60), "EncryptedPackage": bytes(5000)}),
        "xlsx-named.xls": results_workbook(),
        "xlsx-named.ods": results_workbook(),
        "bomb.ods": raw_zip([mimetype, zeros_member("content.xml", 60 * 1024**2)]),
        "laughs.ods": laughs.getvalue(),
        "garbage.csv": random.Random(12).randbytes(5000),
        "workbook-named.csv": results_workbook(),
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return list(files)


@dataclass(frozen=True)
class Expected:
    """What ``xlrating validate`` says about one file: its refusal, or its findings."""

    refusal: str | None
    findings: list[dict[str, str]]

    @property
    def valid(self) -> bool:
        return self.refusal is None and not any(f["severity"] == "error" for f in self.findings)


def validate_cli(folder: Path, names: list[str]) -> dict[str, Expected]:
    """One ``xlrating validate --format json`` over ``names`` (in ``folder``, so that its messages
    name each file as the server labels an upload: by its name)."""
    done = subprocess.run([sys.executable, "-m", "xlrating", "validate", "--format", "json", *names], cwd=folder,
                          capture_output=True, text=True, timeout=120, check=False)  # exit 2: some are refused
    records = json.loads(done.stdout)
    errors = [line.removeprefix("xlrating: error: ") for line in done.stderr.splitlines()
              if line.startswith("xlrating: error: ")]
    expected = {}
    for name in names:
        refusal = [line for line in errors if line.startswith(f"{name}: ")]
        assert len(refusal) <= 1, refusal
        # one record per file checked: {file, valid, errors, warnings, findings} (each finding names its file)
        findings = [{k: v for k, v in f.items() if k != "file"} for r in records if r["file"] == name
                    for f in r.get("findings", [])]
        expected[name] = Expected(refusal[0] if refusal else None, findings)
    return expected


@pytest.fixture(scope="module")
def uploads(tmp_path_factory: pytest.TempPathFactory, worker_id: str
            ) -> tuple[Path, list[str], list[str], dict[str, Expected]]:
    """The files to upload (in one folder), the readable and hostile names, and what the CLI says."""
    folder = tmp_path_factory.mktemp("load") / "uploads"
    folder.mkdir()
    with concurrent.futures.ThreadPoolExecutor(2) as background:  # LibreOffice works while the corpus is built
        converting = background.submit(libreoffice_copies, tmp_path_factory, worker_id)
        corpus = {case.name: case for case in build(folder.parent / "corpus")}
        hostile = []
        for name in HOSTILE_CASES:
            case = corpus[name]
            assert not case.env and case.path.stat().st_size < 10 * 1024**2
            shutil.copyfile(case.path, folder / name)
            hostile.append(name)
        hostile += other_formats_hostile(folder)
        refusals = background.submit(validate_cli, folder, hostile)
        readable = [path.name for path in sorted(EXAMPLES.glob("0[1-6]_*.xlsx"))]
        for path in sorted(EXAMPLES.glob("0[1-6]_*.xlsx")):
            shutil.copyfile(path, folder / path.name)
        for name, path in (converting.result() or {}).items():  # 01-05 saved as .ods and .csv by LibreOffice
            if name[:2] in {"01", "02", "03", "04", "05"} and path.suffix in (".ods", ".csv"):
                shutil.copyfile(path, folder / name)
                readable.append(name)
        expected = validate_cli(folder, readable) | refusals.result()
    for name in hostile:
        assert expected[name].refusal, f"{name} is not refused by xlrating validate"
    for name in readable:
        assert expected[name].refusal is None, expected[name].refusal
    return folder, readable, hostile, expected


def store_rows(db: Path, *, without: str = "") -> dict[str, list[tuple[Any, ...]]]:
    with sqlite3.connect(db) as con:
        tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'") if t != without]
        return {t: sorted(con.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr) for t in tables}


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding examples 02-05 (the rows the uploads must leave alone)."""
    db = tmp_path_factory.mktemp("load-store") / "store.db"
    subprocess.run([sys.executable, "-m", "xlrating", "ingest", "--db", str(db),
                    *map(str, sorted(EXAMPLES.glob("0[2-5]_*.xlsx")))], check=True, capture_output=True)
    return db


def session(url: str) -> tuple[Any, str]:
    """A client with its session cookie and the CSRF token of the submission page's form."""
    client = httpx2.Client(base_url=url, follow_redirects=False, timeout=60, verify=False)  # http on loopback
    home = client.get("/submit")
    assert home.status_code == 200
    match = CSRF.search(home.text)
    assert match, "no CSRF token on the submission page"
    return client, html.unescape(match.group(1))


def post_sheet(client: Any, token: str, name: str, data: bytes) -> Any:
    return client.post("/checks", data={"csrf_token": token}, files={"sheet": (name, data)})


@dataclass
class Outcome:
    name: str
    data: bytes
    status: int = 0
    location: str = ""
    text: str = ""
    seconds: float = 0.0
    check: dict[str, Any] | None = None
    error: str | None = None


def test_fifty_concurrent_uploads(uploads: tuple[Path, list[str], list[str], dict[str, Expected]], stored: Path,
                                  tmp_path: Path) -> None:
    folder, readable, hostile, expected = uploads
    names = [readable[i % len(readable)] for i in range(READABLE)]
    names += [hostile[i % len(hostile)] for i in range(CONCURRENT - READABLE)]
    random.Random(7).shuffle(names)
    outcomes = [Outcome(name, (folder / name).read_bytes()) for name in names]
    before = store_rows(stored, without="intake")
    log = tmp_path / "serve.log"
    started = time.perf_counter()
    with running_server(stored, "--upload-rate", "10000/minute", "--check-processes", "2", log=log) as url:
        up = time.perf_counter() - started
        clients = [session(url) for _ in outcomes]
        start = threading.Barrier(len(outcomes) + 1)

        def send(outcome: Outcome, client: Any, token: str) -> None:
            try:
                start.wait(30)
                began = time.perf_counter()
                response = post_sheet(client, token, outcome.name, outcome.data)
                outcome.seconds = time.perf_counter() - began
                outcome.status, outcome.text = response.status_code, response.text
                outcome.location = response.headers.get("location", "")
                if outcome.status == 303:
                    outcome.check = client.get(f"{outcome.location}.json").json()
            except (httpx2.HTTPError, ValueError, threading.BrokenBarrierError) as exc:  # reported below
                outcome.error = repr(exc)

        threads = [threading.Thread(target=send, args=(o, *c)) for o, c in zip(outcomes, clients, strict=True)]
        for thread in threads:
            thread.start()
        start.wait(30)
        began = time.perf_counter()
        for thread in threads:
            thread.join(120)
        wall = time.perf_counter() - began
        assert not any(t.is_alive() for t in threads), "uploads still running after two minutes"

        # the server still serves: health, pages, a new upload
        client, token = session(url)
        assert client.get("/healthz").text == "ok"
        assert client.get("/rankings/MCR/2018.json").status_code == 200
        after = post_sheet(client, token, "01_lyon_mcr_open_2024.xlsx", (EXAMPLES / "01_lyon_mcr_open_2024.xlsx")
                           .read_bytes())
        assert after.status_code == 303
        assert client.get(f"{after.headers['location']}.json").json()["valid"] is True
        for c, _ in clients:
            c.close()
        client.close()
        stopping = time.perf_counter()
    stopped = time.perf_counter() - stopping

    seconds = sorted(o.seconds for o in outcomes)
    print(f"\n{len(outcomes)} concurrent uploads ({READABLE} readable, {len(outcomes) - READABLE} hostile; "
          f"2 check processes): wall {wall:.2f} s, per request median {statistics.median(seconds):.2f} s, "
          f"max {seconds[-1]:.2f} s, min {seconds[0]:.2f} s (server started in {up:.1f} s, stopped in {stopped:.1f} s)")
    for o in sorted(outcomes, key=lambda o: -o.seconds)[:5]:
        print(f"  slowest: {o.name} {o.status} {o.seconds:.2f} s")

    problems = []
    for o in outcomes:
        want = expected[o.name]
        if o.error or o.status >= 500:
            problems.append(f"{o.name}: {o.error or o.status}")
        elif want.refusal is not None:
            shown = UPLOAD_ERROR.search(o.text)
            if o.status != 422 or shown is None or html.unescape(shown.group(1)) != want.refusal:
                problems.append(f"{o.name}: {o.status}, {shown and html.unescape(shown.group(1))!r}; "
                                f"expected 422, {want.refusal!r}")
        elif o.status != 303 or not re.fullmatch(r"/checks/[\w-]+", o.location) or o.check is None:
            problems.append(f"{o.name}: {o.status} to {o.location!r}; expected 303 to its check page")
        elif (o.check["valid"], o.check["findings"], o.check["file_name"]) != (want.valid, want.findings, o.name):
            problems.append(f"{o.name}: the check says valid={o.check['valid']}, {o.check['findings']}; "
                            f"expected valid={want.valid}, {want.findings}")
    assert not problems, "\n".join(problems)
    assert sum(o.status == 303 for o in outcomes) == READABLE
    assert sum(expected[o.name].valid for o in outcomes) >= READABLE // 2

    # nothing lost or half-stored: one intake row per readable upload (and the one after), each with
    # the bytes sent; nothing else in the store changed
    with sqlite3.connect(stored) as con:
        rows = {token: (name, kind, sha, size, bytes(content), valid, status) for token, name, kind, sha, size, content,
                valid, status in con.execute("SELECT token, file_name, kind, sha256, size, content, valid, status "
                                             "FROM intake")}
    sent = {o.location.rsplit("/", 1)[1]: o for o in outcomes if o.status == 303}
    assert len(rows) == len(sent) + 1
    for token, o in sent.items():
        name, kind, sha, size, content, valid, status = rows[token]
        assert (name, kind, content, size, sha, bool(valid), status) == (
            o.name, o.name.rsplit(".", 1)[1], o.data, len(o.data), hashlib.sha256(o.data).hexdigest(),
            expected[o.name].valid, "checked")
    assert store_rows(stored, without="intake") == before
    assert "Traceback" not in log.read_text(errors="replace")


def test_rate_and_size_limits(tmp_path: Path) -> None:
    lyon = (EXAMPLES / "01_lyon_mcr_open_2024.xlsx").read_bytes()
    db = tmp_path / "store.db"  # a new, empty store
    with running_server(db, "--upload-rate", "3/minute", "--max-upload-mb", "0.1", log=tmp_path / "serve.log") as url:
        client, token = session(url)
        # over the size limit: 413 with the reason, by the declared length or counted while it arrives
        too_big = random.Random(3).randbytes(200 * 1024)
        refused = post_sheet(client, token, "big.xlsx", too_big)
        assert refused.status_code == 413
        assert "larger than this server accepts (0.1 MB)" in refused.text

        boundary = "xlrating-load-test"
        head = (f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{token}\r\n'
                f'--{boundary}\r\nContent-Disposition: form-data; name="sheet"; filename="big.xlsx"\r\n'
                f'Content-Type: application/octet-stream\r\n\r\n').encode()

        def chunks() -> Iterator[bytes]:  # no Content-Length: the server counts the bytes as they arrive
            yield head
            for start in range(0, len(too_big), 16 * 1024):
                yield too_big[start:start + 16 * 1024]
            yield f"\r\n--{boundary}--\r\n".encode()

        streamed = client.post("/checks", content=chunks(),
                               headers={"content-type": f"multipart/form-data; boundary={boundary}"})
        assert streamed.status_code == 413
        assert "larger than this server accepts (0.1 MB)" in streamed.text
        # the rate is checked before a body is read: the streamed upload counted, the refused-by-length
        # one did not; two more go through, the next is told to wait
        for _ in range(2):
            assert post_sheet(client, token, "01_lyon_mcr_open_2024.xlsx", lyon).status_code == 303
        limited = post_sheet(client, token, "01_lyon_mcr_open_2024.xlsx", lyon)
        assert limited.status_code == 429
        assert "has uploaded 3 sheets per minute, the most this server takes" in html.unescape(limited.text)
        assert client.get("/healthz").status_code == 200
        client.close()
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM intake").fetchone() == (2,)
