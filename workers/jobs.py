"""The RQ jobs: module-level functions of ids and numbers.

``play_bot_turn(game_id, seat, expected_version)`` plays one bot turn through the same command
path as a person (``GameService.submit_action`` with the expected version and an idempotency
key of game, seat and version); ``export_replay(game_id)`` stores a finished game's replay.
Both are idempotent: running one twice (a retry, a re-run after a killed worker) changes nothing.
"""

from __future__ import annotations

import json
import logging
import os
import random
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import FrameType
from typing import Any

from rq import get_current_job
from rq.worker import BaseWorker

from domain.clock import Clock
from domain.errors import DomainError
from domain.events import canonical_json
from replays.verify import VerificationFailed
from service import metrics
from service.games import GameService, Loaded
from service.store.port import VersionConflict
from workers import config
from workers.bots.base import get_bot, is_wait
from workers.deadline import TooSlow, over, time_limit
from workers.process import service
from workers.scheduler import RQScheduler, Turn

log = logging.getLogger("cardroom.jobs")

RAISED, TIMEOUT, ILLEGAL = "raised", "timeout", "illegal"  # a fallback's reasons

@metrics.timed_bot_turn
def play_bot_turn(game_id: str, seat: int, expected_version: int) -> str:
    """Play the bot's turn at that version, or at the newer one its seat's pending mark
    names (``RQScheduler.take_turn``: a turn waits in a queue once); quietly nothing when the
    game moved on.

    Then, for up to ``CARDROOM_CHAIN_SECONDS`` (0.1 s), keep playing the turns that follow
    for bots served by the same queue in this process instead of queueing each of them: the
    hook's turns are held, not enqueued, and whatever is left is enqueued at the end (also on
    an error), behind the turns that answer people (those go to the front of the queue). A
    worker killed mid-chain leaves the next turn unqueued: the sweeper re-queues it.
    """
    svc = service()
    scheduler = svc.scheduler
    queued = queued_at()
    if isinstance(scheduler, RQScheduler):
        bot = _bot_of(svc, game_id, seat)
        if bot is not None:
            newest = scheduler.take_turn(game_id, seat, expected_version, bot)
            queued = queued if newest == expected_version else None  # began after the queueing
            expected_version = newest
    if not isinstance(scheduler, RQScheduler) or chain_seconds() <= 0:
        return play_one_turn(svc, game_id, seat, expected_version, queued)
    deadline = time.monotonic() + chain_seconds()
    played = 0
    with scheduler.holding() as held:
        try:
            result = play_one_turn(svc, game_id, seat, expected_version, queued)
            queue = _queue_of(svc, game_id, seat) if result.startswith("played") else ""
            while result.startswith("played") and time.monotonic() < deadline:
                result = "nothing to chain"
                for turn in [t for t in held if _queue(t) == queue]:
                    result = play_one_turn(svc, turn.game_id, turn.seat, turn.version)
                    if result.startswith("played"):
                        played += 1
                        break
        finally:
            for turn in list(held):
                scheduler.enqueue_turn(turn.game_id, turn.seat, turn.version, turn.bot,
                                       guests=turn.guests)  # fmt: skip
    return result if not played else f"{result} (and {played} more turns)"


def chain_seconds() -> float:
    """How long one bot job may keep playing the turns that follow it."""
    return float(os.environ.get("CARDROOM_CHAIN_SECONDS") or 0.1)


def _bot_of(svc: GameService, game_id: str, seat: int) -> str | None:
    cached = svc.cache.get(game_id)
    meta = cached.meta if cached is not None else svc.load(game_id).meta
    if not 0 <= seat < len(meta.seats) or meta.seats[seat].type != "bot":
        return None
    return str(meta.seats[seat].bot)


def _queue_of(svc: GameService, game_id: str, seat: int) -> str:
    cached = svc.cache.get(game_id)
    meta = cached.meta if cached is not None else svc.load(game_id).meta
    assert isinstance(svc.scheduler, RQScheduler)
    guests = svc.scheduler.seats_guests([s.public(i) for i, s in enumerate(meta.seats)])
    return config.bot_queue(str(meta.seats[seat].bot), guests=guests)


def _queue(turn: Turn) -> str:
    return config.bot_queue(turn.bot, guests=turn.guests)


def queued_at() -> float | None:
    """When the running RQ job was queued (Unix seconds; None outside a job): a turn job is
    queued by the append that made the seat's turn, so for a game without a clock (whose
    commands bear no time) this is when its turn began, read with the job (no round trip)."""
    job = get_current_job()
    return None if job is None or job.enqueued_at is None else job.enqueued_at.timestamp()


def play_one_turn(
    svc: GameService, game_id: str, seat: int, expected_version: int, queued: float | None = None
) -> str:
    """One bot turn through the service layer (see play_bot_turn); ``queued``: when its turn
    began, if known (``queued_at``), else now."""
    loaded = svc.load(game_id)
    skip = _why_not_to_play(loaded, seat, expected_version)
    if skip:
        return skip
    now = svc.now()
    turn_ends = time.monotonic() + pace_left(loaded.state, seat, now if queued is None else queued,
                                             now)  # fmt: skip
    bot = str(loaded.meta.seats[seat].bot)
    view = json.loads(canonical_json(loaded.game.view(loaded.state, seat)))
    rng = random.Random(f"{game_id}:{seat}:{expected_version}")
    key = f"bot:{seat}:{expected_version}"  # a game's keys are its own: no game id (memory)
    if getattr(_strategy(bot, loaded.meta.game), "wants_history", False):
        own = [e["event"] for e in svc.events_after(game_id, 0, seat)["events"]]
        view["history"] = [*svc.fork_prehistory(loaded, seat), *own]  # a fork's: from before
    answer = _choose(bot, loaded.meta.game, view, rng)
    if not isinstance(answer, tuple) and is_wait(answer):
        return "waits: the bot wants no action now"
    turn = (game_id, seat, expected_version, key)
    left = turn_ends - time.monotonic()
    if left > 0 and not in_forked_horse():
        start_timer(left, partial(_paced_move, svc, turn, bot, answer))
        return f"paced: its move is made in {left:.3f} s unless the game moves first"
    if _moved_during_pace(svc, game_id, expected_version, turn_ends):
        return "stale: the game moved first (a person's move out of turn)"
    return _move(svc, turn, bot, answer)


def pace_left(state: Any, seat: int, began: float, now: float) -> float:
    """Seconds from ``now`` until a bot's move is due (Unix seconds in): its pace
    (``Table.bot_pace_ms``) counted from its turn's start, not from when its job got to run
    (the queue's delay is inside the pace). On a clock, the start is the one the clock
    recorded (its deadline less a turn), and the move comes at least a margin (10 % of a turn,
    100 ms at least) before the seat's deadline: a bot's own pace never costs it the game.
    Otherwise the turn began at ``began``."""
    pace = state.bot_pace_ms() / 1000.0
    if pace <= 0:
        return 0.0
    due = began + pace
    clock: Clock | None = getattr(state, "clock", None)
    deadline = clock.deadlines[seat] if clock is not None else None
    if clock is not None and deadline is not None:
        margin = max(100, clock.turn_ms // 10)
        due = min((deadline - clock.turn_ms) / 1000.0 + pace, (deadline - margin) / 1000.0)
    return max(0.0, float(due - now))


def in_forked_horse() -> bool:
    """True when this job runs in the child a forking RQ worker (a plain ``rq worker``) made
    for it: the child ends with the job (``os._exit``), its timers too, so a paced turn there
    waits out its pace in the job (it holds that worker, as every job of it does)."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        worker = frame.f_locals.get("self")
        if isinstance(worker, BaseWorker):
            return bool(getattr(worker, "_is_horse", False))
        frame = frame.f_back
    return False


def _moved_during_pace(svc: GameService, game_id: str, version: int, turn_ends: float) -> bool:
    """Wait out the rest of the bot's pace in the job (a forked horse); True when the game
    moved meanwhile."""
    left = turn_ends - time.monotonic()
    return left > 0 and svc.wait(game_id, version, left)


def _move(svc: GameService, turn: tuple[str, int, int, str], bot: str, answer: Any) -> str:
    """Submit the bot's chosen action (its fallback when ``answer`` is (reason, detail)) under
    the turn's expected version and idempotency key: stale when the game moved meanwhile."""
    game_id, seat, expected_version, key = turn
    if isinstance(answer, tuple):
        return _fall_back(svc, turn, bot, *answer)
    try:
        svc.submit_action(game_id, seat, answer, expected_version, key)
    except VersionConflict:
        return "stale: someone else moved first"
    except DomainError as err:
        return _fall_back(svc, turn, bot, ILLEGAL, f"{answer} was refused: {err}")
    return "played"


def _paced_move(svc: GameService, turn: tuple[str, int, int, str], bot: str, answer: Any) -> None:
    """The timer's end of a paced turn (``Table.bot_pace_ms``): its move at the turn's start
    plus the pace, however long the bot thought, made from a timer so that the pace holds no
    worker (the job has returned); a person's move during the pace (a ten out of turn) makes
    it stale. A failure is logged: the sweeper re-queues a turn left unplayed."""
    try:
        result = _move(svc, turn, bot, answer)
        log.info("game %s seat %s: %s", turn[0], turn[1], result)
    except Exception:
        log.exception("the paced move of game %s seat %s at version %s failed", *turn[:3])


def _start_pace_timer(delay: float, action: Callable[[], None]) -> None:
    """Run ``action`` in ``delay`` seconds on a thread of its own (one per paced turn: one
    turn's submission never waits behind another's). Not a daemon: a worker that stops makes
    the moves it has chosen first, at most a pace later; a killed one leaves them to the
    sweeper."""
    threading.Timer(delay, action).start()


start_timer: Callable[[float, Callable[[], None]], None] = _start_pace_timer


def _fall_back(
    svc: GameService, turn: tuple[str, int, int, str], bot: str, reason: str, detail: str
) -> str:
    """The game's default move for the seat, recorded as the bot's fallback (docs/bots.md)."""
    game_id, seat, version, key = turn
    log.warning("bot %s in game %s seat %s failed (%s: %s): playing the fallback",
                bot, game_id, seat, reason, detail)  # fmt: skip
    try:
        svc.submit_action(game_id, seat, {"type": "fallback", "reason": reason}, version, key)
    except VersionConflict:
        return "stale: someone else moved first"
    return f"fell back ({reason}): the default move was played for {bot}"


def _why_not_to_play(loaded: Loaded, seat: int, expected_version: int) -> str:
    if loaded.version != expected_version:
        return f"stale: the game is at version {loaded.version}, not {expected_version}"
    if not 0 <= seat < loaded.meta.players or loaded.meta.seats[seat].type != "bot":
        return f"seat {seat} is not a bot's"
    if seat not in loaded.game.awaited_seats(loaded.state):
        return f"seat {seat} is not awaited"
    return ""


def _strategy(bot: str, game: str) -> Any:
    return get_bot(bot, game)  # UnknownBot fails the job: this worker lacks the bot


def _choose(bot: str, game: str, view: dict[str, Any], rng: random.Random) -> Any:
    """The bot's action, or (reason, detail) when it raised or ran past its time limit."""
    strategy = get_bot(bot, game)  # UnknownBot fails the job: this worker lacks the bot
    limit = move_seconds()
    started = time.monotonic()
    try:
        with time_limit(limit):
            action = dict(strategy.choose(view, rng))
    except TooSlow:
        return (TIMEOUT, f"no answer in {limit:g} s")
    except Exception as err:
        log.exception("bot %s raised while choosing", bot)
        return (RAISED, f"{type(err).__name__}: {err}")
    took = time.monotonic() - started
    if over(limit, took):
        return (TIMEOUT, f"answered after {took:.1f} s (limit {limit:g} s)")
    return action


def move_seconds() -> float:
    """How long a bot may take to choose (``CARDROOM_BOT_MOVE_SECONDS``, 10; 0: no limit)."""
    return float(os.environ.get("CARDROOM_BOT_MOVE_SECONDS") or 10)


def export_replay(game_id: str) -> str:
    """Build, audit and store a finished game's replay (Redis, and a file if configured: not
    a sealed fork's while its source is played; that one is held with the source, whose own
    export writes it: ``GameService.publishable_replays``)."""
    svc = service()
    try:
        exported = svc.export_replay(game_id)
    except VerificationFailed as failed:
        log.error("the replay of game %s does not verify: %s", game_id, failed.report.summary())
        raise
    if exported is None:
        return "not over yet"
    directory = config.replay_dir()
    if directory:  # its file (a sealed fork's waits for its source) and its sealed forks'
        for name, text in svc.publishable_replays(game_id, exported).items():
            path = Path(directory) / f"{name}.replay.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    return exported.summary


