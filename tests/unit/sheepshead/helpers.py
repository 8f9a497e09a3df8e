"""Given-events / when-action / then-events helpers for Sheepshead tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from domain.errors import DomainError
from domain.events import Event
from domain.games.sheepshead import GAME
from domain.games.sheepshead.cards import DECK
from domain.games.sheepshead.events import HandScored
from domain.games.sheepshead.state import State
from domain.protocol import Setup, fold

# A 5-player deal (dealer 4, so seat 0 acts first) where seat 0 holds the four queens and
# two jacks, the blind the two top diamonds, seat 1 every other trump, seats 2-4 one fail
# suit each.
STRONG = {
    0: ["QC", "QS", "QH", "QD", "JC", "JS"],
    1: ["JD", "JH", "KD", "9D", "8D", "7D"],
    2: ["AC", "TC", "KC", "9C", "8C", "7C"],
    3: ["AS", "TS", "KS", "9S", "8S", "7S"],
    4: ["AH", "TH", "KH", "9H", "8H", "7H"],
}
STRONG_BLIND = ["AD", "TD"]


def make_deal(
    hands: Mapping[int, Sequence[str]],
    blind: Sequence[str] = (),
    *,
    players: int = 5,
    hand_size: int = 6,
    blind_size: int = 2,
    sitting_out: int | None = None,
) -> dict[str, Any]:
    """An explicit deal: the given cards, the rest filled in deck order."""
    used = {c for cards in hands.values() for c in cards} | set(blind)
    rest = [c for c in DECK if c not in used]
    seats = []
    for seat in range(players):
        cards = list(hands.get(seat, ()))
        want = 0 if seat == sitting_out else hand_size
        while len(cards) < want:
            cards.append(rest.pop(0))
        seats.append({"hand": cards})
    full_blind = list(blind)
    while len(full_blind) < blind_size:
        full_blind.append(rest.pop(0))
    return {"seats": seats, "extra": {"blind": full_blind}}


def start(
    hands: Mapping[int, Sequence[str]] | None = None,
    blind: Sequence[str] = (),
    *,
    players: int = 5,
    dealer: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: str = "test",
    **sizes: Any,
) -> State:
    """The state after starting a match from an explicit deal (dealer: the last seat)."""
    dealer = players - 1 if dealer is None else dealer
    deal = None if hands is None else make_deal(hands, blind, players=players, **sizes)
    setup = Setup(players=players, seed=seed, options=dict(options or {}), dealer=dealer, deal=deal)
    return fold(GAME, GAME.start(setup))


def act(state: State, seat: int, action: dict[str, Any]) -> tuple[State, list[Event]]:
    """Decide and fold one action."""
    events = GAME.decide(state, seat, action)
    return fold(GAME, events, state), events


def run(state: State, steps: Iterable[tuple[int, dict[str, Any]]]) -> tuple[State, list[Event]]:
    """Apply several actions, returning the state and every event."""
    log: list[Event] = []
    for seat, action in steps:
        state, events = act(state, seat, action)
        log.extend(events)
    return state, log


def to_act(state: State) -> int:
    """The seat to act."""
    seats = GAME.seats_to_act(state)
    assert len(seats) == 1
    return seats[0]


def play(state: State, *cards: str) -> tuple[State, list[Event]]:
    """Play cards in turn, each by the seat to act."""
    log: list[Event] = []
    for card in cards:
        state, events = act(state, to_act(state), {"type": "play", "cards": [card]})
        log.extend(events)
    return state, log


def play_first_legal(state: State, hand_number: int | None = None) -> tuple[State, list[Event]]:
    """Play the first legal card for every seat until the current hand is scored."""
    log: list[Event] = []
    number = state.hand.number if state.hand else 0
    while GAME.outcome(state) is None and state.hand and state.hand.number == number:
        seat = to_act(state)
        action = GAME.legal_actions(state, seat)[0]
        state, events = act(state, seat, action)
        log.extend(events)
        if any(isinstance(e, HandScored) for e in events):
            break
    return state, log


def pick_and_bury(
    state: State, picker: int, bury: Sequence[str], *, blitz: bool = False
) -> tuple[State, list[Event]]:
    """Everybody before ``picker`` passes, ``picker`` picks and buries."""
    log: list[Event] = []
    while to_act(state) != picker:
        state, events = act(state, to_act(state), {"type": "pass"})
        log.extend(events)
    pick: dict[str, Any] = {"type": "pick", "blitz": True} if blitz else {"type": "pick"}
    state, events = act(state, picker, pick)
    log.extend(events)
    state, events = act(state, picker, {"type": "bury", "cards": list(bury)})
    return state, log + events


def refused(state: State, seat: int, action: dict[str, Any]) -> DomainError:
    """The error decide raises (and proof that it raised)."""
    with pytest.raises(DomainError) as info:
        GAME.decide(state, seat, action)
    return info.value


def scored(events: Iterable[Event]) -> HandScored:
    """The HandScored among events."""
    found = [e for e in events if isinstance(e, HandScored)]
    assert len(found) == 1
    return found[0]


def of_type(events: Iterable[Event], cls: type[Event]) -> list[Any]:
    """Events of one class."""
    return [e for e in events if isinstance(e, cls)]
