"""Shithead's events: facts in the past tense with explicit, stable stored names."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from domain.events import Event, EventCodec

Cards = tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(Event):
    """A game was created: players, first dealer, every option, the seed and its commitment."""

    TYPE: ClassVar[str] = "shithead.GameStarted"
    players: int
    dealer: int
    options: dict[str, Any]
    seed: str
    commitment: str
    explicit_deal: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsDealt(Event):
    """Every dealt card: hands, face-up cards and face-down cards by slot, the stock top first."""

    TYPE: ClassVar[str] = "shithead.CardsDealt"
    hands: tuple[Cards, ...]
    face_up: tuple[Cards, ...]
    face_down: tuple[Cards, ...]
    stock: Cards


@dataclass(frozen=True, slots=True, kw_only=True)
class FaceUpSwapped(Event):
    """A hand card took a face-up card's slot; the face-up card went into the hand."""

    TYPE: ClassVar[str] = "shithead.FaceUpSwapped"
    seat: int
    slot: int
    hand_card: str
    face_up_card: str


@dataclass(frozen=True, slots=True, kw_only=True)
class FaceUpChosen(Event):
    """Under deal_6_choose_3 a seat laid hand cards face up, one list per slot."""

    TYPE: ClassVar[str] = "shithead.FaceUpChosen"
    seat: int
    slots: tuple[Cards, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CardStacked(Event):
    """Under stack_face_up a hand card was stacked onto an equal-rank face-up slot."""

    TYPE: ClassVar[str] = "shithead.CardStacked"
    seat: int
    card: str
    slot: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerReady(Event):
    """A seat ended its pre-play."""

    TYPE: ClassVar[str] = "shithead.PlayerReady"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayStarted(Event):
    """Pre-play ended; the starter and the rank and tier that made it the starter."""

    TYPE: ClassVar[str] = "shithead.PlayStarted"
    starter: int
    rank: str
    tier: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsPlayed(Event):
    """A set went onto the pile from the hand or the face-up cards, in the listed order."""

    TYPE: ClassVar[str] = "shithead.CardsPlayed"
    seat: int
    cards: Cards
    source: str


@dataclass(frozen=True, slots=True, kw_only=True)
class FaceDownFlipped(Event):
    """A face-down card was turned over: played when legal, else taken into the hand."""

    TYPE: ClassVar[str] = "shithead.FaceDownFlipped"
    seat: int
    slot: int
    card: str
    legal: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class StockPlayed(Event):
    """The top stock card was revealed: played when legal, else taken into the hand."""

    TYPE: ClassVar[str] = "shithead.StockPlayed"
    seat: int
    card: str
    legal: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class DirectionReversed(Event):
    """Jokers (or 8s under eights_reverse_transparent) turned the direction of play."""

    TYPE: ClassVar[str] = "shithead.DirectionReversed"
    direction: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PileBurned(Event):
    """The pile left the game, burned by a ten or by four of a kind."""

    TYPE: ClassVar[str] = "shithead.PileBurned"
    seat: int
    cause: str
    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsDrawn(Event):
    """A seat drew from the stock (the cards are shown only to the drawer)."""

    TYPE: ClassVar[str] = "shithead.CardsDrawn"
    seat: int
    cards: Cards


@dataclass(frozen=True, slots=True, kw_only=True)
class PilePickedUp(Event):
    """A seat took the pile (and any face-up cards named) into its hand.

    ``cause`` is ``pickup`` for the action, ``flip`` or ``stock`` after an unplayable card.
    """

    TYPE: ClassVar[str] = "shithead.PilePickedUp"
    seat: int
    cards: Cards
    face_up_cards: Cards
    cause: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnPassed(Event):
    """The turn went to a seat."""

    TYPE: ClassVar[str] = "shithead.TurnPassed"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerOut(Event):
    """A seat got rid of all its cards and took a finishing position (1 = first out)."""

    TYPE: ClassVar[str] = "shithead.PlayerOut"
    seat: int
    position: int


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEnded(Event):
    """The deal is over: the finishing order and the shithead (or, objective winner, the winner)."""

    TYPE: ClassVar[str] = "shithead.GameEnded"
    finishing_order: tuple[int, ...]
    loser: int | None
    winner: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameAborted(Event):
    """The administrative action limit was reached; nobody lost."""

    TYPE: ClassVar[str] = "shithead.GameAborted"
    reason: str
    actions: int


# Every action makes one of these two: built by filling the slots directly, what the generated
# __init__ does less its keyword binding and per-field object.__setattr__ (the fields of both are
# checked against these builders by tests/unit/shithead/test_protocol.py).
Setter = Callable[[Any, Any], None]
_new = object.__new__


def _setters(cls: type[Event], *names: str) -> tuple[Setter, ...]:
    return tuple(getattr(cls, name).__set__ for name in names)


PLAYED_FIELDS = ("seat", "cards", "source")
PICKED_UP_FIELDS = ("seat", "cards", "face_up_cards", "cause")
_PLAYED = _setters(CardsPlayed, *PLAYED_FIELDS)
_PICKED_UP = _setters(PilePickedUp, *PICKED_UP_FIELDS)


def cards_played(seat: int, cards: Cards, source: str) -> CardsPlayed:
    """``CardsPlayed(seat=seat, cards=cards, source=source)``."""
    event: CardsPlayed = _new(CardsPlayed)
    set_seat, set_cards, set_source = _PLAYED
    set_seat(event, seat)
    set_cards(event, cards)
    set_source(event, source)
    return event


def pile_picked_up(seat: int, cards: Cards, face_up_cards: Cards, cause: str) -> PilePickedUp:
    """``PilePickedUp(seat=seat, cards=cards, face_up_cards=face_up_cards, cause=cause)``."""
    event: PilePickedUp = _new(PilePickedUp)
    set_seat, set_cards, set_face_up_cards, set_cause = _PICKED_UP
    set_seat(event, seat)
    set_cards(event, cards)
    set_face_up_cards(event, face_up_cards)
    set_cause(event, cause)
    return event


ShitheadEvent = (
    GameStarted
    | CardsDealt
    | FaceUpSwapped
    | FaceUpChosen
    | CardStacked
    | PlayerReady
    | PlayStarted
    | CardsPlayed
    | FaceDownFlipped
    | StockPlayed
    | DirectionReversed
    | PileBurned
    | CardsDrawn
    | PilePickedUp
    | TurnPassed
    | PlayerOut
    | GameEnded
    | GameAborted
)

CODEC = EventCodec(
    [
        GameStarted,
        CardsDealt,
        FaceUpSwapped,
        FaceUpChosen,
        CardStacked,
        PlayerReady,
        PlayStarted,
        CardsPlayed,
        FaceDownFlipped,
        StockPlayed,
        DirectionReversed,
        PileBurned,
        CardsDrawn,
        PilePickedUp,
        TurnPassed,
        PlayerOut,
        GameEnded,
        GameAborted,
    ]
)
