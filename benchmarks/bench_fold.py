"""Reads against history: the service's real fold path, and a cold view against a warm one.

Run: ``.venv/bin/python -m benchmarks.bench_fold [--samples 7] [--version 1000]`` (starts its
own redis-server). One game is played (random legal actions, in process) to ``--version``.

1. **fold path / json.loads**: the stream's entries are read from Redis once (not timed);
   then, alternately, (A) ``json.loads`` of every stored event text, and (B) the service's real
   path from those stored fields to the state: ``records.parse_entry`` of every entry (the
   event and command texts kept, each decoded when first read: the fold decodes every event,
   never a command) and ``folding.fold_stored`` (every link of the hash chain checked, HMAC
   included, events decoded and evolved). Each sample is the best of 5 runs.
2. **cold view / warm view**: ``GameService.view`` of that game for one seat, in process on
   the real Redis store: warm = its state cache already holds the game at its version (one
   fetch, nothing to fold); cold = a new service with an empty cache (fetch, then whatever the
   store lets it skip: a snapshot, else the whole stream). Each sample is the mean of 20 calls.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from benchmarks.stats import alternate, best_of, load_note, ratio_line, service_on_own_redis, spread


def long_game(service: object, game: str, target: int, seed: int) -> str:
    """A game of two random bots' seats played in process until ``target`` (or its end)."""
    from service.games import GameService

    assert isinstance(service, GameService)
    rnd = random.Random(seed)
    created = service.create_game(game, [{"type": "bot", "bot": "random"}] * 2, seed=f"s{seed}")
    version = created["version"]
    while version < target:
        loaded = service.load(created["id"])
        rules, state = loaded.game, loaded.state
        choices = [
            (s, a) for s in rules.awaited_seats(state) for a in rules.legal_actions(state, s)
        ]
        if not choices or rules.outcome(state) is not None:
            break
        seat, action = rnd.choice(choices)
        version = service.submit_action(created["id"], seat, action, version)["version"]
    return str(created["id"])


def main(argv: list[str] | None = None) -> None:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--samples", type=int, default=7)
    parser.add_argument("--version", type=int, default=1000)
    parser.add_argument("--game", default="shithead")
    args = parser.parse_args(argv)

    from domain.protocol import fold
    from service.cache import StateCache
    from service.folding import Loaded, fold_stored
    from service.games import GameService
    from service.store import records

    print(f"bench_fold: {load_note()}; {args.samples} alternated samples")
    with service_on_own_redis() as service:
        store = service.store
        game_id = None
        for seed in range(50):  # the first game that reaches the version (random games end)
            game_id = long_game(service, args.game, args.version, seed)
            if service.load(game_id).version >= args.version:
                break
        assert game_id is not None
        loaded = service.load(game_id)
        print(f"game {args.game} at version {loaded.version}")
        raw = store.client.xrange(store.key(game_id, "events"))
        texts = [fields["event"] for _, fields in raw]
        rules, meta = loaded.game, loaded.meta

        def loads() -> None:
            for text in texts:
                json.loads(text)

        def real_path() -> None:
            stored = [records.parse_entry(records.version_of(i), f) for i, f in raw]
            start = Loaded(meta, rules, fold(rules, ()), 0, "0" * 64)
            assert fold_stored(start, stored).version == loaded.version

        base, meas = alternate(
            args.samples, lambda: best_of(5, loads), lambda: best_of(5, real_path)
        )
        print(f"  json.loads of {len(texts)} event texts: ms {spread([1000 * b for b in base])}")
        print(
            f"  real fold path (parse entries, check chain, decode, evolve): "
            f"ms {spread([1000 * m for m in meas])}"
        )
        print(
            "  "
            + ratio_line("fold path / json.loads", [m / b for m, b in zip(meas, base, strict=True)])
        )

        def view_mean(cold: bool) -> float:
            calls, spent = 20, 0.0
            warm = GameService(store, cache=StateCache())
            warm.view(game_id, 0)
            for _ in range(calls):
                svc = GameService(store, cache=StateCache()) if cold else warm
                began = time.perf_counter()
                svc.view(game_id, 0)
                spent += time.perf_counter() - began
            return spent / calls

        warm, cold = alternate(args.samples, lambda: view_mean(False), lambda: view_mean(True))
        print(
            f"  warm view: ms {spread([1000 * w for w in warm])}; cold view: ms "
            f"{spread([1000 * c for c in cold])}"
        )
        print(
            "  "
            + ratio_line(
                f"cold view / warm view at version {loaded.version}",
                [c / w for c, w in zip(cold, warm, strict=True)],
            )
        )


if __name__ == "__main__":
    main()
