"""``ActionSlots``: at most N actions of a web process play at once, the others wait in the
order they came, and a waiter killed while it waits never takes a slot with it."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable

import pytest

from service.api.slots import ActionSlots
from tests.support.threads import in_parallel


def until(check: Callable[[], bool], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.001)


def admitted_at_once(slots: ActionSlots, threads: int) -> int:
    """Most holders seen at once with ``threads`` threads each holding a slot for a while."""
    lock = threading.Lock()
    holding, most = 0, 0

    def hold(_: int) -> None:
        nonlocal holding, most
        with slots:
            with lock:
                holding += 1
                most = max(most, holding)
            time.sleep(0.02)
            with lock:
                holding -= 1

    in_parallel(threads, hold)
    return most


@pytest.mark.parametrize("slots", [1, 2, 3])
def test_at_most_n_actions_hold_a_slot_at_once(slots: int) -> None:
    assert admitted_at_once(ActionSlots(slots), 8) == slots


def test_no_slots_admit_everything_at_once() -> None:
    assert admitted_at_once(ActionSlots(0), 6) == 6


def test_waiters_are_admitted_in_the_order_they_came() -> None:
    slots = ActionSlots(1)
    slots.acquire()
    order: list[int] = []

    def wait(i: int) -> None:
        with slots:
            order.append(i)

    threads = []
    for i in range(6):
        thread = threading.Thread(target=wait, args=(i,))
        thread.start()
        threads.append(thread)
        until(lambda i=i: slots.waiting == i + 1)  # type: ignore[misc]
    slots.release()
    for thread in threads:
        thread.join(10)
    assert order == list(range(6))


def test_a_freed_slot_goes_to_the_first_waiter_not_to_a_newcomer() -> None:
    slots = ActionSlots(1)
    slots.acquire()
    got: list[str] = []
    first = threading.Thread(target=lambda: (slots.acquire(), got.append("first")))
    first.start()
    until(lambda: slots.waiting == 1)
    slots.release()
    assert slots.free == 0  # handed to the waiter, never free in between
    newcomer = threading.Thread(target=lambda: (slots.acquire(), got.append("newcomer")))
    newcomer.start()
    first.join(10)
    assert got[:1] == ["first"]
    until(lambda: slots.waiting == 1)  # the newcomer waits: the first holds the slot
    slots.release()
    newcomer.join(10)
    assert got == ["first", "newcomer"]


class Killed(Exception):
    """What a greenlet killed while it waits gets (a timeout, the worker stopping)."""


def interrupted_lock(before: Callable[[], None] = lambda: None) -> Callable[[], object]:
    """A waiter's lock whose wait is interrupted, after ``before`` ran."""

    class Lock:
        def __init__(self) -> None:
            self.taken = False

        def acquire(self) -> bool:
            if self.taken:  # the wait
                before()
                raise Killed
            self.taken = True
            return True

        def release(self) -> None:
            self.taken = False

    return Lock


def still_free(slots: ActionSlots) -> bool:
    """A slot can be had (in another thread, so that a lost slot fails instead of hanging)."""
    done = threading.Event()

    def take() -> None:
        with slots:
            done.set()

    threading.Thread(target=take, daemon=True).start()
    return done.wait(2)


def test_a_waiter_killed_while_it_waits_leaves_the_queue() -> None:
    slots = ActionSlots(1, waiter_lock=interrupted_lock())
    slots.acquire()
    with pytest.raises(Killed):
        slots.acquire()
    assert slots.waiting == 0
    slots.release()
    assert still_free(slots)


def test_a_waiter_killed_once_the_slot_was_handed_to_it_passes_it_on() -> None:
    slots = ActionSlots(1)
    slots.acquire()
    slots._waiter_lock = interrupted_lock(before=slots.release)  # the holder frees it meanwhile
    with pytest.raises(Killed):
        slots.acquire()
    slots._waiter_lock = None
    assert slots.waiting == 0
    assert still_free(slots)


def test_slots_cannot_be_negative() -> None:
    with pytest.raises(ValueError, match="0 \\(no limit\\) or more"):
        ActionSlots(-1)


GEVENT_RUN = """
from gevent import monkey
monkey.patch_all()
import gevent, json
from service.api.slots import ActionSlots
from tests.support.threads import in_parallel

slots = ActionSlots(2)
holding, most, order = [0], [0], []

def play(i):
    with slots:
        order.append(i)
        holding[0] += 1
        most[0] = max(most[0], holding[0])
        gevent.sleep(0.01)  # a Redis round trip: other greenlets run meanwhile
        holding[0] -= 1

first = [gevent.spawn(play, i) for i in range(20)]
gevent.sleep(0)  # all twenty started: two hold a slot, eighteen wait
killed = [first[5], first[9]]
gevent.killall(killed)  # stopped while waiting (a worker stopping, a timeout)
gevent.joinall(first, timeout=10)
after = [gevent.spawn(play, 100 + i) for i in range(4)]  # no slot was lost
gevent.joinall(after, timeout=10)
print(json.dumps({"most": most[0], "order": order, "free": slots.free,
                  "waiting": slots.waiting, "done": all(g.dead for g in first + after)}))
"""


@pytest.mark.slow  # a gevent process of its own
def test_under_gevent_waiting_greenlets_yield_and_a_killed_one_loses_no_slot() -> None:
    """In a gevent worker (``threading`` patched) a waiting action yields to the event loop
    instead of blocking the process, waiters go in order, and killing two of them while they
    wait leaves both slots usable."""
    out = subprocess.run(
        [sys.executable, "-c", GEVENT_RUN], capture_output=True, text=True, timeout=60, check=True
    )
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["done"] and seen["most"] == 2
    assert seen["order"] == [i for i in range(20) if i not in (5, 9)] + [100, 101, 102, 103]
    assert seen["free"] == 2 and seen["waiting"] == 0
