"""What the operator sees of the workers' backlog: RQ's queues of this namespace and the live
games stalled on a bot's turn (``GET /admin/queues``).

Read on RQ's Redis (the scheduler's connection): each queue's waiting jobs and the jobs being
run (RQ's started registry), and the sweeper's record of the live games (``version:since``:
since when it has seen each game at its version, ``service.queues.sweeper_seen_key``). A game
the sweeper has seen at one version for ``older`` seconds or more, and that awaits a bot, is
a stalled turn; the sweeper queues it again (docs/bots.md), this only shows it.
"""

from __future__ import annotations

import time
from typing import Any

import redis

from service import queues
from service.errors import NotFound
from service.games import GameService
from service.store.port import UnknownGameId

RQ_QUEUES = "rq:queues"  # RQ's set of every queue's key
QUEUE_PREFIX = "rq:queue:"


def queue_depths(rq: redis.Redis, namespace: str) -> list[dict[str, Any]]:
    """Every RQ queue of the namespace: its name, waiting jobs and jobs being run."""
    names = sorted(_text(k)[len(QUEUE_PREFIX):] for k in rq.smembers(RQ_QUEUES))
    mine = [n for n in names if _of_namespace(n, namespace)]
    pipe = rq.pipeline(transaction=False)
    for name in mine:
        pipe.llen(f"{QUEUE_PREFIX}{name}")
        pipe.zcard(f"rq:wip:{name}")
    counts = pipe.execute()
    return [{"queue": name, "waiting": int(counts[2 * i]), "started": int(counts[2 * i + 1])}
            for i, name in enumerate(mine)]  # fmt: skip


def stalled_turns(
    service: GameService, rq: redis.Redis, namespace: str, older: float, limit: int = 100
) -> list[dict[str, Any]]:
    """Live games the sweeper has seen at one version for ``older`` seconds or more that
    await a bot: game, version, for how long, and the awaited bots' seats."""
    now = time.time()
    seen = rq.hgetall(queues.sweeper_seen_key(namespace))
    still = sorted(((now - float(since), _text(game), int(version))
                    for game, raw in seen.items()
                    for version, _, since in [_text(raw).partition(":")] if since),
                   reverse=True)  # fmt: skip
    stalled: list[dict[str, Any]] = []
    for waited, game_id, version in still:
        if waited < older or len(stalled) >= limit:
            break
        turn = _awaited_bots(service, game_id, version)
        if turn:
            stalled.append({"game": game_id, "version": version,
                            "stalled_seconds": round(waited, 1), "seats": turn})  # fmt: skip
    return stalled


def _awaited_bots(service: GameService, game_id: str, version: int) -> list[dict[str, Any]]:
    try:
        loaded = service.load(game_id)
    except (NotFound, UnknownGameId):
        return []
    if loaded.version != version or loaded.over:
        return []  # moved since the sweeper looked
    seats = loaded.meta.seats
    return [{"seat": s, "bot": str(seats[s].bot)}
            for s in loaded.game.awaited_seats(loaded.state) if seats[s].type == "bot"]  # fmt: skip


def _of_namespace(queue: str, namespace: str) -> bool:
    prefix = queues.queue_name("", namespace)
    if prefix:
        return queue.startswith(prefix)
    return ":" not in queue or queue.startswith("bot:")  # the default namespace's: unprefixed


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
