"""Who sits at the table: the events of abort and leave, the lifecycle's options of every game.

Pure (no clock, no randomness). The table (``domain.table``) decides abort and leave and folds
these events into its ``Table``; docs/rules/*.md ("Abort and leave") state the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from domain import idle
from domain.events import Event
from domain.options import Option


@dataclass(frozen=True, slots=True, kw_only=True)
class AbortAgreed(Event):
    """After the deal, a person's seat agreed to abort (the game ends once every person has)."""

    TYPE: ClassVar[str] = "lifecycle.AbortAgreed"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AbortWithdrawn(Event):
    """A person took back their agreement to abort (the game goes on)."""

    TYPE: ClassVar[str] = "lifecycle.AbortWithdrawn"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AbortLapsed(Event):
    """The pending agreements to abort lapsed: another person moved instead of agreeing."""

    TYPE: ClassVar[str] = "lifecycle.AbortLapsed"
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class GameAborted(Event):
    """The game was aborted: before the deal by one seated person, after it by every person."""

    TYPE: ClassVar[str] = "lifecycle.GameAborted"
    agreed: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatLeft(Event):
    """A person left a seat (or the service found a seat's bot gone, ``domain.idle``): it is
    open again (``bot`` None) or that bot took it over."""

    TYPE: ClassVar[str] = "lifecycle.SeatLeft"
    seat: int
    bot: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatRetaken(Event):
    """A person took a seat left open after the deal (the deal's entropy is not redrawn)."""

    TYPE: ClassVar[str] = "lifecycle.SeatRetaken"
    seat: int


# Options of every game, kept by the lifecycle (in GameCreated.options only when not default,
# so a game created before they existed re-runs unchanged).
LEAVE_BOTS = ("heuristic", "random")
TABLE_OPTIONS: tuple[Option, ...] = (
    Option(name="on_leave", kind="choice", default="open", choices=("open", "bot"),
           doc="when a person leaves after the deal: 'open' (the seat opens again and the game "
               "waits for someone to take it) or 'bot' (leave_bot takes the seat over)"),
    Option(name="leave_bot", kind="choice", default="heuristic", choices=LEAVE_BOTS,
           doc="the built-in bot that takes over a seat a person leaves (on_leave 'bot')"),
    Option(name="bot_pace_ms", kind="int", default=0, minimum=0, maximum=10_000,
           doc="milliseconds every bot turn waits for the game to move before the bot moves, "
               "while a person holds a seat (a game of bots only never waits); the wait is the "
               "same whatever the cards, and a person's ten out of turn in it comes first"),
    Option(name="rights_grace_ms", kind="int", default=1500, minimum=0, maximum=10_000,
           doc="the older name of bot_pace_ms (games created before it): the pace when "
               "bot_pace_ms is not given"),
    idle.OPTION,
)  # fmt: skip
TABLE_NAMES = frozenset(o.name for o in TABLE_OPTIONS)


def seat_list(seats: Sequence[int]) -> str:
    return ", ".join(str(s) for s in seats)
