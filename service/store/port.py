"""The event store's ports: what the service layer needs from storage, role by role.

A game is one append-only stream of encoded events; event ``v`` (1, 2, ...) has version ``v``
and the stream's version is its number of events. Events are appended in batches (one command's
events), all or nothing, only when the caller's expected version is still current. Each stored
event carries the hash chain (``prev_hash``, ``hash``); the first event of a batch also carries
the ``command`` that caused it and the batch size. Beside the stream the store keeps the game's
metadata (seats, status, ...), its idempotency records and a global index for listing.

A creation is not one atomic step where the listing lives in other Redis Cluster slots than the
game: the game's own keys record that its listing and first scheduling are due, and a note of
unsettled creations lets a retry or the sweeper complete a half-done one (``finish_create``).

Each role is a port of its own (``EventLog``, ``Seats``, ``Waits``, ``Creations``, ``Listing``,
``Retention``, ``Quotas``, ``ClockIndex``, ``CommitmentLog``, ``Exports``, ``Spectators``,
``Health``), each with its own contract suite; ``EventStore`` is all of them, what an adapter
implements.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

import orjson

Encoded = dict[str, Any]

STATUSES = ("waiting", "playing", "over")
# The largest version: the store's scripts count in Lua numbers (doubles), exact up to 2^53.
MAX_VERSION = 2**53 - 1
DEFAULT_IDEMPOTENCY_TTL = 7 * 24 * 3600.0  # seconds idempotency records outlive their game


class StoreError(Exception):
    """Base of the store's own errors."""


class VersionConflict(StoreError):
    """The stream is not at the expected version: someone else appended first."""

    def __init__(
        self,
        game_id: str,
        expected: int,
        current: int,
        newer: Sequence[StoredEvent] | None = None,
    ) -> None:
        super().__init__(f"game {game_id} is at version {current}, not {expected}")
        self.game_id = game_id
        self.expected = expected
        self.current = current
        # from an append: the events after ``expected`` (a stale cache catches up with them)
        self.newer: tuple[StoredEvent, ...] | None = None if newer is None else tuple(newer)


class IdempotencyKeyReused(StoreError):
    """An idempotency key already recorded for a different request."""


class QuotaExceeded(StoreError):
    """A request past one window of its ``Quota``: counted, and nothing else was stored."""

    def __init__(self, window: int, retry_after_ms: int) -> None:
        super().__init__(f"quota window {window} is used up for {retry_after_ms} ms more")
        self.window = window  # the index of the exceeded window in ``Quota.windows``
        self.retry_after_ms = retry_after_ms


class SeatNotHeld(StoreError):
    """The appending token does not hold the seat it acts for, by the game's own record at the
    moment of the append (``left``: its holder left a seat of that game)."""

    def __init__(self, game_id: str, seat: int, left: bool) -> None:
        super().__init__(f"the token does not hold seat {seat} of game {game_id}")
        self.seat, self.left = seat, left


class UnknownGameId(StoreError):
    """No game with that id."""


class GameExists(StoreError):
    """A game with that id already exists."""


class SeatTaken(StoreError):
    """The seat is not open (already joined, or a bot's)."""


class ChainBroken(StoreError):
    """Stored history does not match its hash chain."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One stored event with its chain links; ``command``/``batch`` on a batch's first event.

    A reader may leave ``event`` and ``command`` unset, keeping only their stored JSON texts
    (``raw``, ``raw_command``): each is decoded on first use (a fold reads neither)."""

    version: int
    event: Encoded
    prev_hash: str
    hash: str
    command: Encoded | None = None
    batch: int | None = None
    raw: str = field(default="", compare=False, repr=False)  # the stored canonical JSON
    raw_command: str | None = field(default=None, compare=False, repr=False)

    if not TYPE_CHECKING:  # (to mypy every other attribute stays an error)

        def __getattr__(self, name: str) -> Any:
            # Reached only for an unset slot: ``event`` or ``command`` left as stored text.
            text = self.raw if name == "event" else self.raw_command if name == "command" else None
            if text is None:
                raise AttributeError(name)
            value = orjson.loads(text)  # our own canonical JSON: the values json gives
            object.__setattr__(self, name, value)
            return value


@dataclass(frozen=True, slots=True)
class Batch:
    """The events one command caused, with that command."""

    command: Encoded
    events: tuple[StoredEvent, ...]

    @property
    def first(self) -> int:
        """Version of the batch's first event."""
        return self.events[0].version

    @property
    def last(self) -> int:
        """Version of the batch's last event."""
        return self.events[-1].version


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat: ``open`` until someone joins (then ``human``), or a named ``bot``."""

    type: str
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None

    def public(self, seat: int) -> dict[str, Any]:
        """The seat as anyone may see it (never the token hash)."""
        out: dict[str, Any] = {"seat": seat, "type": self.type}
        if self.name is not None:
            out["name"] = self.name
        if self.bot is not None:
            out["bot"] = self.bot
        return out


@dataclass(frozen=True, slots=True)
class GameMeta:
    """What the store keeps beside the stream. ``seed`` stays secret until the game is over."""

    id: str
    game: str
    players: int
    options: Encoded
    seats: tuple[SeatRecord, ...]
    created: float
    commitment: str
    seed: str
    status: str = "waiting"
    secret: str = ""  # the server's secret (commit-reveal dealing); "" for format 1 games
    deal: Encoded | None = None  # an explicit deal, kept secret until the end
    prearranged: bool = False
    left: tuple[str, ...] = ()  # token hashes of people who left their seat (no longer valid)
    creator: str = ""  # the address that created it (the operator's listing); "": not recorded
    forked: Encoded | None = None  # a fork's origin: {"source", "version", "as"} (domain.forks)

    def with_status(self, status: str) -> GameMeta:
        """The same game with another status."""
        return replace(self, status=status)

    def seat_of_token_hash(self, token_hash: str) -> int | None:
        """The seat a token hash belongs to, if any."""
        for index, seat in enumerate(self.seats):
            if seat.token_hash is not None and seat.token_hash == token_hash:
                return index
        return None

    @property
    def open_seats(self) -> tuple[int, ...]:
        """Seats nobody has joined yet."""
        return tuple(i for i, s in enumerate(self.seats) if s.type == "open")


@dataclass(frozen=True, slots=True)
class IdempotencyRecord:
    """What an idempotency key stands for: the request's fingerprint and the response sent."""

    key: str
    fingerprint: str
    version: int
    response: Any = None


@dataclass(frozen=True, slots=True)
class Holder:
    """Who a request acts as: a seat, and the hash of the token that must hold it when the
    action is stored (``token_hash`` None: a bot account's seat, which never changes hands)."""

    seat: int
    token_hash: str | None


@dataclass(slots=True)
class Quota:
    """Fixed windows counting one client's requests to one game, counted by the store: by the
    append the request makes, in the same atomic step (no round trip of its own), else by
    ``Quotas.count``. Each counts once: the store sets ``counted`` when it counts."""

    name: str  # who is counted (a seat token's digest, or a client)
    windows: tuple[tuple[int, int], ...]  # (at most this many requests, per this many ms)
    counted: bool = False


@dataclass(frozen=True, slots=True)
class Appended:
    """The outcome of an append: the new version, or the earlier result of a retried key."""

    version: int
    replayed: IdempotencyRecord | None = None


@dataclass(frozen=True, slots=True)
class Fetched:
    """One read round trip: the metadata, the events after a version, a looked-up key."""

    meta: GameMeta | None
    events: list[StoredEvent] = field(default_factory=list)
    idempotency: IdempotencyRecord | None = None
    head: int | None = None  # the stream's newest version (None: the store does not say)
    snapshot: bytes | None = None  # the latest snapshot (``fetch_latest`` only)


@dataclass(frozen=True, slots=True)
class ChainReport:
    """The result of checking a stream's hash chain."""

    ok: bool
    version: int
    head_hash: str
    broken_at: int | None = None
    problem: str = ""


# The ports: each role a consumer depends on is its own protocol, with its own contract suite
# (tests/support/store_contract/); a consumer types its dependency as the ports it uses. One
# adapter implements them all (``EventStore``).

class EventLog(Protocol):
    """The event log: each game's stream of batches, appended under an expected version, and
    its reads (the action path, loading and folding a game, the replay export)."""

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[Encoded],
        command: Mapping[str, Any],
        *,
        prev_hash: str,
        idempotency: IdempotencyRecord | None = None,
        status: str | None = None,
        salt: str = "",
        entries: Sequence[Mapping[str, str]] | None = None,
        snapshot: bytes = b"",
        quota: Quota | None = None,
        holder: Holder | None = None,
    ) -> Appended:
        """Append one batch atomically iff the stream is at ``expected_version``.

        ``prev_hash`` is the hash at ``expected_version``; ``salt`` the game's chain salt
        (``records.salt_of(meta)``; create takes it from the metadata). With ``idempotency``,
        a key already recorded returns its record (``replayed``) when the fingerprint matches
        and raises IdempotencyKeyReused when not; either way nothing is appended. ``status``
        updates the game's status in the same step. Raises VersionConflict (with the current
        version and, in ``newer``, the events after ``expected_version``: one round trip
        catches a stale cache up). ``entries``: the batch's stream entries when the caller
        built them already (``records.build_entries`` of the same arguments; not built twice).
        ``snapshot``: the game's latest state snapshot (``service.snapshots``), kept with the
        batch (replacing the one before) only when the batch is appended; a game that is over
        (``status``, or ``set_status``) keeps none (its reads are rare: they fold its stream).
        ``quota``: first, in the same step, count the request against it unless it was counted
        already; QuotaExceeded past one of its windows (nothing else is stored or checked).
        ``holder``: the seat and token hash of the person acting; SeatNotHeld unless the game's
        record names that token as the seat's holder at that moment (checked before the
        idempotency key and the version: nothing is stored or replayed).
        A batch with a ``lifecycle.SeatLeft`` vacates that seat in the same step (as
        ``vacate``): from the moment the leave is stored, the token holds no seat.
        """
        ...

    def fetch(self, game_id: str, after: int, idempotency_key: str | None = None) -> Fetched:
        """Metadata, events after version ``after`` and (optionally) one idempotency record."""
        ...

    def fetch_latest(self, game_id: str, idempotency_key: str | None = None) -> Fetched:
        """One round trip for a game the caller holds nothing of: the metadata, the latest
        snapshot, the events from the snapshot's version on (every event without one) and
        (optionally) one idempotency record."""
        ...

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        """Stored events with ``after < version <= upto``."""
        ...

    def entries(self, game_id: str) -> list[tuple[int, dict[str, str]]]:
        """Every stored entry as ``(version, fields)``, fields exactly as stored (strings)."""
        ...

    def batches(self, game_id: str) -> list[Batch]:
        """Every batch (command and events) of a game, in order."""
        ...

    def version(self, game_id: str) -> int:
        """The number of events of a game (0 when unknown)."""
        ...

    def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The version of each game in one call (0 for an unknown one)."""
        ...

    def verify_chain(self, game_id: str) -> ChainReport:
        """Check every stored event against its hash chain."""
        ...

    def snapshot(self, game_id: str) -> bytes | None:
        """The game's latest state snapshot as an append stored it (None: none)."""
        ...


class Seats(Protocol):
    """Seats and tokens: a game's record (``GameMeta``) and who holds its seats."""

    def meta(self, game_id: str) -> GameMeta | None:
        """A game's metadata, None when unknown."""
        ...

    def join(self, game_id: str, seat: int, name: str, token_hash: str) -> GameMeta:
        """Claim an open seat (atomically: one winner); SeatTaken/UnknownGameId otherwise. The
        same claim again (the same name and token hash: a retried join) returns the metadata."""
        ...

    def vacate(self, game_id: str, seat: int) -> None:
        """A person left the seat: forget its join (the seat is open to a new join) and keep
        the token's hash among ``left`` (it is refused as a former seat's). Idempotent."""
        ...


class Waits(Protocol):
    """Waiting for a game to move (the event streams)."""

    def wait(self, game_id: str, after: int, timeout: float) -> bool:
        """Block until the game's version exceeds ``after`` (True) or ``timeout`` passes."""
        ...

    def wait_any(self, afters: Mapping[str, int], timeout: float) -> bool:
        """Block until one of the games' versions exceeds its ``after`` (True) or ``timeout``
        passes (False; with no games, after ``timeout``)."""
        ...


class Creations(Protocol):
    """Creating a game in steps (the module docstring): a crash between them is completed by a
    retry or the sweeper."""

    def create(
        self,
        meta: GameMeta,
        events: Sequence[Encoded],
        command: Mapping[str, Any],
        idempotency: IdempotencyRecord | None = None,
    ) -> Appended:
        """Record a new game's metadata and creation batch; GameExists if the id is taken.

        With ``idempotency``, a key already recorded for that id returns its record
        (``replayed``, or IdempotencyKeyReused for another request) and records nothing.

        Steps: a note that the creation began (``unsettled``), the game's own keys (one atomic
        step, marked due), its listing. A crash between steps leaves either no game (the note
        alone) or a game whose creation ``finish_create`` completes (a retry or the sweeper).
        """
        ...

    def finish_create(self, game_id: str) -> GameMeta | None:
        """Complete a half-done create: list the game if its creation is not settled yet.

        Returns the metadata when the creation was due (the caller then schedules its first
        turns and calls ``settle_create``); None when there is nothing to finish (settled, or
        never recorded: the note of a create that failed before it wrote anything is dropped).
        """
        ...

    def settle_create(self, game_id: str) -> None:
        """The creation's after-steps (listing, first scheduling) are done: forget its note."""
        ...

    def unsettled(self, before: float, limit: int = 100) -> list[str]:
        """Ids of creations begun before ``before`` (epoch seconds) and not settled since."""
        ...


class Listing(Protocol):
    """The global index of games by status, newest first (the lobby, the operator, the sweeper's
    repairs)."""

    def list_games(
        self,
        game: str | None = None,
        status: str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[GameMeta]:
        """Games newest first, optionally only one game's or one status's."""
        ...

    def game_count(self, status: str) -> int:
        """How many games are listed with ``status``."""
        ...

    def listed_status(self, game_id: str) -> str | None:
        """The status the listing has the game under (None: not listed): the sweeper compares
        it with the game's own status to repair an index update a crash lost."""
        ...

    def relisted_since(self, after: float, limit: int = 1000) -> list[str]:
        """Ids of the games listed, or moved to another status, after ``after`` (epoch seconds),
        earliest first: what a sweep puts on its look-out without reading every game."""
        ...

    def set_status(self, game_id: str, status: str) -> None:
        """Move a game to another status (metadata and index)."""
        ...


class Retention(Protocol):
    """Finished games leave the store (for the archive, or an operator's purge)."""

    def ended_before(self, before: float, limit: int = 100) -> list[str]:
        """Ids of games moved to ``over`` before ``before`` (epoch seconds), earliest first.
        A game over since before the store noted end times counts as ended when first asked."""
        ...

    def purge(self, game_id: str) -> bool:
        """Forget a game: every key of it and every index entry naming it (idempotent; a
        crash half-way is completed by purging again). True when its events were there."""
        ...


class Quotas(Protocol):
    """Counting a request that made no append against its ``Quota`` (an append counts its own:
    ``EventLog.append``'s ``quota``)."""

    def count(self, game_id: str, quota: Quota) -> None:
        """Count a request that made no append against ``quota`` (unless it was counted
        already); QuotaExceeded past one of its windows."""
        ...


class ClockIndex(Protocol):
    """The clock index: per game, a time (Unix ms) at or before which its clock is due. Written
    ahead of an append (only ever lowered there), corrected by whoever finds it early."""

    def hint_clock(self, game_id: str, due_ms: int) -> None:
        """Note that the game's clock may be due at ``due_ms`` (kept if an earlier one is)."""
        ...

    def clocks_due(self, now_ms: int, limit: int = 100) -> list[tuple[str, int]]:
        """Games whose noted time has come, earliest first: (game id, noted time)."""
        ...

    def reset_clock(self, game_id: str, seen_ms: int | None, due_ms: int | None) -> bool:
        """Replace the noted time ``seen_ms`` by ``due_ms`` (None: drop the game), only if
        it is still ``seen_ms`` (None: whatever it is); True when it was."""
        ...


class CommitmentLog(Protocol):
    """The public hash-chained log of the games' commitments (``service.store.commitment_log``)."""

    def log_commitment(self, game_id: str, commitment: str) -> int:
        """Append the game's commitment to the public hash-chained log (once per game: a game
        logged before keeps its index); its index (``service.store.commitment_log``)."""
        ...

    def commitment_log(self, after: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        """The log's entries after index ``after``, at most ``limit``."""
        ...

    def logged(self, game_id: str) -> dict[str, Any] | None:
        """The game's entry in the commitment log, None when it is not logged."""
        ...


class Exports(Protocol):
    """What a worker makes of a finished game, kept with it and purged with it: its replay file,
    its reviews, and the replay files of its sealed forks that ended before it (held until it
    ends: docs/analysis.md, "Games still being played: sealed forks")."""

    def put_replay(self, game_id: str, text: str) -> None:
        """Keep a finished game's verified replay file (replacing an earlier export)."""
        ...

    def replay(self, game_id: str) -> str | None:
        """A game's exported replay file, None when not exported."""
        ...

    def put_review(self, game_id: str, seat: int, text: str) -> None:
        """Keep a finished game's review for a seat (docs/analysis.md), purged with the game."""
        ...

    def review(self, game_id: str, seat: int) -> str | None:
        """A game's review for a seat, None when there is none yet."""
        ...

    def hold_fork(self, source_id: str, fork_id: str, text: str) -> None:
        """Keep the replay file of a finished sealed fork with its source (a game still being
        played), whose export publishes it (``Exporting.publishable``): in the source's own
        keys, purged with them; replacing what was held for that fork. Nothing is kept for a
        source the store does not hold (it was over: nothing is waiting for its end)."""
        ...

    def held_forks(self, source_id: str) -> dict[str, str]:
        """The replay files held with a game (``hold_fork``), by fork id (empty: none)."""
        ...


class Spectators(Protocol):
    """Who watches a game: each open spectator stream of any process, as an expiry (Unix ms)
    that its heartbeats push on, so a process that dies leaves no ghost past the expiry."""

    def watch(self, game_id: str, watcher: str, now_ms: int, until_ms: int) -> None:
        """Count ``watcher`` (a stream's id) as watching the game until ``until_ms``; forget
        the game's watchers whose expiry is at or before ``now_ms``."""
        ...

    def unwatch(self, game_id: str, watcher: str) -> None:
        """``watcher`` stopped watching (its stream closed)."""
        ...

    def watchers(self, game_id: str, now_ms: int) -> int:
        """How many watch the game: watchers whose expiry is after ``now_ms``."""
        ...


class Health(Protocol):
    """Whether the store answers: what the web's readiness check (``GET /readyz``) asks."""

    def ping(self) -> None:
        """Return once the store has answered; raise the adapter's outage error (Redis's:
        ``service.store.redis.OUTAGES``) when it cannot be reached."""
        ...


class EventStore(
    EventLog, Seats, Waits, Creations, Listing, Retention, Quotas, ClockIndex, CommitmentLog,
    Exports, Spectators, Health, Protocol,
):
    """The whole store, every port above: what an adapter implements (``InMemoryEventStore``,
    ``RedisEventStore``) and the composition root hands out, port by port."""
