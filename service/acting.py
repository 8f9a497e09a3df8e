"""The action path: a seat's action decided and appended (``Acting.submit_action``).

Round trips per action: one conditional append when the game's seats are settled and this
process's fold is at the caller's expected version (a conflict brings the newer events back);
otherwise one read of the newer events, or one ``fetch`` (meta + newer events + idempotency
lookup), first: always the fetch while a seat may change hands. Plus one
index update on the action that ends the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.errors import DomainError, InvalidAction
from domain.protocol import action_command, fold
from service import clocks, deal_keys, folding, metrics, receipts, responses, snapshots
from service.access import check_holds, not_held
from service.cache import Folded, StateCache
from service.digests import fingerprint
from service.errors import NotFound
from service.folding import Loaded
from service.loading import GameLoader, Rulebook, log
from service.receipts import Signer
from service.settling import AfterAppend
from service.store.port import (
    ChainBroken,
    ClockIndex,
    EventLog,
    Holder,
    IdempotencyKeyReused,
    IdempotencyRecord,
    Quota,
    SeatNotHeld,
    StoredEvent,
    VersionConflict,
)
from service.store.records import build_entries, salt_of, seat_key


class Acting:
    """Seats' actions: the appends after creation and joins, decided on this process's fold
    when it is at the caller's expected version (one round trip)."""

    def __init__(
        self,
        rules: Rulebook,
        loader: GameLoader,
        log: EventLog,
        clock_index: ClockIndex,
        cache: StateCache,
        after: AfterAppend,
        clock: Callable[[], float],
        check_action: Callable[[str, Any], None] | None = None,
        signer: Signer | None = None,
    ) -> None:
        self.rules = rules
        self.loader = loader
        self.log = log
        self.clock_index = clock_index
        self.cache = cache
        self.after = after
        self.clock = clock
        # the action's shape, by the game's schemas (service.api.typed.check_action), before
        # the game decides it; None: the games' own checks only
        self.check_action = check_action
        self.signer = signer  # signs the receipts it gives (service.receipts); None: unsigned

    def submit_action(
        self,
        game_id: str,
        seat: int,
        action: Mapping[str, Any],
        expected_version: int,
        idempotency_key: str | None = None,
        quota: Quota | None = None,
        *,
        token_hash: str | None = None,
    ) -> dict[str, Any]:
        """Decide and append one seat's action iff the game is at ``expected_version``.

        Returns ``{"version", "events": [{"version", "event"}] (redacted for the seat),
        "view"}``. A retried idempotency key returns the first response unchanged. Raises
        DomainError (rules), VersionConflict, IdempotencyKeyReused, NotFound. ``quota``: the
        append counts the request against it (QuotaExceeded past it); a request that ends
        before an append leaves it uncounted (``quota.counted``) for the caller to count.
        ``token_hash``: of the token the action came with; the store's record must name it
        the seat's holder when the action is stored, else SeatLeft or Unauthorized (None: a
        trusted caller, a bot account's seat).
        """
        if not isinstance(action, Mapping):
            raise InvalidAction("an action must be an object with a type")
        key = seat_key(seat, idempotency_key) if idempotency_key else None
        # the request's digest is kept and compared only under an idempotency key
        request = fingerprint(seat, action, expected_version) if key else ""
        holder = Holder(seat, token_hash)
        warm = self._warm(game_id, seat, expected_version)
        if warm is not None:
            # The common case: this process's fold is at the version the caller expects.
            # Decide on it and append in one round trip; the append checks the seat's holder,
            # the version and the idempotency key, and a conflict brings the newer events.
            try:
                return self._act(warm, holder, action, expected_version, request, key, quota)
            except DomainError:
                pass  # refused on this fold: the stream may be ahead; decide on the stream
            except VersionConflict as conflict:
                self._catch_up(warm, conflict.newer)
                raise
        loaded, _, earlier = self.loader.load_with(game_id, idempotency_key=key)
        if not 0 <= seat < loaded.meta.players:
            raise NotFound(f"game {game_id} has no seat {seat}")
        check_holds(loaded, holder)  # the seats as read with the events: before the rules
        if earlier is not None:
            return self._replay(loaded, earlier, request, seat)
        if expected_version != loaded.version:
            raise VersionConflict(game_id, expected_version, loaded.version)
        return self._act(loaded, holder, action, expected_version, request, key, quota)

    def _warm(self, game_id: str, seat: int, expected_version: int) -> Loaded | None:
        """The cached fold when its seats are settled (see ``_settled``) and it is at the
        caller's expected version, or gets there by folding the events after it (one read of
        the stream); None otherwise."""
        cached = self.cache.get(game_id)
        if cached is None or cached.version > expected_version:
            return None
        if not 0 <= seat < cached.meta.players:
            return None
        if not self._settled(cached):
            # Its seats may change hands: a join or a leave changes the metadata too, maybe
            # after this fold was cached, so the load reads it again (one round trip, only
            # while a seat is open, left or vacant).
            return None
        rules = self.rules.of(cached.meta.game)
        loaded = Loaded(cached.meta, rules, cached.state, cached.version, cached.head_hash)
        if cached.version == expected_version:
            return loaded
        newer = self.log.read(game_id, cached.version, expected_version)
        metrics.catch_up("read").inc()
        missed = expected_version - cached.version
        if len(newer) != missed or any(is_leave(s.command) for s in newer):
            return None
        try:
            caught = folding.fold_stored(loaded, newer)
        except Exception:  # a stream rewound under the cache: the full load sorts it out
            return None
        self.cache.keep(caught)
        return caught

    @staticmethod
    def _settled(cached: Folded) -> bool:
        """True when no seat of the cached game may change hands: its cached metadata stays
        true and its events alone bring it up to date (a join or a leave changes the metadata
        too, which events do not carry)."""
        state = cached.state
        return not (
            cached.meta.open_seats or getattr(state, "left", ()) or getattr(state, "vacant", ())
        )

    def _catch_up(self, loaded: Loaded, newer: Sequence[StoredEvent] | None) -> None:
        """Fold the events a conflicting append brought back onto a stale cached fold."""
        if not newer or newer[0].version != loaded.version + 1:
            return
        try:
            self.cache.keep(folding.fold_stored(loaded, newer))
        except Exception:  # the caller's 409 stands; the next read refolds the stream as it is
            log.warning("game %s: could not catch the cached fold up", loaded.meta.id)
            self.cache.discard(loaded.meta.id)

    def _act(
        self,
        loaded: Loaded,
        holder: Holder,
        action: Mapping[str, Any],
        expected_version: int,
        request: str,
        key: str | None,
        quota: Quota | None = None,
    ) -> dict[str, Any]:
        """Decide on ``loaded`` and append under its version (one round trip)."""
        game_id, seat = loaded.meta.id, holder.seat
        rules, version, salt = loaded.game, loaded.version, salt_of(loaded.meta)
        if self.check_action is not None:
            self.check_action(loaded.meta.game, action)
        keys = deal_keys.keys_of(loaded.meta)
        at = clocks.now_ms(self.clock)
        events = folding.decide(rules, loaded.state, seat, action, keys, at, version)
        state = fold(rules, events, loaded.state)
        clocks.hint(self.clock_index, game_id, state)
        encoded = [rules.codec.encode(e) for e in events]
        command = clocks.stamp(action_command(seat, action), state, at)
        entries = build_entries(encoded, command, loaded.head_hash, salt)  # encoded, hashed once
        head = entries[-1]["hash"] if entries else loaded.head_hash
        signed = receipts.signed(self.signer, loaded.meta, version + len(encoded), head)
        response = responses.action_response(rules, version, events, state, seat, head,
                                             bool(salt), loaded.meta,
                                             signed.get("receipt_signature"))  # fmt: skip
        record = None
        if key:  # the response is rendered again from the events for a retry
            fp = request[: responses.FINGERPRINT_CHARS]
            record = IdempotencyRecord(key, fp, response["version"], None)
        over = rules.outcome(state) is not None
        waits = getattr(state, "vacant", ()) and not getattr(loaded.state, "vacant", ())
        after_version = version + len(encoded)
        snapshot = b""
        if snapshots.due(version, after_version) and not over:
            snapshot = snapshots.to_bytes(snapshots.take(state, after_version, head))
        try:
            appended = self.log.append(
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
                quota=quota,
                holder=holder,
            )
        except SeatNotHeld as refused:  # the token's seat changed hands meanwhile
            raise not_held(game_id, left=refused.left) from None
        except ChainBroken:
            # The stream was rewound and rewritten under our cached fold (Redis restored from
            # an older state, then played on): refold, and let the caller retry on the truth.
            self.cache.discard(game_id)
            fresh = self.loader.load(game_id)
            if fresh.head_hash == loaded.head_hash:
                raise
            raise VersionConflict(game_id, expected_version, fresh.version) from None
        if appended.replayed is not None:
            return self._replay(loaded, appended.replayed, request, seat)
        metrics.appended(loaded.meta.game).inc()
        self.after.settle(Loaded(loaded.meta, rules, state, appended.version, head))
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
        return responses.render_action(self.log, loaded, seat, earlier.version, self.signer)


def is_leave(command: Any) -> bool:
    """Whether a stored command is a seat's leave (its seat changes hands: the metadata too)."""
    action = command.get("action") if isinstance(command, dict) else None
    return isinstance(action, dict) and action.get("type") == "leave"
