"""A game played by bots from the start, stopping at each decision a search bot is asked for:
the real state, the seat, and the seat's view with its redacted history (what the bot sees)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

from domain.events import canonical_json
from domain.protocol import Game, Setup, fold
from workers.bots.base import get_bot


def as_json(data: Any) -> Any:
    """``data`` as it crosses the wire (canonical JSON, decoded again)."""
    return json.loads(canonical_json(data))


def decisions(
    game: Game[Any],
    asked: Callable[[Any, dict[str, Any]], bool],
    seed: str,
    players: int,
    options: dict[str, Any] | None = None,
    bots: str = "heuristic",
) -> Iterator[tuple[Any, int, dict[str, Any]]]:
    """(real state, seat, view with ``history``) wherever ``asked(state, view)``; every seat is
    played by the bot ``bots`` meanwhile."""
    state = fold(game, events := game.start(Setup(players=players, seed=seed, options=options)))
    history = list(events)
    bot, rng = get_bot(bots, game.name), random.Random(seed)
    while game.outcome(state) is None:
        seat = game.awaited_seats(state)[0]
        view = as_json(game.view(state, seat))
        view["history"] = [as_json(game.redact(e, seat)) for e in history]
        if asked(state, view):
            yield state, seat, view
        new = game.decide(state, seat, bot.choose(view, rng))
        state = fold(game, new, state)
        history += new
