"""Sheepshead's knowledge for the shared contract suite."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from domain.games.sheepshead.cards import DECK, FAIL_ACES, FAIL_TENS, JACK_CALL_ORDER
from domain.games.sheepshead.rules import legal_actions
from domain.games.sheepshead.state import Hand, State

SETUPS: list[tuple[int, dict[str, Any]]] = [
    (5, {}),
    (3, {"rounds": 2}),
    (4, {"rounds": 2, "leaster_blind_to_last_trick": True, "cracking": True}),
    (6, {"rounds": 2}),
    (6, {"six_hand_mode": "all_play", "rounds": 2}),
    (7, {"rounds": 2}),
    (7, {"seven_hand_mode": "dealer_sits_out", "rounds": 2, "blitzing": True}),
    (5, {"partner_rule": "called_ace", "rounds": 3}),
    (5, {"jd_call_up": "required", "allow_voluntary_alone": True, "rounds": 3}),
    (5, {"no_pick": "doubler", "double_on_bump": True, "partner_off_the_hook": True, "rounds": 3}),
    (5, {"no_pick": "moster", "leaster_blind_to_last_trick": True, "rounds": 3}),
    (5, {"no_pick": "forced_pick", "cracking": True, "blitzing": True, "rounds": 3}),
    (5, {"jd_call_up": "never", "first_dealer": 2, "action_limit": 40}),
    (6, {"six_hand_mode": "all_play", "partner_rule": "called_ace", "cracking": True, "rounds": 2}),
    (3, {"no_pick": "doubler", "cracking": True, "blitzing": True, "rounds": 2}),
    (4, {"partner_rule": "called_ace", "no_pick": "forced_pick", "rounds": 2}),
    (
        5,
        {
            "partner_rule": "called_ace",
            "cracking": True,
            "blitzing": True,
            "rounds": 3,
            "double_on_bump": True,
            "partner_off_the_hook": True,
        },
    ),
    (5, {"allow_voluntary_alone": True, "cracking": True, "no_pick": "moster", "rounds": 3}),
    (6, {"no_pick": "moster", "double_on_bump": True, "cracking": True, "rounds": 2}),
    (
        7,
        {
            "jd_call_up": "required",
            "cracking": True,
            "leaster_blind_to_last_trick": True,
            "rounds": 2,
        },
    ),
    (7, {"seven_hand_mode": "dealer_sits_out", "partner_rule": "called_ace", "rounds": 2}),
]

_SIMPLE = ("pick", "pass", "alone", "partner", "crack", "no_crack", "recrack", "no_recrack")


def cards_in_play(state: State) -> list[str]:
    """Every card of the current deal, wherever it lies."""
    hand = state.hand
    assert hand is not None
    cards = [c for h in hand.hands for c in h]
    if hand.picker is None:
        cards += hand.blind
    cards += hand.buried
    cards += hand.trick_cards
    cards += [c for t in hand.tricks for c in t.cards]
    return cards


def candidate_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Legal actions plus near-misses and nonsense."""
    out: list[dict[str, Any]] = list(legal_actions(state, seat))
    out += [{"type": t} for t in _SIMPLE]
    out += [{"type": "pick", "blitz": True}, {"type": "pick", "blitz": False}, {"type": "dance"}]
    out += [{"type": "call", "cards": [c]} for c in (*JACK_CALL_ORDER, "JD", *FAIL_ACES)]
    out += [{"type": "call", "cards": [c]} for c in FAIL_TENS]
    out += [{"type": "play", "cards": [c]} for c in DECK]
    out += [{"type": "play", "cards": []}, {"type": "play", "cards": ["XX"]}, {"type": "play"}]
    own = list(state.hand.hands[seat]) if state.hand else []
    rnd = random.Random(len(own))
    for _ in range(6):
        size = rnd.choice((1, 2, 2, 3, 4))
        pool = own if len(own) >= size and rnd.random() < 0.7 else list(DECK)
        out.append({"type": "bury", "cards": rnd.sample(pool, size)})
    if own:
        out.append({"type": "bury", "cards": [own[0], own[0]]})
        out.append({"type": "play", "cards": own[:2]})
    return out


def _hidden(hand: Hand, seat: int | None) -> set[str]:
    hidden: set[str] = set()
    for other, cards in enumerate(hand.hands):
        if other != seat:
            hidden.update(c for c in cards if not (other == hand.picker and c in hand.shown))
    if hand.picker is None or seat != hand.picker:
        hidden.update(hand.blind)
        hidden.update(hand.buried)
    played = set(hand.trick_cards) | {c for t in hand.tricks for c in t.cards}
    own = set(hand.hands[seat]) if seat is not None else set()
    return hidden - played - own


def scramble_hidden(state: State, seat: int | None, rnd: random.Random) -> State:
    """The same state with the cards ``seat`` cannot see permuted among their places."""
    hand = state.hand
    if hand is None:
        return state
    hidden = sorted(_hidden(hand, seat))
    shuffled = hidden[:]
    rnd.shuffle(shuffled)
    sigma = dict(zip(hidden, shuffled, strict=True))

    def move(cards: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sigma.get(c, c) for c in cards)

    new = replace(
        hand,
        hands=tuple(move(h) for h in hand.hands),
        blind=move(hand.blind),
        buried=move(hand.buried),
        p8=move(hand.p8),
    )
    card = hand.partner_card
    if card is not None and card in sigma:
        holder = next((s for s, h in enumerate(new.hands) if card in h), None)
        new = replace(new, partner=None if holder == hand.picker else holder)
    return replace(state, hand=new)
