"""Sixty-Six events: facts in the past tense with explicit stored names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from domain.events import Event, EventCodec


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(Event):
    """The match began: players, first dealer, every option, the seed and its commitment."""

    TYPE: ClassVar[str] = "sixty_six.GameStarted"
    players: int
    dealer: int
    options: dict[str, Any]
    seed: str
    commitment: str
    explicit_deal: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchResumed(Event):
    """An explicit deal started the match in its middle: the game points and deals so far."""

    TYPE: ClassVar[str] = "sixty_six.MatchResumed"
    match_points: tuple[int, int]
    deals_scored: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DealStarted(Event):
    """A deal began: its number, dealer, the face-up trump card and the carry-over."""

    TYPE: ClassVar[str] = "sixty_six.DealStarted"
    number: int
    dealer: int
    trump_card: str
    stock_size: int
    carry_over: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HandDealt(Event):
    """A seat was dealt its hand (seen by that seat only)."""

    TYPE: ClassVar[str] = "sixty_six.HandDealt"
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class StockLaid(Event):
    """The face-down stock was laid, top card first (seen by nobody during play)."""

    TYPE: ClassVar[str] = "sixty_six.StockLaid"
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CardPlayed(Event):
    """A card was led or played to the current trick."""

    TYPE: ClassVar[str] = "sixty_six.CardPlayed"
    seat: int
    card: str
    role: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MarriageAnnounced(Event):
    """A marriage was announced with its lead; the partner card was shown."""

    TYPE: ClassVar[str] = "sixty_six.MarriageAnnounced"
    seat: int
    suit: str
    value: int
    card: str
    shown: str
    credited: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class TrumpExchanged(Event):
    """The trump nine (jack with deck20) replaced the face-up trump card."""

    TYPE: ClassVar[str] = "sixty_six.TrumpExchanged"
    seat: int
    nine: str
    taken: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TrickWon(Event):
    """A trick was taken: lead and follow cards, its card points and what got credited."""

    TYPE: ClassVar[str] = "sixty_six.TrickWon"
    winner: int
    cards: tuple[str, str]
    points: int
    tricks: tuple[int, int]
    marriage_credited: int
    last_trick_bonus: int


# TrickWon is built once per trick: its slots set directly, as the codec's decode fills them (the
# frozen ``__init__`` sets each field through ``object.__setattr__`` by name). test_events
# holds the two equal and these setters in the order of the fields.
_new = object.__new__
_SET_WINNER, _SET_CARDS, _SET_POINTS, _SET_TRICKS, _SET_CREDITED, _SET_BONUS = (
    getattr(TrickWon, name).__set__
    for name in ("winner", "cards", "points", "tricks", "marriage_credited", "last_trick_bonus")
)


def trick_won(winner: int, cards: tuple[str, str], points: int, tricks: tuple[int, int],
              marriage_credited: int, last_trick_bonus: int) -> TrickWon:
    """``TrickWon(winner=..., cards=..., ...)``, the fields in their order."""
    event: TrickWon = _new(TrickWon)
    _SET_WINNER(event, winner)
    _SET_CARDS(event, cards)
    _SET_POINTS(event, points)
    _SET_TRICKS(event, tricks)
    _SET_CREDITED(event, marriage_credited)
    _SET_BONUS(event, last_trick_bonus)
    return event


@dataclass(frozen=True, slots=True, kw_only=True)
class CardDrawn(Event):
    """A seat took a card from the stock; ``face_up`` marks the public trump card."""

    TYPE: ClassVar[str] = "sixty_six.CardDrawn"
    seat: int
    card: str
    face_up: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsDrawn(Event):
    """Both seats have drawn; ``automatic`` when no draw step exists."""

    TYPE: ClassVar[str] = "sixty_six.CardsDrawn"
    stock_size: int
    trump_taken_by: int | None
    automatic: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class StockClosed(Event):
    """The stock was closed; the snapshot R12.5 needs is kept."""

    TYPE: ClassVar[str] = "sixty_six.StockClosed"
    seat: int
    before_draw: bool
    stock_size: int
    opponent_had_trick_at_close: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclaredOut(Event):
    """A seat declared out (claimed 66)."""

    TYPE: ClassVar[str] = "sixty_six.DeclaredOut"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Passed(Event):
    """A seat passed in the end-of-play window."""

    TYPE: ClassVar[str] = "sixty_six.Passed"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DealScored(Event):
    """A deal ended: winner (None when undecided), reason, base, carry-over and totals."""

    TYPE: ClassVar[str] = "sixty_six.DealScored"
    winner: int | None
    reason: str
    deemed: bool
    base: int
    carry_over_applied: int
    game_points: int
    match_points: tuple[int, int]
    points: tuple[int, int]
    tricks: tuple[int, int]
    opponent_had_trick_at_close: bool | None
    hands: tuple[tuple[str, ...], ...] | None = None
    stock: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchEnded(Event):
    """A seat reached the game target."""

    TYPE: ClassVar[str] = "sixty_six.MatchEnded"
    winner: int
    match_points: tuple[int, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class GameAborted(Event):
    """The administrative action limit was reached; nobody loses."""

    TYPE: ClassVar[str] = "sixty_six.GameAborted"
    reason: str
    actions: int


SixtySixEvent = (
    GameStarted
    | MatchResumed
    | DealStarted
    | HandDealt
    | StockLaid
    | CardPlayed
    | MarriageAnnounced
    | TrumpExchanged
    | TrickWon
    | CardDrawn
    | CardsDrawn
    | StockClosed
    | DeclaredOut
    | Passed
    | DealScored
    | MatchEnded
    | GameAborted
)

CODEC = EventCodec(
    [
        GameStarted,
        MatchResumed,
        DealStarted,
        HandDealt,
        StockLaid,
        CardPlayed,
        MarriageAnnounced,
        TrumpExchanged,
        TrickWon,
        CardDrawn,
        CardsDrawn,
        StockClosed,
        DeclaredOut,
        Passed,
        DealScored,
        MatchEnded,
        GameAborted,
    ]
)
