"""An archive in a dict: the port's fake, for tests and in-process use."""

from __future__ import annotations

import threading
from typing import Any

from service.archive.port import ArchivedGame, listed


class MemoryArchive:
    """Games kept in this process only."""

    def __init__(self) -> None:
        self._games: dict[str, ArchivedGame] = {}
        self._lock = threading.Lock()

    def put(self, archived: ArchivedGame) -> None:
        with self._lock:
            self._games[archived.id] = archived

    def get(self, game_id: str) -> ArchivedGame | None:
        with self._lock:
            return self._games.get(game_id)

    def summary(self, game_id: str) -> dict[str, Any] | None:
        found = self.get(game_id)
        return None if found is None else dict(found.summary)

    def listing(
        self, game: str | None = None, limit: int = 50, offset: int = 0
    ) -> list[dict[str, Any]]:
        with self._lock:
            kept = [g for g in self._games.values() if game is None or g.game == game]
        kept.sort(key=lambda g: (g.created, g.id), reverse=True)
        return [listed(g.summary) for g in kept[offset : offset + max(0, limit)]]

    def delete(self, game_id: str) -> bool:
        with self._lock:
            return self._games.pop(game_id, None) is not None
