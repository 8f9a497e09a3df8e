"""Redis memory per 1,000 events: what a game keeps beside its events.

Run: ``.venv/bin/python -m benchmarks.bench_memory [--games 12]`` (starts its own redis-server).

Games of two random bots are played to the end in process through ``GameService`` on the
Redis store, every action with an idempotency key as the bot workers send them
(``bot:<seat>:<version>``), then exported as the replay worker does
(``workers.jobs.export_replay``). Then ``MEMORY USAGE <key> SAMPLES 0`` of each of a game's
keys (all of them: ``SCAN`` of the game's key pattern): the events stream (the baseline: the
events alone), its metadata, its idempotency records (the main hash and its buckets), its
latest state snapshot and its replay copy. Printed: bytes per 1,000 events of
each part, and per game the ratio (all of the game's keys) / (its events stream), median and
range over the games.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from benchmarks.stats import load_note, ratio_line, service_on_own_redis

PARTS = ("events", "meta", "idem", "snap", "replay")


def play(service: object, game: str, seed: int) -> str:
    """One game of random legal actions, each sent with a bot's idempotency key."""
    from service.games import GameService

    assert isinstance(service, GameService)
    rnd = random.Random(seed)
    seats = [{"type": "bot", "bot": "random"}] * max(2, service.rules(game).min_players)
    created = service.create_game(game, seats, seed=f"m{seed}")
    game_id, version = str(created["id"]), int(created["version"])
    while True:
        loaded = service.load(game_id)
        rules, state = loaded.game, loaded.state
        if rules.outcome(state) is not None:
            return game_id
        seat = rnd.choice(list(rules.awaited_seats(state)))
        action = rnd.choice(rules.legal_actions(state, seat))
        key = f"bot:{seat}:{version}"
        version = int(service.submit_action(game_id, seat, action, version, key)["version"])


def game_sizes(store: Any, game_id: str) -> dict[str, int]:
    """``MEMORY USAGE`` of every key of a game, summed by part (``idem`` and its buckets
    ``idem:<n>`` as one)."""
    client, sizes = store.client, dict.fromkeys(PARTS, 0)
    for key in client.scan_iter(match=store.key(game_id, "*"), count=1000):
        part = str(key).split("}:", 1)[1].split(":", 1)[0]
        sizes[part] = sizes.get(part, 0) + int(client.memory_usage(key, samples=0) or 0)
    return sizes


def main(argv: list[str] | None = None) -> None:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--game", default="shithead")
    args = parser.parse_args(argv)

    from workers import jobs, process

    print(f"bench_memory: {load_note()}; {args.games} games of {args.game}, MEMORY USAGE")
    with service_on_own_redis() as service:
        store = service.store
        process.use_service(service)
        try:
            totals: dict[str, int] = {}
            events = 0
            ratios = []
            for seed in range(args.games):
                game_id = play(service, args.game, seed)
                jobs.export_replay(game_id)
                sizes = game_sizes(store, game_id)
                for part, size in sizes.items():
                    totals[part] = totals.get(part, 0) + size
                events += store.version(game_id)
                ratios.append(sum(sizes.values()) / sizes["events"])
        finally:
            process.use_service(None)
    per = 1000 / events
    print(f"  {events} events in {args.games} games "
          f"(a game holds {events // args.games} on average); bytes per 1,000 events:")
    for part, total in totals.items():
        print(f"    {part:<7} {total * per / 1024:8.1f} KiB")
    print(f"    all     {sum(totals.values()) * per / 1024:8.1f} KiB")
    print("  " + ratio_line("all of a game's keys / its events stream", ratios))


if __name__ == "__main__":
    main()
