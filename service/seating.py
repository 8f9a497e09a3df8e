"""Creating games (``Creating``) and joining seats (``Joining``)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.errors import GameOver
from domain.forks import GameForked, origin_summary
from domain.lifecycle import Keys, create_command, entropy_command, join_command
from domain.protocol import Game, fold
from service import clocks, deal_keys, digests, folding, public, receipts, request_checks
from service.access import BotSeats, SeatAccess
from service.digests import token_hash
from service.errors import Forbidden, InvalidRequest, NotFound, SeatNotOpen, Unauthorized
from service.folding import Loaded
from service.json_ready import json_ready
from service.loading import GameLoader, Rulebook, log
from service.sealing import Seals
from service.settling import AfterAppend, record
from service.store.port import (
    ClockIndex,
    CommitmentLog,
    Creations,
    EventLog,
    GameMeta,
    IdempotencyKeyReused,
    IdempotencyRecord,
    SeatRecord,
    Seats,
    SeatTaken,
    VersionConflict,
)
from service.store.records import creation_key, salt_of

JOIN_ATTEMPTS = 8  # joins of other seats racing this one (each retry re-reads and re-decides)


def join_key(seat: int, key: str) -> str:
    """Where a join's Idempotency-Key is recorded (apart from the seat's action keys)."""
    return f"join:{seat}:{key}"


def new_game_id() -> str:
    """A fresh random game id (16 URL-safe characters), never one that starts with ``-``: a
    shell command names it as it is (``cardroom admin end ID``), where ``-...`` reads as an
    option."""
    while (game_id := secrets.token_urlsafe(12)).startswith("-"):
        pass
    return game_id


def _status(rules: Game[Any], state: Any, seats: Sequence[SeatRecord]) -> str:
    """The status a new game is listed under."""
    if rules.outcome(state) is not None:
        return "over"
    return "waiting" if any(s.type == "open" for s in seats) else "playing"


class Creating:
    """Creating a game: its creation batch recorded, listed and its first turns scheduled, in
    steps a retry or the sweeper completes (``complete_create``)."""

    def __init__(
        self,
        rules: Rulebook,
        loader: GameLoader,
        creations: Creations,
        seats: Seats,
        commitments: CommitmentLog,
        bot_seats: BotSeats,
        after: AfterAppend,
        clock: Callable[[], float],
        bot_pace_ms: int = 0,
    ) -> None:
        self.rules = rules
        self.loader = loader
        self.creations = creations
        self.seats = seats
        self.commitments = commitments
        self.bot_seats = bot_seats
        self.after = after
        self.clock = clock
        # the pace of bots in the games with people it creates, unless their creator sets one
        self.bot_pace_ms = bot_pace_ms

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
        creator: str = "",
        fork: GameForked | None = None,
        wait_for_bots: bool = False,
    ) -> dict[str, Any]:
        """Start a game: validate, record the creation batch, return id/version/seats.
        ``creator``: who asked (the client's address), kept for the operator's listing.

        With ``idempotency_key`` the game id is derived from the key, so a retried request
        finds the game its first attempt made and returns the first response unchanged. A
        user bot no live worker or connected client serves is refused (BotUnavailable)
        unless ``wait_for_bots``.
        ``fork``: the origin of a game that starts at a moment of another (``forks``).
        """
        origin = None if fork is None else origin_summary(fork)
        request = digests.creation_fingerprint(game, seats, options, seed, dealer, deal, origin)
        rules = self.rules.of(game)
        records = tuple(request_checks.seat_record(i, s) for i, s in enumerate(seats))
        self.bot_seats.check_bots(rules.name, records)
        if not wait_for_bots:
            self.bot_seats.check_served(records)
        chosen = None if seed is None else request_checks.check_seed(seed)
        keys = deal_keys.creation_keys(chosen, deal)
        # A bot account's seat is its bot's from now, its entropy the bot's own (posted when
        # its stream tells it); the fallback used if it never comes is fixed now, with the
        # server's bots' entropy, before any person's exists (docs/fairness.md).
        own = self.bot_seats.sends_entropy(records)
        awaiting = [(i, deal_keys.draw_entropy()) for i in own]
        filled = [(i, deal_keys.draw_entropy()) for i, r in enumerate(records)
                  if r.type == "bot" and i not in own]  # fmt: skip
        setup: dict[str, Any] = {
            "players": len(records),
            "options": self._paced(options, records),
            "dealer": dealer,
            "bots": [i for i, r in enumerate(records) if r.type == "bot"],
            "abort_lapses": True,  # an agreement to abort lapses when another person plays on
        }
        if keys.prearranged:
            setup["salted_deck"] = True  # its deck commitment hides a guessable seed
        at = clocks.now_ms(self.clock)
        events = folding.create(rules, keys, filled=filled, awaiting=awaiting, at=at, fork=fork,
                                **setup)  # fmt: skip
        state = fold(rules, events)
        encoded = [rules.codec.encode(e) for e in events]
        meta = GameMeta(
            id=digests.game_id_for_key(idempotency_key) if idempotency_key else new_game_id(),
            game=rules.name,
            players=len(records),
            options=json_ready(state.created.options),
            seats=records,
            created=self.clock(),
            commitment=state.created.commitment,
            seed=keys.seed or "",
            status=_status(rules, state, records),
            secret=keys.secret,
            deal=json_ready(keys.deal),
            prearranged=state.prearranged,
            creator=creator,
            forked=origin,
        )
        head = digests.head(encoded, None, salt_of(meta))
        response = json_ready(
            {
                "id": meta.id,
                "game": meta.game,
                "version": len(encoded),
                "status": meta.status,
                "seats": public.public_seats(meta),
                "commitment": meta.commitment,
                "prearranged": meta.prearranged,
                "head_hash": head,
                "to_act": list(rules.awaited_seats(state)),
                **({} if origin is None else {"forked": origin}),
            }
        )
        record = None
        if idempotency_key:
            key = creation_key(idempotency_key)
            record = IdempotencyRecord(key, request, len(encoded), response)
        command = create_command(filled=filled, awaiting=awaiting, **setup)
        if fork is not None:
            command["fork"] = rules.codec.encode(fork)
        command = clocks.stamp(command, state, at)
        created = self.creations.create(meta, encoded, command, record)
        if created.replayed is not None:
            self.complete_create(meta.id)  # the first attempt may have stopped half-way
            return dict(created.replayed.response)
        self.bot_seats.index_accounts(meta)
        loaded = Loaded(meta, rules, state, len(encoded), head)
        if self.after.settle(loaded):
            self.creations.settle_create(meta.id)
        return dict(response)


    def _paced(self, options: Mapping[str, Any] | None, records: Sequence[Any]) -> dict[str, Any]:
        """The creator's options, with the service's bot pace when a person will sit and the
        creator set none (recorded: the pace is public, and the same whatever the cards), at
        most half a turn of the game's clock: a bot's move must come in its time (the 1.5 s
        pace timed out every bot turn of a 1 s clock; a forfeit lost the game at the first)."""
        given = dict(options or {})
        unpaced = not {"bot_pace_ms", "rights_grace_ms"} & set(given)
        if unpaced and self.bot_pace_ms and any(r.type != "bot" for r in records):
            pace, turn = self.bot_pace_ms, given.get("turn_seconds")
            if isinstance(turn, int) and not isinstance(turn, bool) and turn > 0:
                pace = min(pace, turn * 500)
            given["bot_pace_ms"] = pace
        return given


    def complete_create(self, game_id: str) -> bool:
        """Finish a creation that stopped after the game was written (a crash, a store error):
        list it and schedule its first turns. True when there was something to finish; called
        by an idempotent retry of the create and by the sweeper."""
        written = self.seats.meta(game_id)
        if written is not None and written.secret:  # logged once per game, before it is listed
            self.commitments.log_commitment(game_id, written.commitment)
        meta = self.creations.finish_create(game_id)
        if meta is None:
            return False
        self.bot_seats.index_accounts(meta)
        loaded = self.loader.load(game_id)
        if self.after.notify(loaded):
            self.creations.settle_create(game_id)
        log.warning("completed the half-done creation of game %s", game_id)
        return True


class Joining:
    """Filling an open seat with its entropy (the last one deals) and recording its token; a
    bot account's own entropy for its seat (``post_entropy``)."""

    def __init__(
        self,
        loader: GameLoader,
        log: EventLog,
        seats: Seats,
        clock_index: ClockIndex,
        after: AfterAppend,
        clock: Callable[[], float],
        access: SeatAccess,
        seals: Seals,
        signer: receipts.Signer | None = None,
    ) -> None:
        self.signer = signer
        self.loader = loader
        self.log = log
        self.seats = seats
        self.clock_index = clock_index
        self.after = after
        self.clock = clock
        self.access = access
        self.seals = seals

    def join_seat(
        self,
        game_id: str,
        seat: int,
        name: str,
        entropy: str | None = None,
        idempotency_key: str | None = None,
        token: str | None = None,
    ) -> dict[str, Any]:
        """Fill an open seat with its entropy (the last one deals); the token is shown once.
        The seat of a sealed fork is taken with the ``token`` of that seat of its source, while
        it is sealed (``_check_reserved``).

        With ``idempotency_key`` (a secret of the client's, with its own ``entropy``) a retry
        of the same request returns the same token (re-derived, never stored), whichever
        process serves it and however many retries race.
        """
        name = request_checks.check_name(name)
        entropy = deal_keys.check_entropy(entropy)
        if idempotency_key:
            deal_keys.check_join_key(idempotency_key, entropy)
        request = digests.request_digest({"seat": seat, "name": name, "entropy": entropy})
        key = join_key(seat, idempotency_key) if idempotency_key else None
        for _ in range(JOIN_ATTEMPTS):
            loaded, _, earlier = self.loader.load_with(game_id, idempotency_key=key)
            if earlier is None:
                self._check_open(loaded, seat)
                self._check_reserved(loaded, seat, token)
                keys = deal_keys.keys_of(loaded.meta)
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
            self.seats.vacate(game_id, seat)  # idempotent: a crash may have lost the leave's
            return
        if loaded.meta.seats[seat].type != "open" or (
            joinable is not None and seat not in joinable
        ):
            raise SeatNotOpen(f"seat {seat} of game {game_id} is not open")

    def _check_reserved(self, loaded: Loaded, seat: int, token: str | None) -> None:
        """Unless the seat may be taken with ``token``: a sealed fork's seat (``forked["as"]``)
        by the holder of that seat of its source now, by the store, while it is sealed."""
        forked = loaded.meta.forked
        if not self.seals.sealed(forked) or seat != forked["as"]:  # type: ignore[index]
            return
        source = str(forked["source"])  # type: ignore[index]
        if token is None:
            raise Unauthorized(f"seat {seat} of this sealed fork is for the holder of seat "
                               f"{seat} of game {source}: send its token (Authorization: "
                               "Bearer)")  # fmt: skip
        holder = self.access.holder_in(self.loader.load(source), token)
        if holder.token_hash is None or holder.seat != seat:
            raise Forbidden(f"the token holds another seat of game {source} than seat {seat}: "
                            "that seat's fork is its holder's")  # fmt: skip

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
        value = entropy or deal_keys.draw_entropy()
        at = clocks.now_ms(self.clock)
        events = folding.join(rules, loaded.state, seat, value, keys, source, at)
        state = fold(rules, events, loaded.state)
        clocks.hint(self.clock_index, loaded.meta.id, state)
        encoded = [rules.codec.encode(e) for e in events]
        version = loaded.version + len(encoded)
        head = digests.head(encoded, loaded.head_hash, salt)
        response = {"id": loaded.meta.id, "seat": seat, "name": name, "version": version,
                    "head_hash": head, "prearranged": loaded.meta.prearranged}  # fmt: skip
        record = IdempotencyRecord(key or "", request, version, response)
        appended = self.log.append(
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
        self.after.settle(Loaded(loaded.meta, rules, state, version, head))
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
            deal_keys.join_token(secret, seat, idempotency_key, request)
            if idempotency_key
            else secrets.token_urlsafe(32)
        )
        return self._join_meta(loaded.meta.id, seat, name, token, dict(record.response))

    def _join_meta(
        self, game_id: str, seat: int, name: str, token: str, response: dict[str, Any]
    ) -> dict[str, Any]:
        """Record the seat's token (once: a retry whose first attempt recorded it reuses it)."""
        meta = self.loader.meta(game_id)
        if meta.seats[seat].token_hash != token_hash(token):
            try:  # (a retry recording the same token as another retry is no conflict)
                meta = self.seats.join(game_id, seat, name, token_hash(token))
            except SeatTaken as err:
                raise SeatNotOpen(f"seat {seat} of game {game_id} is not open") from err
        self.loader.refresh_meta(meta)
        out = {"id": game_id, "seat": seat, "name": name, **response, "token": token}
        return {**out, "seats": public.public_seats(meta)}

    def post_entropy(self, game_id: str, seat: int, token: str, entropy: object) -> dict[str, Any]:
        """A bot account's own entropy for its seat the game awaits it for (``contribute``):
        recorded as ``SeatFilled`` with ``source: "client"`` (the deal with it when no seat is
        left to fill). The same value again is answered as recorded; another value, or a
        seat that does not await its bot's entropy, is refused (409)."""
        value = deal_keys.check_entropy(entropy)
        if value is None:
            raise InvalidRequest("entropy is required: 64 lowercase hex digits (32 bytes)")
        for _ in range(JOIN_ATTEMPTS):
            loaded = self.loader.load(game_id)
            if not 0 <= seat < loaded.meta.players:
                raise NotFound(f"game {game_id} has no seat {seat}")
            holder = self.access.holder_in(loaded, token, seat)
            if holder.seat != seat:
                raise Forbidden(f"this token does not hold seat {seat} of game {game_id}")
            state = loaded.state
            if seat in getattr(state, "posted", ()) and state.entropy[seat] == value:
                return self._entropy_response(loaded, seat, value)  # the same post again
            if loaded.over:
                raise GameOver(f"game {game_id} is over")
            keys = deal_keys.keys_of(loaded.meta)
            if keys is None:
                raise SeatNotOpen(f"game {game_id} takes no entropy (a game of format 1)")
            try:
                return self._contribute(loaded, seat, value, keys)
            except VersionConflict:
                continue  # a seat filled meanwhile: decide again
        raise SeatNotOpen(f"seat {seat} of game {game_id} is contended; try again")

    def _contribute(self, loaded: Loaded, seat: int, value: str, keys: Keys) -> dict[str, Any]:
        rules = loaded.game
        at = clocks.now_ms(self.clock)
        events = folding.contribute(rules, loaded.state, seat, value, keys, at)
        state = fold(rules, events, loaded.state)
        clocks.hint(self.clock_index, loaded.meta.id, state)
        command = clocks.stamp(entropy_command(seat, value), state, at)
        status = "playing" if state.dealt else None
        after = record(self.log, self.after, loaded, events, state, command, status)
        return self._entropy_response(after, seat, value)

    def _entropy_response(self, loaded: Loaded, seat: int, value: str) -> dict[str, Any]:
        meta = loaded.meta
        return {"id": meta.id, "seat": seat, "entropy": value, "source": "client",
                "version": loaded.version, "dealt": bool(loaded.state.dealt),
                **public.receipt(meta, loaded.head_hash),
                **receipts.signed(self.signer, meta, loaded.version, loaded.head_hash)}  # fmt: skip
