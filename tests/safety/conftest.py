"""tests/safety: the hostile corpus helpers live next to the tests (see hostile.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from hostile import remove_corpus


def pytest_sessionfinish(session, exitstatus):  # type: ignore[no-untyped-def]
    remove_corpus()
