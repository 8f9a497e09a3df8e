"""Search bots' decision time at their default budget: wall and CPU time per decision.

Run: ``.venv/bin/python -m benchmarks.bench_search_time [--games 4] [--game shithead]``.

The search bot sits in seat 0 against heuristic bots (the arena's line-ups), gets its redacted
history as the arena gives it, and every one of its decisions is timed twice: wall clock
(``perf_counter``, what a loaded machine stretches) and the process's CPU time
(``process_time``, close to the wall time of an unloaded machine). Medians over every
decision, and over the searched ones (more than one candidate) alone; the heuristic bot's
median in the same run is the baseline.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from domain.events import canonical_json
from domain.protocol import Setup, fold
from domain.registry import get_game
from workers.bots.base import get_bot

PLAYERS = {"shithead": 4, "sheepshead": 5, "sixty_six": 2}


def timings(game_name: str, games: int) -> dict[str, list[float]]:
    """Milliseconds per decision: search wall/cpu (all, searched), heuristic wall."""
    game = get_game(game_name)
    out: dict[str, list[float]] = {"wall": [], "cpu": [], "searched_wall": [], "searched_cpu": []}
    out["heuristic_wall"] = []
    players = PLAYERS[game_name]
    for index in range(games):
        bots = [get_bot("search", game_name)] + [get_bot("heuristic", game_name)] * (players - 1)
        events = game.start(Setup(players=players, seed=f"bench-search-{index}"))
        state = fold(game, events)
        history: list[Any] = [json.loads(canonical_json(game.redact(e, 0))) for e in events]
        rng = random.Random(index)
        while game.outcome(state) is None:
            seat = game.awaited_seats(state)[0]
            view = json.loads(canonical_json(game.view(state, seat)))
            if seat == 0:
                view["history"] = history
            wall, cpu = time.perf_counter(), time.process_time()
            action = bots[seat].choose(view, rng)
            wall, cpu = (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000
            if seat == 0:
                out["wall"].append(wall)
                out["cpu"].append(cpu)
                if len(view["legal_actions"]) > 1:
                    out["searched_wall"].append(wall)
                    out["searched_cpu"].append(cpu)
            else:
                out["heuristic_wall"].append(wall)
            new = game.decide(state, seat, action)
            state = fold(game, new, state)
            history += [json.loads(canonical_json(game.redact(e, 0))) for e in new]
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--game", action="append", choices=sorted(PLAYERS))
    args = parser.parse_args(argv)
    for game_name in args.game or ["shithead", "sheepshead"]:
        found = timings(game_name, args.games)
        medians = {k: round(statistics.median(v), 2) for k, v in found.items() if v}
        counts = {k: len(v) for k, v in found.items()}
        print(json.dumps({"game": game_name, "median_ms": medians, "decisions": counts}))


if __name__ == "__main__":
    main()
