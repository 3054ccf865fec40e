"""The worker pool that reads uploads: a stuck or crashing check costs a worker, not the server."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from xlrating.web.checking import CheckUnavailable, SheetChecker


def _slow(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _crash() -> None:
    os._exit(3)  # as a worker killed for its memory would end


def test_a_check_past_the_timeout_is_stopped_and_the_next_one_runs() -> None:
    async def scenario() -> None:
        checker = SheetChecker(1, timeout=5.0)
        try:
            with pytest.raises(CheckUnavailable, match="longer than 5 seconds"):
                await checker.run(_slow, 120)
            assert await checker.run(_slow, 0) == 0
        finally:
            checker.close()

    started = time.monotonic()
    asyncio.run(scenario())
    assert time.monotonic() - started < 30  # the stuck worker was killed, not waited for


def test_a_worker_that_dies_is_reported_and_replaced() -> None:
    async def scenario() -> None:
        checker = SheetChecker(1, timeout=30)
        try:
            with pytest.raises(CheckUnavailable, match="stopped while reading"):
                await checker.run(_crash)
            assert await checker.run(_slow, 0) == 0
        finally:
            checker.close()

    asyncio.run(scenario())


def test_beyond_the_queue_the_server_says_it_is_busy() -> None:
    async def scenario() -> list[object]:
        checker = SheetChecker(1, timeout=30, queue=1)
        try:
            return await asyncio.gather(*(checker.run(_slow, 0.5) for _ in range(3)), return_exceptions=True)
        finally:
            checker.close()

    outcomes = asyncio.run(scenario())
    assert outcomes[:2] == [0.5, 0.5] and isinstance(outcomes[2], CheckUnavailable)
