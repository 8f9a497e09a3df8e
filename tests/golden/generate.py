"""Write the golden replay files that do not exist yet (never overwrites one).

    .venv/bin/python -m tests.golden.generate

Each golden game (replay format 2) is created with a secret and seat entropy derived from its
name, seat 0 a bot filled at creation and every other seat joined with its own client entropy,
then played by bots exactly as the workers would play it for that game id
(``rng = Random("<game id>:<seat>:<version>")``) and recorded in the store's entry format with
the salted chain. A golden with a ``seed`` or ``deal`` is prearranged. A golden file that stops
verifying is a compatibility break of the rules or of an event's shape: fix the code (or add an
upcaster), do not regenerate the file. ``format1/`` keeps the format 1 files (a game's own
start, unsalted chain), which still verify; ``timeouts-before-rule/`` keeps clocked games whose
timeouts moved with the heuristic bot, recorded before the default move was a domain rule.

A golden's ``script`` puts the lifecycle into the game: before the n-th bot action, a seat
leaves, retakes its seat, agrees to abort or resigns, the awaited seat runs out of time, or the
next action comes ``late`` (ms past its seat's deadline). A clocked golden stamps every command
with a time that moves a second per command.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from domain import clock
from domain.events import Event, canonical_json
from domain.fairness import chain_salt
from domain.lifecycle import Keys, create_command, join_command, lifecycle, timeout_command
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
    script: tuple[tuple[int, str, int], ...] = ()  # (before bot action n, what, seat or ms)

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
    Golden(
        "sixty_six-clock-timeouts-late-moves",
        "sixty_six",
        ("heuristic", "random"),
        options={"turn_seconds": 10, "bank_seconds": 5, "increment_seconds": 2},
        script=(
            (0, "timeout", 0), (2, "timeout", 0), (4, "late", 1_500), (5, "late", 9_000),
            (8, "timeout", 0), (12, "resign", 1),
        ),
    ),
    Golden(
        "shithead-3p-leave-retake-abort",
        "shithead",
        ("heuristic", "random", "heuristic"),
        script=((1, "leave", 1), (1, "retake", 1), (9, "abort", 2), (9, "abort", 1)),
    ),
    Golden(
        "sheepshead-3p-leave-to-bot-forfeit",
        "sheepshead",
        ("heuristic",) * 3,
        options={"on_leave": "bot", "turn_seconds": 30, "on_timeout": "forfeit"},
        script=((3, "leave", 2), (7, "timeout", 0)),
    ),
)


def _hex(*parts: str) -> str:
    return hashlib.sha256(":".join(parts).encode()).hexdigest()


class _Recording:
    """A golden game being played: its rules, keys, state, batches and the time it is."""

    def __init__(self, golden: Golden) -> None:
        self.golden = golden
        self.game = lifecycle(all_games()[golden.game])
        self.keys = Keys(secret=_hex("golden-secret", golden.name), seed=golden.seed,
                         deal=golden.deal)  # fmt: skip
        self.clocked = clock.from_options(golden.options, 2) is not None
        self.at = 1_700_000_000_000 if self.clocked else None
        self.state: Any = self.game.initial_state()
        self.batches: list[tuple[dict[str, Any], list[Event]]] = []

    @property
    def version(self) -> int:
        return sum(len(events) for _, events in self.batches)

    def tick(self, ms: int = 1_000) -> int | None:
        self.at = None if self.at is None else self.at + ms
        return self.at

    def record(self, command: dict[str, Any], events: list[Event]) -> None:
        self.state = fold(self.game, events, self.state)
        self.batches.append((clock.stamp(command, self.clocked, self.at), events))

    def join(self, seat: int) -> None:
        entropy = _hex("golden-entropy", self.golden.name, str(seat))
        events = self.game.join(self.state, seat, entropy, self.keys, at=self.tick())
        self.record(join_command(seat, entropy, "client"), events)

    def act(self, seat: int, action: dict[str, Any]) -> None:
        events = self.game.act(self.state, seat, action, self.keys, self.tick())
        self.record(action_command(seat, action), events)

    def lifecycle_step(self, what: str, arg: int) -> None:
        if what == "retake":
            self.join(arg)
        elif what == "late":
            due = min(d for d in self.state.clock.deadlines if d is not None)
            self.at = due + arg - 1_000  # the next action's tick lands ``arg`` ms late
        elif what == "timeout":
            due, seat = self.state.clock.next_due()
            self.at = due
            events = self.game.timeout(self.state, seat, due, self.keys, self.version)
            self.batches.append((timeout_command(seat, due), events))
            self.state = fold(self.game, events, self.state)
        else:  # leave, abort, resign: actions of every game
            self.act(arg, {"type": what})


def play(golden: Golden) -> Replay:
    """Create, fill and play the golden game with its bots, and record it."""
    rec = _Recording(golden)
    game, game_id, players = rec.game, f"golden-{golden.name}", len(golden.bots)
    filled = [(0, _hex("golden-entropy", golden.name, "0"))]
    setup = {"players": players, "options": golden.options, "dealer": golden.dealer,
             "filled": filled, "bots": [0]}  # fmt: skip
    rec.record(create_command(**setup), game.create(keys=rec.keys, at=rec.tick(0), **setup))
    for seat in range(1, players):
        rec.join(seat)
    played = 0
    while game.outcome(rec.state) is None:
        steps = [(what, arg) for n, what, arg in golden.script if n == played]
        for what, arg in steps:
            if game.outcome(rec.state) is None:
                rec.lifecycle_step(what, arg)
        if game.outcome(rec.state) is None:
            rec.act(*_next_action(golden, game_id, game, rec.state, rec.version))
        played += 1
    seats = [{"seat": 0, "type": "bot", "name": golden.bots[0], "bot": golden.bots[0]}]
    seats += [{"seat": i, "type": "human", "name": b} for i, b in enumerate(golden.bots) if i]
    return build_replay(
        game_id,
        entries(game, rec.batches, chain_salt(rec.keys.secret)),
        game=game.name,
        seats=seats,
        outcome=game.outcome(rec.state),
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
