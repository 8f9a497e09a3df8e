"""What each seat may see (§14), the open table, the outcome and event redaction."""

from __future__ import annotations

from typing import Any, assert_never, cast

from domain.events import Encoded, Event, hands_seen_by
from domain.games.shithead.events import (
    CODEC,
    CardsDealt,
    CardsDrawn,
    CardsPlayed,
    CardStacked,
    DirectionReversed,
    FaceDownFlipped,
    FaceUpChosen,
    FaceUpSwapped,
    GameAborted,
    GameEnded,
    GameStarted,
    PileBurned,
    PilePickedUp,
    PlayerOut,
    PlayerReady,
    PlayStarted,
    ShitheadEvent,
    StockPlayed,
    TurnPassed,
)
from domain.games.shithead.rules import face_down_slots, sort_cards
from domain.games.shithead.state import OVER, State


def outcome(state: State) -> dict[str, Any] | None:
    """None while playing, then the reason, winners, losers, finishing order and loser."""
    if state.phase != OVER:
        return None
    if state.end_reason != "finished":
        return {
            "reason": state.end_reason,
            "winners": [],
            "losers": [],
            "finishing_order": list(state.out),
            "loser": None,
            "actions": state.actions,
        }
    if state.winner is not None:
        winners = [state.winner]
    else:
        winners = [s for s in state.finishing_order if s != state.loser]
    return {
        "reason": "finished",
        "winners": winners,
        "losers": [] if state.loser is None else [state.loser],
        "finishing_order": list(state.finishing_order),
        "loser": state.loser,
        "actions": state.actions,
    }


def _seat(state: State, seat: int) -> dict[str, Any]:
    slots = face_down_slots(state, seat)
    out = state.out
    return {
        "seat": seat,
        "hand_count": len(state.hands[seat]),
        "face_up": [list(stack) for stack in state.face_up[seat]],
        "face_down_slots": list(slots),
        "face_down_count": len(slots),
        "ready": state.ready[seat],
        "out": seat in out,
        "position": out.index(seat) + 1 if seat in out else None,
    }


def table(state: State) -> dict[str, Any]:
    """The public facts of the table (R14.1)."""
    start = state.starter
    return {
        "game": "shithead",
        "phase": state.phase,
        "options": dict(state.options),
        "dealer": state.dealer,
        "direction": state.direction,
        "starter": None
        if start is None
        else {"seat": start[0], "rank": start[1], "tier": start[2]},
        "seats": [_seat(state, s) for s in range(state.players)],
        "stock_count": len(state.stock),
        "pile": list(state.pile),
        "burned_count": len(state.burned),
        "last_revealed": state.last_revealed,
        "flusher": state.flusher,
        "actions": state.actions,
        "outcome": outcome(state),
    }


def public_to_act(state: State) -> list[int]:
    """The seats anyone can see are to act (pre-play: the seats not ready)."""
    if state.phase == OVER:
        return []
    if state.phase == "play":
        return [] if state.to_act is None else [state.to_act]
    return [s for s in range(state.players) if not state.ready[s]]


def redact(event: Event, seat: int | None) -> Encoded:
    """The encoded event as that seat may see it (§14, R14.4).

    Exhaustive over the event union: a new event type is a mypy error here until its
    visibility is decided, and an event of no known type raises instead of going out whole.
    """
    known = cast(ShitheadEvent, event)
    data = CODEC.encode(known)
    match known:
        case GameStarted():
            del data["seed"]
        case CardsDealt():
            data["hands"] = hands_seen_by(known.hands, seat)
            data["face_down"] = [len(cards) for cards in known.face_down]
            data["stock"] = len(known.stock)
        case CardsDrawn():
            if known.seat != seat:
                del data["cards"]
                data["count"] = len(known.cards)
        case (
            FaceUpSwapped() | FaceUpChosen() | CardStacked() | PlayerReady() | PlayStarted()
            | CardsPlayed() | FaceDownFlipped() | StockPlayed() | DirectionReversed()
            | PileBurned() | PilePickedUp() | TurnPassed() | PlayerOut() | GameEnded()
            | GameAborted()
        ):
            pass  # public facts
        case _:
            assert_never(known)
    return data


def open_table(state: State) -> dict[str, Any]:
    """Everything, hidden cards included (replays, audits)."""
    data = table(state)
    for i, entry in enumerate(data["seats"]):
        entry["hand"] = list(sort_cards(state.hands[i]))
        entry["face_down"] = list(state.face_down[i])
    data["stock"] = list(state.stock)
    data["burned"] = list(state.burned)
    data["seat"] = None
    data["to_act"] = public_to_act(state)
    data["legal_actions"] = []
    return data
