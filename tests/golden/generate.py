"""Write the golden replay files that do not exist yet (never overwrites one).

    .venv/bin/python -m tests.golden.generate

Each golden game (replay format 2) is created with a secret and seat entropy derived from its
name, seat 0 a bot filled at creation and every other seat joined with its own client entropy,
then played by bots exactly as the workers would play it for that game id
(``rng = Random("<game id>:<seat>:<version>")``) and recorded in the store's entry format with
the salted chain. A golden with a ``seed`` or ``deal`` is prearranged. A golden file that stops
verifying is a compatibility break of the rules or of an event's shape: fix the code (or add an
upcaster), do not regenerate the file. ``format1/`` keeps the format 1 files (a game's own
start, unsalted chain), which still verify.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from domain.events import Event, canonical_json
from domain.fairness import chain_salt
from domain.lifecycle import Keys, create_command, join_command, lifecycle
from domain.protocol import action_command, fold
from domain.registry import all_games
from replays.format import Replay, build_replay, write
from replays.record import entries
from replays.verify import verify
from workers.bots.base import get_bot, is_wait

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Golden:
    """One golden game: who plays, with which options, seed and (optionally) explicit deal."""

    name: str
    game: str
    bots: tuple[str, ...]
    seed: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    dealer: int | None = None
    deal: dict[str, Any] | None = None

    @property
    def path(self) -> Path:
        return HERE / f"{self.name}.replay.json"


GOLDENS = (
    Golden("shithead-4p-heuristic", "shithead", ("heuristic",) * 4),
    Golden(
        "shithead-3p-variant-seeded",
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
    Golden("sixty_six-heuristic-vs-random", "sixty_six", ("heuristic", "random")),
    Golden("sheepshead-5p-heuristic", "sheepshead", ("heuristic",) * 5),
)


def _hex(*parts: str) -> str:
    return hashlib.sha256(":".join(parts).encode()).hexdigest()


def play(golden: Golden) -> Replay:
    """Create, fill and play the golden game with its bots, and record it."""
    game = lifecycle(all_games()[golden.game])
    game_id = f"golden-{golden.name}"
    keys = Keys(secret=_hex("golden-secret", golden.name), seed=golden.seed, deal=golden.deal)
    players = len(golden.bots)
    filled = [(0, _hex("golden-entropy", golden.name, "0"))]
    created = game.create(
        players=players, options=golden.options, dealer=golden.dealer, keys=keys, filled=filled
    )
    command = create_command(
        players=players, options=golden.options, dealer=golden.dealer, filled=filled
    )
    batches: list[tuple[dict[str, Any], list[Event]]] = [(command, created)]
    state = fold(game, created)
    for seat in range(1, players):
        entropy = _hex("golden-entropy", golden.name, str(seat))
        events = game.join(state, seat, entropy, keys)
        state = fold(game, events, state)
        batches.append((join_command(seat, entropy, "client"), events))
    version = sum(len(events) for _, events in batches)
    while game.outcome(state) is None:
        seat, action = _next_action(golden, game_id, game, state, version)
        events = game.act(state, seat, action, keys)
        state = fold(game, events, state)
        version += len(events)
        batches.append((action_command(seat, action), events))
    seats = [{"seat": 0, "type": "bot", "name": golden.bots[0], "bot": golden.bots[0]}]
    seats += [{"seat": i, "type": "human", "name": b} for i, b in enumerate(golden.bots) if i]
    return build_replay(
        game_id,
        entries(game, batches, chain_salt(keys.secret)),
        game=game.name,
        seats=seats,
        outcome=game.outcome(state),
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
