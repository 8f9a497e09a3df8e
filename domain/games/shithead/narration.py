"""Shithead in words: which events are a seat's action and how each reads (``last_action``)."""

from __future__ import annotations

from typing import Any

from domain.events import Encoded, Event
from domain.games.shithead.events import (
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
    StockPlayed,
    TurnPassed,
)
from domain.narration import cards_text, subject

ACTS = {
    "shithead.FaceUpSwapped": "swap",
    "shithead.CardStacked": "stack",
    "shithead.FaceUpChosen": "choose_face_up",
    "shithead.PlayerReady": "ready",
    "shithead.CardsPlayed": "play",
    "shithead.PilePickedUp": "pickup",
    "shithead.FaceDownFlipped": "flip",
    "shithead.StockPlayed": "play_stock",
}
_ACTIONS = (FaceUpSwapped, CardStacked, FaceUpChosen, CardsPlayed, FaceDownFlipped, StockPlayed)
_RESETS = (GameStarted, CardsDealt)
_FOLLOWS = (PlayStarted, DirectionReversed, PileBurned, CardsDrawn, TurnPassed, PlayerOut,
            GameEnded, GameAborted)
# The role of every event type that has one whatever its fields (one lookup per folded event)
_FIXED: dict[type[Event], str] = {
    **{cls: "reset" for cls in _RESETS},
    **{cls: "act" for cls in _ACTIONS},
    **{cls: "follow" for cls in _FOLLOWS},
}


def role(event: Event, previous: Event | None, state: Any) -> str:
    """act, follow or reset (domain.narration); ``state``: the game's, before the event."""
    fixed = _FIXED.get(type(event))
    if fixed is not None:
        return fixed
    if isinstance(event, _RESETS):
        return "reset"
    if isinstance(event, _ACTIONS):
        return "act"
    if isinstance(event, PilePickedUp):
        return "act" if event.cause == "pickup" else "follow"
    if isinstance(event, PlayerReady):
        chose = isinstance(previous, FaceUpChosen | CardsDrawn)
        return "follow" if chose and previous.seat == event.seat else "act"  # type: ignore[union-attr]
    return "follow"


def narrate(data: Encoded) -> str | None:
    """One redacted event in words (None: nothing worth saying)."""
    kind, who = subject(data)
    match kind:
        case "FaceUpSwapped":
            return f"{who} swapped {data['hand_card']} face up for {data['face_up_card']}"
        case "CardStacked":
            return f"{who} stacked {data['card']} on face-up slot {data['slot']}"
        case "FaceUpChosen":
            return f"{who} chose face up {' / '.join(' '.join(s) for s in data['slots'])}"
        case "PlayerReady":
            return f"{who} is ready"
        case "PlayStarted":
            return f"seat {data['starter']} starts (lowest {data['rank']}, {data['tier']})"
        case "CardsPlayed":
            return f"{who} played {cards_text(data['cards'])} from {data['source']}"
        case "FaceDownFlipped":
            fate = "" if data["legal"] else " and cannot play it"
            return f"{who} flipped {data['card']}{fate}"
        case "StockPlayed":
            fate = "" if data["legal"] else " and cannot play it"
            return f"{who} played {data['card']} from the stock{fate}"
        case "DirectionReversed":
            return "the direction reversed"
        case "PileBurned":
            return f"the pile burned ({data['cause'].replace('_', ' ')}, {data['count']} cards)"
        case "CardsDrawn":
            return f"{who} drew {cards_text(data.get('cards', data.get('count')))}"
        case "PilePickedUp":
            face_up = data.get("face_up_cards") or []
            extra = f" and {' '.join(face_up)} from the face-up cards" if face_up else ""
            return f"{who} picked up the pile ({cards_text(data['cards'])}){extra}"
        case "PlayerOut":
            return f"{who} is out (place {data['position']})"
        case "GameEnded":
            loser = data.get("loser")
            return "the game ended" + (f": seat {loser} is the shithead" if loser is not None
                                       else "")
        case "GameAborted":
            return "the game stopped at its action limit"
    return None
