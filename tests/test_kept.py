"""The memory a process keeps between workbooks stays bounded and whole when threads share it."""

from __future__ import annotations

import threading

from xlrating.kept import Kept


def test_the_oldest_entry_goes_when_one_more_is_put() -> None:
    kept: Kept[int, str] = Kept(3)
    for key in range(5):
        kept[key] = str(key)
    assert list(kept.items()) == [(2, "2"), (3, "3"), (4, "4")]
    kept[3] = "again"  # a key already there takes nobody's place
    assert list(kept) == [2, 3, 4] and kept[3] == "again"


def test_threads_putting_at_once_leave_it_within_its_size() -> None:
    kept: Kept[tuple[int, int], int] = Kept(50)
    failures: list[BaseException] = []

    def put(thread: int) -> None:
        try:
            for i in range(5000):
                kept[(thread, i)] = i
                kept.get((thread, i - 1))
        except BaseException as exc:  # noqa: BLE001 - what a thread met is the test's failure
            failures.append(exc)

    threads = [threading.Thread(target=put, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == [] and len(kept) == 50
