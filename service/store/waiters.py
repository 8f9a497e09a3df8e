"""Callers waiting for streams to pass a version, woken by one reader thread per process.

The bookkeeping both fan-outs share: ``service.store.fanout`` (one blocking XREAD on one Redis)
and ``service.store.cluster_fanout`` (one poller on a Redis Cluster) subclass ``Waiters`` with
their reader loop (``_run``), which looks at ``_pending()`` and calls ``_wake``.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(eq=False)
class Waiter:
    key: str
    after: int
    moved: threading.Event = field(default_factory=threading.Event)


class Waiters:
    """``wait(key, after, timeout)`` for many callers; the subclass's ``_run`` wakes them."""

    thread_name = "stream-waiters"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._waiters: dict[str, list[Waiter]] = {}
        self._thread: threading.Thread | None = None

    def waiting(self) -> int:
        """How many callers are waiting now."""
        with self._lock:
            return sum(len(w) for w in self._waiters.values())

    def wait(self, key: str, after: int, timeout: float) -> bool:
        """True once stream ``key`` has an entry newer than ``after``; False after ``timeout``."""
        return self.wait_any({key: after}, timeout)

    def wait_any(self, afters: Mapping[str, int], timeout: float) -> bool:
        """True once one of the streams has an entry newer than its ``after`` (one event wakes
        the caller, whichever stream moved); False after ``timeout``."""
        moved = threading.Event()
        waiters = [Waiter(key, after, moved) for key, after in afters.items()]
        with self._lock:
            for waiter in waiters:
                self._waiters.setdefault(waiter.key, []).append(waiter)
            if waiters and (self._thread is None or not self._thread.is_alive()):
                self._thread = threading.Thread(target=self._run, name=self.thread_name,
                                                daemon=True)  # fmt: skip
                self._thread.start()
            # every waiter is asked: the reader may be interrupted once for all of them
            nudge = [self._arrived(w.key, w.after) for w in waiters]
            self._changed.notify()
        if any(nudge):
            self._nudge()
        try:
            return moved.wait(timeout)
        finally:
            with self._lock:
                for waiter in waiters:
                    same = self._waiters.get(waiter.key, [])
                    if waiter in same:
                        same.remove(waiter)
                    if not same:
                        self._waiters.pop(waiter.key, None)

    def _arrived(self, key: str, after: int) -> bool:
        """Under the lock, a new waiter: True to ``_nudge`` the reader (outside the lock)."""
        return False

    def _nudge(self) -> None:
        """Make the reader look at the waiters again now."""

    def _run(self) -> None:
        raise NotImplementedError

    def _pending(self) -> dict[str, int]:
        """Under the lock: each stream someone still waits on, with the lowest version waited
        past."""
        return {
            key: min(w.after for w in pending)
            for key, ws in self._waiters.items()
            if (pending := [w for w in ws if not w.moved.is_set()])
        }

    def _wake(self, newest: dict[str, int]) -> dict[str, int]:
        """Wake the waiters of each stream whose newest version passed theirs; the streams that
        woke someone, with that version."""
        woke: dict[str, int] = {}
        with self._lock:
            for key, version in newest.items():
                for waiter in self._waiters.get(key, []):
                    if waiter.after < version:
                        waiter.moved.set()
                        woke[key] = version
        return woke
