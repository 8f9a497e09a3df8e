"""What each seat sees (H1-H8), the open table, the outcome and event redaction."""

from __future__ import annotations

from typing import Any, assert_never, cast

from domain.cards import sort_cards
from domain.events import Encoded, Event
from domain.games.sixty_six.events import (
    CODEC,
    CardDrawn,
    CardPlayed,
    CardsDrawn,
    DealScored,
    DealStarted,
    DeclaredOut,
    GameAborted,
    GameStarted,
    HandDealt,
    MarriageAnnounced,
    MatchEnded,
    MatchResumed,
    Passed,
    SixtySixEvent,
    StockClosed,
    StockLaid,
    TrickWon,
    TrumpExchanged,
)
from domain.games.sixty_six.rules import awaited_seat, legal_actions
from domain.games.sixty_six.state import Deal, State

_ORDER = tuple(r + s for s in "CDHS" for r in "9JQKTA")


def _sorted(cards: tuple[str, ...]) -> list[str]:
    return sort_cards(cards, _ORDER)


def phase_name(state: State) -> str:
    """lead, follow, draw, end_window, over or waiting."""
    if state.ended is not None:
        return "over"
    return state.deal.phase if state.deal is not None else "waiting"


def stock_state(deal: Deal) -> str:
    """open, closed or exhausted."""
    if deal.closed_by is not None:
        return "closed"
    return "open" if deal.under is not None else "exhausted"


def _public(state: State) -> dict[str, Any]:
    deal = state.deal
    assert deal is not None
    everything = state.rules.won_tricks_visibility == "all"
    last = deal.tricks[-1] if deal.tricks else None
    return {
        "game": "sixty_six",
        "phase": phase_name(state),
        "options": state.options,
        "deal_number": deal.number,
        "dealer": deal.dealer,
        "turn": deal.turn,
        "trump_suit": deal.trump,
        # the trump card as it lies (or last lay) under the stock: the nine after an exchange
        "trump_card": deal.exchanged[1] if deal.exchanged else deal.trump_card,
        "face_up_card": deal.under if deal.closed_by is None else None,
        "stock_size": deal.stock_size,
        "stock": stock_state(deal),
        "closed_by": deal.closed_by,
        "closed_before_draw": deal.closed_before_draw if deal.closed_by is not None else None,
        "closed_at_stock_size": deal.closed_at_stock_size,
        "opponent_had_trick_at_close": deal.opponent_had_trick_at_close,
        "current_trick": [{"seat": _trick_seat(deal, i), "card": c}
                          for i, c in enumerate(deal.trick)],
        "last_trick": _trick(last) if last else None,
        "tricks": [_trick(t) for t in deal.tricks] if everything else None,
        "marriages": [_marriage(m) for m in deal.marriages],
        "exchange": (
            {"seat": deal.exchanged[0], "nine": deal.exchanged[1], "taken": deal.exchanged[2]}
            if deal.exchanged else None
        ),
        "passes": deal.passes if deal.phase == "end_window" else 0,
        "game_points": list(state.game_points),
        "carry_over": state.carry_over,
        "game_target": state.rules.game_target,
        "last_deal_result": state.last_result,
        # whose turn it is; either seat may also declare out (see its legal_actions)
        "to_act": list(awaited_seat(state)),
        "outcome": outcome(state),
    }


def _trick_seat(deal: Deal, index: int) -> int:
    # A card lies alone in the trick only while its follower (``turn``) has yet to play.
    return 1 - deal.turn if index == 0 else deal.turn


def _trick(entry: tuple[int, str, str]) -> dict[str, Any]:
    return {"winner": entry[0], "cards": [entry[1], entry[2]]}


def _marriage(m: tuple[int, str, int, str, str, bool]) -> dict[str, Any]:
    return {"seat": m[0], "suit": m[1], "value": m[2], "card": m[3], "shown": m[4],
            "credited": m[5]}


def _seat(state: State, deal: Deal, seat: int, show_points: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, "hand_size": len(deal.hands[seat]),
                           "tricks": deal.won[seat]}
    if show_points:
        out["points"] = deal.points(seat)
        out["pending_marriage_points"] = deal.pending[seat]
    return out


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What that seat (None: a spectator) may see, with its legal actions."""
    deal = state.deal
    if deal is None:
        return {"game": "sixty_six", "phase": "waiting", "seat": seat, "seats": [],
                "to_act": [], "legal_actions": [], "outcome": None}
    out = _public(state)
    visible = state.rules.score_visibility
    out["seat"] = seat
    out["seats"] = [_seat(state, deal, s, visible == "both" or (visible == "own" and s == seat))
                    for s in (0, 1)]
    if seat is None:
        out["legal_actions"] = []
        return out
    out["hand"] = _sorted(deal.hands[seat])
    out["opponent_known_cards"] = _sorted(deal.known[1 - seat])
    if visible != "none":
        out["points"] = deal.points(seat)
        out["pending_marriage_points"] = deal.pending[seat]
    out["legal_actions"] = legal_actions(state, seat)
    return out


def reveal(state: State) -> dict[str, Any]:
    """The whole table with everything open (replays, audits)."""
    deal = state.deal
    if deal is None:
        return view(state, None)
    out = _public(state)
    out["seat"] = None
    out["seed"] = state.seed
    out["seats"] = [_seat(state, deal, s, True) | {"hand": list(deal.hands[s])} for s in (0, 1)]
    out["stock_cards"] = list(deal.stock)
    out["under_stock"] = deal.under
    out["tricks"] = [_trick(t) for t in deal.tricks]
    out["legal_actions"] = []
    return out


def outcome(state: State) -> dict[str, Any] | None:
    """None while playing; the match result once over."""
    if state.ended is None:
        return None
    winners = [state.winner] if state.winner is not None else []
    return {
        "reason": state.ended,
        "winners": winners,
        "losers": [1 - w for w in winners],
        "game_points": list(state.game_points),
        "deals": state.deals_scored,
        "carry_over": state.carry_over,
    }


def redact(event: Event, seat: int | None) -> Encoded:
    """The encoded event as that seat may see it during play.

    Exhaustive over the event union: a new event type is a mypy error here until its
    visibility is decided, and an event of no known type raises instead of going out whole.
    """
    known = cast(SixtySixEvent, event)
    data = CODEC.encode(known)
    match known:
        case GameStarted():
            del data["seed"]
        case HandDealt():
            if known.seat != seat:
                data["cards"] = None
                data["count"] = len(known.cards)
        case StockLaid():
            data["cards"] = None
            data["count"] = len(known.cards)
        case CardDrawn():
            if known.seat != seat and not known.face_up:
                data["card"] = None
        case (
            DealStarted() | CardPlayed() | MarriageAnnounced() | TrumpExchanged() | TrickWon()
            | CardsDrawn() | StockClosed() | DeclaredOut() | Passed() | DealScored()
            | MatchEnded() | MatchResumed() | GameAborted()
        ):
            pass  # public facts
        case _:
            assert_never(known)
    return data
