"""The protocol every game implements: a decider plus views, outcome and redaction.

Lifecycle: ``start(setup)`` returns the creation events (the game's ``GameStarted`` first,
holding players, dealer, full options, seed and deck commitment, then the deal). State is
``fold(evolve, initial_state(), events)``. ``decide(state, seat, action)`` validates one
action and returns the events it causes, or raises a DomainError; it never mutates.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from domain.errors import InvalidAction, InvalidSetup
from domain.events import Encoded, Event, EventCodec
from domain.options import Option

S = TypeVar("S")
Action = Mapping[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class Setup:
    """What a game is created from. ``deal`` (explicit) replaces the seeded first deal."""

    players: int
    seed: str
    options: Mapping[str, Any] = field(default_factory=dict)
    dealer: int | None = None
    deal: Mapping[str, Any] | None = None


class Game(Protocol, Generic[S]):
    """A card game as a decider. Implementations are stateless singletons."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    codec: EventCodec

    def start(self, setup: Setup) -> list[Event]:
        """Validate the setup and return the creation events (GameStarted, the deal)."""
        ...

    def initial_state(self) -> S:
        """The state before any event."""
        ...

    def evolve(self, state: S, event: Event) -> S:
        """Fold one event; pure and total, never validates."""
        ...

    def decide(self, state: S, seat: int, action: Action) -> list[Event]:
        """The events one action causes, or a DomainError saying why it is refused."""
        ...

    def legal_actions(self, state: S, seat: int) -> list[dict[str, Any]]:
        """Every action the seat may send now (empty when it may not act)."""
        ...

    def seats_to_act(self, state: S) -> tuple[int, ...]:
        """Seats that may act now (several during simultaneous phases)."""
        ...

    def awaited_seats(self, state: S) -> tuple[int, ...]:
        """Seats the game waits on: play cannot go on until one of them acts.

        A subset of ``seats_to_act``; the others may act only optionally (declaring out in
        Sixty-Six, a ten out of turn in Shithead). Bots are asked to move for these seats.
        """
        ...

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What that seat (None: a spectator) may see, with its legal actions."""
        ...

    def reveal(self, state: S) -> dict[str, Any]:
        """The whole table with everything open (replays, audits, finished games)."""
        ...

    def outcome(self, state: S) -> dict[str, Any] | None:
        """None while playing; the result once over."""
        ...

    def redact(self, event: Event, seat: int | None) -> Encoded:
        """The encoded event as that seat (None: a spectator) may see it during play."""
        ...


def fold(game: Game[S], events: Iterable[Event], state: S | None = None) -> S:
    """Fold events onto ``state`` (the initial state when None)."""
    current = game.initial_state() if state is None else state
    evolve = game.evolve
    for event in events:
        current = evolve(current, event)
    return current


def action_key(action: Action) -> tuple[tuple[str, Any], ...]:
    """A hashable form of an action in which the order of a ``cards`` list does not matter,
    nor the order of ``slots`` (a list of card lists) or of the cards inside each slot."""
    items = []
    for key, value in sorted(action.items()):
        if key == "cards" and isinstance(value, list | tuple):
            value = tuple(sorted(value))
        elif key == "slots" and isinstance(value, list | tuple) and all(
            isinstance(v, list | tuple) for v in value
        ):
            value = tuple(sorted(tuple(sorted(map(str, v))) for v in value))
        elif isinstance(value, list):
            value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
        items.append((key, value))
    return tuple(items)


def action_type(action: Any, known: Collection[str]) -> str:
    """The action's ``type``, or InvalidAction listing the known types."""
    if type(action) is not dict and not isinstance(action, Mapping):
        raise InvalidAction("an action must be an object with a type")
    kind = action.get("type")
    if isinstance(kind, str) and kind in known:
        return kind
    names = tuple(known)
    raise InvalidAction(f"unknown action type {kind!r}; expected one of {', '.join(names)}")


def check_players(game: Game[Any], players: int) -> None:
    """Reject a player count outside the game's range."""
    if not isinstance(players, int) or not game.min_players <= players <= game.max_players:
        raise InvalidSetup(
            f"{game.name} takes {game.min_players} to {game.max_players} players, got {players!r}"
        )


def check_dealer(dealer: int | None, players: int) -> None:
    """Reject a dealer seat that does not exist."""
    if dealer is not None and (
        not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players
    ):
        raise InvalidSetup(f"dealer must be a seat from 0 to {players - 1}, got {dealer!r}")


def start_command(setup: Setup) -> dict[str, Any]:
    """The stored command of a game's creation batch (what an auditor re-runs through start)."""
    return {
        "kind": "start",
        "setup": {
            "players": setup.players,
            "seed": setup.seed,
            "options": dict(setup.options),
            "dealer": setup.dealer,
            "deal": None if setup.deal is None else dict(setup.deal),
        },
    }


def action_command(seat: int, action: Mapping[str, Any]) -> dict[str, Any]:
    """The stored command of an action batch (what an auditor re-runs through decide)."""
    return {"kind": "action", "seat": seat, "action": dict(action)}
