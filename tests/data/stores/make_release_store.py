"""How ``release-0.1.0.db`` was made: a results store written by xlrating 0.1.0 (schema version 5,
commit 1f276c1 and the commits up to the one that added this file), holding all three systems, with
tournaments and events accepted through the officer's queue and from the command line, replaced
versions, a rejected submission, one still waiting and one upload never submitted.

``release-0.1.0.json`` holds what that release showed of it: every public page's JSON (the crawl of
tests/test_behaviour_snapshot.py), the intake queue with the officer's decisions, and the files kept. tests/store/test_release_store.py opens a
copy with the current code, which migrates it in place, and compares.

This script ran once, with that release's code; it is kept to say what the store holds and how it
came to hold it, not to be run again (the code it calls has moved on).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
from pathlib import Path

from click.testing import CliRunner
from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "web"))

from test_app import OFFICER, pending_ids, sign_in, submitted, token, upload

from tests.test_behaviour_snapshot import _corrected_lyon, page_data
from xlrating.cli import main
from xlrating.web.app import Settings, create_app
from xlrating.web.security import OfficerPassword

HERE = Path(__file__).parent
EXAMPLES = ROOT / "examples"
TABLES = EXAMPLES / "tables"
INTAKE_COLUMNS = ("i.id", "i.token", "i.file_name", "i.kind", "i.sha256", "i.size", "i.findings", "i.valid",
                  "i.tournament", "i.uploaded_at", "i.status", "i.contact", "i.submitted_at", "i.decided_at",
                  "i.decision_note", "i.system", "s.sha256")


def run(*args: str) -> None:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output


def changed_table(source: Path, target: Path, old: str, new: str) -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return target


def main_() -> None:
    work = HERE / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    db = work / "store.db"
    run("ingest", "--db", str(db), *sorted(str(p) for p in EXAMPLES.glob("0[2-5]*.xlsx")))
    run("ingest", "--db", str(db), str(TABLES / "dippouch_results.csv"))
    run("ingest", "--db", str(db), "--replace",
        str(changed_table(TABLES / "dippouch_results.csv", work / "dippouch_corrected.csv",
                          "Spring Cup,2023-04-16,21,3,Carl Gauss,3", "Spring Cup,2023-04-16,21,3,Carl Gauss,5")))
    settings = Settings(str(db), officer=OfficerPassword(*OFFICER), check_processes=1)
    with TestClient(create_app(settings)) as client:
        submitted(client, EXAMPLES / "01_lyon_mcr_open_2024.xlsx")
        sign_in(client)
        [lyon] = pending_ids(client)
        client.post(f"/officer/submissions/{lyon}/accept", data={"csrf_token": token(client, "/officer")})
        submitted(client, _corrected_lyon(work))
        [corrected] = pending_ids(client)
        client.post(f"/officer/submissions/{corrected}/accept",
                    data={"csrf_token": token(client, "/officer"), "replace": "yes"})
        submitted(client, TABLES / "dci_matches.csv")
        [dci] = pending_ids(client)
        client.post(f"/officer/submissions/{dci}/accept", data={"csrf_token": token(client, "/officer")})
        submitted(client, changed_table(TABLES / "dci_matches.csv", work / "dci_wrong.csv",
                                        "Jon Finkel,Kai Budde,W", "Jon Finkel,Kai Budde,L"))
        [wrong] = pending_ids(client)
        client.post(f"/officer/submissions/{wrong}/reject",
                    data={"csrf_token": token(client, "/officer"), "note": "Finkel won round 1; send it again."})
        submitted(client, changed_table(TABLES / "dci_matches.csv", work / "dci_waiting.csv",
                                        "Jon Finkel,Kai Budde,W", "Jon Finkel,Kai Budde,D"))
        assert upload(client, EXAMPLES / "03_amsterdam_riichi_2024.xlsx").status_code == 303  # never submitted
    run("ingest", "--db", str(db), "--replace",
        str(changed_table(TABLES / "dci_matches.csv", work / "dci_corrected.csv",
                          "Luis Scott-Vargas,Gabriel Nassif,D", "Luis Scott-Vargas,Gabriel Nassif,W")))
    with TestClient(create_app(Settings(str(db), check_processes=1))) as client:
        pages = page_data(client, work)
    with sqlite3.connect(db) as connection:
        queue = [dict(zip(INTAKE_COLUMNS, row)) for row in connection.execute(
            f"SELECT {', '.join(INTAKE_COLUMNS)} FROM intake i LEFT JOIN submissions s ON s.id = i.submission_id "
            "ORDER BY i.id")]
        files = [dict(zip(("file_name", "sha256", "size"), row)) for row in connection.execute(
            "SELECT file_name, sha256, size FROM submissions ORDER BY id")]
    shutil.copyfile(db, HERE / "release-0.1.0.db")
    record = {"pages": pages, "intake": queue, "files": files}
    (HERE / "release-0.1.0.json").write_text(json.dumps(record, indent=1, ensure_ascii=False, sort_keys=True) + "\n",
                                             encoding="utf-8")
    shutil.rmtree(work)


if __name__ == "__main__":
    main_()
