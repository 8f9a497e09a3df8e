"""Outcomes: how a game ended, per game (the domain's ``outcome``, with the lifecycle's ends).

Every outcome has ``reason``, ``winners`` and ``losers``; ``resigned`` / ``open_seats`` come
with the lifecycle's ends (a resignation, an expiry); the rest is the game's own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import marshmallow as ma
from marshmallow import fields


class OutcomeBase(ma.Schema):
    class Meta:
        unknown = ma.RAISE

    reason = fields.String(required=True, metadata={
        "description": "finished, action_limit, resigned, expired (and the games' own)"})
    winners = fields.List(fields.Integer(), required=True)
    losers = fields.List(fields.Integer(), required=True)
    resigned = fields.Integer(metadata={"description": "the seat that resigned"})
    open_seats = fields.List(fields.Integer(), metadata={"description": "expired: unfilled"})


class ShitheadOutcomeSchema(OutcomeBase):
    """How a Shithead game ended: the finishing order and the loser (the shithead)."""

    finishing_order = fields.List(fields.Integer(), required=True)
    loser = fields.Integer(allow_none=True, required=True)
    actions = fields.Integer()


class SixtySixOutcomeSchema(OutcomeBase):
    """How a Sixty-Six match ended: the game points, the deals played, the carry-over."""

    game_points = fields.List(fields.Integer(), required=True)
    deals = fields.Integer(required=True)
    carry_over = fields.Integer(required=True)


class SheepsheadOutcomeSchema(OutcomeBase):
    """How a Sheepshead match ended: the totals (and every hand's scores)."""

    totals = fields.List(fields.Integer(), required=True)
    hands = fields.Integer(required=True)
    actions = fields.Integer()


class LifecycleOutcomeSchema(OutcomeBase):
    """How any game ended outside its rules: a resignation or an expiry."""


OUTCOMES: dict[str, type[ma.Schema]] = {
    "shithead": ShitheadOutcomeSchema,
    "sixty_six": SixtySixOutcomeSchema,
    "sheepshead": SheepsheadOutcomeSchema,
}


class OtherOutcomeSchema(OutcomeBase):
    """How a game without a typed outcome ended (its own fields besides)."""

    class Meta:
        unknown = ma.INCLUDE


def outcome_schema(game: str) -> type[ma.Schema]:
    """The outcome schema of a game (an open one for a game without its own)."""
    return OUTCOMES.get(game, OtherOutcomeSchema)


def any_outcome(games: Iterable[str]) -> dict[str, Any]:
    """Game name -> outcome schema, then the lifecycle's (each game's names its own fields)."""
    return {**{g: outcome_schema(g) for g in games}, "lifecycle": LifecycleOutcomeSchema}
