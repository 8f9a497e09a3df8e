"""The ``Retention`` port's contract: finished games found by their end time, and purged."""

from __future__ import annotations

import time
from typing import Any

from service.store import (
    IdempotencyRecord,
)
from tests.support.store_contract.base import (
    StoreCase,
    action,
    events,
    make_meta,
)


class RetentionContract(StoreCase):
    """Given any adapter, the ``Retention`` port keeps its promises."""

    def test_games_that_ended_are_found_once_their_time_has_passed(self, store: Any) -> None:
        over, live = self.created(store), self.created(store)
        before = time.time()
        store.set_status(over.id, "over")
        store.set_status(live.id, "playing")
        assert over.id not in store.ended_before(before - 1, limit=1000)
        assert over.id in store.ended_before(time.time() + 1, limit=1000)
        assert live.id not in store.ended_before(time.time() + 1, limit=1000)

    def test_a_purged_game_is_gone_from_every_read_and_index(self, store: Any) -> None:
        meta = self.created(store, make_meta(status="playing"))
        kept = self.created(store)
        store.append(meta.id, 2, events("GameEnded"), action(), prev_hash=self.head(store, meta.id),
                     idempotency=IdempotencyRecord("seat:0:bot:0:2", "f" * 64, 3), status="over")
        store.put_replay(meta.id, '{"format": "one"}')
        store.put_review(meta.id, 0, '{"seat": 0}')
        store.hold_fork(meta.id, "fork-1", '{"format": "fork"}')
        store.hint_clock(meta.id, 1)
        assert store.purge(meta.id) is True
        assert store.meta(meta.id) is None and store.version(meta.id) == 0
        assert store.read(meta.id) == [] and store.replay(meta.id) is None
        assert store.review(meta.id, 0) is None and store.held_forks(meta.id) == {}
        assert meta.id not in [m.id for m in store.list_games(limit=1000)]
        assert store.list_games(game="fake", status="over", limit=1000) == []
        assert meta.id not in store.ended_before(time.time() + 1, limit=1000)
        assert meta.id not in [g for g, _ in store.clocks_due(10**15, limit=1000)]
        assert store.fetch(meta.id, 0, "seat:0:bot:0:2").idempotency is None
        assert store.purge(meta.id) is False  # again: nothing left, nothing done
        assert store.meta(kept.id) == kept
