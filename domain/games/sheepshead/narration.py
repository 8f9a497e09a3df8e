"""Sheepshead in words: which events are a seat's action and how each reads (``last_action``)."""

from __future__ import annotations

from typing import Any

from domain.events import Encoded, Event
from domain.games.sheepshead.events import (
    Buried,
    CardCalled,
    CardPlayed,
    CrackDecided,
    GameStarted,
    Passed,
    Picked,
    RecrackDecided,
)
from domain.narration import subject

ACTS = {
    "sheepshead.Passed": "pass",
    "sheepshead.Picked": "pick",
    "sheepshead.Buried": "bury",
    "sheepshead.CardCalled": "call",
    "sheepshead.CrackDecided": "crack",
    "sheepshead.RecrackDecided": "recrack",
    "sheepshead.CardPlayed": "play",
}
# PreparationFinished (alone / partner) always follows: whether it was an action of its own is
# the picker's secret unless announced.
_ACTIONS = (Passed, Picked, Buried, CardCalled, CrackDecided, RecrackDecided, CardPlayed)


def role(event: Event, previous: Event | None, state: Any) -> str:
    """act, follow or reset (domain.narration); ``state``: the game's, before the event."""
    if isinstance(event, GameStarted):
        return "reset"
    return "act" if isinstance(event, _ACTIONS) else "follow"


def narrate(data: Encoded) -> str | None:
    """One redacted event in words (None: nothing worth saying)."""
    kind, who = subject(data)
    match kind:
        case "Passed":
            return f"{who} passed"
        case "Picked":
            blitz = data.get("blitz") or []
            return f"{who} picked up the blind" + (f", blitzing {' '.join(blitz)}" if blitz else "")
        case "LeasterStarted":
            return f"everybody passed: a {data['kind']}"
        case "HandThrownIn":
            return f"everybody passed: thrown in, the next hand counts x{data['multiplier']}"
        case "Buried":
            cards = data["cards"]
            return f"{who} buried " + (" ".join(cards) if isinstance(cards, list) else "2 cards")
        case "CardCalled":
            return f"{who} called {data['card']}"
        case "PreparationFinished":
            return f"{who} goes alone" if data.get("alone") else None
        case "CrackDecided":
            return f"{who} {'cracked' if data['crack'] else 'did not crack'}"
        case "RecrackDecided":
            return f"{who} {'recracked' if data['recrack'] else 'did not recrack'}"
        case "CardPlayed":
            return f"{who} played {data['card']}"
        case "PartnerRevealed":
            return f"{who} is the partner ({data['card']})"
        case "TrickWon":
            return f"seat {data['winner']} took trick {data['number']} ({data['points']} points)"
        case "HandScored":
            winners = [s for s, score in enumerate(data["scores"]) if score > 0]
            return f"hand {data['hand'] + 1} scored ({data['kind']}): seats " + ", ".join(
                map(str, winners)) + " won" if winners else f"hand {data['hand'] + 1} scored"
        case "HandDealt":
            return f"hand {data['hand'] + 1} dealt; seat {data['dealer']} deals"
        case "MatchEnded":
            return "the match ended: seats " + ", ".join(map(str, data["winners"])) + " won"
        case "MatchAborted":
            return "the match stopped at its action limit"
    return None
