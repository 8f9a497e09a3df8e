"""The operator's use cases (a mixin of ``GameService``): list games as the operator sees them,
stop a game, purge one, and the bot accounts. ``service.api.admin`` serves them behind
``CARDROOM_ADMIN_TOKEN``; each act is logged there, with who asked.

Stopping a game is an append like any other: ``lifecycle.GameStopped`` with the operator's
reason, then the secret revealed (the stored command is ``{"kind": "stop", "reason": ...}``,
which the replay audit re-runs). Purging forgets a game in the store (``EventStore.purge``):
only a game nobody plays, waiting for players or over (stop a playing one first).
"""

from __future__ import annotations

from typing import Any

from domain.protocol import fold
from service import dealing, shapes
from service.access import Access
from service.base import log
from service.errors import GameLive, NotFound
from service.folding import Loaded
from service.store.port import GameMeta, VersionConflict
from service.store.records import salt_of

PAGE = 200  # games read per page of the store's listing while filtering by creator


class Operating(Access):
    """What only the operator may do."""

    def admin_games(
        self,
        game: str | None = None,
        status: str | None = None,
        creator: str | None = None,
        limit: int = 100,
    ) -> list[dict[str, Any]]:
        """Games newest first, with who created them (the client address), filtered."""
        found: list[dict[str, Any]] = []
        for offset in range(0, 1_000_000, PAGE):
            page = self.store.list_games(game=game, status=status, limit=PAGE, offset=offset)
            found += [_listed(m) for m in page if creator is None or m.creator == creator]
            if len(found) >= limit or len(page) < PAGE:
                break
        return found[:limit]

    def stop_game(self, game_id: str, reason: str, attempts: int = 5) -> dict[str, Any]:
        """End a game that is not over: ``lifecycle.GameStopped`` with ``reason``, the secret
        revealed. Nobody wins or loses. GameOver (409) for a game over already."""
        for _ in range(attempts):
            loaded = self.load(game_id)
            try:
                return self._stop(loaded, reason)
            except VersionConflict:
                continue  # someone moved meanwhile: stop the newer game
        raise VersionConflict(game_id, self.load(game_id).version, loaded.version)

    def _stop(self, loaded: Loaded, reason: str) -> dict[str, Any]:
        keys = dealing.keys_of(loaded.meta)
        if keys is None:
            raise NotFound(f"game {loaded.meta.id} predates recorded secrets: it cannot stop")
        rules = loaded.game
        events = rules.stop(loaded.state, keys, reason)  # type: ignore[attr-defined]
        encoded = [rules.codec.encode(e) for e in events]
        self.store.append(loaded.meta.id, loaded.version, encoded,
                          {"kind": "stop", "reason": reason}, prev_hash=loaded.head_hash,
                          status="over", salt=salt_of(loaded.meta))  # fmt: skip
        head = shapes.head(encoded, loaded.head_hash, salt_of(loaded.meta))
        state = fold(rules, events, loaded.state)
        after = Loaded(loaded.meta.with_status("over"), rules, state,
                       loaded.version + len(encoded), head)  # fmt: skip
        self._remember(after)
        self._notify(after)
        log.warning("game %s stopped by the operator: %s", loaded.meta.id, reason)
        return {"id": loaded.meta.id, "version": after.version,
                "outcome": shapes.json_ready(rules.outcome(state))}  # fmt: skip

    def purge_game(self, game_id: str) -> dict[str, Any]:
        """Forget a game nobody plays (waiting or over) in the store; GameLive for a game
        being played (stop it first), NotFound for a game the store does not hold."""
        meta = self.store.meta(game_id) if shapes.GAME_ID.match(game_id) else None
        if meta is None:
            raise NotFound(f"no game {game_id} in the store")
        if meta.status == "playing":
            raise GameLive(f"game {game_id} is being played: stop it first (its reason "
                           "recorded), then purge it")  # fmt: skip
        self.store.purge(game_id)
        self.cache.discard(game_id)
        log.warning("game %s (%s, %s) purged by the operator", game_id, meta.game, meta.status)
        return {"id": game_id, "status": meta.status, "purged": True}


def _listed(meta: GameMeta) -> dict[str, Any]:
    return {
        "id": meta.id,
        "game": meta.game,
        "status": meta.status,
        "players": meta.players,
        "seats": shapes.public_seats(meta),
        "created": meta.created,
        "creator": meta.creator,
    }
