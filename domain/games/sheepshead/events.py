"""Sheepshead's events: facts in the past tense with explicit stored names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.events import Event, EventCodec

Cards = tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(Event):
    """A match was created."""

    TYPE = "sheepshead.GameStarted"
    players: int
    dealer: int
    options: dict[str, Any]
    seed: str
    commitment: str
    explicit_deal: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchResumed(Event):
    """An explicit deal started the match in its middle: the totals and doubling so far."""

    TYPE = "sheepshead.MatchResumed"
    totals: tuple[int, ...]
    multiplier: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HandDealt(Event):
    """A hand was dealt: deal number, counted hand number, dealer, every seat's cards, blind."""

    TYPE = "sheepshead.HandDealt"
    deal: int
    hand: int
    dealer: int
    hands: tuple[Cards, ...]
    blind: Cards


@dataclass(frozen=True, slots=True, kw_only=True)
class Passed(Event):
    """A seat passed on the blind."""

    TYPE = "sheepshead.Passed"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Picked(Event):
    """A seat picked up the blind, showing its queen pairs when blitzing."""

    TYPE = "sheepshead.Picked"
    seat: int
    blind: Cards
    blitz: Cards = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class LeasterStarted(Event):
    """Everybody passed: a leaster (or moster) is played."""

    TYPE = "sheepshead.LeasterStarted"
    kind: str


@dataclass(frozen=True, slots=True, kw_only=True)
class HandThrownIn(Event):
    """Everybody passed under the doubler: the hand was thrown in and the stakes doubled."""

    TYPE = "sheepshead.HandThrownIn"
    multiplier: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Buried(Event):
    """The picker buried cards."""

    TYPE = "sheepshead.Buried"
    seat: int
    cards: Cards


@dataclass(frozen=True, slots=True, kw_only=True)
class CardCalled(Event):
    """The picker called a card (a jack, or an ace or ten): its holder is the partner."""

    TYPE = "sheepshead.CardCalled"
    seat: int
    card: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PreparationFinished(Event):
    """Teams were fixed, by the picker's ``alone``/``partner`` action or by the rules.

    ``alone`` and ``by_action`` are private to the picker unless ``announced``; ``crackers`` are
    the seats that may crack next (none: play starts).
    """

    TYPE = "sheepshead.PreparationFinished"
    seat: int
    alone: bool
    announced: bool
    by_action: bool
    crackers: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CrackDecided(Event):
    """A defender cracked or declined to."""

    TYPE = "sheepshead.CrackDecided"
    seat: int
    crack: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class RecrackDecided(Event):
    """The picker recracked or declined to."""

    TYPE = "sheepshead.RecrackDecided"
    seat: int
    recrack: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class CardPlayed(Event):
    """A seat played a card to the trick."""

    TYPE = "sheepshead.CardPlayed"
    seat: int
    card: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PartnerRevealed(Event):
    """The partner played the partner card."""

    TYPE = "sheepshead.PartnerRevealed"
    seat: int
    card: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TrickWon(Event):
    """A trick was completed and taken."""

    TYPE = "sheepshead.TrickWon"
    number: int
    winner: int
    cards: Cards
    points: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HandScored(Event):
    """A hand ended: everything is open and every seat's score is known."""

    TYPE = "sheepshead.HandScored"
    hand: int
    kind: str
    picker: int | None
    partner: int | None
    alone: bool
    called: str | None
    buried: Cards
    blind: Cards
    team_tricks: int
    team_points: int
    row: str | None
    multiplier: int
    tricks_taken: tuple[int, ...]
    points_taken: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchEnded(Event):
    """The last counted hand was scored."""

    TYPE = "sheepshead.MatchEnded"
    totals: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchAborted(Event):
    """The match was stopped administratively."""

    TYPE = "sheepshead.MatchAborted"
    reason: str
    actions: int


SheepsheadEvent = (
    GameStarted
    | MatchResumed
    | HandDealt
    | Passed
    | Picked
    | LeasterStarted
    | HandThrownIn
    | Buried
    | CardCalled
    | PreparationFinished
    | CrackDecided
    | RecrackDecided
    | CardPlayed
    | PartnerRevealed
    | TrickWon
    | HandScored
    | MatchEnded
    | MatchAborted
)

CODEC = EventCodec(
    [
        GameStarted, MatchResumed, HandDealt, Passed, Picked, LeasterStarted, HandThrownIn, Buried,
        CardCalled, PreparationFinished, CrackDecided, RecrackDecided, CardPlayed,
        PartnerRevealed, TrickWon, HandScored, MatchEnded, MatchAborted,
    ]
)  # fmt: skip
