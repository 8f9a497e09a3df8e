"""Loading a game: the rules of each game, and a game folded from an in-process cache of states
plus the events newer than it (or from the latest snapshot when nothing is cached).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from domain.chain import GENESIS
from domain.lifecycle import lifecycle
from domain.protocol import Game, fold
from domain.registry import all_games, get_game
from service import folding, snapshots
from service.archive import Archive
from service.cache import Folded, StateCache
from service.errors import GameArchived, NotFound, ServiceError
from service.folding import Loaded
from service.request_checks import GAME_ID
from service.store.port import (
    ChainBroken,
    EventLog,
    GameMeta,
    IdempotencyRecord,
    Seats,
    StoredEvent,
)

log = logging.getLogger("service.games")  # the use cases' logger, named as before the split


class Rulebook:
    """The games the service plays, each with its lifecycle. ``games`` adds games beside the
    registry's (tests)."""

    def __init__(self, games: Mapping[str, Game[Any]] | None = None) -> None:
        self.games = games

    def of(self, name: object) -> Game[Any]:
        """The game of that name with its lifecycle (UnknownGame otherwise)."""
        if self.games is not None and isinstance(name, str) and name in self.games:
            return lifecycle(self.games[name])
        return lifecycle(get_game(name))

    def every(self) -> list[Game[Any]]:
        """Every game, by name (without its lifecycle)."""
        games = {**all_games(), **(self.games or {})}
        return sorted(games.values(), key=lambda g: g.name)


class GameLoader:
    """A game at its current version, in one store round trip, folded on from this process's
    cache (``cache``, shared per process); what the store does not hold is archived
    (``archive``) or not found."""

    def __init__(
        self,
        log: EventLog,
        seats: Seats,
        rules: Rulebook,
        cache: StateCache,
        archive: Archive | None = None,
    ) -> None:
        self.log = log
        self.seats = seats
        self.rules = rules
        self.cache = cache
        self.archive = archive

    def load(self, game_id: str) -> Loaded:
        """The game at its current version (one store round trip)."""
        return self.load_with(game_id)[0]

    def meta(self, game_id: str) -> GameMeta:
        """A game's metadata as stored now (NotFound, GameArchived)."""
        meta = self.seats.meta(game_id) if GAME_ID.match(game_id) else None
        if meta is None:
            raise self.unknown(game_id)
        return meta

    def unknown(self, game_id: str) -> ServiceError:
        """What a game the store does not hold is: archived, or not found."""
        self.cache.discard(game_id)
        if self.archive is not None and self.archive.summary(game_id) is not None:
            return GameArchived(
                f"game {game_id} is over and archived: its summary, events, replay and "
                "verification remain"
            )
        return NotFound(f"no game {game_id!r}")

    def load_with(
        self, game_id: str, *, read_from: int | None = None, idempotency_key: str | None = None
    ) -> tuple[Loaded, list[StoredEvent], IdempotencyRecord | None]:
        """The game as ``load`` has it, with the events read (from ``read_from`` on, else
        those after the cached fold) and the record of ``idempotency_key``, if any."""
        if not GAME_ID.match(game_id):
            raise NotFound(f"no game {game_id!r}")
        cached = self.cache.get(game_id)
        try:
            return self._load_on(game_id, cached, read_from, idempotency_key)
        except _StaleCache:
            pass
        except NotFound:
            raise self.unknown(game_id) from None
        except ChainBroken:
            if cached is None:
                raise
        # The stream is behind or beside the cached fold (Redis restored from an older state):
        # forget the fold and fold the stream as it is.
        log.warning("game %s: the cached state is ahead of the stream; refolding", game_id)
        self.cache.discard(game_id)
        return self._load_on(game_id, None, read_from, idempotency_key)

    def _load_on(
        self,
        game_id: str,
        cached: Folded | None,
        read_from: int | None,
        idempotency_key: str | None,
    ) -> tuple[Loaded, list[StoredEvent], IdempotencyRecord | None]:
        if cached is None and read_from is None:
            warmed = self._cold(game_id, idempotency_key)
            if warmed is not None:
                return warmed
        base = cached.version if cached else 0
        start = base if read_from is None else min(base, read_from)
        fetched = self.log.fetch(game_id, start, idempotency_key)
        if fetched.meta is None:
            raise NotFound(f"no game {game_id!r}")
        if cached is not None and fetched.head is not None and fetched.head < cached.version:
            raise _StaleCache(game_id)
        rules = self.rules.of(fetched.meta.game)
        newer = [s for s in fetched.events if s.version > base]
        if cached is None:
            loaded = Loaded(fetched.meta, rules, fold(rules, ()), 0, GENESIS)
        else:
            loaded = Loaded(fetched.meta, rules, cached.state, cached.version, cached.head_hash)
        if newer:
            loaded = folding.refold(fetched.meta, folding.fold_stored(loaded, newer))
        self.cache.keep(loaded)
        return loaded, fetched.events, fetched.idempotency

    def _cold(
        self, game_id: str, idempotency_key: str | None
    ) -> tuple[Loaded, list[StoredEvent], IdempotencyRecord | None] | None:
        """A game this process holds nothing of, in one read: from its latest snapshot and the
        events after it (``service.snapshots``), or from all its events when it has none. None
        when the snapshot is one this code cannot use or the stream no longer holds it as it
        was (the caller then folds the whole stream)."""
        fetched = self.log.fetch_latest(game_id, idempotency_key)
        if fetched.meta is None:
            raise NotFound(f"no game {game_id!r}")
        rules, events = self.rules.of(fetched.meta.game), fetched.events
        snap = snapshots.from_bytes(fetched.snapshot)
        if snap is None:  # every event (a broken chain is then reported as such)
            start, rest = Loaded(fetched.meta, rules, fold(rules, ()), 0, GENESIS), events
        else:
            state = snapshots.state_of(snap)
            first = (events[0].version, events[0].hash) if events else None
            if state is None or first != (snap.version, snap.head_hash):
                return None  # the stream does not hold the snapshot's version as it was
            start = Loaded(fetched.meta, rules, state, snap.version, snap.head_hash)
            rest = events[1:]
        try:
            loaded = folding.refold(fetched.meta, folding.fold_stored(start, rest))
        except Exception:
            if snap is None:
                raise
            # a break after the snapshot, or a planted state the events do not fold onto: the
            # whole stream is folded (and a break reported) instead
            log.warning("game %s: not folding from its snapshot at version %s", game_id,
                        snap.version, exc_info=True)  # fmt: skip
            return None
        self.cache.keep(loaded)
        return loaded, events, fetched.idempotency

    def refresh_meta(self, meta: GameMeta) -> None:
        """A cached fold takes the metadata a join or a leave changed without an append (the
        warm path of ``Acting.submit_action`` answers from the cache, seat names included)."""
        cached = self.cache.get(meta.id)
        if cached is not None:
            self.cache.put(meta.id, Folded(meta, cached.state, cached.version, cached.head_hash))


class _StaleCache(Exception):
    """The cached fold is newer than the stream it came from."""
