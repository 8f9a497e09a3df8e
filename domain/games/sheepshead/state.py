"""The omniscient state of a Sheepshead match: the match and the hand being played."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.games.sheepshead.events import HandScored

Cards = tuple[str, ...]

PICKING = "picking"
BURYING = "burying"
CALLING = "calling"
CRACKING = "cracking"
RECRACKING = "recracking"
PLAYING = "playing"
SCORED = "scored"
THROWN_IN = "thrown_in"


# Frozen without slots: copy_with (domain/frozen.py) copies their __dict__.
@dataclass(frozen=True, kw_only=True)
class Trick:
    """A completed trick: who led, the cards in play order with their seats, the winner."""

    number: int
    seats: tuple[int, ...]
    cards: Cards
    winner: int
    points: int


@dataclass(frozen=True, kw_only=True)
class Hand:
    """One deal and its play."""

    deal: int
    number: int
    dealer: int
    active: tuple[int, ...]
    hands: tuple[Cards, ...]
    blind: Cards
    phase: str = PICKING
    to_act: int | None = None
    passed: tuple[int, ...] = ()
    picker: int | None = None
    blitz: Cards = ()
    shown: Cards = ()
    p8: Cards = ()
    buried: Cards = ()
    called: str | None = None
    alone: bool | None = None
    announced: bool = False
    partner: int | None = None
    partner_card: str | None = None
    revealed: bool = False
    leaster: str | None = None
    crackers: tuple[int, ...] = ()
    cracked_by: int | None = None
    recracked: bool = False
    trick_seats: tuple[int, ...] = ()
    trick_cards: Cards = ()
    tricks: tuple[Trick, ...] = ()


@dataclass(frozen=True, kw_only=True)
class State:
    """The match: setup facts, running totals and the current hand."""

    started: bool = False
    players: int = 0
    seed: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    first_dealer: int = 0
    explicit_deal: bool = False
    commitment: str = ""
    totals: tuple[int, ...] = ()
    pending_multiplier: int = 1
    actions: int = 0
    hand: Hand | None = None
    last_result: HandScored | None = None
    last_tricks: tuple[Trick, ...] = ()  # the scored hand's tricks (its view's last_hand)
    finished: bool = False
    aborted: bool = False
    winners: tuple[int, ...] = ()

    @property
    def over(self) -> bool:
        """True once the match has ended or was aborted."""
        return self.finished or self.aborted
