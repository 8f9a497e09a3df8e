"""``ServiceBase``: the state ``GameService`` is made of and how it loads and caches games.

Reads fold from an in-process cache of states plus the events newer than it (or from the
latest snapshot when nothing is cached).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from domain.chain import GENESIS
from domain.lifecycle import lifecycle
from domain.protocol import Game, fold
from domain.registry import all_games, get_game
from service import clocks, folding, public, snapshots
from service.archive import Archive
from service.bots import BotDirectory, builtin_bots
from service.cache import Folded, StateCache
from service.errors import GameArchived, NotFound, ServiceError
from service.folding import Loaded
from service.receipts import Signer
from service.request_checks import GAME_ID
from service.scheduling import NoScheduler, Scheduler
from service.shared_reads import SharedReads
from service.store.port import ChainBroken, EventStore, GameMeta, IdempotencyRecord, StoredEvent

log = logging.getLogger("service.games")  # the use cases' logger, named as before the split


class ServiceBase:
    """What every use case stands on: the store, the cache, the rules, loading a game and
    telling the clocks and the scheduler after an append. ``games`` replaces the registry
    (tests); ``cache`` is shared per process."""

    def __init__(
        self,
        store: EventStore,
        scheduler: Scheduler | None = None,
        *,
        games: Mapping[str, Game[Any]] | None = None,
        cache: StateCache | None = None,
        clock: Callable[[], float] = time.time,
        bots: BotDirectory | None = None,
        check_action: Callable[[str, Any], None] | None = None,
        archive: Archive | None = None,
        bot_pace_ms: int = 0,
        signer: Signer | None = None,
    ) -> None:
        self.store = store
        # the pace of bots in the games with people it creates, unless their creator sets one
        self.bot_pace_ms = bot_pace_ms
        self.signer = signer  # signs the receipts it gives (service.receipts); None: unsigned
        self.archive = archive  # where finished games go (service.retention); None: nowhere
        # the action's shape, by the game's schemas (service.api.typed.check_action), before
        # the game decides it; None: the games' own checks only
        self.check_action = check_action
        self.bots = bots  # None: any bot name is accepted (trusted callers, tests)
        self.scheduler: Scheduler = scheduler or NoScheduler()
        self.cache = cache or StateCache()
        self.shared_reads = SharedReads()  # the streams of a game share their reads
        self._games = games
        self._clock = clock

    def signed(self, meta: GameMeta, version: int, head_hash: str) -> dict[str, str]:
        """``receipt_signature`` of the receipt (salted chains, when the server has a key)."""
        if self.signer is None or not meta.secret:
            return {}
        return {"receipt_signature": self.signer.sign(meta.id, version, head_hash)}

    @property
    def wall(self) -> Callable[[], float]:
        """The service's clock (Unix seconds): what stamps clocked games' commands."""
        return self._clock

    # -- games and rules ---------------------------------------------------------------
    def rules(self, name: object) -> Game[Any]:
        """The game of that name with its lifecycle (UnknownGame otherwise)."""
        if self._games is not None and isinstance(name, str) and name in self._games:
            return lifecycle(self._games[name])
        return lifecycle(get_game(name))

    def catalogue(self) -> list[dict[str, Any]]:
        """Every game with its player range and options."""
        games = {**all_games(), **(self._games or {})}
        return [
            {
                "name": g.name,
                "title": g.title,
                "min_players": g.min_players,
                "max_players": g.max_players,
                "options": [o.describe() for o in lifecycle(g).options],
                "bots": builtin_bots(g.name) if self.bots is None else self.bots.known(g.name),
            }
            for g in sorted(games.values(), key=lambda g: g.name)
        ]

    # -- reads ---------------------------------------------------------------------------
    def load(self, game_id: str) -> Loaded:
        """The game at its current version (one store round trip)."""
        return self._load(game_id)[0]

    # -- internals -----------------------------------------------------------------------
    def _meta(self, game_id: str) -> GameMeta:
        meta = self.store.meta(game_id) if GAME_ID.match(game_id) else None
        if meta is None:
            raise self._unknown(game_id)
        return meta

    def _unknown(self, game_id: str) -> ServiceError:
        """What a game the store does not hold is: archived, or not found."""
        self.cache.discard(game_id)
        if self.archive is not None and self.archive.summary(game_id) is not None:
            return GameArchived(
                f"game {game_id} is over and archived: its summary, events, replay and "
                "verification remain"
            )
        return NotFound(f"no game {game_id!r}")

    def _load(
        self, game_id: str, *, read_from: int | None = None, idempotency_key: str | None = None
    ) -> tuple[Loaded, list[StoredEvent], IdempotencyRecord | None]:
        if not GAME_ID.match(game_id):
            raise NotFound(f"no game {game_id!r}")
        cached = self.cache.get(game_id)
        try:
            return self._load_on(game_id, cached, read_from, idempotency_key)
        except _StaleCache:
            pass
        except NotFound:
            raise self._unknown(game_id) from None
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
        fetched = self.store.fetch(game_id, start, idempotency_key)
        if fetched.meta is None:
            raise NotFound(f"no game {game_id!r}")
        if cached is not None and fetched.head is not None and fetched.head < cached.version:
            raise _StaleCache(game_id)
        rules = self.rules(fetched.meta.game)
        newer = [s for s in fetched.events if s.version > base]
        if cached is None:
            loaded = Loaded(fetched.meta, rules, fold(rules, ()), 0, GENESIS)
        else:
            loaded = Loaded(fetched.meta, rules, cached.state, cached.version, cached.head_hash)
        if newer:
            loaded = folding.refold(fetched.meta, folding.fold_stored(loaded, newer))
        self._remember(loaded)
        return loaded, fetched.events, fetched.idempotency

    def _cold(
        self, game_id: str, idempotency_key: str | None
    ) -> tuple[Loaded, list[StoredEvent], IdempotencyRecord | None] | None:
        """A game this process holds nothing of, in one read: from its latest snapshot and the
        events after it (``service.snapshots``), or from all its events when it has none. None
        when the snapshot is one this code cannot use or the stream no longer holds it as it
        was (the caller then folds the whole stream)."""
        fetched = self.store.fetch_latest(game_id, idempotency_key)
        if fetched.meta is None:
            raise NotFound(f"no game {game_id!r}")
        rules, events = self.rules(fetched.meta.game), fetched.events
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
        self._remember(loaded)
        return loaded, events, fetched.idempotency

    def _refresh_meta(self, meta: GameMeta) -> None:
        """A cached fold takes the metadata a join or a leave changed without an append (the
        warm path of ``submit_action`` answers from the cache, seat names included)."""
        cached = self.cache.get(meta.id)
        if cached is not None:
            self.cache.put(meta.id, Folded(meta, cached.state, cached.version, cached.head_hash))

    def _remember(self, loaded: Loaded) -> None:
        self.cache.put(
            loaded.meta.id, Folded(loaded.meta, loaded.state, loaded.version, loaded.head_hash)
        )

    def settle(self, loaded: Loaded) -> None:
        """After an append: remember the new state and tell the clocks and the scheduler."""
        self._remember(loaded)
        self._notify(loaded)

    def _notify(self, loaded: Loaded) -> bool:
        try:
            clocks.after_append(self.store, self.scheduler, loaded)
        except Exception:  # the append happened; the sweeper finds the clock in the index
            log.exception("clock scheduling failed after game %s v%s", loaded.meta.id,
                          loaded.version)  # fmt: skip
        try:
            self.scheduler.after_append(
                loaded.meta.id,
                loaded.version,
                game=loaded.meta.game,
                seats=public.public_seats(loaded.meta),
                to_act=tuple(loaded.game.awaited_seats(loaded.state)),
                over=loaded.over,
            )
        except Exception:  # the append happened; scheduling is best effort
            log.exception(
                "scheduler failed after game %s version %s", loaded.meta.id, loaded.version
            )
            return False
        return True


class _StaleCache(Exception):
    """The cached fold is newer than the stream it came from."""
