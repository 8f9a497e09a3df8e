"""Shares of a worker's time between its queues: the queue that has had the least of its share
lately is served first.

RQ's worker takes its queues in a fixed order (the first queue is emptied before the next is
looked at) or in turn (one job each, however long); neither keeps a stranger's games from taking
the worker: its bots' games can fill a queue of their own, and their jobs (a looping game's
replay export) can be long. ``Shares`` charges every job's time (with RQ's own work to fetch it)
to its queue, divided by the queue's weight, decayed job by job, and orders the queues by that
charge: a queue with jobs waiting gets at least its weight's share of the time while the others
want more, and any time the others leave. The built-in bots' turns in games of bots only that
seat an HTTP bot account, and those games' exports, are the ``bots-guests`` queue
(``service.queues``), of weight 1; every other queue has weight ``WEIGHT`` (4): together,
strangers' games take at most about a fifth of a busy worker.
"""

from __future__ import annotations

import time
from typing import Any

from rq import Queue, SimpleWorker

from service.queues import GUESTS

WEIGHT = 4.0  # of every queue but the guests'
GUESTS_WEIGHT = 1.0
DECAY = 0.97  # per job: the last few dozen jobs count


def weight(queue: str) -> float:
    """A queue's weight (its name under any namespace)."""
    return GUESTS_WEIGHT if queue == GUESTS or queue.endswith(f":{GUESTS}") else WEIGHT


class Shares:
    """The time each queue was charged lately, and the order it gives."""

    def __init__(self) -> None:
        self.charged: dict[str, float] = {}

    def charge(self, queue: str, seconds: float) -> None:
        """A job of ``queue`` took ``seconds``."""
        for name in self.charged:
            self.charged[name] *= DECAY
        self.charged[queue] = self.charged.get(queue, 0.0) + seconds / weight(queue)

    def order(self, queues: list[Queue]) -> list[Queue]:
        """The queues, the least charged first (ties: as given)."""
        return sorted(queues, key=lambda q: self.charged.get(q.name, 0.0))


class FairWorker(SimpleWorker):
    """A non-forking worker that serves its queues by their shares (``Shares``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shares = Shares()
        self._last_end: float | None = None

    def execute_job(self, job: Any, queue: Queue) -> Any:
        started = time.monotonic()
        try:
            return super().execute_job(job, queue)
        finally:
            # since the previous job ended: this one and RQ's own work to fetch it (a
            # stranger's many short jobs cost that too), not a long wait for any job
            ended = time.monotonic()
            since = started if self._last_end is None else max(self._last_end, started - 1.0)
            self._last_end = ended
            self.shares.charge(queue.name, ended - since)
            self._ordered_queues = self.shares.order(list(self.queues))
