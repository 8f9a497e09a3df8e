"""The ``Spectators`` port's contract: who watches a game, each stream until its expiry."""

from __future__ import annotations

import time
from typing import Any

from tests.support.store_contract.base import StoreCase, ids


class SpectatorsContract(StoreCase):
    """Given any adapter, the ``Spectators`` port keeps its promises."""

    def test_spectators_are_counted_per_game_once_each(self, store: Any) -> None:
        game, other = f"wa{next(ids)}", f"wb{next(ids)}"
        now = int(time.time() * 1000)
        assert store.watchers(game, now) == 0
        for watcher in ("s1", "s2", "s3"):
            store.watch(game, watcher, now, now + 30_000)
        store.watch(game, "s2", now + 1_000, now + 31_000)  # a heartbeat: the same watcher
        store.watch(other, "s1", now, now + 30_000)
        assert store.watchers(game, now + 1_000) == 3
        store.unwatch(game, "s2")
        store.unwatch(game, "never-watched")
        assert store.watchers(game, now + 1_000) == 2
        assert store.watchers(other, now + 1_000) == 1

    def test_a_spectator_without_heartbeats_stops_counting_at_its_expiry(
        self, store: Any
    ) -> None:
        game = f"wc{next(ids)}"
        now = int(time.time() * 1000)
        store.watch(game, "dead-process", now, now + 2_000)  # never heard from again
        store.watch(game, "alive", now, now + 2_000)
        store.watch(game, "alive", now + 1_500, now + 5_000)
        assert store.watchers(game, now + 1_999) == 2
        assert store.watchers(game, now + 2_000) == 1
        assert store.watchers(game, now + 5_000) == 0
        store.watch(game, "late", now + 6_000, now + 9_000)  # expired ones do not come back
        assert store.watchers(game, now + 6_000) == 1

    def test_a_purged_game_has_no_spectators_left(self, store: Any) -> None:
        meta = self.created(store)
        now = int(time.time() * 1000)
        store.watch(meta.id, "s1", now, now + 30_000)
        store.purge(meta.id)
        assert store.watchers(meta.id, now) == 0
