"""Hands with chosen trick results, to test the scoring table directly."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.games.sheepshead.config import layout
from domain.games.sheepshead.events import HandScored
from domain.games.sheepshead.scoring import score_normal
from domain.games.sheepshead.state import Trick

from .helpers import start


def score(
    team_points: int,
    team_tricks: int,
    *,
    alone: bool = False,
    buried: tuple[str, ...] = (),
    players: int = 5,
    options: dict[str, Any] | None = None,
    **hand_changes: Any,
) -> HandScored:
    """Score a hand where seat 0 picked (seat 1 is the partner unless alone)."""
    state = start(players=players, options=options, dealer=players - 1)
    assert state.hand is not None
    lay = layout(players, state.options)
    partner = None if alone else 1
    tricks = []
    from_buried = sum({"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}.get(c[0], 0) for c in buried)
    team_left = team_points - from_buried
    for number in range(1, lay.hand_size + 1):
        team = number <= team_tricks
        winner = 0 if team else lay.active - 1
        pts = (team_left if number == 1 else 0) if team else 0
        tricks.append(Trick(number=number, seats=(), cards=(), winner=winner, points=pts))
    hand = replace(
        state.hand,
        picker=0,
        partner=partner,
        alone=alone,
        buried=buried,
        tricks=tuple(tricks),
        **hand_changes,
    )
    return score_normal(state, hand)
