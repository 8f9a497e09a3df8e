"""Shithead's knowledge for the shared contract suite (see tests/contract/scenarios.py)."""

from __future__ import annotations

import random
from typing import Any

from domain.frozen import copy_with
from domain.games.shithead.preplay import preplay_actions
from domain.games.shithead.rules import face_up_cards
from domain.games.shithead.state import State, put

SETUPS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {}),
    (4, {}),
    (5, {}),
    (6, {}),
    (2, {"deal_6_choose_3": True, "match_count": True, "action_limit": 400}),
    (3, {"stack_face_up": True, "face_up_pickup": "all", "pickup_passes_to": "previous"}),
    (4, {"ten_out_of_turn": True, "play_from_stock": True, "track_flusher": True}),
    (3, {"jokers": "always", "joker_mode": "skip_seven", "sevens_low": True, "fives_low": True}),
    (6, {"eights_reverse_transparent": True, "face_up_pickup": "none", "objective": "winner"}),
    (2, {"jokers": "always", "joker_mode": "skip_glass", "sevens_glass": True, "eights_low": True}),
    (4, {"deal_6_choose_3": True, "stack_face_up": True, "dealing_style": "one_at_a_time"}),
    (
        3,
        {
            "cards_per_row": 4,
            "hand_size": 2,
            "two_is_reset": False,
            "ten_burns": False,
            "burner_plays_again": False,
            "next_dealer": "loser",
            "action_limit": 1500,
        },
    ),
    (
        5,
        {
            "four_of_a_kind_burns": False,
            "jokers": "always",
            "joker_mode": "skip_two",
            "action_limit": 1500,
        },
    ),
    (2, {"cards_per_row": 5, "hand_size": 4, "action_limit": 300}),
]


def cards_in_play(state: State) -> list[str]:
    """Every card of the deal wherever it lies."""
    out = [c for hand in state.hands for c in hand]
    out += [c for seat in range(state.players) for c in face_up_cards(state, seat)]
    out += [c for row in state.face_down for c in row if c is not None]
    return out + list(state.stock) + list(state.pile) + list(state.burned)


def candidate_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Legal actions, near misses and nonsense."""
    hand = list(state.hands[seat])
    table = list(face_up_cards(state, seat))
    hidden = [c for c in state.face_down[seat] if c is not None]
    mine = hand + table + hidden
    out: list[dict[str, Any]] = [
        {"type": "ready"},
        {"type": "pickup"},
        {"type": "play_stock"},
        {"type": "play", "cards": []},
        {"type": "dance"},
        {"type": "flip", "slot": "0"},
        {"type": "pickup", "face_up_card": "XX"},
    ]
    out += [{"type": "play", "cards": [c]} for c in mine]
    out += [{"type": "play", "cards": [a, b]} for a in mine[:6] for b in mine[:6] if a != b]
    out += [{"type": "pickup", "face_up_card": c} for c in table + hand[:2]]
    out += [{"type": "flip", "slot": i} for i in range(-1, 6)]
    out += [{"type": "swap", "hand_card": h, "face_up_card": f} for h in mine for f in mine[:5]]
    out += [{"type": "stack", "card": c, "slot": i} for c in hand for i in range(4)]
    out += [{"type": "choose_face_up", "cards": hand[:k]} for k in range(2, 6)]
    out += [{"type": "choose_face_up", "slots": [[c] for c in hand[:k]]} for k in range(2, 6)]
    # the legal slot choices in other orders (slots reversed, cards inside reversed): the same
    # actions for legality (D-SLOT-ORDER), accepted iff their canonical form is listed
    for action in preplay_actions(state, seat) if state.phase == "preplay" else ():
        if action["type"] == "choose_face_up" and "slots" in action:
            slots = action["slots"]
            out.append({"type": "choose_face_up", "slots": [s[::-1] for s in slots[::-1]]})
    out += [{"type": "play", "cards": ["TC"]}, {"type": "play", "cards": ["TC", "TD"]}]
    return out


def scramble_hidden(state: State, seat: int | None, rnd: random.Random) -> State:
    """Permute every card the seat cannot see among the places that hide them."""
    if not state.hands:
        return state
    places: list[tuple[str, int, int]] = []
    cards: list[str] = []
    for s, hand in enumerate(state.hands):
        if s != seat:
            places += [("hand", s, i) for i in range(len(hand))]
            cards += hand
    for s, row in enumerate(state.face_down):
        places += [("down", s, i) for i, c in enumerate(row) if c is not None]
        cards += [c for c in row if c is not None]
    places += [("stock", 0, i) for i in range(len(state.stock))]
    cards += state.stock
    rnd.shuffle(cards)
    hands = [list(h) for h in state.hands]
    downs = [list(r) for r in state.face_down]
    stock = list(state.stock)
    for (where, s, i), card in zip(places, cards, strict=True):
        if where == "hand":
            hands[s][i] = card
        elif where == "down":
            downs[s][i] = card
        else:
            stock[i] = card
    return copy_with(
        state,
        hands=tuple(tuple(h) for h in hands),
        face_down=tuple(tuple(r) for r in downs),
        stock=tuple(stock),
    )


__all__ = ["SETUPS", "candidate_actions", "cards_in_play", "put", "scramble_hidden"]
