"""A web process plays at most a few actions at once, the others wait in arrival order.

Under gevent a request that waits for Redis goes to the back of the event loop's turn: every
other ready connection is served before it resumes. An action that waits twice (a catch-up
read, then its append) spans more turns than one that waits once, and a turn at c=64 is tens
of milliseconds, so the actions' latencies spread wide while their mean is fixed by the
throughput (docs/decisions.md, "Actions take a slot"). With a few slots an action, once
started, waits only for the few others holding one; the rest wait their turn in the order
they came, which keeps the slowest close to the mean.

``ActionSlots(0)`` admits everything (no slots). A freed slot is handed to the first waiter,
so a newcomer cannot overtake those already waiting. The waiters' locks are made at
``acquire``, after gevent has patched ``threading`` in a gevent worker; with real threads the
same code blocks the thread.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any


class ActionSlots:
    """At most ``slots`` holders at once (0: no limit); waiters admitted first come first."""

    def __init__(self, slots: int, waiter_lock: Callable[[], Any] | None = None) -> None:
        if slots < 0:
            raise ValueError(f"slots must be 0 (no limit) or more, not {slots}")
        self.slots = slots
        self._free = slots
        self._waiting: deque[Any] = deque()
        self._lock = threading.Lock()
        self._waiter_lock = waiter_lock  # default: threading.Lock as it is at acquire

    def __enter__(self) -> None:
        """Hold a slot for the ``with`` block (waiting for one first, in arrival order)."""
        if self.slots:
            self.acquire()

    def __exit__(self, *exc: object) -> None:
        if self.slots:
            self.release()

    def acquire(self) -> None:
        with self._lock:
            if self._free and not self._waiting:
                self._free -= 1
                return
            handed = (self._waiter_lock or threading.Lock)()
            handed.acquire()
            self._waiting.append(handed)
        try:
            handed.acquire()  # released by ``release``: the slot is ours
        except BaseException:  # killed while waiting (a timeout, the worker stopping)
            with self._lock:
                still_waiting = handed in self._waiting
                if still_waiting:
                    self._waiting.remove(handed)
            if not still_waiting:  # the slot was handed over meanwhile: pass it on
                self.release()
            raise

    def release(self) -> None:
        with self._lock:
            if self._waiting:
                self._waiting.popleft().release()  # the slot passes on, never freed between
            else:
                self._free += 1

    @property
    def waiting(self) -> int:
        """How many wait for a slot now."""
        return len(self._waiting)

    @property
    def free(self) -> int:
        """How many slots nobody holds now."""
        return self._free

