"""The service layer: every use case of the API (and of the bot workers) as one method call.

No Flask here. ``GameService(store, scheduler)`` is all a caller needs::

    service = GameService(RedisEventStore.from_url(url, namespace), scheduler)
    service.submit_action(game_id, seat, {"type": "play", "cards": ["3H"]}, expected_version=7,
                          idempotency_key="bot:...")

Reads fold from an in-process cache of states plus the events newer than it. Round trips per
action: one conditional append when this process's fold is at the caller's expected version
(a conflict brings the newer events back); otherwise one ``fetch`` (meta + newer events +
idempotency lookup) first. Plus one index update on the action that ends the game.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.chain import GENESIS
from domain.errors import DomainError, GameOver, InvalidAction
from domain.lifecycle import Keys, create_command, join_command, lifecycle
from domain.protocol import Game, action_command, fold
from domain.registry import all_games, get_game
from service import clocks, dealing, folding, metrics, responses, shapes, snapshots, tickets
from service.bots import BUILTIN_BOTS, BotDirectory
from service.cache import Folded, StateCache
from service.errors import (
    BotExists,
    InvalidRequest,
    NotFound,
    SeatLeft,
    SeatNotOpen,
    Unauthorized,
    UnknownBot,
)
from service.folding import Loaded
from service.scheduling import NoScheduler, Scheduler
from service.shapes import GAME_ID, fingerprint, token_hash
from service.store.port import (
    ChainBroken,
    EventStore,
    GameMeta,
    IdempotencyKeyReused,
    IdempotencyRecord,
    SeatTaken,
    StoredEvent,
    VersionConflict,
)
from service.store.records import build_entries, creation_key, salt_of, seat_key

__all__ = ["GameService", "Loaded", "NoScheduler", "Scheduler", "fingerprint", "token_hash"]

log = logging.getLogger(__name__)


JOIN_ATTEMPTS = 8  # joins of other seats racing this one (each retry re-reads and re-decides)


def join_key(seat: int, key: str) -> str:
    """Where a join's Idempotency-Key is recorded (apart from the seat's action keys)."""
    return f"join:{seat}:{key}"


def new_game_id() -> str:
    """A fresh random game id."""
    return secrets.token_urlsafe(12)


class GameService:
    """The use cases. ``games`` replaces the registry (tests); ``cache`` is shared per process."""

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
    ) -> None:
        self.store = store
        # the action's shape, by the game's schemas (service.api.typed.check_action), before
        # the game decides it; None: the games' own checks only
        self.check_action = check_action
        self.bots = bots  # None: any bot name is accepted (trusted callers, tests)
        self.scheduler: Scheduler = scheduler or NoScheduler()
        self.cache = cache or StateCache()
        self._games = games
        self._clock = clock

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
            }
            for g in sorted(games.values(), key=lambda g: g.name)
        ]

    # -- create and join ---------------------------------------------------------------
    def create_game(
        self,
        game: str,
        seats: Sequence[Mapping[str, Any]],
        *,
        options: Mapping[str, Any] | None = None,
        seed: str | None = None,
        dealer: int | None = None,
        deal: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """Start a game: validate, record the creation batch, return id/version/seats.

        With ``idempotency_key`` the game id is derived from the key, so a retried request
        finds the game its first attempt made and returns the first response unchanged.
        """
        request = shapes.creation_fingerprint(game, seats, options, seed, dealer, deal)
        rules = self.rules(game)
        records = tuple(shapes.seat_record(i, s) for i, s in enumerate(seats))
        self._check_bots(rules.name, records)
        keys = dealing.creation_keys(None if seed is None else shapes.check_seed(seed), deal)
        filled = [(i, dealing.draw_entropy()) for i, r in enumerate(records) if r.type == "bot"]
        setup: dict[str, Any] = {
            "players": len(records),
            "options": dict(options or {}),
            "dealer": dealer,
            "bots": [i for i, r in enumerate(records) if r.type == "bot"],
        }
        at = clocks.now_ms(self._clock)
        events = folding.create(rules, keys, filled=filled, at=at, **setup)
        state = fold(rules, events)
        encoded = [rules.codec.encode(e) for e in events]
        meta = GameMeta(
            id=shapes.game_id_for_key(idempotency_key) if idempotency_key else new_game_id(),
            game=rules.name,
            players=len(records),
            options=shapes.json_ready(state.created.options),
            seats=records,
            created=self._clock(),
            commitment=state.created.commitment,
            seed=keys.seed or "",
            status=shapes.status(rules, state, records),
            secret=keys.secret,
            deal=shapes.json_ready(keys.deal),
            prearranged=keys.prearranged,
        )
        head = shapes.head(encoded, None, salt_of(meta))
        response = shapes.json_ready(
            {
                "id": meta.id,
                "game": meta.game,
                "version": len(encoded),
                "status": meta.status,
                "seats": shapes.public_seats(meta),
                "commitment": meta.commitment,
                "prearranged": meta.prearranged,
                "head_hash": head,
                "to_act": list(rules.awaited_seats(state)),
            }
        )
        record = None
        if idempotency_key:
            key = creation_key(idempotency_key)
            record = IdempotencyRecord(key, request, len(encoded), response)
        command = clocks.stamp(create_command(filled=filled, **setup), state, at)
        created = self.store.create(meta, encoded, command, record)
        if created.replayed is not None:
            self.complete_create(meta.id)  # the first attempt may have stopped half-way
            return dict(created.replayed.response)
        self._index_bot_accounts(meta)
        loaded = Loaded(meta, rules, state, len(encoded), head)
        self._remember(loaded)
        if self._notify(loaded):
            self.store.settle_create(meta.id)
        return dict(response)

    def _check_bots(self, game: str, records: Sequence[Any]) -> None:
        if self.bots is None:
            return
        names = {str(r.bot) for r in records if r.type == "bot"}
        known = self.bots.known(game) if names else []
        unknown = sorted(names - set(known))
        if unknown:
            raise UnknownBot(
                f"no bot named {', '.join(map(repr, unknown))} plays {game}; "
                f"known: {', '.join(known)}",
                known=known,
            )

    def _index_bot_accounts(self, meta: GameMeta) -> None:
        if self.bots is None:
            return
        for name in {str(s.bot) for s in meta.seats if s.type == "bot"} - set(BUILTIN_BOTS):
            if self.bots.registry.is_account(name):
                self.bots.registry.add_game(name, meta.id)

    def bots_missing(self, meta: GameMeta) -> list[dict[str, Any]]:
        """The bot seats whose (user) bot has no live worker, while the game is not over."""
        if self.bots is None or meta.status == "over":
            return []
        return self.bots.missing(
            (i, str(s.bot)) for i, s in enumerate(meta.seats) if s.type == "bot"
        )

    def complete_create(self, game_id: str) -> bool:
        """Finish a creation that stopped after the game was written (a crash, a store error):
        list it and schedule its first turns. True when there was something to finish; called
        by an idempotent retry of the create and by the sweeper."""
        meta = self.store.finish_create(game_id)
        if meta is None:
            return False
        self._index_bot_accounts(meta)
        loaded = self.load(game_id)
        if self._notify(loaded):
            self.store.settle_create(game_id)
        log.warning("completed the half-done creation of game %s", game_id)
        return True

    def join_seat(
        self,
        game_id: str,
        seat: int,
        name: str,
        entropy: str | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """Fill an open seat with its entropy (the last one deals); the token is shown once.

        With ``idempotency_key`` a retry returns the same token (re-derived, never stored).
        """
        name = shapes.check_name(name)
        entropy = dealing.check_entropy(entropy)
        request = shapes.request_digest({"seat": seat, "name": name, "entropy": entropy})
        key = join_key(seat, idempotency_key) if idempotency_key else None
        for _ in range(JOIN_ATTEMPTS):
            loaded, _, earlier = self._load(game_id, idempotency_key=key)
            if earlier is None:
                self._check_open(loaded, seat)
                keys = dealing.keys_of(loaded.meta)
                if keys is None:
                    return self._join_meta(game_id, seat, name, secrets.token_urlsafe(32), {})
                try:
                    earlier = self._fill(loaded, seat, name, entropy, keys, key, request)
                except VersionConflict:
                    continue  # another seat was filled meanwhile: decide again
            return self._joined(loaded, seat, name, earlier, request, idempotency_key)
        raise SeatNotOpen(f"seat {seat} of game {game_id} is contended; try again")

    def _check_open(self, loaded: Loaded, seat: int) -> None:
        game_id = loaded.meta.id
        if not 0 <= seat < loaded.meta.players:
            raise NotFound(f"game {game_id} has no seat {seat}")
        if loaded.over:
            raise GameOver(f"game {game_id} is over")
        joinable = getattr(loaded.state, "joinable", None)
        if joinable is not None and seat in joinable and seat in loaded.state.left:
            self.store.vacate(game_id, seat)  # idempotent: a crash may have lost the leave's
            return
        if loaded.meta.seats[seat].type != "open" or (
            joinable is not None and seat not in joinable
        ):
            raise SeatNotOpen(f"seat {seat} of game {game_id} is not open")

    def _fill(
        self,
        loaded: Loaded,
        seat: int,
        name: str,
        entropy: str | None,
        keys: Keys,
        key: str | None,
        request: str,
    ) -> IdempotencyRecord:
        """Append the seat's SeatFilled (and the deal when it is the last); the join's record."""
        rules, salt = loaded.game, salt_of(loaded.meta)
        source = "server" if entropy is None else "client"
        value = entropy or dealing.draw_entropy()
        at = clocks.now_ms(self._clock)
        events = folding.join(rules, loaded.state, seat, value, keys, source, at)
        state = fold(rules, events, loaded.state)
        clocks.hint(self.store, loaded.meta.id, state)
        encoded = [rules.codec.encode(e) for e in events]
        version = loaded.version + len(encoded)
        head = shapes.head(encoded, loaded.head_hash, salt)
        response = {"id": loaded.meta.id, "seat": seat, "name": name, "version": version,
                    "head_hash": head, "prearranged": loaded.meta.prearranged}  # fmt: skip
        record = IdempotencyRecord(key or "", request, version, response)
        appended = self.store.append(
            loaded.meta.id,
            loaded.version,
            encoded,
            clocks.stamp(join_command(seat, value, source), state, at),
            prev_hash=loaded.head_hash,
            idempotency=record if key else None,
            status="playing" if state.dealt else None,
            salt=salt,
        )
        if appended.replayed is not None:
            return appended.replayed
        after = Loaded(loaded.meta, rules, state, version, head)
        self._remember(after)
        self._notify(after)
        return record

    def _joined(
        self,
        loaded: Loaded,
        seat: int,
        name: str,
        record: IdempotencyRecord,
        request: str,
        idempotency_key: str | None,
    ) -> dict[str, Any]:
        if record.fingerprint != request:
            raise IdempotencyKeyReused("that idempotency key already joined with another request")
        secret = loaded.meta.secret
        token = (
            dealing.join_token(secret, seat, idempotency_key)
            if idempotency_key
            else secrets.token_urlsafe(32)
        )
        return self._join_meta(loaded.meta.id, seat, name, token, dict(record.response))

    def _join_meta(
        self, game_id: str, seat: int, name: str, token: str, response: dict[str, Any]
    ) -> dict[str, Any]:
        """Record the seat's token (once: a retry whose first attempt recorded it reuses it)."""
        meta = self._meta(game_id)
        if meta.seats[seat].token_hash != token_hash(token):
            try:
                meta = self.store.join(game_id, seat, name, token_hash(token))
            except SeatTaken as err:
                raise SeatNotOpen(f"seat {seat} of game {game_id} is not open") from err
        self._refresh_meta(meta)
        out = {"id": game_id, "seat": seat, "name": name, **response, "token": token}
        return {**out, "seats": shapes.public_seats(meta)}

    def seat_for_token(self, game_id: str, token: str, wanted: object = None) -> int:
        """The seat a token holds in that game (Unauthorized when none; SeatLeft when its
        holder left the seat).

        An HTTP bot account's token holds the seats that name its bot: ``wanted`` picks one
        of them, else the one the game waits on, else the first.
        """
        digest = token_hash(token)
        cached = self.cache.get(game_id)
        seat = cached.meta.seat_of_token_hash(digest) if cached else None
        if seat is None:
            meta = self._meta(game_id)
            if digest in meta.left:
                raise SeatLeft(f"this token's holder left their seat in game {game_id}")
            seat = meta.seat_of_token_hash(digest)
        if seat is None:
            seat = self._bot_account_seat(game_id, digest, wanted)
            if seat is None:
                raise Unauthorized("the token does not hold a seat in this game")
            return seat
        return self._still_held(game_id, seat, digest)

    def _still_held(self, game_id: str, seat: int, digest: str) -> int:
        """The seat, unless its holder left it (checked only in games where someone left)."""
        cached = self.cache.get(game_id)
        state = cached.state if cached is not None else self.load(game_id).state
        if not getattr(state, "left", ()):
            return seat
        if digest in self._meta(game_id).left or seat not in state.people:
            raise SeatLeft(f"this token's holder left seat {seat} of game {game_id}")
        return seat

    def stream_ticket(self, game_id: str, seat: int, seconds: int) -> dict[str, Any]:
        """A ticket to follow ``seat``'s private stream without its token (``service.tickets``)."""
        ticket = tickets.issue(self._meta(game_id), seat, time.time(), seconds)
        return {"ticket": ticket, "expires_in": seconds}

    def seat_for_ticket(self, game_id: str, ticket: str) -> int:
        """The seat a stream ticket is for (Unauthorized if unknown or expired)."""
        return tickets.check(self._meta(game_id), ticket, time.time())

    def _bot_account_seat(self, game_id: str, digest: str, wanted: object) -> int | None:
        name = self.bots.registry.account_of(digest) if self.bots is not None else None
        if name is None:
            return None
        loaded = self.load(game_id)
        seats = [i for i, s in enumerate(loaded.meta.seats) if s.type == "bot" and s.bot == name]
        if not seats:
            return None
        if wanted in seats:
            return int(wanted)
        awaited = [s for s in loaded.game.awaited_seats(loaded.state) if s in seats]
        return (awaited or seats)[0]

    def create_bot_account(self, name: str) -> dict[str, Any]:
        """An HTTP bot account: its name may then be seated; the token is shown this once."""
        if self.bots is None:
            raise NotFound("this service keeps no bot accounts")
        if not shapes.BOT_NAME.match(name):
            raise InvalidRequest(f"a bot name is a simple name, got {name!r}")
        if name in BUILTIN_BOTS or name in self.bots.registry.registered():
            raise BotExists(f"the bot name {name!r} is taken")
        token = secrets.token_urlsafe(32)
        if not self.bots.registry.create_account(name, token_hash(token)):
            raise BotExists(f"the bot name {name!r} is taken")
        self.bots.registry.heartbeat(name, (), self._clock())
        return {"name": name, "token": token}

    # -- actions -------------------------------------------------------------------------
    def submit_action(
        self,
        game_id: str,
        seat: int,
        action: Mapping[str, Any],
        expected_version: int,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """Decide and append one seat's action iff the game is at ``expected_version``.

        Returns ``{"version", "events": [{"version", "event"}] (redacted for the seat),
        "view"}``. A retried idempotency key returns the first response unchanged. Raises
        DomainError (rules), VersionConflict, IdempotencyKeyReused, NotFound.
        """
        if not isinstance(action, Mapping):
            raise InvalidAction("an action must be an object with a type")
        request = fingerprint(seat, action, expected_version)
        key = seat_key(seat, idempotency_key) if idempotency_key else None
        warm = self._warm(game_id, seat, expected_version)
        if warm is not None:
            # The common case: this process's fold is at the version the caller expects.
            # Decide on it and append in one round trip; the append checks the version and the
            # idempotency key, and a conflict brings the newer events along.
            try:
                return self._act(warm, seat, action, expected_version, request, key)
            except DomainError:
                pass  # refused on this fold: the stream may be ahead; decide on the stream
            except VersionConflict as conflict:
                self._catch_up(warm, conflict.newer)
                raise
        loaded, _, earlier = self._load(game_id, idempotency_key=key)
        if earlier is not None:
            return self._replay(loaded, earlier, request, seat)
        if not 0 <= seat < loaded.meta.players:
            raise NotFound(f"game {game_id} has no seat {seat}")
        if expected_version != loaded.version:
            raise VersionConflict(game_id, expected_version, loaded.version)
        return self._act(loaded, seat, action, expected_version, request, key)

    def _warm(self, game_id: str, seat: int, expected_version: int) -> Loaded | None:
        """The cached fold when it is at the caller's expected version (None otherwise)."""
        cached = self.cache.get(game_id)
        if cached is None or cached.version != expected_version:
            return None
        if not 0 <= seat < cached.meta.players:
            return None
        rules = self.rules(cached.meta.game)
        return Loaded(cached.meta, rules, cached.state, cached.version, cached.head_hash)

    def _catch_up(self, loaded: Loaded, newer: Sequence[StoredEvent] | None) -> None:
        """Fold the events a conflicting append brought back onto a stale cached fold."""
        if not newer or newer[0].version != loaded.version + 1:
            return
        try:
            self._remember(folding.fold_stored(loaded, newer))
        except Exception:  # the caller's 409 stands; the next read refolds the stream as it is
            log.warning("game %s: could not catch the cached fold up", loaded.meta.id)
            self.cache.discard(loaded.meta.id)

    def _act(
        self,
        loaded: Loaded,
        seat: int,
        action: Mapping[str, Any],
        expected_version: int,
        request: str,
        key: str | None,
    ) -> dict[str, Any]:
        """Decide on ``loaded`` and append under its version (one round trip)."""
        game_id = loaded.meta.id
        rules, version, salt = loaded.game, loaded.version, salt_of(loaded.meta)
        if self.check_action is not None:
            self.check_action(loaded.meta.game, action)
        keys = dealing.keys_of(loaded.meta)
        at = clocks.now_ms(self._clock)
        events = folding.decide(rules, loaded.state, seat, action, keys, at)
        state = fold(rules, events, loaded.state)
        clocks.hint(self.store, game_id, state)
        encoded = [rules.codec.encode(e) for e in events]
        command = clocks.stamp(action_command(seat, action), state, at)
        entries = build_entries(encoded, command, loaded.head_hash, salt)  # encoded, hashed once
        head = entries[-1]["hash"] if entries else loaded.head_hash
        response = responses.action_response(
            rules, version, events, state, seat, head, bool(salt), loaded.meta
        )
        record = None
        if key:  # the response is rendered again from the events for a retry
            fp = request[: responses.FINGERPRINT_CHARS]
            record = IdempotencyRecord(key, fp, response["version"], None)
        over = rules.outcome(state) is not None
        waits = getattr(state, "vacant", ()) and not getattr(loaded.state, "vacant", ())
        after_version = version + len(encoded)
        snapshot = b""
        if snapshots.due(version, after_version):
            snapshot = snapshots.to_bytes(snapshots.take(state, after_version, head))
        try:
            appended = self.store.append(
                game_id,
                version,
                encoded,
                command,
                prev_hash=loaded.head_hash,
                idempotency=record,
                status="over" if over else ("waiting" if waits else None),
                salt=salt,
                entries=entries,
                snapshot=snapshot,
            )
        except ChainBroken:
            # The stream was rewound and rewritten under our cached fold (Redis restored from
            # an older state, then played on): refold, and let the caller retry on the truth.
            self.cache.discard(game_id)
            fresh = self.load(game_id)
            if fresh.head_hash == loaded.head_hash:
                raise
            raise VersionConflict(game_id, expected_version, fresh.version) from None
        if appended.replayed is not None:
            return self._replay(loaded, appended.replayed, request, seat)
        metrics.ACTIONS_APPENDED.labels(loaded.meta.game).inc()
        if action.get("type") == "leave":
            self.store.vacate(game_id, seat)  # the token stops holding the seat
            self._refresh_meta(self._meta(game_id))
        after = Loaded(loaded.meta, rules, state, appended.version, head)
        self._remember(after)
        self._notify(after)
        return response

    def _replay(
        self, loaded: Loaded, earlier: IdempotencyRecord, request: str, seat: int
    ) -> dict[str, Any]:
        if not responses.same_request(earlier.fingerprint, request):
            raise IdempotencyKeyReused(
                "this seat already used that idempotency key for a different request"
            )
        if earlier.response is not None:  # a record written before responses were re-rendered
            return dict(earlier.response)
        return responses.render_action(self.store, loaded, seat, earlier.version)

    def expire_if_due(
        self, game_id: str, now: float, ttl: float, still_since: tuple[int, float] | None = None
    ) -> bool:
        """End a game still waiting for players ``ttl`` seconds after its creation (recorded as
        ``lifecycle.GameExpired`` and the secret revealed). True when it expired now.

        A dealt game waiting on a seat a person left open expires once it has stayed at the
        same version for ``ttl`` seconds: ``still_since`` is (version, since when), as the
        sweeper saw it."""
        loaded = self.load(game_id)
        keys = dealing.keys_of(loaded.meta)
        state = loaded.state
        if keys is None or loaded.over or loaded.meta.created + ttl > now:
            return False
        if state.dealt and not (
            getattr(state, "vacant", ())
            and still_since is not None
            and still_since[0] == loaded.version
            and still_since[1] + ttl <= now
        ):
            return False
        rules, salt = loaded.game, salt_of(loaded.meta)
        events = rules.expire(state, keys)  # type: ignore[attr-defined]
        encoded = [rules.codec.encode(e) for e in events]
        try:
            self.store.append(game_id, loaded.version, encoded, {"kind": "expire"},
                              prev_hash=loaded.head_hash, status="over", salt=salt)  # fmt: skip
        except VersionConflict:
            return False  # someone joined (or another sweeper expired it) meanwhile
        head = shapes.head(encoded, loaded.head_hash, salt)
        after = Loaded(loaded.meta, rules, fold(rules, events, state), loaded.version + 2, head)
        self._remember(after)
        self._notify(after)
        log.info("game %s expired with seats %s never filled", game_id, state.joinable)
        return True

    # -- reads ---------------------------------------------------------------------------
    def load(self, game_id: str) -> Loaded:
        """The game at its current version (one store round trip)."""
        return self._load(game_id)[0]

    def view(self, game_id: str, seat: int | None) -> dict[str, Any]:
        """What that seat (None: a spectator) sees now, with its legal actions."""
        loaded = self.load(game_id)
        if seat is not None and not 0 <= seat < loaded.meta.players:
            raise NotFound(f"game {game_id} has no seat {seat}")
        return {
            "id": game_id,
            "version": loaded.version,
            **shapes.receipt(loaded.meta, loaded.head_hash),
            "seat": seat,
            "view": clocks.add_remaining(
                shapes.json_ready(
                    shapes.for_people(loaded.game.view(loaded.state, seat), loaded.meta)
                ),
                clocks.now_ms(self._clock),
            ),
            "bots_missing": self.bots_missing(loaded.meta),
        }

    def events_after(
        self, game_id: str, after: int, seat: int | None, limit: int | None = None
    ) -> dict[str, Any]:
        """The seat's redacted events after ``after``; every stored field once the game is over.

        With ``limit``, at most that many events (read as one bounded range) and ``next_after``:
        the ``after`` of the next page, None once this page reaches the game's version.
        """
        after = max(0, after)
        if limit is None:
            loaded, stored, _ = self._load(game_id, read_from=after)
            newer = [s for s in stored if s.version > after]
            page_end = None
        else:
            loaded = self.load(game_id)
            upto = min(after + max(1, limit), loaded.version)
            newer = self.store.read(game_id, after, upto) if upto > after else []
            page_end = upto if upto < loaded.version else None
        out = self._events_out(game_id, loaded, newer, seat)
        if limit is not None:
            out["next_after"] = page_end
        return out

    def _events_out(
        self, game_id: str, loaded: Loaded, newer: Sequence[StoredEvent], seat: int | None
    ) -> dict[str, Any]:
        if loaded.over:
            items = [shapes.full_event(s) for s in newer]
        else:
            redact, decode = loaded.game.redact, loaded.game.codec.decode
            items = [
                {"version": s.version, "event": redact(decode(s.event), seat),
                 **shapes.receipt(loaded.meta, s.hash, "hash")}
                for s in newer
            ]  # fmt: skip
        return {
            "id": game_id,
            "version": loaded.version,
            **shapes.receipt(loaded.meta, loaded.head_hash),
            "over": loaded.over,
            "events": shapes.json_ready(items),
        }

    def summary(self, game_id: str) -> dict[str, Any]:
        """The public facts of a game (the seed only once it is over)."""
        loaded = self.load(game_id)
        meta, rules, state = loaded.meta, loaded.game, loaded.state
        outcome = rules.outcome(state)
        out = {
            "id": meta.id,
            "game": meta.game,
            "title": rules.title,
            "players": meta.players,
            "options": meta.options,
            "status": "over" if outcome is not None else meta.status,
            "seats": shapes.public_seats(meta),
            "to_act": list(rules.awaited_seats(state)),
            "version": loaded.version,
            "commitment": meta.commitment,
            "prearranged": meta.prearranged,
            "created": meta.created,
            "outcome": shapes.json_ready(outcome),
            "bots_missing": [] if outcome is not None else self.bots_missing(meta),
            **shapes.receipt(meta, loaded.head_hash),
        }
        if clocks.clocked(state) and outcome is None:
            out["clock"] = clocks.shown(state, clocks.now_ms(self._clock))
        if outcome is not None:
            # A format 1 game's head hash only once over: with two consecutive unsalted head
            # hashes a player could brute-force the few hidden cards of the newest event.
            out.update(shapes.revealed(meta, state))
            out["head_hash"] = loaded.head_hash
        return out

    def list_games(
        self, game: str | None = None, status: str | None = None, limit: int = 50, offset: int = 0
    ) -> list[dict[str, Any]]:
        """Games newest first, filtered by game name and status."""
        metas = self.store.list_games(game=game, status=status, limit=limit, offset=offset)
        return [
            {
                "id": m.id,
                "game": m.game,
                "status": m.status,
                "players": m.players,
                "seats": shapes.public_seats(m),
                "prearranged": m.prearranged,
                "created": m.created,
            }
            for m in metas
        ]

    def wait(self, game_id: str, after: int, timeout: float) -> bool:
        """Block until the game passes version ``after`` or ``timeout`` seconds pass."""
        return self.store.wait(game_id, after, timeout)

    # -- internals -----------------------------------------------------------------------
    def _meta(self, game_id: str) -> GameMeta:
        meta = self.store.meta(game_id) if GAME_ID.match(game_id) else None
        if meta is None:
            raise NotFound(f"no game {game_id!r}")
        return meta

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
            warmed = self._from_snapshot(game_id, idempotency_key)
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
            loaded = folding.fold_stored(loaded, newer)
        self._remember(loaded)
        return loaded, fetched.events, fetched.idempotency

    def _from_snapshot(
        self, game_id: str, idempotency_key: str | None
    ) -> tuple[Loaded, list[StoredEvent], IdempotencyRecord | None] | None:
        """The game from its latest snapshot and the events after it (``service.snapshots``);
        None when there is none this code can use or the stream no longer holds it."""
        snap = snapshots.from_bytes(self.store.snapshot(game_id))
        state = None if snap is None else snapshots.state_of(snap)
        if snap is None or state is None:
            return None
        fetched = self.store.fetch(game_id, snap.version - 1, idempotency_key)
        if fetched.meta is None:
            raise NotFound(f"no game {game_id!r}")
        first = fetched.events[0] if fetched.events else None
        if first is None or first.version != snap.version or first.hash != snap.head_hash:
            return None  # the stream does not hold the snapshot's version as it was
        loaded = Loaded(fetched.meta, self.rules(fetched.meta.game), state, snap.version,
                        snap.head_hash)  # fmt: skip
        try:
            loaded = folding.fold_stored(loaded, fetched.events[1:])
        except ChainBroken:
            return None  # the whole stream is folded (and its break reported) instead
        self._remember(loaded)
        return loaded, fetched.events, fetched.idempotency

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
        """After an append made outside the use cases above (a clock's timeout): remember the
        new state and tell the scheduler."""
        self._remember(loaded)
        self._notify(loaded)

    def enforce_clock(
        self, game_id: str, policy: Any, expected_version: int | None = None
    ) -> str:
        """Record the timeout of a seat out of time, if one is (``service.clocks.enforce``)."""
        return clocks.enforce(self, game_id, policy, expected_version=expected_version)

    def _notify(self, loaded: Loaded) -> bool:
        try:
            clocks.after_append(self, loaded)
        except Exception:  # the append happened; the sweeper finds the clock in the index
            log.exception("clock scheduling failed after game %s v%s", loaded.meta.id,
                          loaded.version)  # fmt: skip
        try:
            self.scheduler.after_append(
                loaded.meta.id,
                loaded.version,
                game=loaded.meta.game,
                seats=shapes.public_seats(loaded.meta),
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
