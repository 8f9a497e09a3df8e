"""Given-events helpers for Shithead tests: explicit deals, readiness, fabricated facts."""

from __future__ import annotations

from typing import Any

from domain.cards import deck_54
from domain.events import Event
from domain.frozen import copy_with
from domain.games.shithead.events import TurnPassed
from domain.games.shithead.state import State, put
from domain.protocol import Setup, fold
from domain.registry import get_game

GAME = get_game("shithead")


def cards(text: str) -> list[str]:
    """'3H 4H' -> ['3H', '4H']."""
    return text.split()


def deal(*seats: str, stock: str = "", rows: int = 3) -> dict[str, Any]:
    """An explicit deal from 'hand | face_up | face_down' strings; an omitted face-down row
    is filled with unused cards from the top of the canonical 54-card deck (jokers excluded)."""
    parsed = []
    for spec in seats:
        parts = [p.strip() for p in spec.split("|")] + ["", "", ""]
        parsed.append(
            {"hand": cards(parts[0]), "face_up": cards(parts[1]), "face_down": cards(parts[2])}
        )
    used = {c for s in parsed for z in s.values() for c in z} | set(cards(stock))
    spare = [c for c in deck_54()[:52] if c not in used]
    for seat in parsed:
        while len(seat["face_down"]) < rows:
            seat["face_down"].append(spare.pop())
    return {"seats": parsed, "stock": cards(stock)}


def creation(
    *seats: str, stock: str = "", dealer: int = 0, seed: str = "t", **options: Any
) -> list[Event]:
    """The creation events of a game from an explicit deal."""
    rows = options.get("cards_per_row", 3)
    setup = Setup(
        players=len(seats),
        seed=seed,
        dealer=dealer,
        options=options,
        deal=deal(*seats, stock=stock, rows=rows),
    )
    return GAME.start(setup)


def preplay(*seats: str, stock: str = "", dealer: int = 0, **options: Any) -> State:
    """The state right after the deal."""
    state: State = fold(GAME, creation(*seats, stock=stock, dealer=dealer, **options))
    return state


def playing(*seats: str, stock: str = "", dealer: int = 0, **options: Any) -> State:
    """The state after every seat sent ready (the starter found by R5)."""
    state = preplay(*seats, stock=stock, dealer=dealer, **options)
    for seat in range(len(seats)):
        state = act(state, seat, {"type": "ready"})[1]
    return state


def given(state: State, *events: Event) -> State:
    """The state after some facts happened."""
    result: State = fold(GAME, events, state)
    return result


def act(state: State, seat: int, action: dict[str, Any]) -> tuple[list[Event], State]:
    """Decide one action and fold its events."""
    events = GAME.decide(state, seat, action)
    return events, given(state, *events)


def play(state: State, seat: int, text: str) -> tuple[list[Event], State]:
    """Decide a play of the cards in ``text``."""
    return act(state, seat, {"type": "play", "cards": cards(text)})


def types(events: list[Event]) -> list[str]:
    """The short stored names of events."""
    return [e.TYPE.split(".", 1)[1] for e in events]


def legal(state: State, seat: int) -> list[dict[str, Any]]:
    """The seat's legal actions."""
    return GAME.legal_actions(state, seat)


def plays(state: State, seat: int) -> list[str]:
    """The seat's legal plays as space-joined card lists."""
    return [" ".join(a["cards"]) for a in legal(state, seat) if a["type"] == "play"]


def with_pile(state: State, text: str) -> State:
    """The same table with the pile replaced (bottom first); its lead count is the top run."""
    pile = tuple(cards(text))
    return copy_with(state, pile=pile, lead_count=1 if pile else 0)


def turn(state: State, seat: int) -> State:
    """The same table with the turn at ``seat`` (a fabricated TurnPassed)."""
    return given(state, TurnPassed(seat=seat, reason="given"))


def with_zones(
    state: State, seat: int, hand: str | None = None, up: str | None = None, down: str | None = None
) -> State:
    """The same table with some zones of one seat replaced."""
    if hand is not None:
        state = copy_with(state, hands=put(state.hands, seat, tuple(cards(hand))))
    if up is not None:
        slots = tuple(() if c == "-" else (c,) for c in cards(up))
        slots = slots or ((),) * state.info.rules.cards_per_row
        state = copy_with(state, face_up=put(state.face_up, seat, slots))
    if down is not None:
        row = tuple(None if c == "-" else c for c in cards(down))
        state = copy_with(state, face_down=put(state.face_down, seat, row))
    return state
