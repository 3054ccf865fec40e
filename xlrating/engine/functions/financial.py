"""Excel's financial functions where the engine computes them itself (see :mod:`xlrating.engine.functions`)."""

from __future__ import annotations

from typing import Any

FUNCTIONS: dict[str, Any] = {}
