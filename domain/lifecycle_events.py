"""The lifecycle's own events and the codec that wraps every game's.

Their type names (``lifecycle.*``) and encodings are what stored streams hold: change neither.
``EVENTS`` also lists the seating events (``domain.seating``), the clock's (``domain.clock``) and
a bot's fallback (``domain.fallback``), an idle seat's (``domain.idle``) and a fork's origin and
position (``domain.forks``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from domain import clock as clocks
from domain.events import Encoded, Event, EventCodec
from domain.fallback import BotFellBack
from domain.forks import GameForked, PositionDealt
from domain.idle import SeatIdled
from domain.seating import (
    AbortAgreed,
    AbortLapsed,
    AbortWithdrawn,
    GameAborted,
    SeatLeft,
    SeatRetaken,
)

PREFIX = "lifecycle."


@dataclass(frozen=True, slots=True, kw_only=True)
class GameCreated(Event):
    """A game was created: the commitment to the server's secret, options and seats to fill."""

    TYPE: ClassVar[str] = "lifecycle.GameCreated"
    game: str
    players: int
    options: dict[str, Any]
    dealer: int | None
    commitment: str
    prearranged: bool
    # The seats a bot fills at creation (people join the others); None for a game created
    # before this was recorded (schema 1): every seat then counts as a person's.
    bots: tuple[int, ...] | None = None
    # The game's own deck commitment is published salted with the secret (``salted_deck``):
    # a prearranged game created since schema 3. Before, it was published as it is.
    salted_deck: bool = False
    # Pending agreements to abort lapse when another person moves instead (``AbortLapsed``):
    # a game created since schema 4. Before, an agreement stood until the game ended.
    abort_lapses: bool = False

    SCHEMA: ClassVar[int] = 4


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatFilled(Event):
    """A seat was filled and contributed its entropy (``source``: who drew it)."""

    TYPE: ClassVar[str] = "lifecycle.SeatFilled"
    seat: int
    entropy: str
    source: str


@dataclass(frozen=True, slots=True, kw_only=True)
class EntropyAwaited(Event):
    """A bot seat whose bot sends its own entropy (an HTTP bot account's): seated at creation,
    its ``SeatFilled`` comes when the bot posts its entropy (``source: "client"``), or, if it
    never does in time (the sweeper's entropy wait, at most the game's ``idle_seconds``), with
    ``fallback`` (``source: "server"``), drawn and published here, at creation, before any
    person's entropy exists."""

    TYPE: ClassVar[str] = "lifecycle.EntropyAwaited"
    seat: int
    fallback: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SecretRevealed(Event):
    """The game ended and the server revealed its secret (and a prearranged seed or deal)."""

    TYPE: ClassVar[str] = "lifecycle.SecretRevealed"
    secret: str
    seed: str
    deal: dict[str, Any] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameExpired(Event):
    """The game never filled its seats in time and ended without a deal."""

    TYPE: ClassVar[str] = "lifecycle.GameExpired"
    open_seats: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatResigned(Event):
    """A seat resigned: the game ends and that seat loses (docs/rules/*.md, "Resignation")."""

    TYPE: ClassVar[str] = "lifecycle.SeatResigned"
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStopped(Event):
    """The operator stopped the game (waiting or playing), for the reason it gave: nobody wins
    or loses."""

    TYPE: ClassVar[str] = "lifecycle.GameStopped"
    reason: str


EVENTS: tuple[type[Event], ...] = (
    GameCreated,
    SeatFilled,
    EntropyAwaited,
    SecretRevealed,
    GameExpired,
    SeatResigned,
    AbortAgreed,
    AbortWithdrawn,
    AbortLapsed,
    GameAborted,
    SeatLeft,
    SeatRetaken,
    BotFellBack,
    SeatIdled,
    GameStopped,
    GameForked,
    PositionDealt,
    *clocks.EVENTS,
)


class LifecycleCodec(EventCodec):
    """The lifecycle events plus the game's own codec (its names, schemas and upcasters)."""

    def __init__(self, inner: EventCodec) -> None:
        super().__init__(EVENTS)
        self.inner = inner
        self.upcaster(GameCreated.TYPE, 1)(_created_before_bots)
        self.upcaster(GameCreated.TYPE, 2)(_created_before_salted_decks)
        self.upcaster(GameCreated.TYPE, 3)(_created_before_lapsing_aborts)

    def encode(self, event: Event) -> Encoded:
        """The event as flat JSON-ready data."""
        if isinstance(event, EVENTS):
            return super().encode(event)
        return self.inner.encode(event)

    def decode(self, data: Mapping[str, Any]) -> Event:
        """The event for stored data, through the game's codec unless it is a lifecycle one."""
        type_name = data.get("type")
        decoder = self._decoders.get(type_name) or self.inner._decoders.get(type_name)  # type: ignore[arg-type]
        if decoder is None:
            return self.inner.decode(data)  # (its error for a type nobody knows)
        return decoder(data)


def _created_before_bots(data: Encoded) -> Encoded:
    """GameCreated schema 1 did not record the bots' seats."""
    return {**data, "bots": None}


def _created_before_salted_decks(data: Encoded) -> Encoded:
    """GameCreated schema 2 published every deck commitment unsalted."""
    return {**data, "salted_deck": False}


def _created_before_lapsing_aborts(data: Encoded) -> Encoded:
    """GameCreated schema 3: an agreement to abort stood until the game ended."""
    return {**data, "abort_lapses": False}


def is_lifecycle_stream(first_event: Mapping[str, Any]) -> bool:
    """True when a stored stream starts with GameCreated (format 2), not a game's start."""
    return first_event.get("type") == GameCreated.TYPE
