"""The arena's games: named bots in seats, on the pure domain (no service, no Redis).

A bot's rng is seeded from the run's *bot seed* with the deal, rotation, seat and decision,
never from the deal's seed: the draws a bot sees tell it nothing about the cards. A bot that
raises (a crash), answers with an action the rules refuse, runs past ``move_seconds`` or
answers ``wait`` when no other seat moves (a fallback) ends the game, which counts against it;
so does a game the action limit ends, against the seats that made most of its last
``LOOP_WINDOW`` actions (they kept it from ending: a bot swapping forever in Shithead).
"""

from __future__ import annotations

import json
import random
import secrets
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.errors import DomainError
from domain.events import Event, canonical_json
from domain.protocol import Game, Setup, fold
from domain.registry import get_game
from workers.bots.base import Bot, get_bot, is_wait
from workers.deadline import TooSlow, over, time_limit

LOOP_WINDOW = 1000  # the last actions of a game stopped by the action limit that name culprits
RULES, ACTION_LIMIT, FALLBACK, CRASH = "rules", "action_limit", "fallback", "crash"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """How one game ended: by the rules (``outcome``), or by a bot (``culprits``, ``note``)."""

    outcome: dict[str, Any] | None
    ended_by: str = RULES
    culprits: tuple[int, ...] = ()
    note: str = ""
    times: list[list[float]] = field(default_factory=list)


class Forfeit(Exception):
    """A bot ended its game: ``kind`` is CRASH or FALLBACK."""

    def __init__(self, seats: tuple[int, ...], kind: str, note: str) -> None:
        super().__init__(note)
        self.seats, self.kind, self.note = seats, kind, note


@dataclass
class _Table:
    """One game in progress: the bots, what each remembers, who made each action."""

    game: Game[Any]
    bots: list[Bot]
    rng_seed: str
    move_seconds: float
    histories: list[list[Any] | None]
    times: list[list[float]]
    actions: list[tuple[int, str]] = field(default_factory=list)

    def remember(self, events: Sequence[Event]) -> None:
        for seat, history in enumerate(self.histories):
            if history is not None:
                history += [json.loads(canonical_json(self.game.redact(e, seat))) for e in events]


def play_game(
    game_name: str,
    seats: Sequence[str],
    seed: str,
    options: dict[str, Any] | None = None,
    *,
    bot_seed: str = "",
    move_seconds: float = 0.0,
    max_actions: int = 100_000,
) -> GameRecord:
    """One game between the seated bots on the deal of ``seed``; the bots' rngs drawn from
    ``bot_seed`` (default: a fresh secret one)."""
    game = get_game(game_name)
    bots = [get_bot(name, game_name) for name in seats]
    wants = [bool(getattr(b, "wants_history", False)) for b in bots]
    table = _Table(game, bots, bot_seed or secrets.token_hex(16), move_seconds,
                   [[] if w else None for w in wants], [[] for _ in seats])  # fmt: skip
    events = game.start(Setup(players=len(seats), seed=seed, options=dict(options or {})))
    state = fold(game, events)
    table.remember(events)
    try:
        for step in range(max_actions):
            outcome = game.outcome(state)
            if outcome is not None:
                return _ended(outcome, table)
            state = _one_action(table, state, step)
    except Forfeit as forfeit:
        return GameRecord(None, forfeit.kind, forfeit.seats, forfeit.note, table.times)
    raise RuntimeError(f"{game_name} did not end within {max_actions} actions (seed {seed})")


def _one_action(table: _Table, state: Any, step: int) -> Any:
    """Ask the awaited seats in turn (as the service asks bots) until one moves."""
    game = table.game
    waited: list[int] = []
    for seat in game.awaited_seats(state):
        view = json.loads(canonical_json(game.view(state, seat)))
        if not view["legal_actions"]:
            continue
        history = table.histories[seat]
        if history is not None:
            view["history"] = history
        action = _ask(table, seat, view, random.Random(f"{table.rng_seed}:{seat}:{step}"))
        if is_wait(action):
            waited.append(seat)
            continue
        try:
            new = game.decide(state, seat, action)
        except DomainError as err:
            refused = f"answered {action} that the rules refuse: {err}"
            raise Forfeit((seat,), FALLBACK, refused) from None
        table.actions.append((seat, str(action.get("type"))))
        table.remember(new)
        return fold(game, new, state)
    raise Forfeit(tuple(waited), FALLBACK, "every awaited seat answered wait: nobody moved")


def _ask(table: _Table, seat: int, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    limit = table.move_seconds
    started = time.perf_counter()
    try:
        with time_limit(limit):
            action = dict(table.bots[seat].choose(view, rng))
    except TooSlow:
        raise Forfeit((seat,), FALLBACK, f"took longer than {limit:g} s to decide") from None
    except Exception as err:
        raise Forfeit((seat,), CRASH, f"raised {type(err).__name__}: {err}") from None
    took = time.perf_counter() - started
    table.times[seat].append(took * 1000)
    if over(limit, took):
        raise Forfeit((seat,), FALLBACK, f"took {took:.1f} s to decide (limit {limit:g} s)")
    return action


def _ended(outcome: dict[str, Any], table: _Table) -> GameRecord:
    if outcome.get("reason") != ACTION_LIMIT:
        return GameRecord(outcome, times=table.times)
    culprits, note = looping_seats(table.actions)
    return GameRecord(outcome, ACTION_LIMIT, culprits, note, table.times)


def looping_seats(actions: Sequence[tuple[int, str]]) -> tuple[tuple[int, ...], str]:
    """The seats that made the most of the last LOOP_WINDOW actions, and what they did."""
    window = actions[-LOOP_WINDOW:]
    if not window:
        return (), "no action was made"
    counts = Counter(seat for seat, _ in window)
    most = max(counts.values())
    seats = tuple(sorted(s for s, n in counts.items() if n == most))
    kinds = Counter(kind for seat, kind in window if seat in seats).most_common(1)[0]
    who = ", ".join(f"seat {s}" for s in seats)
    return seats, (
        f"the action limit ended the game: {who} made {most} of the last {len(window)} actions "
        f"each, mostly {kinds[0]!r} ({kinds[1]}): it loops"
    )
