"""The moments of a stored game a fork or a review starts from: where an action ends."""

from __future__ import annotations

from typing import Any

from service.games import GameService


def moments(svc: GameService, game_id: str) -> list[tuple[int, Any, list[Any]]]:
    """(version, state, events so far) after each batch of the game (one command's events):
    inside a batch the table is half made, a moment nobody saw (``domain.forks.check_moment``)."""
    rules = svc.load(game_id).game
    state, events, out = rules.initial_state(), list[Any](), []
    for batch in svc.store.batches(game_id):
        for stored in batch.events:
            event = rules.codec.decode(stored.event)
            state = rules.evolve(state, event)
            events.append(event)
        out.append((batch.last, state, list(events)))
    return out
