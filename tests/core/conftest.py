"""Every core test runs twice: with numpy (the column engines) and as in a Python without numpy
(LibreOffice's own on Windows and macOS), where the leaderboards replay records one by one."""

from __future__ import annotations

import pytest

from xlrating.core import dci, dippouch, mers


@pytest.fixture(autouse=True, params=["numpy", "without numpy"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "without numpy":
        for module in (dci, dippouch, mers):
            monkeypatch.setattr(module, "np", None)
    return str(request.param)
