"""Outcomes: how a game ended, per game (the domain's ``outcome``, with the lifecycle's ends).

Every outcome has ``reason``, ``winners`` and ``losers``; ``resigned`` / ``open_seats`` come
with the lifecycle's ends (a resignation, an expiry); the rest is the game's own.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields

SEATS = {"cls_or_instance": fields.Integer()}


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

    finishing_order = fields.List(fields.Integer())
    loser = fields.Integer(allow_none=True)
    actions = fields.Integer()


class SixtySixOutcomeSchema(OutcomeBase):
    """How a Sixty-Six match ended: the game points, the deals played, the carry-over."""

    game_points = fields.List(fields.Integer())
    deals = fields.Integer()
    carry_over = fields.Integer()


class SheepsheadOutcomeSchema(OutcomeBase):
    """How a Sheepshead match ended: the totals (and every hand's scores)."""

    totals = fields.List(fields.Integer())
    hands = fields.Integer()
    actions = fields.Integer()


OUTCOMES: dict[str, type[ma.Schema]] = {
    "shithead": ShitheadOutcomeSchema,
    "sixty_six": SixtySixOutcomeSchema,
    "sheepshead": SheepsheadOutcomeSchema,
}


def outcome_schema(game: str) -> type[ma.Schema] | None:
    """The outcome schema of a game, if it has one."""
    return OUTCOMES.get(game)


def any_outcome() -> dict[str, Any]:
    """Game name -> outcome schema."""
    return dict(OUTCOMES)
