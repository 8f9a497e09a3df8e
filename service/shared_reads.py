"""One read shared by the callers that ask for the same thing at the same time (single flight).

The streams of a game in a process are woken together by the fan-out
(``service.store.fanout``) when the game moves, and each then reads the game after the same
version. Measured with 50 streams on a played game (bench_streams, py-spy on the web workers):
those reads, one store round trip per stream per move, took about 40 % of the web workers' CPU
and made the actions served beside them wait. Here the first caller for a key reads; those that
ask for the same key while it reads wait for its answer instead of reading again. The same
holds for a stream's first read: streams reconnecting together from the same version (their
lifetimes ending, a crowd resuming with Last-Event-ID, spectators moving on to a new game) share
it, each checking its own seat against it before its stream opens.

Only for callers to whom a read that began a moment before they asked is as good as their own:
a stream, which asks again at once from the version it got (``store.wait`` returns at once when
the game has moved since), so it loses nothing; a seat that changed hands in that moment is
seen by the stream's next read, which ends it. Nothing is kept once the read is answered.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any


class _Flight:
    def __init__(self) -> None:
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None


class SharedReads:
    """``run(key, read)``: ``read()``, or the answer of the same key's read in progress."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flights: dict[Hashable, _Flight] = {}

    def run(self, key: Hashable, read: Callable[[], Any]) -> Any:
        with self._lock:
            flight = self._flights.get(key)
            leader = flight is None
            if flight is None:
                flight = self._flights[key] = _Flight()
        if not leader:
            flight.done.wait()
            if flight.error is not None:
                raise flight.error
            return flight.result
        try:
            flight.result = read()
        except BaseException as err:
            flight.error = err
            raise
        finally:
            with self._lock:
                del self._flights[key]
            flight.done.set()
        return flight.result
