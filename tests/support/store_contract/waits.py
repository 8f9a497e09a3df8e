"""The ``Waits`` port's contract: waiting for a game to move."""

from __future__ import annotations

import threading
import time
from typing import Any

from tests.support.store_contract.base import (
    StoreCase,
    action,
    events,
)


class WaitsContract(StoreCase):
    """Given any adapter, the ``Waits`` port keeps its promises."""

    def test_wait_returns_when_a_newer_event_arrives(self, store: Any) -> None:
        meta = self.created(store)
        assert store.wait(meta.id, 1, 0.05) is True
        started = time.monotonic()
        assert store.wait(meta.id, 2, 0.1) is False
        assert time.monotonic() - started >= 0.09
        head = self.head(store, meta.id)
        timer = threading.Timer(
            0.05, lambda: store.append(meta.id, 2, events("A"), action(), prev_hash=head)
        )
        timer.start()
        assert store.wait(meta.id, 2, 2.0) is True
        timer.join()

    def test_wait_any_returns_when_one_of_its_games_moves(self, store: Any) -> None:
        one, other = self.created(store), self.created(store)
        assert store.wait_any({one.id: 2, other.id: 1}, 0.05) is True  # other is past 1 (at 2)
        started = time.monotonic()
        assert store.wait_any({one.id: 2, other.id: 2}, 0.1) is False
        assert time.monotonic() - started >= 0.09
        assert store.wait_any({}, 0.05) is False  # no games: waits out its time
        head = self.head(store, other.id)
        timer = threading.Timer(
            0.05, lambda: store.append(other.id, 2, events("A"), action(), prev_hash=head)
        )
        timer.start()
        assert store.wait_any({one.id: 2, other.id: 2}, 2.0) is True  # the second one moved
        timer.join()
