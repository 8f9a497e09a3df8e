"""The service's after-append hook on RQ: enqueue bot turns and, at the end, the replay export.

Job ids make every enqueue idempotent (RQ ``unique=True``; needs Lua, so fakeredis needs its
``lua`` extra): one turn job per (game, seat, version), one export per game. And a seat's turn
waits in a queue once: while a job for (game, seat, bot) is queued and not started, a newer
version's turn only moves that job's *pending* mark (``<ns>:turn:{<game>}:<seat>:<bot>``:
``<version> <job id>``) forward, and the job plays the newest version when it starts
(``take_turn``); a bot that moves fast (or loops) beside the built-in bots adds at most one
job per seat, never one per version it makes stale. The RQ connection must not decode
responses (RQ stores pickles), so it is not the store's client; it is a plain Redis
(``RQ_REDIS_URL``, default ``REDIS_URL``: RQ does not run on a Redis Cluster), while the bot
accounts it looks up live in the store (``accounts``, the store's Redis).
"""

from __future__ import annotations

import logging
import math
import os
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

import redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError

from service.bots import OPERATOR
from service.store.connect import Client, client_from_url
from workers import config

log = logging.getLogger("cardroom.scheduler")

TURN_JOB = "workers.jobs.play_bot_turn"
EXPORT_JOB = "workers.jobs.export_replay"
REVIEW_JOB = "workers.review.review_job"
REVIEW_TIMEOUT = 600  # a review of a long game: WORLDS worlds for each of its decisions
CLOCK_JOB = "workers.clocks.enforce_clock"
CLOCK_LEAD = 2  # seconds before a clock's time its job is scheduled (RQ: whole seconds, 1 s polls)
PENDING_TTL = 120  # seconds a turn's pending mark outlives a job that never started (lost)
# Set the pending mark of a (game, seat) turn, or move it to a newer version; 1 when it was
# not there (the caller enqueues the job it names), 0 when a job is pending already. A mark
# whose job RQ no longer holds (deleted from its queue) is replaced. RQ's Redis is a plain
# Redis (never a cluster): the script may read the job's key, which it is not given.
MARK = """
local held = redis.call('GET', KEYS[1])
if held then
  local version, job = string.match(held, '^(%d+) (.*)$')
  if version and redis.call('EXISTS', 'rq:job:' .. job) == 1 then
    if tonumber(version) < tonumber(ARGV[1]) then
      redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. job, 'KEEPTTL')
    end
    return 0
  end
end
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2], 'EX', ARGV[3])
return 1
"""
TURN_TIMEOUT = 30
RESULT_TTL = 120
FAILURE_TTL = 7 * 24 * 3600


def job_prefix(namespace: str) -> str:
    """RQ job ids allow letters, digits, ``_`` and ``-`` only."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", namespace)


def turn_job_id(namespace: str, game_id: str, seat: int, version: int, attempt: int = 0) -> str:
    """The id of the bot-turn job of (game, seat, version); ``attempt`` > 0 for a re-run."""
    base = f"{job_prefix(namespace)}_turn_{game_id}_{seat}_{version}"
    return base if attempt == 0 else f"{base}_r{attempt}"


def clock_job_id(namespace: str, game_id: str, version: int) -> str:
    """The id of the clock job of a game at a version (one per version: fires at most once)."""
    return f"{job_prefix(namespace)}_clock_{game_id}_{version}"


def clock_jobs() -> bool:
    """Whether clocks get a scheduled job (``CARDROOM_CLOCK_JOBS=0``: the sweeper alone
    enforces them, as when every job is lost)."""
    return (os.environ.get("CARDROOM_CLOCK_JOBS") or "1") != "0"


def export_job_id(namespace: str, game_id: str) -> str:
    """The id of a game's replay export job."""
    return f"{job_prefix(namespace)}_export_{game_id}"


class RQScheduler:
    """Implements ``service.games.Scheduler``: bot seats to act get a turn job on their queue."""

    def __init__(
        self,
        connection: redis.Redis,
        namespace: str | None = None,
        *,
        accounts: Client | redis.Redis | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.connection = connection
        self.clock = clock  # the time a clock job's moment is compared with
        self.accounts = connection if accounts is None else accounts  # the store's Redis
        self.namespace = namespace or config.namespace()
        self._queues: dict[str, Queue] = {}
        self._held = threading.local()
        self._http_bots: dict[str, bool] = {}
        self._mark = connection.register_script(MARK)

    @classmethod
    def from_url(
        cls, url: str | None = None, namespace: str | None = None, *, store_url: str | None = None
    ) -> RQScheduler:
        """A scheduler on its own (non-decoding) connection to RQ's Redis (``url``, else
        ``config.rq_redis_url``); bot accounts read from the store at ``store_url`` (without
        it: ``url``'s Redis when given, else ``REDIS_URL``)."""
        rq_url = config.rq_redis_url(url, store_url)
        store = store_url or (None if url else config.redis_url())
        accounts = None if store is None or store == rq_url else client_from_url(store)
        return cls(redis.Redis.from_url(rq_url), namespace, accounts=accounts)

    def queue(self, name: str) -> Queue:
        """The RQ queue of that name (cached)."""
        if name not in self._queues:
            self._queues[name] = Queue(name, connection=self.connection)
        return self._queues[name]

    def after_append(
        self,
        game_id: str,
        version: int,
        *,
        game: str,
        seats: Sequence[Mapping[str, Any]],
        to_act: Sequence[int],
        over: bool,
    ) -> None:
        """Enqueue a turn for every bot seat to act, or the replay export once over."""
        guests = self.seats_guests(seats)
        turns = (
            []
            if over
            else [Turn(game_id, s, version, b, guests) for s in to_act if (b := bot_of(seats, s))]
        )
        held: list[Turn] | None = getattr(self._held, "turns", None)
        if over:
            self.enqueue_export(game_id, guests=guests)
        if held is not None:
            held[:] = turns  # only the newest append's turns are current
            return
        people = any(s.get("type") != "bot" for s in seats)  # their replies jump the queue
        for turn in reversed(turns) if people else turns:
            self.enqueue_turn(turn.game_id, turn.seat, turn.version, turn.bot, front=people,
                              guests=turn.guests)  # fmt: skip

    @contextmanager
    def holding(self) -> Iterator[list[Turn]]:
        """Within the block, this thread's appends hold their bot turns in the yielded list
        instead of enqueuing them (a bot job plays them itself, or enqueues them at the end)."""
        turns: list[Turn] = []
        self._held.turns = turns
        try:
            yield turns
        finally:
            self._held.turns = None

    def enqueue_turn(
        self,
        game_id: str,
        seat: int,
        version: int,
        bot: str,
        attempt: int = 0,
        *,
        front: bool = False,
        guests: bool = False,
    ) -> bool:
        """Queue one bot turn (``front``: ahead of the queue; ``guests``: the game seats an
        HTTP bot account, see ``service.queues``); False when queued already, when a job of
        the seat is pending (it plays this version: its mark moves), or when the bot is an HTTP
        bot account (it hears of its turn on its own event stream). A re-run (``attempt`` > 0,
        the sweeper's) is queued whatever is pending."""
        if self.is_http_bot(bot):
            return False
        job_id = turn_job_id(self.namespace, game_id, seat, version, attempt)
        pending = self._pending_key(game_id, seat, bot)
        if attempt == 0 and not self._mark(keys=[pending], args=[version, job_id, PENDING_TTL]):
            return False
        queued = self._enqueue(
            config.bot_queue(bot, self.namespace, guests),
            TURN_JOB,
            (game_id, seat, version),
            job_id,
            f"{bot} plays seat {seat} of game {game_id} at version {version}",
            front=front,
        )
        if not queued and attempt == 0:
            self.connection.delete(pending)  # that job was queued before: it marks nothing
        return queued

    def _pending_key(self, game_id: str, seat: int, bot: str) -> str:
        """A seat's mark is its bot's: a seat another bot took over is another queue's."""
        return f"{self.namespace}:turn:{{{game_id}}}:{seat}:{bot}"

    def take_turn(self, game_id: str, seat: int, version: int, bot: str) -> int:
        """A turn job starts: the version it plays, the newest its seat's pending mark names
        (at least ``version``); the mark goes, so a later append queues a new job."""
        pipe = self.connection.pipeline(transaction=True)
        pipe.get(self._pending_key(game_id, seat, bot))
        pipe.delete(self._pending_key(game_id, seat, bot))
        held, _ = pipe.execute()
        marked = pending_version(held)
        return version if marked is None else max(version, marked)

    def pending_job(self, game_id: str, seat: int, version: int, bot: str) -> str | None:
        """The id of the job pending for the seat's turn at ``version``, if one is."""
        held = self.connection.get(self._pending_key(game_id, seat, bot))
        if held is None or pending_version(held) != version:
            return None
        text = held.decode() if isinstance(held, bytes) else str(held)
        return text.partition(" ")[2] or None

    def seats_guests(self, seats: Sequence[Mapping[str, Any]]) -> bool:
        """True for a game of bots only that seats an HTTP bot account (``service.queues``);
        a game with a person is never a guests' one (its turns answer that person first)."""
        if any(s.get("type") != "bot" for s in seats):
            return False
        bots = {str(s["bot"]) for s in seats if s.get("bot")}
        return any(self.is_http_bot(b) for b in bots)

    def is_http_bot(self, bot: str) -> bool:
        """True for an HTTP bot account, or one the operator revoked (never a queue's);
        remembered, as an account's name cannot become a worker's bot unless the operator
        revokes the account and claims its name (workers started after that see it so)."""
        if bot in config.BUILTIN_BOTS:
            return False
        if bot not in self._http_bots:
            key = f"{self.namespace}:bot-accounts"
            held = self.accounts.hget(key, bot)
            operator = held is None or held in (OPERATOR, OPERATOR.encode())
            self._http_bots[bot] = not operator
        return self._http_bots[bot]

    def schedule_clock(self, game_id: str, version: int, due: float) -> bool:
        """Schedule the clock's enforcement of a game at ``version`` for ``due`` (Unix
        seconds). RQ keeps whole seconds and its scheduler looks every second: the job is
        scheduled ``CLOCK_LEAD`` seconds ahead and hands the exact time to a timer
        (``workers.clocks``); a job whose moment has passed already is queued at once, not
        left to the scheduler's next look. False when scheduled already or clock jobs are off."""
        if not clock_jobs():
            return False
        start = math.floor(due) - CLOCK_LEAD
        queue = self.queue(config.queue_name(config.CLOCKS, self.namespace))
        if start <= self.clock():
            enqueue = queue.enqueue
        else:
            enqueue = partial(queue.enqueue_at, datetime.fromtimestamp(start, tz=UTC))
        try:
            enqueue(
                CLOCK_JOB,
                game_id,
                version,
                job_id=clock_job_id(self.namespace, game_id, version),
                unique=True,
                retry=Retry(max=3),
                job_timeout=TURN_TIMEOUT,
                result_ttl=RESULT_TTL,
                failure_ttl=FAILURE_TTL,
                description=f"enforce the clock of game {game_id} at version {version}",
            )
        except DuplicateJobError:
            return False
        return True

    def enqueue_review(self, game_id: str, seat: int) -> bool:
        """Queue a finished game's review for a seat (docs/analysis.md); False when queued
        already (one job id per game and seat)."""
        return self._enqueue(
            config.queue_name(config.REPLAYS, self.namespace),
            REVIEW_JOB,
            (game_id, seat),
            f"{job_prefix(self.namespace)}_review_{game_id}_{seat}",
            f"review game {game_id} for seat {seat}",
            timeout=REVIEW_TIMEOUT,
        )

    def enqueue_export(self, game_id: str, *, guests: bool = False) -> bool:
        """Queue a finished game's replay export (``guests``: the game seats an HTTP bot
        account, its export goes with its turns, ``service.queues``); False when queued
        already."""
        return self._enqueue(
            config.queue_name(config.GUESTS if guests else config.REPLAYS, self.namespace),
            EXPORT_JOB,
            (game_id,),
            export_job_id(self.namespace, game_id),
            f"export the replay of game {game_id}",
        )

    def _enqueue(
        self,
        queue: str,
        func: str,
        args: tuple[Any, ...],
        job_id: str,
        description: str,
        *,
        front: bool = False,
        timeout: int = TURN_TIMEOUT,
    ) -> bool:
        try:
            self.queue(queue).enqueue(
                func,
                *args,
                at_front=front,
                job_id=job_id,
                unique=True,
                retry=Retry(max=3),
                job_timeout=timeout,
                result_ttl=RESULT_TTL,
                failure_ttl=FAILURE_TTL,
                description=description,
            )
        except DuplicateJobError:
            return False
        return True


@dataclass(frozen=True, slots=True)
class Turn:
    """A bot turn to play: who, where, at which version."""

    game_id: str
    seat: int
    version: int
    bot: str
    guests: bool = False  # the game seats an HTTP bot account (service.queues)


def from_config(settings: Mapping[str, Any]) -> RQScheduler:
    """The web app's scheduler (``CARDROOM_SCHEDULER=workers.scheduler:from_config``): RQ on
    ``RQ_REDIS_URL`` (default ``REDIS_URL``), bot accounts in the store at ``REDIS_URL``."""
    return RQScheduler.from_url(
        settings.get("RQ_REDIS_URL") or None,
        settings.get("CARDROOM_NAMESPACE"),
        store_url=settings.get("REDIS_URL") or None,
    )


def pending_version(held: bytes | str | None) -> int | None:
    """The version a pending mark names (None: no mark, or not one)."""
    if held is None:
        return None
    text = held.decode() if isinstance(held, bytes) else held
    first = text.partition(" ")[0]
    return int(first) if first.isdigit() else None


def bot_of(seats: Sequence[Mapping[str, Any]], seat: int) -> str | None:
    """The bot's name when that seat is a bot's."""
    if not 0 <= seat < len(seats):
        return None
    record = seats[seat]
    return str(record["bot"]) if record.get("type") == "bot" and record.get("bot") else None
