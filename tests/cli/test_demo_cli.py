"""``xlrating demo``: validate -> ingest -> rank on the bundled examples, into a fresh store."""

from __future__ import annotations

import json

from click.testing import CliRunner

from xlrating.cli import demo as demo_module
from xlrating.cli import main
from xlrating.store import open_store


def _demo(out, *args):
    return CliRunner().invoke(main, ["demo", "--out", str(out), *args])


def test_the_demo_stores_the_good_examples_rejects_the_bad_one_and_writes_rankings(tmp_path):
    result = _demo(tmp_path)
    assert result.exit_code == 0, result.output
    assert "5 stored, 1 rejected" in result.output
    assert "EMA_ID_LOST_LEADING_ZERO" in result.output
    assert (tmp_path / "annotated" / "06_paris_winter_open_2025_with_mistakes.annotated.xlsx").exists()
    for ruleset in ("mcr", "riichi"):
        board = json.loads((tmp_path / f"ranking-{ruleset}.json").read_text())
        assert board and board[0]["rank"] == 1 and board[0]["count"] >= 2
        assert (tmp_path / f"ranking-{ruleset}.xlsx").exists()


def test_the_demo_starts_from_a_fresh_store_each_run(tmp_path):
    _demo(tmp_path)
    first = (tmp_path / "ranking-mcr.json").read_text()
    assert _demo(tmp_path).exit_code == 0
    assert (tmp_path / "ranking-mcr.json").read_text() == first
    with open_store(str(tmp_path / "xlrating.db")) as store:
        assert len(store.tournaments(history=True)) == 5


def test_without_a_checkout_the_demo_generates_its_examples(tmp_path, monkeypatch):
    monkeypatch.setattr(demo_module, "bundled_examples", lambda: None)
    result = _demo(tmp_path)
    assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "submissions").glob("*.xlsx"))) == 6


def test_a_bad_as_of_date_is_bad_usage(tmp_path):
    result = _demo(tmp_path, "--as-of", "31/12/2025")
    assert result.exit_code == 2 and "YYYY-MM-DD" in result.output
