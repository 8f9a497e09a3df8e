"""Sixty-Six in words: which events are a seat's action and how each reads (``last_action``)."""

from __future__ import annotations

from typing import Any

from domain.events import Encoded, Event
from domain.games.sixty_six.events import (
    CardDrawn,
    CardPlayed,
    DeclaredOut,
    GameStarted,
    MarriageAnnounced,
    Passed,
    StockClosed,
    TrumpExchanged,
)
from domain.narration import subject

ACTS = {
    "sixty_six.CardPlayed": "play",
    "sixty_six.MarriageAnnounced": "marriage",
    "sixty_six.TrumpExchanged": "exchange_trump",
    "sixty_six.StockClosed": "close",
    "sixty_six.CardDrawn": "draw",
    "sixty_six.DeclaredOut": "declare_out",
    "sixty_six.Passed": "pass",
}
_ACTIONS = (MarriageAnnounced, TrumpExchanged, StockClosed, DeclaredOut, Passed)


def role(event: Event, previous: Event | None, state: Any) -> str:
    """act, follow or reset (domain.narration); ``state``: the game's, before the event."""
    if isinstance(event, GameStarted):
        return "reset"
    if isinstance(event, _ACTIONS):
        return "act"
    if isinstance(event, CardPlayed):  # a marriage's lead belongs to the marriage
        return "follow" if isinstance(previous, MarriageAnnounced) else "act"
    if isinstance(event, CardDrawn):  # the draw step's first card begins a seat's draw
        manual = state.rules.close_before_draw and not isinstance(previous, CardDrawn)
        return "act" if manual else "follow"
    return "follow"


def narrate(data: Encoded) -> str | None:
    """One redacted event in words (None: nothing worth saying)."""
    kind, who = subject(data)
    match kind:
        case "CardPlayed":
            return f"{who} {'led' if data['role'] == 'lead' else 'played'} {data['card']}"
        case "MarriageAnnounced":
            return (f"{who} announced the {data['suit']} marriage ({data['value']}), showing "
                    f"{data['shown']}")
        case "TrumpExchanged":
            return f"{who} exchanged {data['nine']} for the trump card {data['taken']}"
        case "TrickWon":
            return f"seat {data['winner']} took the trick ({data['points']} points)"
        case "CardDrawn":
            return f"{who} drew {data['card'] or 'a card'}"
        case "CardsDrawn":
            return f"{data['stock_size']} left in the stock" if data["stock_size"] else None
        case "StockClosed":
            return f"{who} closed the stock"
        case "DeclaredOut":
            return f"{who} declared out"
        case "Passed":
            return f"{who} passed"
        case "DealScored":
            if data.get("winner") is None:
                return "the deal is undecided"
            return (f"seat {data['winner']} won the deal ({data['reason'].replace('_', ' ')}, "
                    f"{data['game_points']} game points)")
        case "DealStarted":
            return f"deal {data['number'] + 1} started; seat {data['dealer']} deals"
        case "MatchEnded":
            return f"seat {data['winner']} won the match"
        case "GameAborted":
            return "the match stopped at its action limit"
    return None
