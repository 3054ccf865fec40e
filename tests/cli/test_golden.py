"""Golden leaderboards: `xlrating rank` on the example tables must reproduce tests/data/golden."""

import csv
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from xlrating.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "data" / "golden"
CASES = list(csv.DictReader((GOLDEN / "cases.csv").open()))


def leaderboard(case, out: Path) -> list:
    args = ["rank", case["system"], str(ROOT / "examples" / "tables" / case["file"]), *case["options"].split(),
            "--decimals", "6", "-o", str(out)]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text())


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_leaderboard_matches_its_golden_file(case, tmp_path):
    expected = json.loads((GOLDEN / f"{case['name']}.json").read_text())
    assert leaderboard(case, tmp_path / "out.json") == expected


if __name__ == "__main__" and "--regenerate" in sys.argv:
    import tempfile

    for case in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            board = leaderboard(case, Path(tmp) / "out.json")
        (GOLDEN / f"{case['name']}.json").write_text(json.dumps(board, indent=1) + "\n")
        print("wrote", case["name"])
