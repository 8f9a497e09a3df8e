"""Run the same work on several threads released at once (races against one store)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


def in_parallel(count: int, work: Callable[[int], Any]) -> list[Any]:
    """``work(i)`` for i in range(count), every thread started together; the results in order."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        barrier.wait()
        results[i] = work(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results
