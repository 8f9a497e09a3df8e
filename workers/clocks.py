"""Clock enforcement on RQ (docs/service.md, "Clocks").

``enforce_clock(game_id, version)`` is the RQ job for a clocked seat's time. RQ's scheduler
keeps whole seconds and polls every second, so the job is scheduled a second or two before the
time (``workers.scheduler.RQScheduler.schedule_clock``) and, started early, hands the timeout
to a timer thread of its worker for the exact time instead of holding the worker. The timeout
is appended under the version it was decided on: it fires at most once, and does nothing if
the game moved on; its move is the domain's default move (``domain.default_move``). The
sweeper (``workers.sweeper``) enforces the clocks whose job or timer never ran (a dead worker),
from the store's clock index.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from service.clocks import next_due, now_ms
from workers.process import service

log = logging.getLogger("cardroom.clocks")

EARLY_LIMIT = 5.0  # a job started earlier than this before its time leaves it to a later look


def enforce_clock(game_id: str, version: int) -> str:
    """The RQ job: record the timeout due at ``version``, if it is still due."""
    svc = service()
    loaded = svc.load(game_id)
    if loaded.version != version:
        return f"moved on: the game is at version {loaded.version}"
    due = next_due(loaded.state)
    if due is None or loaded.over:
        return "no clock runs"
    early = (due[0] - now_ms(svc.wall)) / 1000
    if early > EARLY_LIMIT:
        return f"not due: {early:.3f} s left"
    if early > 0:
        start_timer(early, lambda: _enforce_quietly(game_id, version))
        return f"a timer enforces it in {early:.3f} s"
    return svc.enforce_clock(game_id, expected_version=version)


def _enforce_quietly(game_id: str, version: int) -> None:
    try:
        result = service().enforce_clock(game_id, expected_version=version)
        log.info("game %s: %s", game_id, result)
    except Exception:  # the sweeper enforces it from the index
        log.exception("the clock timer of game %s at version %s failed", game_id, version)


def _start_daemon_timer(delay: float, action: Callable[[], None]) -> None:
    timer = threading.Timer(delay, action)
    timer.daemon = True  # a worker that stops drops it: the sweeper enforces the clock
    timer.start()


start_timer: Callable[[float, Callable[[], None]], None] = _start_daemon_timer
