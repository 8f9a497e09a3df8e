"""Write the golden replay files that do not exist yet (never overwrites one).

    .venv/bin/python -m tests.golden.generate

Each golden game is played by bots exactly as the workers would play it for that game id
(``rng = Random("<game id>:<seat>:<version>")``) and recorded in the store's entry format. A
golden file that stops verifying is a compatibility break of the rules or of an event's shape:
fix the code (or add an upcaster), do not regenerate the file.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from domain.events import Event, canonical_json
from domain.protocol import Setup, fold
from domain.registry import all_games
from replays.format import Replay, build_replay, write
from replays.record import action_command, entries, start_command
from replays.verify import verify
from workers.bots.base import get_bot, is_wait

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Golden:
    """One golden game: who plays, with which options, seed and (optionally) explicit deal."""

    name: str
    game: str
    bots: tuple[str, ...]
    seed: str
    options: dict[str, Any] = field(default_factory=dict)
    dealer: int | None = None
    deal: dict[str, Any] | None = None

    @property
    def path(self) -> Path:
        return HERE / f"{self.name}.replay.json"


GOLDENS = (
    Golden("shithead-4p-heuristic", "shithead", ("heuristic",) * 4, "golden-shithead-1"),
    Golden(
        "shithead-3p-variant",
        "shithead",
        ("heuristic", "random", "heuristic"),
        "golden-shithead-2",
        {"jokers": "always", "ten_out_of_turn": True, "sevens_low": True, "action_limit": 400},
        dealer=1,
    ),
    Golden(
        "shithead-2p-explicit-deal",
        "shithead",
        ("heuristic", "random"),
        "golden-shithead-3",
        dealer=0,
        deal={
            "seats": [
                {
                    "hand": ["3C", "7D", "QS"],
                    "face_up": ["2H", "TS", "AC"],
                    "face_down": ["4D", "9C", "KH"],
                },
                {
                    "hand": ["5S", "8H", "JC"],
                    "face_up": ["6C", "TD", "AS"],
                    "face_down": ["3H", "9S", "KD"],
                },
            ],
            "stock": ["4C", "7S", "QD", "5H", "8C", "JD"],
        },
    ),
    Golden("sixty_six-heuristic-vs-random", "sixty_six", ("heuristic", "random"), "golden-66-1"),
    Golden("sheepshead-5p-heuristic", "sheepshead", ("heuristic",) * 5, "golden-sheepshead-1"),
)


def play(golden: Golden) -> Replay:
    """Play the golden game with its bots and record it."""
    game = all_games()[golden.game]
    game_id = f"golden-{golden.name}"
    setup = Setup(
        players=len(golden.bots),
        seed=golden.seed,
        options=golden.options,
        dealer=golden.dealer,
        deal=golden.deal,
    )
    created = game.start(setup)
    batches: list[tuple[dict[str, Any], list[Event]]] = [(start_command(setup), created)]
    state = fold(game, created)
    version = len(created)
    while game.outcome(state) is None:
        seat, action = _next_action(golden, game_id, game, state, version)
        events = game.decide(state, seat, action)
        state = fold(game, events, state)
        version += len(events)
        batches.append((action_command(seat, action), events))
    seats = [{"seat": i, "type": "bot", "name": b, "bot": b} for i, b in enumerate(golden.bots)]
    return build_replay(
        game_id, entries(game, batches), game=game.name, seats=seats, outcome=game.outcome(state)
    )


def _next_action(
    golden: Golden, game_id: str, game: Any, state: Any, version: int
) -> tuple[int, dict[str, Any]]:
    """The first seat to act whose bot does not wait, and its action."""
    for seat in game.seats_to_act(state):
        view = json.loads(canonical_json(game.view(state, seat)))
        rng = random.Random(f"{game_id}:{seat}:{version}")
        action = get_bot(golden.bots[seat], golden.game).choose(view, rng)
        if not is_wait(action):
            return seat, action
    raise RuntimeError(f"{golden.name}: every bot to act waits at version {version}")


def main() -> int:
    games = all_games()
    for golden in GOLDENS:
        if golden.game not in games:
            print(f"skip {golden.name}: no game {golden.game}")
            continue
        if golden.path.exists():
            print(f"keep {golden.path.name} (golden files are never regenerated)")
            continue
        replay = play(golden)
        verify(replay)
        write(replay, golden.path)
        print(f"wrote {golden.path.name}: {len(replay.events)} events")
    return 0


if __name__ == "__main__":
    sys.exit(main())
