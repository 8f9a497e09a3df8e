"""Every game's actions as marshmallow schemas: the one description of their shapes.

The action endpoint loads each action with its game's union (``check_action``) before the game
decides it; the OpenAPI spec documents the same schemas as a ``oneOf`` per game, discriminated
by ``type``. Lifecycle actions (``resign``, and whatever ``domain.lifecycle`` registers) are
read from the lifecycle's registry, so a new one is documented and accepted for every game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import marshmallow as ma
import orjson
from marshmallow import fields, validate

from domain.errors import InvalidAction, InvalidCard
from service.api.typed.union import Members, load_member, tag

CARD = r"^(?:[2-9TJQKA][CDHS]|RJ|BJ)$"


NOT_A_CARD = "is not a card code (rank 2-9 T J Q K A, then suit C D H S; jokers RJ BJ)"


def card(**kwargs: Any) -> fields.String:
    """A card code: rank ``2-9 T J Q K A`` then suit ``C D H S``; jokers ``RJ``, ``BJ``."""
    kwargs["metadata"] = {"example": "AS", **kwargs.get("metadata", {})}
    return fields.String(validate=validate.Regexp(CARD, error=NOT_A_CARD), **kwargs)


def cards(**kwargs: Any) -> fields.List[Any]:
    """A list of card codes."""
    kwargs["metadata"] = {"example": ["AS"], **kwargs.get("metadata", {})}
    return fields.List(card(), **kwargs)


def slot(**kwargs: Any) -> fields.Integer:
    """A face-up or face-down slot index."""
    return fields.Integer(strict=True, validate=validate.Range(min=0), **kwargs)


class ActionBase(ma.Schema):
    """Unknown fields are refused: an action carries exactly what its rules name."""

    class Meta:
        unknown = ma.RAISE


def action(game: str, kind: str, doc: str, **declared: fields.Field[Any]) -> type[ma.Schema]:
    """The schema class of one action; its component name is ``<Game><Kind>Action``."""
    camel = "".join(p.capitalize() for p in f"{game}_{kind}".split("_"))
    attrs: dict[str, Any] = {"type": tag(kind), **declared, "__doc__": doc}
    return type(f"{camel}ActionSchema", (ActionBase,), attrs)


def _game(game: str, spec: Mapping[str, tuple[str, dict[str, fields.Field[Any]]]]) -> Members:
    return {kind: action(game, kind, doc, **declared) for kind, (doc, declared) in spec.items()}


SHITHEAD = _game("shithead", {
    "swap": ("Pre-play: a hand card takes the slot of a single face-up card (R4.2).",
             {"hand_card": card(required=True), "face_up_card": card(required=True)}),
    "stack": ("Pre-play under stack_face_up: a hand card onto a face-up slot of its rank.",
              {"card": card(required=True), "slot": slot(required=True)}),
    "choose_face_up": (
        "Pre-play under deal_6_choose_3: `cards` (slots in listed order); with stack_face_up "
        "`slots`, lists of equal-rank cards in any order (D-SLOT-ORDER).",
        {"cards": cards(), "slots": fields.List(cards())}),
    "ready": ("Ends the seat's pre-play.", {}),
    "play": ("A set of equal rank from the hand, face-up cards or (whole slots) stacks.",
             {"cards": cards(required=True)}),
    "pickup": ("Take the pile (and, with face_up_pickup, a named face-up card).",
               {"face_up_card": card()}),
    "flip": ("Play a face-down card blind (R10).", {"slot": slot(required=True)}),
    "play_stock": ("Under play_from_stock: play the stock's top card blind.", {}),
})  # fmt: skip

SIXTY_SIX = _game("sixty_six", {
    "play": ("Lead or follow with one card (§15: `cards: [c]`).",
             {"cards": cards(required=True, validate=validate.Length(equal=1))}),
    "marriage": ("Announce a marriage by leading its king or queen (`cards: [c]`); with "
                 "`declare: true` it also declares out in the same act (rules: Optional rights).",
                 {"cards": cards(required=True, validate=validate.Length(equal=1)),
                  "declare": fields.Boolean()}),
    "exchange_trump": ("Exchange the trump nine for the face-up trump card (R9).", {}),
    "close": ("Close the stock (R10).", {}),
    "draw": ("Draw after a trick (both seats draw; R6).", {}),
    "declare_out": ("Declare 66 (R12); accepted from either seat while a deal is live.", {}),
    "pass": ("Pass in the end-of-play window (R13).", {}),
})  # fmt: skip

SHEEPSHEAD = _game("sheepshead", {
    "pick": ("Take the blind (`blitz: true` under the blitzing variant).",
             {"blitz": fields.Boolean(validate=validate.Equal(True))}),
    "pass": ("Pass the blind on.", {}),
    "bury": ("The picker buries cards.", {"cards": cards(required=True)}),
    "call": ("The picker calls a partner card.", {"cards": cards()}),
    "alone": ("The picker plays alone.", {}),
    "partner": ("The picker takes the partner the rules give.", {}),
    "crack": ("A defender doubles the stakes.", {}),
    "no_crack": ("A defender does not double.", {}),
    "recrack": ("The picker doubles again.", {}),
    "no_recrack": ("The picker does not double again.", {}),
    "play": ("Play one card to the trick.", {"cards": cards(required=True)}),
})  # fmt: skip

GAME_ACTIONS: dict[str, Members] = {
    "shithead": SHITHEAD,
    "sixty_six": SIXTY_SIX,
    "sheepshead": SHEEPSHEAD,
}

_LIFECYCLE_DOCS = {"resign": "Any seat, while the game is played: the seat loses (never listed "
                   "in legal_actions; the view's may_send says when).",
                   "fallback": "A bot seat the game waits on: its runner asks for the game's "
                   "default move because the bot raised, timed out or answered illegally "
                   "(reason: raised, timeout or illegal); recorded as lifecycle.BotFellBack "
                   "before the move."}  # fmt: skip
_lifecycle_cache: dict[tuple[str, ...], Members] = {}


def lifecycle_actions() -> Members:
    """The lifecycle's actions (``domain.lifecycle.LIFECYCLE_ACTIONS``), read at call time."""
    from domain import lifecycle

    names = tuple(getattr(lifecycle, "LIFECYCLE_ACTIONS", ()))
    cached = _lifecycle_cache.get(names)
    if cached is None:
        shapes = getattr(lifecycle, "LIFECYCLE_ACTION_FIELDS", {})
        cached = {
            n: action("lifecycle", n, _LIFECYCLE_DOCS.get(n, f"Lifecycle action {n}."),
                      **_lifecycle_fields(shapes.get(n, {})))
            for n in names
        }
        _lifecycle_cache.clear()
        _lifecycle_cache[names] = cached
    return cached


def _lifecycle_fields(shape: Mapping[str, str]) -> dict[str, fields.Field[Any]]:
    kinds: dict[str, Callable[[], fields.Field[Any]]] = {
        "int": lambda: fields.Integer(strict=True), "str": fields.String,
        "bool": fields.Boolean, "card": card, "cards": cards,
    }  # fmt: skip
    return {name: kinds[kind]() for name, kind in shape.items()}


class AnyActionBase(ma.Schema):
    """A game without typed actions: a ``type`` and whatever fields its rules name."""

    class Meta:
        unknown = ma.INCLUDE

    type = fields.String(required=True)


_generic: dict[str, type[ma.Schema]] = {}


def game_actions(game: str) -> Members:
    """The game's own actions; one open schema for a game without typed ones."""
    typed = GAME_ACTIONS.get(game)
    if typed is not None:
        return typed
    schema = _generic.get(game)
    if schema is None:
        camel = "".join(p.capitalize() for p in game.split("_"))
        schema = _generic[game] = type(f"{camel}AnyActionSchema", (AnyActionBase,), {
            "__doc__": f"An action of {game} (no typed schema: see its rules)."})
    return {"*": schema}


def sendable(game: str) -> Members:
    """Everything a seat may send in that game: its actions and the lifecycle's."""
    return {**game_actions(game), **lifecycle_actions()}


def check_action(game: str, action: Any) -> None:
    """Load ``action`` with its game's schemas; InvalidAction saying what to send otherwise.

    Games without schemas (test games) are left to their own decider.
    """
    typed = GAME_ACTIONS.get(game)
    if typed is None:
        return
    members = {**typed, **lifecycle_actions()}
    try:  # an action once taken is taken again: the schemas are fixed (a bounded memo)
        seen = (tuple(members.items()), orjson.dumps(action, option=orjson.OPT_SORT_KEYS))
    except TypeError:  # not plain JSON data: the schemas say what is wrong with it
        seen = None
    if seen is not None and seen in _taken:
        return
    try:
        load_member(members, action, "type")
    except ma.ValidationError as err:
        refusal = _refusal(members, action, err.messages)
        if _only_card_codes(err.messages):
            raise InvalidCard(refusal) from None
        raise InvalidAction(refusal) from None
    if seen is not None:
        if len(_taken) >= TAKEN_MEMO:
            _taken.clear()
        _taken.add(seen)


TAKEN_MEMO = 4096  # actions remembered as taken by check_action
_taken: set[tuple[tuple[tuple[str, type[ma.Schema]], ...], bytes]] = set()


def _only_card_codes(messages: Any) -> bool:
    """True when every message says a value is not a card code (the domain's invalid_card)."""
    if isinstance(messages, Mapping):
        return bool(messages) and all(_only_card_codes(m) for m in messages.values())
    if isinstance(messages, list):
        return bool(messages) and all(_only_card_codes(m) for m in messages)
    return bool(messages == NOT_A_CARD)


def _refusal(members: Members, action: Any, messages: Any) -> str:
    kind = action.get("type") if isinstance(action, Mapping) else None
    if not isinstance(kind, str) or kind not in members:
        return f"unknown action type {kind!r}; expected one of {', '.join(members)}"
    problems = "; ".join(
        f"{name}: {' '.join(map(str, msgs)) if isinstance(msgs, list) else msgs}"
        for name, msgs in (messages.items() if isinstance(messages, Mapping) else [])
    )
    return f"{kind}: {problems}; send {example(members[kind])}"


def example(schema: type[ma.Schema]) -> str:
    """The JSON shape of an action, for refusals that say what to send."""
    parts = []
    for name, field in schema().fields.items():
        if name == "type":
            check = field.validate
            kind = next(iter(check.choices)) if isinstance(check, validate.OneOf) else ""
            parts.append(f'"type": "{kind}"')
        elif field.required:
            parts.append(f'"{name}": {_placeholder(field)}')
    return "{" + ", ".join(parts) + "}"


def _placeholder(field: fields.Field[Any]) -> str:
    if isinstance(field, fields.List):
        return f"[{_placeholder(field.inner)}]"
    if isinstance(field, fields.Integer):
        return "<number>"
    if isinstance(field, fields.Boolean):
        return "true"
    return "<card code>" if field.metadata.get("example") else "<text>"
