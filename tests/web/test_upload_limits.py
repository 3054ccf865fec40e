"""The web upload keeps a web upload's limits: a federation's history, which ``xlrating ingest``
stores from the officer's command line (tests/cli/test_ingest_history_cli.py), is refused over the
web, naming the limit, and nothing is kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient
from test_app import client, rows, upload

from tests.dci_history import WEB_ROWS, write_dci_history

__all__ = ["client"]  # the fixture, shared with test_app


def test_a_table_longer_than_a_web_upload_is_refused_naming_the_row_limit(client: TestClient,
                                                                          tmp_path: Path) -> None:
    table = tmp_path / "dci_history.csv"
    write_dci_history(table)
    response = upload(client, table)
    assert response.status_code == 422
    assert f"the CSV has more than {WEB_ROWS:,} lines" in response.text and "XLRATING_MAX_ROWS" in response.text
    assert rows(tmp_path / "store.db", "intake") == []  # nothing waits for the officer


@pytest.mark.slow
def test_the_same_table_cut_to_the_web_row_limit_is_checked(client: TestClient, tmp_path: Path) -> None:
    table = tmp_path / "dci_history.csv"
    write_dci_history(table)
    lines = table.read_text().splitlines()
    table.write_text("\n".join(lines[:WEB_ROWS]) + "\n")  # the header and the rows a web upload may have
    response = upload(client, table)
    assert response.status_code == 303, response.text[-2000:]
