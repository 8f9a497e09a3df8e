"""Bot turns never stall: the sweeper judges by the game, not by what RQ says about a job.

Every ``interval`` seconds one sweeper (a Redis lock elects it among all workers) does the work
that is due, not a scan: each live game has a time of its next look (a sorted set,
``<ns>:sweeper:due``, read from its earliest entry), and a sweep reads only the games due, so
its cost does not grow with the games that sit idle. A sweep:

1. finishes creations that stopped half-way (``GameService.complete_create``);
2. looks at once at the games listed, or moved to another status (a join that starts play, a
   seat left open), since its last sweep began less ``DISCOVERY_SLACK`` (their ids, from the
   store's ``relisted_since``); every
   ``CARDROOM_SWEEP_REPAIR_SECONDS`` (a day) it reads the whole listing instead. Each game it
   looks at has its listing checked against its own status: the listing of a game whose
   status moved without its index (a crash between an append and its index update) is
   repaired, and the replay export of a game found over that way queued;
3. for every game due, remembers since when its version has not moved (in Redis, so any
   worker's sweeper judges by the same record) and sets its next look: soon (a sweep, or the
   stall) after it moved; for a game awaiting people, when it would be idle; for a waiting
   one, when it would expire; for one awaiting a bot, a stall later. A game awaiting a bot
   whose version has not
   moved for ``CARDROOM_STALL_SECONDS`` gets that turn queued again under a fresh job id,
   unless a job of that turn is really under way: waiting *in* its queue (RQ may say
   ``queued`` for a job popped by a worker killed before it started), started by a worker that
   is alive (each worker refreshes a short-lived key), or finished with the bot choosing to
   wait. Re-runs back off (``stall``, ``2 stall``, ... up to ``10 stall`` and at most a minute
   apart) and never give up.

4. moves on a game being played whose version has not moved for its ``idle_seconds``
   (``service.idle``: each awaited seat's ``lifecycle.SeatIdled``, then a person's leave as
   ``on_leave`` says, a bot's default move, or ``leave_bot`` taking over the seat of a bot no
   live worker or connected client serves), so no game waits forever on a seat; likewise, and
   sooner, a game (listed waiting or playing) whose deal awaits a bot's own entropy: unmoved for
   ``CARDROOM_ENTROPY_SECONDS`` (30 s; its ``idle_seconds`` if shorter), the seat gets the
   fallback entropy fixed at creation, and the game deals once no seat is left to fill;

5. enforces the clocks whose time has come (the store's clock index: a sorted set read from
   its earliest entry), so a lost or never-run clock job, or a dead worker, does not let a
   clock lapse: the timeout is appended under the version it was decided on, once.

Its own bookkeeping (the versions seen, the re-run attempts, the election lock) and the workers'
alive keys live beside RQ's queues on RQ's Redis (``RQ_REDIS_URL``), where the jobs are; the
games and their listing in the store (``REDIS_URL``, a Redis Cluster too).

Duplicates are harmless: a turn job checks the version, submits with the seat's idempotency key
and the append is version-checked, so a turn never plays twice.
"""

from __future__ import annotations

import logging
import math
import os
import threading
import time
from collections.abc import Callable, Collection, Iterator
from typing import Any, Protocol

from rq.job import Job, JobStatus

from service import queues
from service.bots import BotDirectory, RedisBotRegistry
from service.clocks import next_due, now_ms
from service.folding import Loaded
from service.games import GameService
from service.idle import idle_seconds
from service.store.port import ClockIndex, Creations, EventLog, GameMeta, Listing, Seats
from workers import config
from workers.scheduler import RQScheduler, bot_of, turn_job_id

log = logging.getLogger("cardroom.sweeper")

SETTLE_GRACE = 5.0  # seconds a create may take before the sweeper finishes it
LIVE = ("playing", "waiting")
PAGE = 500
DUE_PAGE = 2000  # games looked at per sweep at most (the rest are due at the next)
DISCOVERY_SLACK = 10.0  # seconds: a game listed that long after its creation is still found
MAX_BACKOFF = 60.0
WAITING = (JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED)
DEFAULT_ENTROPY_SECONDS = 30.0


def interval() -> float:
    """Seconds between sweeps (``CARDROOM_SWEEP_INTERVAL``, default 2)."""
    return float(os.environ.get("CARDROOM_SWEEP_INTERVAL") or 2.0)


def stall_seconds() -> float:
    """How long a game may await a bot without moving (``CARDROOM_STALL_SECONDS``, default 3)."""
    return float(os.environ.get("CARDROOM_STALL_SECONDS") or 3.0)


def entropy_seconds() -> float:
    """How long a deal waits for an HTTP bot's own entropy before its seat gets the fallback
    fixed at creation (``CARDROOM_ENTROPY_SECONDS``, default 30: a connected SDK bot posts at
    once, and a stream that ends is back within its retry, about a second; a game's
    ``idle_seconds`` when shorter). ValueError unless a positive number of seconds."""
    raw = os.environ.get("CARDROOM_ENTROPY_SECONDS") or ""
    try:
        seconds = float(raw) if raw.strip() else DEFAULT_ENTROPY_SECONDS
    except ValueError:
        seconds = math.nan
    if not 0 < seconds < math.inf:
        raise ValueError(f"CARDROOM_ENTROPY_SECONDS={raw!r}: not a positive number of seconds")
    return seconds


def repair_seconds() -> float:
    """Seconds between the sweeps that read the whole listing (``CARDROOM_SWEEP_REPAIR_SECONDS``,
    default 86400: a backstop, as each game's listing is checked when it is looked at); the
    others read only what is due."""
    return float(os.environ.get("CARDROOM_SWEEP_REPAIR_SECONDS") or 86400.0)


def waiting_ttl() -> float:
    """Seconds a game may wait for players before it expires (``CARDROOM_WAITING_TTL``,
    default 86400: a day)."""
    return float(os.environ.get("CARDROOM_WAITING_TTL") or 86400.0)


def alive_key(namespace: str, worker_name: str) -> str:
    """The key a live worker keeps refreshing (it expires soon after the worker dies)."""
    return f"{namespace}:worker-alive:{worker_name}"


class Moves(Protocol):
    """The use cases the sweeper calls (``GameService`` puts them together): what moves a
    game nobody moves, and the load that tells whether it must."""

    def complete_create(self, game_id: str) -> bool: ...

    def load(self, game_id: str) -> Loaded: ...

    def enforce_clock(self, game_id: str, expected_version: int | None = None) -> str: ...

    def bots_missing(self, meta: GameMeta) -> list[dict[str, Any]]: ...

    def move_on_idle(self, game_id: str, version: int, gone: Collection[int] = ()) -> list[int]: ...

    def expire_if_due(
        self, game_id: str, now: float, ttl: float, still_since: tuple[int, float] | None = None
    ) -> bool: ...


class Sweeper:
    """Finds live games stalled on a bot's turn and queues that turn again. Of the service it
    calls the use cases of ``Moves``; of the store it reads the ports it uses: the creations
    left half-done, the listing (and its repairs), the games' versions (``log``) and records
    (``seats``), and the clock index."""

    def __init__(
        self,
        service: Moves,
        scheduler: RQScheduler,
        limit: int = 100_000,
        *,
        creations: Creations,
        listing: Listing,
        log: EventLog,
        seats: Seats,
        clocks: ClockIndex,
        stall: float | None = None,
        entropy: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.scheduler = scheduler
        self.creations, self.listing, self.log, self.seats = creations, listing, log, seats
        self.clocks = clocks
        self.limit = limit
        self.stall = stall_seconds() if stall is None else stall
        self.entropy = entropy_seconds() if entropy is None else entropy
        self.clock = clock

    @property
    def _seen_key(self) -> str:
        return queues.sweeper_seen_key(self.scheduler.namespace)

    def _attempts_key(self, game_id: str) -> str:
        return f"{self.scheduler.namespace}:game:{{{game_id}}}:sweeps"

    def tick(self) -> int:
        """One sweep: only the games whose next look is due are read. Returns how many turns
        were queued again."""
        settled = []
        for game_id in self.creations.unsettled(before=time.time() - SETTLE_GRACE):
            self.service.complete_create(game_id)  # a create that stopped half-way
            settled.append(game_id)
        now = self.clock()
        self._discover(now, settled)
        connection = self.scheduler.connection
        looks = connection.zrangebyscore(self._due_key, "-inf", now, 0, DUE_PAGE)
        due = [g.decode() if isinstance(g, bytes) else str(g) for g in looks]
        resumed = self._look(due, now) if due else 0
        self.enforce_clocks()
        return resumed

    @property
    def _soon(self) -> float:
        """Seconds until the next look at a game that just moved (a sweep, or the stall)."""
        return min(interval(), self.stall)

    @property
    def _due_key(self) -> str:
        return f"{self.scheduler.namespace}:sweeper:due"

    @property
    def _newest_key(self) -> str:
        return f"{self.scheduler.namespace}:sweeper:listed"

    @property
    def _repaired_key(self) -> str:
        return f"{self.scheduler.namespace}:sweeper:repaired"

    def _discover(self, now: float, settled: list[str]) -> None:
        """Put the live games created since the last sweep (and those just settled) on the
        look-out, looking at them now. Every ``repair_seconds`` the whole listing is read
        instead, repairing the listing of games whose status moved without their index."""
        connection = self.scheduler.connection
        raw_last, raw_repaired = connection.mget(self._newest_key, self._repaired_key)
        repair = raw_repaired is None or now - float(raw_repaired) >= repair_seconds()
        found = dict.fromkeys(settled, now)
        started = time.time()  # creation times are the web's wall clock
        if repair or raw_last is None:
            found.update((meta.id, now) for meta in self._live())
        else:  # ids only: the games listed or moved since the last sweep (a slack back)
            since = float(raw_last) - DISCOVERY_SLACK
            found.update(dict.fromkeys(self.listing.relisted_since(since, DUE_PAGE), now))
        pipe = connection.pipeline(transaction=False)
        if found:
            pipe.zadd(self._due_key, found, lt=True)  # looked at now, or sooner if due sooner
        pipe.set(self._newest_key, started)
        if repair:
            pipe.set(self._repaired_key, now)
        pipe.execute()

    def _look(self, due: list[str], now: float) -> int:
        """Look at the games due: record a moved version, else move on what is idle, expire
        what waited too long, queue again a stalled bot turn; then set each one's next look."""
        connection = self.scheduler.connection
        raw = connection.hmget(self._seen_key, due)
        seen = {g: _text(r) for g, r in zip(due, raw, strict=True) if r is not None}
        versions = self.log.versions(due)
        records: dict[Any, str] = {}  # redis-py types a mapping's keys as any encodable value
        nexts: dict[Any, float] = {}
        resumed = 0
        for game_id in due:
            meta = self.seats.meta(game_id) if game_id in versions else None
            if meta is not None:
                self._relist(meta)
            if meta is None or meta.status == "over":
                continue  # dropped from the look-out
            version = versions[game_id]
            before, _, since_text = seen.get(game_id, "").partition(":")
            if since_text and int(before) == version:
                records[game_id] = seen[game_id]
                ended, after, count = self._still(meta, version, float(since_text), now)
                resumed += count
                if ended is None:  # it moved on just now (idle): seen afresh
                    meta, version = self.seats.meta(game_id), self.log.version(game_id)
                elif not ended:
                    nexts[game_id] = after
                if ended is not None or meta is None:
                    continue
            records[game_id] = f"{version}:{now}"
            first = self._moved(meta, version, now)
            if first is not None:
                nexts[game_id] = first
        gone = [g for g in due if g not in nexts]
        pipe = connection.pipeline(transaction=False)
        if gone:
            pipe.zrem(self._due_key, *gone)
            pipe.hdel(self._seen_key, *gone)
        kept = {g: r for g, r in records.items() if g in nexts}
        if kept:
            pipe.hset(self._seen_key, mapping=kept)
        if nexts:
            pipe.zadd(self._due_key, nexts)
        pipe.execute()
        return resumed

    def _relist(self, meta: GameMeta) -> None:
        """Repair the listing of a game whose status moved without its index (a crash between
        an append and its index update), and queue the export of a game found over that way."""
        listed = self.listing.listed_status(meta.id)
        if listed is None or listed == meta.status:
            return
        self.listing.set_status(meta.id, meta.status)
        if meta.status == "over":
            self.scheduler.enqueue_export(meta.id)

    def _moved(self, meta: GameMeta, version: int, now: float) -> float | None:
        """When to look again at a game first seen at ``version`` now (None: it expired)."""
        if meta.status != "waiting":
            return now + self._soon
        if self._expired(meta, now, None):  # never dealt, past its time
            return None
        if self._awaits_entropy(meta.id, version):
            return min(self._expiry(meta, now, now), now + self._entropy_wait(meta))
        return self._expiry(meta, now, now)

    def _entropy_wait(self, meta: GameMeta) -> float:
        """How long a game's deal may wait, unmoved, for a bot's own entropy: ``entropy``
        (``CARDROOM_ENTROPY_SECONDS``), never longer than the game's ``idle_seconds``."""
        return min(self.entropy, idle_seconds(meta.options))

    @staticmethod
    def _expiry(meta: GameMeta, since: float, now: float) -> float:
        """When a waiting game may expire: ``ttl`` after its creation, or (past that: a seat
        left open) after its version last moved, ``since``."""
        ttl = waiting_ttl()
        created_due = meta.created + ttl
        return created_due if created_due > now else since + ttl

    def _still(
        self, meta: GameMeta, version: int, since: float, now: float
    ) -> tuple[bool | None, float, int]:
        """A game found at the version it had ``since``: (whether it ended now, None when it
        moved on as idle; when to look again; turns queued again)."""
        still = now - since
        if meta.status == "waiting":
            if self._expired(meta, now, (version, since)):
                return True, now, 0
            if self._awaits_entropy(meta.id, version):  # a bot's entropy, never sent
                wait = self._entropy_wait(meta)
                if self._idle(meta, version, still, wait):
                    return None, now, 0
                return False, min(self._expiry(meta, since, now), since + wait), 0
            return False, self._expiry(meta, since, now), 0
        idle_due = since + idle_seconds(meta.options)
        if self._idle(meta, version, still):
            return None, now, 0
        if self._awaits_entropy(meta.id, version):  # every seat taken, a bot's entropy not
            wait = self._entropy_wait(meta)
            if self._idle(meta, version, still, wait):
                return None, now, 0
            return False, since + wait, 0
        if still < self.stall:
            return False, min(since + self.stall, idle_due), 0
        count = self.resume(meta.id, version, still)
        if self._awaits_bot(meta.id, version):
            return False, min(now + self._soon, idle_due), count
        return False, idle_due, count

    def _awaits_entropy(self, game_id: str, version: int) -> bool:
        """A waiting game whose deal awaits a bot's own entropy (at that version)."""
        loaded = self.service.load(game_id)
        return loaded.version == version and bool(getattr(loaded.state, "awaiting_entropy", ()))

    def _awaits_bot(self, game_id: str, version: int) -> bool:
        loaded = self.service.load(game_id)
        if loaded.version != version or loaded.over:
            return True  # it moved: look again soon
        seats = [s.public(i) for i, s in enumerate(loaded.meta.seats)]
        return any(bot_of(seats, s) for s in loaded.game.awaited_seats(loaded.state))

    def enforce_clocks(self, limit: int = PAGE) -> int:
        """Record the timeouts due now; correct the index entries found early. Returns how
        many timeouts were recorded."""
        fired = 0
        for game_id, seen in self.clocks.clocks_due(now_ms(self.clock), limit):
            try:
                result = self.service.enforce_clock(game_id)
            except Exception:
                log.exception("could not enforce the clock of game %s", game_id)
                continue
            fired += result.count("timed out")
            loaded = self.service.load(game_id)
            due = None if loaded.over else next_due(loaded.state)
            self.clocks.reset_clock(game_id, seen, None if due is None else due[0])
            if result.startswith("timed out"):
                log.warning("sweeper: game %s: %s", game_id, result)
        return fired

    def _idle(
        self, meta: GameMeta, version: int, still_for: float, after: float | None = None
    ) -> bool:
        """A game played on that has not moved for its ``idle_seconds`` (or ``after``: the
        entropy wait) moves on (``service.idle``); True when it did."""
        limit = idle_seconds(meta.options) if after is None else after
        if meta.status not in LIVE or still_for < limit:
            return False
        try:
            gone = {int(m["seat"]) for m in self.service.bots_missing(meta)}
            return bool(self.service.move_on_idle(meta.id, version, gone))
        except Exception:
            log.exception("could not move on idle game %s", meta.id)
            return False

    def _expired(self, meta: GameMeta, now: float, still: tuple[int, float] | None) -> bool:
        """A game still waiting for players past its time ends now (lifecycle.GameExpired):
        never dealt, ``ttl`` after its creation; waiting on a seat a person left, ``ttl`` after
        its version last moved (``still``: its version and since when, as this sweeper saw)."""
        ttl = waiting_ttl()
        if meta.status != "waiting" or meta.created + ttl > now:
            return False  # decided on the metadata: no fold for the games not due
        return self.service.expire_if_due(meta.id, now, ttl, still)

    def _live(self) -> Iterator[GameMeta]:
        """Every listed live game (repairing the listing of those whose status moved)."""
        for status in LIVE:
            for offset in range(0, self.limit, PAGE):
                page = self.listing.list_games(status=status, limit=PAGE, offset=offset)
                for meta in page:
                    if meta.status == status:
                        yield meta
                    else:  # the status moved, its index update was lost
                        self.listing.set_status(meta.id, meta.status)
                        if meta.status == "over":
                            self.scheduler.enqueue_export(meta.id)
                        else:
                            yield meta
                if len(page) < PAGE:
                    break

    def resume(self, game_id: str, version: int, stalled_for: float) -> int:
        """Queue again the bot turns a game stalled at ``version`` waits for."""
        loaded = self.service.load(game_id)
        if loaded.version != version or loaded.over:
            return 0
        seats = [s.public(i) for i, s in enumerate(loaded.meta.seats)]
        guests = self.scheduler.seats_guests(seats)
        count = 0
        for seat in loaded.game.awaited_seats(loaded.state):
            bot = bot_of(seats, seat)
            if bot is None:
                continue
            field = f"{seat}:{version}"
            raw = self.scheduler.connection.hget(self._attempts_key(game_id), field)
            tries, _, when = (_text(raw) if raw else "0:0").partition(":")
            attempts, last = int(tries), float(when)
            cap = min(MAX_BACKOFF, 10 * self.stall)
            backoff = min(self.stall * 2 ** (attempts - 1), cap) if attempts else 0
            if self.clock() - last < backoff:
                continue
            if self._under_way(game_id, seat, version, (bot, guests), attempts):
                continue
            attempts += 1
            pipe = self.scheduler.connection.pipeline(transaction=True)
            pipe.hset(self._attempts_key(game_id), field, f"{attempts}:{self.clock()}")
            pipe.expire(self._attempts_key(game_id), 24 * 3600)
            pipe.execute()
            if self.scheduler.enqueue_turn(game_id, seat, version, bot, attempts, guests=guests):
                log.warning(
                    "re-queued %s's turn (attempt %s, stalled %.1fs): game %s seat %s v%s",
                    bot, attempts, stalled_for, game_id, seat, version,
                )  # fmt: skip
                count += 1
        return count

    def _under_way(
        self, game_id: str, seat: int, version: int, bot: tuple[str, bool], attempts: int
    ) -> bool:
        """A job of this turn is really waiting in its queue, running, or its bot chose to wait.

        Only the first job (or the older one pending for this version: its mark moved here),
        and the newest re-run can be under way: no re-run is queued while another job of the
        turn is. ``bot``: its name, and whether the game seats an HTTP bot (its queue)."""
        namespace, connection = self.scheduler.namespace, self.scheduler.connection
        ids = [turn_job_id(namespace, game_id, seat, version, a) for a in {0, attempts}]
        pending = self.scheduler.pending_job(game_id, seat, version, bot[0])
        ids += [pending] if pending is not None and pending not in ids else []
        queue = self.scheduler.queue(config.bot_queue(bot[0], namespace, bot[1]))
        for job in Job.fetch_many(ids, connection=connection):
            if job is None:
                continue
            status = job.get_status()
            if status == JobStatus.QUEUED:
                if connection.lpos(queue.key, job.id) is not None:
                    return True  # really in its queue (say, no worker serves it right now)
            elif status in WAITING:
                return True
            elif status == JobStatus.STARTED:
                if job.worker_name and connection.exists(alive_key(namespace, job.worker_name)):
                    return True
            elif _waited(job):
                return True
        return False

    def elected(self) -> bool:
        """True for the one sweeper that may sweep this interval."""
        key = f"{self.scheduler.namespace}:sweeper"
        return bool(self.scheduler.connection.set(key, "1", nx=True, px=int(interval() * 900)))


def _text(value: bytes | str) -> str:
    """A reply of the RQ connection (bytes) as text."""
    return value.decode() if isinstance(value, bytes) else value


def _waited(job: Job) -> bool:
    if job.get_status() != JobStatus.FINISHED:
        return False
    result = job.return_value()
    return isinstance(result, str) and result.startswith("waits")


def sweep_forever(stop: threading.Event, worker_name: str | None = None) -> None:
    """The worker's sweeper thread: mark the worker alive, sweep when elected, until ``stop``."""
    from service.store.redis import RedisEventStore

    url, namespace = config.redis_url(), config.namespace()
    scheduler = RQScheduler.from_url(config.rq_redis_url(), namespace, store_url=url)
    store = RedisEventStore.from_url(url, namespace, config.idempotency_ttl())
    bots = BotDirectory(RedisBotRegistry(store.client, namespace))  # whose bots are gone
    sweeper = Sweeper(GameService(store, scheduler, bots=bots), scheduler, creations=store,
                      listing=store, log=store, seats=store, clocks=store)  # fmt: skip
    while True:
        try:
            if worker_name:
                key = alive_key(namespace, worker_name)
                scheduler.connection.set(key, "1", px=int(max(interval() * 3, 1.0) * 1000))
            if sweeper.elected():
                sweeper.tick()
        except Exception:
            log.exception("sweep failed")
        if stop.wait(interval()):
            return
