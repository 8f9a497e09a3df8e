"""An in-process LRU of folded game states: reads fold only the events newer than the cache."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from service.folding import Loaded
from service.store.port import GameMeta


@dataclass(frozen=True, slots=True)
class Folded:
    """A game folded up to ``version``; ``head_hash`` is the hash of event ``version``."""

    meta: GameMeta
    state: Any
    version: int
    head_hash: str


class StateCache:
    """A bounded, thread-safe map game id -> Folded; entries only ever move forward."""

    def __init__(self, capacity: int = 1024) -> None:
        self.capacity = capacity
        self._items: OrderedDict[str, Folded] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Folded | None:
        """The cached fold, marking it recently used."""
        with self._lock:
            item = self._items.get(game_id)
            if item is not None:
                self._items.move_to_end(game_id)
            return item

    def put(self, game_id: str, folded: Folded) -> None:
        """Keep a fold unless a newer one is cached already."""
        if self.capacity <= 0:
            return
        with self._lock:
            current = self._items.get(game_id)
            if current is not None and current.version > folded.version:
                return
            self._items[game_id] = folded
            self._items.move_to_end(game_id)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)

    def keep(self, loaded: Loaded) -> None:
        """Keep a loaded game's fold (``put``)."""
        folded = Folded(loaded.meta, loaded.state, loaded.version, loaded.head_hash)
        self.put(loaded.meta.id, folded)

    def discard(self, game_id: str) -> None:
        """Forget one game (its fold is ahead of its stream: Redis was restored)."""
        with self._lock:
            self._items.pop(game_id, None)

    def clear(self) -> None:
        """Forget everything."""
        with self._lock:
            self._items.clear()
