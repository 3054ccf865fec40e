"""Fixtures for the sheet tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from ema_sheets import sheet_maker


@pytest.fixture
def make_sheet(tmp_path: Path) -> Callable[..., Path]:
    return sheet_maker(tmp_path)
