"""Sixty-Six state: the match (options, seed, totals) around the current deal."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.options import Option, action_limit_option

RANK_ORDER = {"9": 0, "J": 1, "Q": 2, "K": 3, "T": 4, "A": 5}
CARD_POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
TARGET = 66
Pair = tuple[int, int]

OPTIONS: tuple[Option, ...] = (
    Option(name="game_target", kind="int", default=7, minimum=1, maximum=100,
           doc="game points that win the match (R2.6)"),
    Option(name="last_trick_bonus", kind="int", default=10, minimum=0, maximum=100,
           doc="points for the last trick of a deal never closed (R11.3)"),
    Option(name="marriage_points_need_trick", kind="bool", default=True,
           doc="marriage points stay pending until the announcer wins a trick (R8.5)"),
    Option(name="marriage_in_strict_phase", kind="bool", default=True,
           doc="marriages may be announced once the stock is closed or exhausted"),
    Option(name="exchange_requires_trick", kind="bool", default=True,
           doc="the trump nine exchange needs a won trick (R9.2c)"),
    Option(name="exchange_timing", kind="choice", default="between_tricks",
           choices=("between_tricks", "any_own_turn"), doc="when the exchange is allowed"),
    Option(name="exchange_min_stock", kind="int", default=2, choices=(2, 4),
           doc="least stock size for an exchange"),
    Option(name="close_on_first_lead", kind="bool", default=True,
           doc="the stock may be closed before the first trick"),
    Option(name="close_before_draw", kind="bool", default=True,
           doc="the draw step exists (R4.6); false: both draw automatically"),
    Option(name="must_head_trick", kind="bool", default=True, doc="strict play R7.2"),
    Option(name="must_trump_when_void", kind="bool", default=True, doc="strict play R7.3"),
    Option(name="false_declaration_points", kind="choice", default="seed",
           choices=("seed", "flat2"), doc="value of a false declaration (R12.4)"),
    Option(name="closed_opponent_declare", kind="choice", default="normal",
           choices=("normal", "failed_close_value"), doc="closer's opponent declaring (R12.6)"),
    Option(name="carry_over_undecided", kind="bool", default=True,
           doc="an undecided deal adds 1 to the carry-over (R14.2)"),
    Option(name="dealer_rotation", kind="choice", default="alternate",
           choices=("alternate", "winner_deals"), doc="who deals next (R2.5)"),
    Option(name="declare_timing", kind="choice", default="any_time",
           choices=("any_time", "own_turn"), doc="who may declare out when (R4.7)"),
    Option(name="deck20", kind="bool", default=False, doc="20-card Schnapsen-like pack"),
    Option(name="score_visibility", kind="choice", default="own",
           choices=("own", "both", "none"), doc="whose points a view shows (H4)"),
    Option(name="won_tricks_visibility", kind="choice", default="last_trick_only",
           choices=("last_trick_only", "all"), doc="which completed tricks a view lists (H3)"),
    Option(name="reveal_at_deal_end", kind="bool", default=False,
           doc="the deal result shows unplayed hands and stock (H7)"),
    action_limit_option(),
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """The parsed options, as attributes for the hot paths."""

    game_target: int = 7
    last_trick_bonus: int = 10
    marriage_points_need_trick: bool = True
    marriage_in_strict_phase: bool = True
    exchange_requires_trick: bool = True
    exchange_timing: str = "between_tricks"
    exchange_min_stock: int = 2
    close_on_first_lead: bool = True
    close_before_draw: bool = True
    must_head_trick: bool = True
    must_trump_when_void: bool = True
    false_declaration_points: str = "seed"
    closed_opponent_declare: str = "normal"
    carry_over_undecided: bool = True
    dealer_rotation: str = "alternate"
    declare_timing: str = "any_time"
    deck20: bool = False
    score_visibility: str = "own"
    won_tricks_visibility: str = "last_trick_only"
    reveal_at_deal_end: bool = False
    action_limit: int = 5000

    @classmethod
    def of(cls, options: dict[str, Any]) -> Rules:
        """Rules from a full options mapping."""
        return cls(**options)

    @property
    def hand_size(self) -> int:
        """Cards per hand after a deal or a draw."""
        return 5 if self.deck20 else 6

    @property
    def exchange_rank(self) -> str:
        """The rank exchanged for the trump card: the 9, or the jack with deck20."""
        return "J" if self.deck20 else "9"


# Deal and State are frozen without slots: copy_with (domain/frozen.py) copies their __dict__.
@dataclass(frozen=True, kw_only=True)
class Deal:
    """One deal. ``phase`` is lead, follow, draw, end_window or over; ``turn`` acts in it."""

    number: int
    dealer: int
    trump_card: str
    hands: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    stock: tuple[str, ...] = ()
    under: str | None = None
    phase: str = "lead"
    turn: int = 0
    trick: tuple[str, ...] = ()
    tricks: tuple[tuple[int, str, str], ...] = ()
    won: Pair = (0, 0)
    card_points: Pair = (0, 0)
    marriage_points: Pair = (0, 0)
    pending: Pair = (0, 0)
    bonus: Pair = (0, 0)
    marriages: tuple[tuple[int, str, int, str, str, bool], ...] = ()
    known: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    closed_by: int | None = None
    closed_before_draw: bool = False
    closed_at_stock_size: int | None = None
    opponent_had_trick_at_close: bool | None = None
    exchanged: tuple[int, str, str] | None = None
    passes: int = 0

    @property
    def trump(self) -> str:
        """The trump suit."""
        return self.trump_card[1]

    @property
    def stock_size(self) -> int:
        """Face-down cards plus the card lying under the stock (R3.4)."""
        return len(self.stock) + (self.under is not None)

    @property
    def stock_open(self) -> bool:
        """Not closed and not exhausted (R6.1)."""
        return self.closed_by is None and (self.under is not None)

    def points(self, seat: int) -> int:
        """A seat's points: tricks, credited marriages and the last-trick bonus (R11.1)."""
        return self.card_points[seat] + self.marriage_points[seat] + self.bonus[seat]


@dataclass(frozen=True, kw_only=True)
class State:
    """The match: setup facts, totals, the current deal and the end, if any."""

    started: bool = False
    options: dict[str, Any] | None = None
    rules: Rules = field(default_factory=Rules)
    seed: str = ""
    first_dealer: int = 0
    game_points: Pair = (0, 0)
    carry_over: int = 0
    deal: Deal | None = None
    deals_scored: int = 0
    actions: int = 0
    last_result: dict[str, Any] | None = None
    ended: str | None = None
    winner: int | None = None


def with_seat(pair: Pair, seat: int, value: int) -> Pair:
    """The pair with one seat's value replaced."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def beats(follow: str, lead: str, trump: str) -> bool:
    """True when the follower's card takes the trick (R5.4)."""
    if follow[1] == lead[1]:
        return RANK_ORDER[follow[0]] > RANK_ORDER[lead[0]]
    return follow[1] == trump
