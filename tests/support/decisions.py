"""A game played by bots from the start, stopping at each decision a search bot is asked for:
the real state, the seat, and the seat's view with its redacted history (what the bot sees)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Generator, Iterable
from typing import Any

from domain.events import canonical_json
from domain.protocol import Game, Setup, fold
from workers.bots.base import get_bot


def as_json(data: Any) -> Any:
    """``data`` as it crosses the wire (canonical JSON, decoded again)."""
    return json.loads(canonical_json(data))


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    """A view to compare with another: without its history, its legal actions in one order."""
    out = {k: v for k, v in view.items() if k != "history"}
    out["legal_actions"] = sorted(json.dumps(a, sort_keys=True) for a in view["legal_actions"])
    return out


def decisions(
    game: Game[Any],
    asked: Callable[[Any, dict[str, Any]], bool],
    seed: str,
    players: int,
    options: dict[str, Any] | None = None,
    bots: str = "heuristic",
) -> Generator[tuple[Any, int, dict[str, Any]], dict[str, Any] | None, None]:
    """(real state, seat, view with ``history``) wherever ``asked(state, view)``; every seat is
    played by the bot ``bots`` meanwhile, except that an action sent back (``send``) is played
    for the seat just yielded."""
    state = fold(game, events := game.start(Setup(players=players, seed=seed, options=options)))
    history = list(events)
    seen: dict[int, list[Any]] = {}  # each seat's redacted history so far (it only grows)
    bot, rng = get_bot(bots, game.name), random.Random(seed)
    while game.outcome(state) is None:
        seat = game.awaited_seats(state)[0]
        view = as_json(game.view(state, seat))
        redacted = seen.setdefault(seat, [])
        redacted += [as_json(game.redact(e, seat)) for e in history[len(redacted) :]]
        view["history"] = list(redacted)
        answer = (yield state, seat, view) if asked(state, view) else None
        new = game.decide(state, seat, bot.choose(view, rng) if answer is None else answer)
        state = fold(game, new, state)
        history += new


def decision_at(found: Iterable[Any], index: int) -> Any:
    """The ``index``-th of the decisions (the last when there are fewer; None when none): the
    game is played no further than that decision."""
    chosen = None
    for i, decision in enumerate(found):
        chosen = decision
        if i == index:
            break
    return chosen


def played_by(
    game: Game[Any], player: Any, seed: str, players: int, seat: int = 0
) -> list[tuple[Any, dict[str, Any], dict[str, Any]]]:
    """A whole game with the bot ``player`` at ``seat`` (the heuristic bot elsewhere): (real
    state, view, the action ``player`` chose) at each of its decisions."""
    rng, made = random.Random(1), []
    found = decisions(game, lambda state, view: game.awaited_seats(state)[0] == seat, seed, players)
    answer = None
    while True:
        try:
            state, _, view = found.send(answer)
        except StopIteration:
            return made
        answer = player.choose(view, rng)
        made.append((state, view, answer))
