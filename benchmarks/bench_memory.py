"""Redis memory per 1,000 events: what a game keeps beside its events.

Run: ``.venv/bin/python -m benchmarks.bench_memory [--games 12]`` (starts its own redis-server).

Games of two random bots are played to the end in process through ``GameService`` on the
Redis store, every action with an idempotency key as the bot workers send them
(``bot:<seat>:<version>``), then exported as the replay worker does
(``workers.jobs.export_replay``). Then ``MEMORY USAGE <key> SAMPLES 0`` of each of a game's
keys: the events stream (the baseline: the events alone), its metadata, its idempotency
records, its latest state snapshot and its replay copy. Printed: bytes per 1,000 events of
each part, and per game the ratio (all of the game's keys) / (its events stream), median and
range over the games.
"""

from __future__ import annotations

import argparse
import random
import uuid

from benchmarks.stats import load_note, own_redis, ratio_line

PARTS = ("events", "meta", "idem", "snap", "replay")


def play(service: object, game: str, seed: int) -> str:
    """One game of random legal actions, each sent with a bot's idempotency key."""
    from service.games import GameService

    assert isinstance(service, GameService)
    rnd = random.Random(seed)
    created = service.create_game(game, [{"type": "bot", "bot": "random"}] * 2, seed=f"m{seed}")
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


def main(argv: list[str] | None = None) -> None:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--game", default="shithead")
    args = parser.parse_args(argv)

    from service.games import GameService
    from service.store.redis import RedisEventStore
    from workers import jobs

    print(f"bench_memory: {load_note()}; {args.games} games of {args.game}, MEMORY USAGE")
    with own_redis() as url:
        store = RedisEventStore.from_url(url, f"bench-{uuid.uuid4().hex[:8]}")
        service = GameService(store)
        jobs.use_service(service)
        try:
            totals = dict.fromkeys(PARTS, 0)
            events = 0
            ratios = []
            for seed in range(args.games):
                game_id = play(service, args.game, seed)
                jobs.export_replay(game_id)
                sizes = {
                    part: int(store.client.memory_usage(store.key(game_id, part), samples=0) or 0)
                    for part in PARTS
                }
                for part in PARTS:
                    totals[part] += sizes[part]
                events += store.version(game_id)
                ratios.append(sum(sizes.values()) / sizes["events"])
        finally:
            jobs.use_service(None)
    per = 1000 / events
    print(f"  {events} events in {args.games} games "
          f"(a game holds {events // args.games} on average); bytes per 1,000 events:")
    for part in PARTS:
        print(f"    {part:<7} {totals[part] * per / 1024:8.1f} KiB")
    print(f"    all     {sum(totals.values()) * per / 1024:8.1f} KiB")
    print("  " + ratio_line("all of a game's keys / its events stream", ratios))


if __name__ == "__main__":
    main()
