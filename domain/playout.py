"""Driving a game to its end with any chooser: used by tests, benchmarks and bots' searches."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic

from domain.events import Event
from domain.protocol import Game, S, Setup, fold

Choice = tuple[int, dict[str, Any]]
Chooser = Callable[[Any, Sequence[Choice]], Choice]


@dataclass(slots=True)
class Playout(Generic[S]):
    """A finished (or stopped) playout: batches of (seat, action, events) and the state."""

    state: S
    creation: list[Event]
    batches: list[tuple[int, dict[str, Any], list[Event]]]

    @property
    def events(self) -> list[Event]:
        """Every event in order."""
        return self.creation + [e for _, _, batch in self.batches for e in batch]


def options_for(game: Game[S], state: S) -> list[Choice]:
    """Every (seat, action) pair open now."""
    return [(seat, a) for seat in game.seats_to_act(state) for a in game.legal_actions(state, seat)]


def play_out(
    game: Game[S], setup: Setup, choose: Chooser, max_actions: int = 100_000
) -> Playout[S]:
    """Play from the setup, asking ``choose(state, choices)`` for each action, until the end."""
    creation = game.start(setup)
    state = fold(game, creation)
    batches: list[tuple[int, dict[str, Any], list[Event]]] = []
    while game.outcome(state) is None and len(batches) < max_actions:
        choices = options_for(game, state)
        if not choices:
            break
        seat, action = choose(state, choices)
        events = game.decide(state, seat, action)
        state = fold(game, events, state)
        batches.append((seat, action, events))
    return Playout(state=state, creation=creation, batches=batches)
