"""The operator's use cases: list games as the operator sees them,
stop a game, purge one, and the bot accounts. ``service.api.admin`` serves them behind
``CARDROOM_ADMIN_TOKEN``; each act is logged there, with who asked.

Stopping a game is an append like any other: ``lifecycle.GameStopped`` with the operator's
reason, then the secret revealed (the stored command is ``{"kind": "stop", "reason": ...}``,
which the replay audit re-runs). Purging forgets a game in the store (``Retention.purge``):
only a game nobody plays, waiting for players or over (stop a playing one first).

Bot names: the operator holds the names of its own bots (``add_operator_bot``; a worker
serving ``--bot NAME`` claims its names itself), so no HTTP account can take them; revoking a
name (an account's or the operator's) leaves it held by nobody and takeable by the operator
only: the seats naming it in live games stay unplayed (end those games, or let the idle rule).
"""

from __future__ import annotations

from typing import Any

from domain.protocol import fold
from service import deal_keys, digests, public, request_checks
from service.bots import BUILTIN_BOTS, OPERATOR, REVOKED, BotDirectory, BotRegistry
from service.cache import StateCache
from service.errors import BotExists, GameLive, InvalidRequest, NotFound
from service.folding import Loaded
from service.json_ready import json_ready
from service.loading import GameLoader, log
from service.settling import AfterAppend
from service.store.port import (
    EventLog,
    GameMeta,
    Listing,
    Retention,
    Seats,
    VersionConflict,
)
from service.store.records import salt_of

PAGE = 200  # games read per page of the store's listing while filtering by creator


class Operating:
    """What only the operator may do."""

    def __init__(
        self,
        loader: GameLoader,
        log: EventLog,
        seats: Seats,
        listing: Listing,
        retention: Retention,
        cache: StateCache,
        after: AfterAppend,
        bots: BotDirectory | None = None,
    ) -> None:
        self.loader = loader
        self.log = log
        self.seats = seats
        self.listing = listing
        self.retention = retention
        self.cache = cache
        self.after = after
        self.bots = bots

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
            page = self.listing.list_games(game=game, status=status, limit=PAGE, offset=offset)
            found += [_listed(m) for m in page if creator is None or m.creator == creator]
            if len(found) >= limit or len(page) < PAGE:
                break
        return found[:limit]

    def stop_game(self, game_id: str, reason: str, attempts: int = 5) -> dict[str, Any]:
        """End a game that is not over: ``lifecycle.GameStopped`` with ``reason``, the secret
        revealed. Nobody wins or loses. GameOver (409) for a game over already."""
        for _ in range(attempts):
            loaded = self.loader.load(game_id)
            try:
                return self._stop(loaded, reason)
            except VersionConflict:
                continue  # someone moved meanwhile: stop the newer game
        raise VersionConflict(game_id, self.loader.load(game_id).version, loaded.version)

    def _stop(self, loaded: Loaded, reason: str) -> dict[str, Any]:
        keys = deal_keys.keys_of(loaded.meta)
        if keys is None:
            raise NotFound(f"game {loaded.meta.id} predates recorded secrets: it cannot stop")
        rules = loaded.game
        events = rules.stop(loaded.state, keys, reason)  # type: ignore[attr-defined]
        encoded = [rules.codec.encode(e) for e in events]
        self.log.append(loaded.meta.id, loaded.version, encoded,
                          {"kind": "stop", "reason": reason}, prev_hash=loaded.head_hash,
                          status="over", salt=salt_of(loaded.meta))  # fmt: skip
        head = digests.head(encoded, loaded.head_hash, salt_of(loaded.meta))
        state = fold(rules, events, loaded.state)
        after = Loaded(loaded.meta.with_status("over"), rules, state,
                       loaded.version + len(encoded), head)  # fmt: skip
        self.after.settle(after)
        log.warning("game %s stopped by the operator: %s", loaded.meta.id, reason)
        return {"id": loaded.meta.id, "version": after.version,
                "outcome": json_ready(rules.outcome(state))}  # fmt: skip

    def purge_game(self, game_id: str) -> dict[str, Any]:
        """Forget a game nobody plays (waiting or over) in the store; GameLive for a game
        being played (stop it first), NotFound for a game the store does not hold."""
        meta = self.seats.meta(game_id) if request_checks.GAME_ID.match(game_id) else None
        if meta is None:
            raise NotFound(f"no game {game_id} in the store")
        if meta.status == "playing":
            raise GameLive(f"game {game_id} is being played: stop it first (its reason "
                           "recorded), then purge it")  # fmt: skip
        self.retention.purge(game_id)
        self.cache.discard(game_id)
        log.warning("game %s (%s, %s) purged by the operator", game_id, meta.game, meta.status)
        return {"id": game_id, "status": meta.status, "purged": True}


    def bot_names(self) -> list[dict[str, Any]]:
        """Every bot name held, by name: its kind (``operator``, ``account``, ``revoked``)
        and its last heartbeat (a worker's, an open stream's), if any."""
        registry = self._registry()
        holders = registry.holders()
        seen = registry.registrations(holders)
        return [{"name": name, "kind": _kind(held),
                 "last_seen": seen[name].seen if name in seen else None}
                for name, held in sorted(holders.items())]  # fmt: skip

    def add_operator_bot(self, name: str) -> dict[str, Any]:
        """Hold a name for the operator's own bot (before its worker first starts); BotExists
        when an HTTP account holds it (revoke that first)."""
        registry = self._registry()
        if not request_checks.BOT_NAME.match(name) or name in BUILTIN_BOTS:
            raise InvalidRequest(f"{name!r} is no name for a bot of yours (a simple name, not "
                                 f"one of the built-in {', '.join(BUILTIN_BOTS)})")  # fmt: skip
        if not registry.claim_operator(name):
            raise BotExists(f"the bot name {name!r} is an HTTP bot account's: revoke it "
                            "first (its live games' seats then wait for you)")  # fmt: skip
        log.warning("bot name %s held for the operator", name)
        return {"name": name, "kind": "operator"}

    def revoke_bot(self, name: str) -> dict[str, Any]:
        """Revoke a bot name: an account's token stops working and its stream ends, an
        operator's name is no longer seatable; nobody but the operator may take it again.
        Answers the live games that seat it (their bot seats now wait)."""
        registry = self._registry()
        active = registry.active(name)
        held = registry.revoke(name)
        if held is None:
            raise NotFound(f"no bot name {name!r} is held")
        log.warning("bot name %s (%s) revoked; it sits in %d live games", name, _kind(held),
                    len(active))  # fmt: skip
        return {"name": name, "was": _kind(held), "live_games": active}

    def _registry(self) -> BotRegistry:
        if self.bots is None:
            raise NotFound("this service keeps no bot registry")
        return self.bots.registry


def _kind(held: str) -> str:
    return {OPERATOR: "operator", REVOKED: "revoked"}.get(held, "account")


def _listed(meta: GameMeta) -> dict[str, Any]:
    return {
        "id": meta.id,
        "game": meta.game,
        "status": meta.status,
        "players": meta.players,
        "seats": public.public_seats(meta),
        "created": meta.created,
        "creator": meta.creator,
    }
