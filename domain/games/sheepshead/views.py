"""What each seat may see (R10), the open table, event redaction and the outcome."""

from __future__ import annotations

from typing import Any, assert_never, cast

from domain.events import Encoded, Event, hands_seen_by
from domain.games.sheepshead.cards import sort_hand
from domain.games.sheepshead.events import (
    CODEC,
    Buried,
    CardCalled,
    CardPlayed,
    CrackDecided,
    GameStarted,
    HandDealt,
    HandScored,
    HandThrownIn,
    LeasterStarted,
    MatchAborted,
    MatchEnded,
    MatchResumed,
    PartnerRevealed,
    Passed,
    Picked,
    PreparationFinished,
    RecrackDecided,
    SheepsheadEvent,
    TrickWon,
)
from domain.games.sheepshead.rules import legal_actions
from domain.games.sheepshead.scoring import labels, stakes
from domain.games.sheepshead.state import BURYING, CALLING, Hand, State, Trick

PICKER_PREPARING = "picker_preparing"


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` (None: a spectator) may see it, with its legal actions."""
    return _table(state, seat, open_all=False)


def reveal(state: State) -> dict[str, Any]:
    """The whole table with everything open."""
    return _table(state, None, open_all=True)


def _table(state: State, seat: int | None, *, open_all: bool) -> dict[str, Any]:
    hand = state.hand
    out: dict[str, Any] = {
        "game": "sheepshead",
        "seat": seat,
        "players": state.players,
        "rounds": state.options.get("rounds"),
        "totals": list(state.totals),
        "last_hand": _last_hand(state),
        "outcome": outcome(state),
    }
    if hand is None:
        return {**out, "phase": "waiting", "seats": [], "to_act": [], "legal_actions": []}
    out.update(_hand_public(state, hand, seat, open_all))
    out["legal_actions"] = legal_actions(state, seat) if seat is not None else []
    out["to_act"] = [] if state.over or hand.to_act is None else [hand.to_act]
    if seat is not None:
        out["hand"] = list(sort_hand(hand.hands[seat]))
        out["role"] = _role(hand, seat)
    if open_all:
        out.update(_open_facts(hand))
    return out


def _last_hand(state: State) -> dict[str, Any] | None:
    result = state.last_result
    if result is None:
        return None
    data = {k: list(v) if isinstance(v, tuple) else v for k, v in CODEC.encode(result).items()}
    data["labels"] = list(labels(result.row)) if result.row else []
    # the finished hand, kept until the next one is scored: its tricks (public, A17), who won
    # it (the leaster's winner too) and the defenders' points
    data["tricks"] = [_trick(t) for t in state.last_tricks]
    data["winners"] = [s for s, score in enumerate(result.scores) if score > 0]
    team = {result.picker, result.partner} - {None}
    data["defender_points"] = (
        None if result.picker is None
        else sum(p for s, p in enumerate(result.points_taken) if s not in team)
    )
    return data


def _phase(state: State, hand: Hand, seat: int | None, open_all: bool) -> str:
    if state.over:
        return "over"
    if hand.phase in (BURYING, CALLING) and not open_all and seat != hand.picker:
        return PICKER_PREPARING
    return hand.phase


def _hand_public(state: State, hand: Hand, seat: int | None, open_all: bool) -> dict[str, Any]:
    picker_sees = seat is not None and seat == hand.picker
    alone_seen = open_all or hand.announced or picker_sees
    return {
        "phase": _phase(state, hand, seat, open_all),
        "hand_number": hand.number,
        "deal_number": hand.deal,
        "dealer": hand.dealer,
        "picker": hand.picker,
        "leaster": hand.leaster,
        "blitz": list(hand.blitz),
        "called": hand.called,
        "alone": hand.alone if alone_seen else None,
        "blind": list(hand.blind) if (open_all or picker_sees) else None,
        "buried": list(hand.buried) if (open_all or picker_sees) else None,
        "multiplier": stakes(state, hand),
        "crackers": list(hand.crackers),
        "cracked_by": hand.cracked_by,
        "recracked": hand.recracked,
        "trick": [
            {"seat": s, "card": c} for s, c in zip(hand.trick_seats, hand.trick_cards, strict=True)
        ],
        "tricks": [_trick(t) for t in hand.tricks],
        "seats": [_seat_public(state, hand, s, seat, open_all) for s in range(state.players)],
    }


def _trick(trick: Trick) -> dict[str, Any]:
    return {
        "number": trick.number,
        "seats": list(trick.seats),
        "cards": list(trick.cards),
        "winner": trick.winner,
        "points": trick.points,
    }


def _card_count(hand: Hand, seat: int, viewer: int | None, open_all: bool) -> int:
    # R10.2/R10.6: others see the picker holding 8 cards until the teams are fixed, so a
    # finished bury (a calling decision pending) looks like a bury still to come.
    preparing = hand.phase in (BURYING, CALLING) and seat == hand.picker
    if preparing and not open_all and viewer != seat:
        return len(hand.hands[seat]) + len(hand.buried)
    return len(hand.hands[seat])


def _seat_public(
    state: State, hand: Hand, seat: int, viewer: int | None, open_all: bool
) -> dict[str, Any]:
    won = [t for t in hand.tricks if t.winner == seat]
    partner_known = hand.partner == seat and (hand.revealed or open_all)
    return {
        "seat": seat,
        "cards": _card_count(hand, seat, viewer, open_all),
        "dealer": seat == hand.dealer,
        "sitting_out": seat not in hand.active,
        "passed": seat in hand.passed,
        "picker": seat == hand.picker,
        "partner": partner_known,
        "tricks": len(won),
        "points": sum(t.points for t in won),
        "total": state.totals[seat],
    }


def _role(hand: Hand, seat: int) -> str | None:
    if hand.picker is None:
        return None
    if seat == hand.picker:
        return "picker"
    if hand.alone is None or seat not in hand.active:
        return None
    return "partner" if seat == hand.partner else "defender"


def _open_facts(hand: Hand) -> dict[str, Any]:
    return {
        "hands": [list(sort_hand(cards)) for cards in hand.hands],
        "partner": hand.partner,
        "partner_card": hand.partner_card,
        "p8": list(hand.p8),
    }


def redact(event: Event, seat: int | None) -> Encoded:
    """The encoded event as ``seat`` may see it during play.

    Exhaustive over the event union: a new event type is a mypy error here until its
    visibility is decided, and an event of no known type raises instead of going out whole.
    """
    known = cast(SheepsheadEvent, event)
    data = CODEC.encode(known)
    match known:
        case GameStarted():
            del data["seed"]
        case HandDealt():
            data["hands"] = hands_seen_by(known.hands, seat)
            data["blind"] = len(known.blind)
        case Picked() | Buried():
            if seat != known.seat:
                key = "blind" if isinstance(known, Picked) else "cards"
                data[key] = len(data[key])
        case PreparationFinished():
            if seat != known.seat and not known.announced:
                data["alone"] = None
                data["by_action"] = None
        case (
            Passed() | LeasterStarted() | HandThrownIn() | CardCalled() | CrackDecided()
            | RecrackDecided() | CardPlayed() | PartnerRevealed() | TrickWon() | HandScored()
            | MatchEnded() | MatchResumed() | MatchAborted()
        ):
            pass  # public facts
        case _:
            assert_never(known)
    return data


def outcome(state: State) -> dict[str, Any] | None:
    """None while playing; reason, winners, losers, totals and hands once over."""
    if not (state.finished or state.aborted):  # state.over, without the call
        return None
    hands = state.last_result.hand + 1 if state.last_result else 0
    if state.aborted:
        winners: list[int] = []
        losers: list[int] = []
        reason = "action_limit"
    else:
        winners = list(state.winners)
        losers = [s for s in range(state.players) if s not in state.winners]
        reason = "finished"
    return {
        "reason": reason,
        "winners": winners,
        "losers": losers,
        "totals": list(state.totals),
        "hands": hands,
    }
