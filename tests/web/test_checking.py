"""The worker pool that reads uploads: a stuck or crashing check costs a worker, not the server."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from xlrating.web.checking import CheckBusy, CheckUnavailable, SheetChecker


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


def test_a_checks_time_limit_counts_from_its_start_not_from_its_place_in_the_queue() -> None:
    async def scenario() -> list[object]:
        checker = SheetChecker(1, timeout=5.0)
        try:  # the second waits 3 s for the first, then runs 3 s: 6 s after it was asked, 3 s after it began
            return await asyncio.gather(checker.run(_slow, 3), checker.run(_slow, 3), return_exceptions=True)
        finally:
            checker.close()

    assert asyncio.run(scenario()) == [3, 3]


def test_a_check_that_runs_out_ends_alone_and_the_others_finish() -> None:
    async def scenario() -> list[object]:
        checker = SheetChecker(2, timeout=3.0)
        try:
            return await asyncio.gather(checker.run(_slow, 120), *(checker.run(_slow, 0.2) for _ in range(6)),
                                        return_exceptions=True)
        finally:
            checker.close()

    started = time.monotonic()
    stuck, *others = asyncio.run(scenario())
    assert isinstance(stuck, CheckUnavailable) and "longer than 3 seconds" in str(stuck)
    assert others == [0.2] * 6
    assert time.monotonic() - started < 20


def test_a_full_queue_says_when_to_try_again() -> None:
    async def scenario() -> list[object]:
        checker = SheetChecker(1, timeout=30, queue=1)
        try:
            return await asyncio.gather(*(checker.run(_slow, 0.5) for _ in range(4)), return_exceptions=True)
        finally:
            checker.close()

    outcomes = asyncio.run(scenario())
    busy = [o for o in outcomes if isinstance(o, CheckBusy)]
    assert outcomes[:2] == [0.5, 0.5] and len(busy) == 2
    assert all(b.retry_after >= 5 and f"try again in {b.retry_after} seconds" in str(b) for b in busy)


def test_what_a_check_raises_reaches_the_server() -> None:
    async def scenario() -> None:
        checker = SheetChecker(1, timeout=30)
        try:
            with pytest.raises(ValueError, match="not a number"):
                await checker.run(int, "not a number")
        finally:
            checker.close()

    asyncio.run(scenario())
