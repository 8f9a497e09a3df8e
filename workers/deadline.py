"""A time limit on a bot's decision: ``with time_limit(seconds): bot.choose(view, rng)``.

In a process's main thread (an RQ ``SimpleWorker``'s job, an arena process) the limit
interrupts the decision with ``TooSlow`` (``SIGALRM``), and an alarm already set (RQ's own job
timeout) is put back afterwards with the time it had left. Elsewhere (threads, platforms
without ``SIGALRM``) nothing can interrupt Python code: callers compare the time taken with
the limit afterwards (``over``).
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class TooSlow(Exception):
    """A decision ran past its time limit."""


def can_interrupt() -> bool:
    """Whether ``time_limit`` can stop a decision here (main thread, SIGALRM available)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise TooSlow in the block after ``seconds`` (0 or less: no limit) where possible."""
    if seconds <= 0 or not can_interrupt():
        yield
        return
    previous_handler = signal.signal(signal.SIGALRM, _too_slow)
    previous_left, previous_interval = signal.setitimer(signal.ITIMER_REAL, 0)
    started = time.monotonic()
    limit = min(seconds, previous_left) if previous_left > 0 else seconds
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_handler)
        if previous_left > 0:  # the outer alarm goes on with what it had left (at once if spent)
            left = max(previous_left - (time.monotonic() - started), 0.001)
            signal.setitimer(signal.ITIMER_REAL, left, previous_interval)


def over(seconds: float, took: float) -> bool:
    """Whether a decision that took ``took`` seconds broke a limit of ``seconds`` (0: none)."""
    return seconds > 0 and took > seconds


def _too_slow(signum: int, frame: FrameType | None) -> None:
    raise TooSlow("the decision ran past its time limit")
