"""Sixty-Six legality: one ``problem`` function that both decide and legal_actions use."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import (
    DomainError,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidCard,
    NotYourTurn,
)
from domain.games.sixty_six.state import RANK_ORDER, TARGET, Deal, Rules, State

ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "play": ("cards",),
    "marriage": ("cards",),
    "exchange_trump": (),
    "close": (),
    "draw": (),
    "declare_out": (),
    "pass": (),
}
OPTIONAL_FIELDS: dict[str, tuple[str, ...]] = {
    "marriage": ("declare",),  # declaring out in the same act (see "Optional rights")
}
CARD_CODES = frozenset(r + s for r in "9TJQKA" for s in "CDHS")
_ALLOWED_KEYS = {
    kind: frozenset({"type", *fields, *OPTIONAL_FIELDS.get(kind, ())})
    for kind, fields in ACTION_FIELDS.items()
}


Refusal = tuple[str, str]
"""Why a check refuses an action: the §16 rejection code and a message in plain words."""


_WITHOUT_CARD = frozenset(kind for kind, fields in ACTION_FIELDS.items() if not fields)
_WITH_CARD = frozenset(kind for kind, fields in ACTION_FIELDS.items() if fields == ("cards",))


def parse_action(action: object) -> tuple[str, str | None]:
    """The action's type and card, or InvalidAction for a malformed shape."""
    if type(action) is dict:  # the usual shapes, {"type": t} and {"type": t, "cards": [c]}
        kind = action.get("type")
        if type(kind) is str:
            size = len(action)
            if size == 1 and kind in _WITHOUT_CARD:
                return kind, None
            if size == 2 and kind in _WITH_CARD:
                cards = action.get("cards")
                if type(cards) is list and len(cards) == 1:
                    card = cards[0]
                    if type(card) is str and card in CARD_CODES:
                        return kind, card
    return _parse_any(action)


def _parse_any(action: object) -> tuple[str, str | None]:
    if type(action) is not dict and not isinstance(action, Mapping):
        raise InvalidAction("an action must be an object with a type", reason="unknown_action")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        known = ", ".join(ACTION_FIELDS)
        raise InvalidAction(f"unknown action type {kind!r}; expected one of {known}",
                            reason="unknown_action")
    fields = ACTION_FIELDS[kind]
    if not _ALLOWED_KEYS[kind].issuperset(action):
        extra = sorted(set(action) - _ALLOWED_KEYS[kind])
        raise InvalidAction(
            f"{kind} takes no field(s) {', '.join(extra)}; send {action_shape(kind)}"
        )
    if not isinstance(action.get("declare", False), bool):
        raise InvalidAction(f"declare must be true or false, got {action.get('declare')!r}")
    if not fields:
        return kind, None
    cards = action.get("cards")
    if not isinstance(cards, list | tuple) or len(cards) != 1:
        raise InvalidCard(f"{kind} takes one card code in a list: send {action_shape(kind)}")
    card = cards[0]
    if not isinstance(card, str) or card not in CARD_CODES:
        raise InvalidCard(f"{kind} needs a card code (9 T J Q K A + C D H S), got {card!r}")
    return kind, card


def declares(action: Mapping[str, Any]) -> bool:
    """True for a marriage that also declares out (``"declare": true``)."""
    return action.get("type") == "marriage" and action.get("declare") is True


def action_shape(kind: str) -> str:
    """The payload of an action type as JSON text (for refusals that say what to send)."""
    if kind == "marriage":
        return '{"type": "marriage", "cards": [<card code>], "declare"?: true}'
    if ACTION_FIELDS.get(kind):
        return f'{{"type": "{kind}", "cards": [<card code>]}}'
    return f'{{"type": "{kind}"}}'


def upcast_action(action: Mapping[str, Any]) -> Mapping[str, Any]:
    """A stored command in the retired shape (``card: c``, before ``cards: [c]`` of §15) in
    today's shape; replays recorded before the change verify through this."""
    if action.get("type") in ("play", "marriage") and "card" in action and "cards" not in action:
        old = dict(action)
        return {**{k: v for k, v in old.items() if k != "card"}, "cards": [old["card"]]}
    return action


def acting_seats(state: State) -> tuple[int, ...]:
    """Seats that may act: the seat whose turn it is, plus the other with any-time declaring."""
    deal = state.deal
    if deal is None or state.ended is not None or deal.phase == "over":
        return ()
    if state.rules.declare_timing == "any_time":
        return (0, 1)
    return (deal.turn,)


def awaited_seat(state: State) -> tuple[int, ...]:
    """The seat whose turn it is (declaring out of turn is optional, never awaited)."""
    deal = state.deal
    if deal is None or state.ended is not None or deal.phase == "over":
        return ()
    return _ALONE[deal.turn]


_ALONE = ((0,), (1,))  # (deal.turn,), made once


def problem(state: State, seat: int, kind: str, card: str | None) -> DomainError | None:
    """Why the seat may not take this action now, or None when it may."""
    deal = state.deal
    if deal is None or state.ended is not None or deal.phase == "over":
        return GameOver("the match is over; no action is possible", reason="deal_over")
    if seat not in (0, 1):
        return NotYourTurn(f"seat {seat} is not at this table", reason="not_your_turn")
    if kind == "declare_out":
        if state.rules.declare_timing == "own_turn" and seat != deal.turn:
            return NotYourTurn(f"seat {seat} may declare only on its own turn",
                               reason="not_your_turn")
        return None
    if seat != deal.turn:
        return NotYourTurn(f"it is seat {deal.turn}'s turn, not seat {seat}'s",
                           reason="not_your_turn")
    refusal = _CHECKS[kind](deal, state.rules, seat, card)
    return None if refusal is None else IllegalAction(refusal[1], reason=refusal[0])


def _play(deal: Deal, rules: Rules, seat: int, card: str | None) -> Refusal | None:
    if deal.phase == "draw":
        return ("must_draw_or_close", "the trick winner must draw or close before leading")
    assert card is not None
    if card not in deal.hands[seat]:
        return ("card_not_in_hand", f"{card} is not in your hand")
    if (deal.phase == "follow" and (deal.closed_by is not None or deal.under is None)
            and card not in followable(deal, rules, seat)):  # the stock is closed or exhausted
        return _strict_refusal(deal, seat, card)
    return None


def _strict_refusal(deal: Deal, seat: int, card: str) -> Refusal:
    led = deal.trick[0]
    if any(c[1] == led[1] for c in deal.hands[seat]):
        if card[1] != led[1]:
            return ("must_follow_suit", f"{card} does not follow the led suit of {led}")
        return ("must_head_trick", f"{card} does not head {led}; play a higher card")
    return ("must_trump", f"{card} is not a trump; void in {led[1]}, you must trump")


def followable(deal: Deal, rules: Rules, seat: int) -> tuple[str, ...]:
    """The hand cards the follower may play once the stock is closed or exhausted: the led
    suit, heading the trick when it can (R7.2); void in it, a trump when it has one (R7.3)."""
    led = deal.trick[0]
    suit = led[1]
    hand = deal.hands[seat]
    same = []
    for c in hand:
        if c[1] == suit:
            same.append(c)
    if same:
        if rules.must_head_trick:
            rank = RANK_ORDER[led[0]]
            higher = []
            for c in same:
                if RANK_ORDER[c[0]] > rank:
                    higher.append(c)
            if higher:
                return tuple(higher)
        return tuple(same)
    if rules.must_trump_when_void:
        trump = deal.trump_card[1]
        trumps = []
        for c in hand:
            if c[1] == trump:
                trumps.append(c)
        if trumps:
            return tuple(trumps)
    return hand


def _marriage(deal: Deal, rules: Rules, seat: int, card: str | None) -> Refusal | None:
    assert card is not None
    if deal.phase != "lead":
        return ("marriage_not_on_lead", "a marriage can be announced only as your lead")
    if card[0] not in "KQ":
        return ("marriage_card_not_king_or_queen", f"{card} is not a king or queen")
    if card not in deal.hands[seat]:
        return ("card_not_in_hand", f"{card} is not in your hand")
    if partner(card) not in deal.hands[seat]:
        return ("marriage_partner_missing", f"you do not hold the partner of {card}")
    if not rules.marriage_in_strict_phase and not deal.stock_open:
        return ("marriage_not_in_strict_phase",
                "marriages are not allowed once the stock is closed or exhausted")
    return None


def _exchange(deal: Deal, rules: Rules, seat: int, card: str | None) -> Refusal | None:
    phase = deal.phase
    between = phase == "lead" or phase == "draw"
    if not between and not (phase == "follow" and rules.exchange_timing == "any_own_turn"):
        return ("exchange_not_between_tricks",
                "the trump exchange is made between tricks by the next leader")
    if (deal.closed_by is not None or deal.under is None  # the stock is not open
            or len(deal.stock) + 1 < rules.exchange_min_stock):
        return _TRUMP_CARD_GONE[deal.stock_size]
    if rules.exchange_requires_trick and deal.won[seat] == 0:
        return ("exchange_no_trick_won", "you must win a trick before exchanging")
    if exchange_card(deal, rules) not in deal.hands[seat]:
        rank = "jack" if rules.deck20 else "nine"
        return ("exchange_no_trump_nine", f"you do not hold the trump {rank}")
    return None


# legal_actions asks _exchange on every lead once the stock is closed: its refusal, made once
_TRUMP_CARD_GONE = {
    size: ("exchange_trump_card_gone",
           f"the trump card is no longer available to exchange (stock size {size})")
    for size in range(len(CARD_CODES) + 1)
}


def _close(deal: Deal, rules: Rules, seat: int, card: str | None) -> Refusal | None:
    if deal.phase not in ("lead", "draw"):
        return ("close_not_on_lead", "only the next leader may close, before leading")
    if deal.closed_by is not None or deal.under is None:  # the stock is not open
        return ("close_stock_not_open", "the stock is already closed or exhausted")
    if not rules.close_on_first_lead and deal.won == (0, 0):
        return ("close_first_lead_forbidden",
                "the stock may not be closed before the first trick is complete")
    return None


def _draw(deal: Deal, rules: Rules, seat: int, card: str | None) -> Refusal | None:
    if deal.phase != "draw":
        return ("draw_not_expected", "there is no draw step now")
    return None


def _pass(deal: Deal, rules: Rules, seat: int, card: str | None) -> Refusal | None:
    if deal.phase != "end_window":
        return ("pass_not_expected", "passing is only possible after the last trick")
    return None


_CHECKS = {
    "play": _play,
    "marriage": _marriage,
    "exchange_trump": _exchange,
    "close": _close,
    "draw": _draw,
    "pass": _pass,
}


def partner(card: str) -> str:
    """The other card of a marriage."""
    return ("Q" if card[0] == "K" else "K") + card[1]


def exchange_card(deal: Deal, rules: Rules) -> str:
    """The card that may replace the trump card: trump 9 (trump jack with deck20)."""
    # rules.exchange_rank + deal.trump, less two property calls (asked on most leads)
    return ("J" if rules.deck20 else "9") + deal.trump_card[1]


# the cardless types each phase may allow (their _CHECKS decide), in listing order
_PARTNER = {c: partner(c) for c in CARD_CODES if c[0] in "KQ"}  # the marriage cards' partners
_CARDLESS_IN = {
    "lead": ("exchange_trump", "close"),
    "follow": ("exchange_trump",),
    "draw": ("exchange_trump", "close", "draw"),
    "end_window": ("pass",),
}

_CARDLESS_CHECKS = {
    phase: tuple((kind, _CHECKS[kind]) for kind in kinds) for phase, kinds in _CARDLESS_IN.items()
}


def legal_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Every action the seat may send now: what ``problem`` lets through, in listing order
    (plays, marriages, then the cardless types). ``problem()``'s match and turn checks are
    made once here; a card may be played on lead, and on a follow while the stock is open,
    ``followable`` narrows the strict follow; every other type goes through its ``_CHECKS``
    entry, per hand card where it takes one (the contract test holds decide and this list
    equal)."""
    deal = state.deal
    if deal is None or state.ended is not None or deal.phase == "over":
        return []
    rules = state.rules
    if seat != deal.turn:  # everything but declaring needs the turn (problem: not_your_turn)
        if seat in (0, 1) and rules.declare_timing == "any_time":
            return [{"type": "declare_out"}]
        return []
    phase = deal.phase
    hand = deal.hands[seat]
    out: list[dict[str, Any]] = []
    marriages: list[str] = []
    if phase == "lead":
        for c in hand:
            out.append({"type": "play", "cards": [c]})
            if c in _PARTNER and _PARTNER[c] in hand and _marriage(deal, rules, seat, c) is None:
                marriages.append(c)
        for c in marriages:
            out.append({"type": "marriage", "cards": [c]})
    elif phase != "draw":  # a follow (``followable`` narrows the strict one), the end window
        stock_open = deal.closed_by is None and deal.under is not None
        for c in hand if stock_open or phase != "follow" else followable(deal, rules, seat):
            out.append({"type": "play", "cards": [c]})
    for kind, check in _CARDLESS_CHECKS[phase]:
        if check(deal, rules, seat, None) is None:
            out.append({"type": kind})
    out.append({"type": "declare_out"})
    for c in marriages:
        if reaches_target(deal, rules, seat, c):
            out.append({"type": "marriage", "cards": [c], "declare": True})
    return out


def reaches_target(deal: Deal, rules: Rules, seat: int, card: str) -> bool:
    """True when this marriage's points are credited at once and take the seat to 66: its
    declaring form (``"declare": true``) is then a correct declaration ("Optional rights")."""
    credited = not rules.marriage_points_need_trick or deal.won[seat] > 0
    value = 40 if card[1] == deal.trump else 20
    return credited and deal.points(seat) + value >= TARGET
