"""Every game's view as marshmallow schemas (what ``GET /games/{id}/view`` returns in ``view``).

The games build their views (``domain/games/*/views.py``); these schemas describe them, and the
tests load every view that random playouts of every game produce with them (so a field renamed
in a game and not here fails). Unknown fields are let through (``INCLUDE``): the lifecycle may
add facts (clocks, rights) before this file names them.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields

from domain.games.sheepshead.events import HandScored
from domain.games.sixty_six.events import DealScored
from domain.registry import get_game
from service.api.typed import actions, outcomes
from service.api.typed.actions import card as card_field
from service.api.typed.actions import cards
from service.api.typed.events import fields_of
from service.api.typed.options import options_schema
from service.api.typed.union import Union, tag


def _seats(**kw: Any) -> fields.List[Any]:
    return fields.List(fields.Integer(), **kw)


class LastActionSchema(ma.Schema):
    """What just happened, in game words: who acted and what followed from it."""

    class Meta:
        unknown = ma.RAISE

    seat = fields.Integer(allow_none=True, metadata={"description": "who acted (null: the game)"})
    name = fields.String(allow_none=True, metadata={"description": "that seat's name"})
    type = fields.String(required=True, metadata={"description": "the action's type"})
    text = fields.String(required=True, metadata={"description": "what happened, in words"})
    cards = cards(metadata={"description": "the cards it showed, if any"})
    results = fields.List(fields.String(), metadata={
        "description": "what followed: a burn, a pickup, a trick taken, a deal scored ..."})


class ViewBase(ma.Schema):
    """Facts every view has (the lifecycle's and the turn)."""

    class Meta:
        unknown = ma.INCLUDE

    seat = fields.Integer(allow_none=True, metadata={"description": "yours (null: spectator)"})
    phase = fields.String(required=True)
    to_act = _seats(required=True, metadata={
        "description": "whose turn it is: the seats the game waits on (the same field in "
                       "every game; empty once over)"})
    names = fields.List(fields.String(allow_none=True), metadata={
        "description": "every seat's name (null: an open seat)"})
    last_action = fields.Nested(LastActionSchema, allow_none=True)
    may_send = fields.List(fields.String(), metadata={
        "description": "lifecycle actions you may send now (e.g. resign)"})
    prearranged = fields.Boolean()
    commitment = fields.String(allow_none=True)
    open_seats = _seats()
    hand = cards(allow_none=True, metadata={"description": "your hand (seats only)"})


def _view(game: str, rules: Any = None, **declared: Any) -> type[ma.Schema]:
    camel = "".join(p.capitalize() for p in game.split("_"))
    rules = rules or get_game(game)
    outcome = outcomes.outcome_schema(game)
    attrs: dict[str, Any] = {
        "game": tag(game),
        "options": fields.Nested(options_schema(rules), allow_none=True),
        "legal_actions": fields.List(
            Union(actions.game_actions(game), component=f"{camel}Action"), required=True
        ),
        "outcome": Union({game: outcome, "lifecycle": outcomes.LifecycleOutcomeSchema}, None,
                         any_of=True, allow_none=True, required=True),
        **declared,
        "__doc__": f"{rules.title}: what one seat (or a spectator) sees.",
    }
    return type(f"{camel}ViewSchema", (ViewBase,), attrs)


def view_schema(rules: Any) -> type[ma.Schema]:
    """A game's view schema (a generic one, its own fields let through, for other games)."""
    found = VIEWS.get(rules.name)
    if found is None:
        found = VIEWS[rules.name] = _view(rules.name, rules)
    return found


class ShitheadSeatSchema(ma.Schema):
    seat = fields.Integer()
    hand_count = fields.Integer()
    face_up = fields.List(cards(), metadata={"description": "face-up slots (stacks)"})
    face_down_slots = _seats(metadata={"description": "face-down slots still there"})
    face_down_count = fields.Integer()
    ready = fields.Boolean()
    out = fields.Boolean()
    position = fields.Integer(allow_none=True)


class StarterSchema(ma.Schema):
    seat = fields.Integer()
    rank = fields.String()
    tier = fields.String()


class SixtySixSeatSchema(ma.Schema):
    seat = fields.Integer()
    hand_size = fields.Integer()
    tricks = fields.Integer()
    points = fields.Integer()
    pending_marriage_points = fields.Integer()


class PlayedSchema(ma.Schema):
    seat = fields.Integer()
    card = card_field()


class TrickSchema(ma.Schema):
    winner = fields.Integer()
    cards = cards()
    number = fields.Integer()
    seats = _seats()
    points = fields.Integer()


class SheepsheadSeatSchema(ma.Schema):
    seat = fields.Integer()
    cards = fields.Integer(metadata={"description": "how many cards it holds"})
    dealer = fields.Boolean()
    sitting_out = fields.Boolean()
    passed = fields.Boolean()
    picker = fields.Boolean()
    partner = fields.Boolean()
    tricks = fields.Integer()
    points = fields.Integer()
    total = fields.Integer()


class MarriageSchema(ma.Schema):
    seat = fields.Integer()
    suit = fields.String()
    value = fields.Integer()
    card = card_field()
    shown = card_field()
    credited = fields.Boolean()


# The finished deal / hand a view keeps: its scoring event's fields (from the dataclass) and
# what the view adds to them.
DealResultSchema = type("SixtySixDealResultSchema", (ma.Schema,), {
    **fields_of(DealScored),
    "number": fields.Integer(), "dealer": fields.Integer(), "trump_card": card_field(),
    "closed_by": fields.Integer(allow_none=True),
    "tricks_played": fields.List(fields.Nested(TrickSchema), metadata={
        "description": "every trick of the deal: its winner and cards"}),
    "marriages": fields.List(fields.Nested(MarriageSchema)),
    "__doc__": "The last deal scored: result, tricks and marriages (until the next is scored).",
})
HandResultSchema = type("SheepsheadHandResultSchema", (ma.Schema,), {
    **fields_of(HandScored),
    "type": fields.String(metadata={"description": "sheepshead.HandScored"}),
    "schema": fields.Integer(),
    "labels": fields.List(fields.String()),
    "tricks": fields.List(fields.Nested(TrickSchema)),
    "winners": _seats(metadata={"description": "the seats that won the hand (a leaster's "
                                "winner too)"}),
    "defender_points": fields.Integer(allow_none=True, metadata={
        "description": "card points the defenders took (null in a leaster)"}),
    "__doc__": "The last hand scored: scores, tricks, winners (until the next is scored).",
})


def _views() -> dict[str, type[ma.Schema]]:
    return {
        "shithead": _view(
            "shithead",
            dealer=fields.Integer(allow_none=True),
            direction=fields.Integer(),
            starter=fields.Nested(StarterSchema, allow_none=True),
            seats=fields.List(fields.Nested(ShitheadSeatSchema)),
            stock_count=fields.Integer(),
            pile=cards(),
            burned_count=fields.Integer(),
            last_revealed=card_field(allow_none=True),
            flusher=fields.Integer(allow_none=True),
            actions=fields.Integer(),
        ),
        "sixty_six": _view(
            "sixty_six",
            deal_number=fields.Integer(),
            dealer=fields.Integer(),
            turn=fields.Integer(metadata={"description": "the deal's turn (see to_act)"}),
            trump_suit=fields.String(),
            trump_card=card_field(allow_none=True),
            face_up_card=card_field(allow_none=True),
            stock_size=fields.Integer(),
            stock=fields.String(metadata={"description": "open, closed or exhausted"}),
            seats=fields.List(fields.Nested(SixtySixSeatSchema)),
            current_trick=fields.List(fields.Nested(PlayedSchema)),
            last_trick=fields.Nested(TrickSchema, allow_none=True),
            tricks=fields.List(fields.Nested(TrickSchema), allow_none=True),
            game_points=_seats(),
            carry_over=fields.Integer(),
            game_target=fields.Integer(),
            last_deal_result=fields.Nested(DealResultSchema, allow_none=True),
            marriages=fields.List(fields.Nested(MarriageSchema)),
            opponent_known_cards=cards(),
            points=fields.Integer(),
            pending_marriage_points=fields.Integer(),
        ),
        "sheepshead": _view(
            "sheepshead",
            players=fields.Integer(),
            rounds=fields.Integer(allow_none=True),
            totals=_seats(),
            last_hand=fields.Nested(HandResultSchema, allow_none=True),
            hand_number=fields.Integer(),
            deal_number=fields.Integer(),
            dealer=fields.Integer(),
            picker=fields.Integer(allow_none=True),
            leaster=fields.String(allow_none=True),
            called=card_field(allow_none=True),
            alone=fields.Boolean(allow_none=True),
            blind=cards(allow_none=True),
            buried=cards(allow_none=True),
            multiplier=fields.Integer(),
            trick=fields.List(fields.Nested(PlayedSchema)),
            tricks=fields.List(fields.Nested(TrickSchema)),
            seats=fields.List(fields.Nested(SheepsheadSeatSchema)),
            role=fields.String(allow_none=True),
        ),
    }


VIEWS = _views()
