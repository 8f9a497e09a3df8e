"""Sixty-Six in the shared contract suite: sampled option combinations and hidden places."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from domain.games.sixty_six.state import State

SETUPS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (2, {"declare_timing": "own_turn", "game_target": 3}),
    (2, {"deck20": True, "close_before_draw": False, "exchange_timing": "any_own_turn"}),
    (2, {"exchange_requires_trick": False, "exchange_min_stock": 4, "close_on_first_lead": False,
         "marriage_in_strict_phase": False, "must_head_trick": False,
         "must_trump_when_void": False, "score_visibility": "both"}),
    (2, {"marriage_points_need_trick": False, "false_declaration_points": "flat2",
         "closed_opponent_declare": "failed_close_value", "carry_over_undecided": False,
         "dealer_rotation": "winner_deals", "won_tricks_visibility": "all",
         "reveal_at_deal_end": True, "score_visibility": "none", "declare_timing": "own_turn"}),
    (2, {"action_limit": 40, "last_trick_bonus": 0}),
    (2, {"game_target": 25, "close_before_draw": False}),
]

_TYPES = ("exchange_trump", "close", "draw", "declare_out", "pass")
_CARDS = [r + s for s in "CDHS" for r in "9TJQKA"]


def cards_in_play(state: State) -> list[str]:
    """Every card of the current deal, wherever it lies."""
    deal = state.deal
    assert deal is not None
    cards = [*deal.hands[0], *deal.hands[1], *deal.stock, *deal.trick]
    cards += [c for _, lead, follow in deal.tricks for c in (lead, follow)]
    if deal.under is not None:
        cards.append(deal.under)
    return cards


def candidate_actions(state: State, seat: int) -> list[dict[str, Any]]:
    """Legal actions, near misses and nonsense."""
    out: list[dict[str, Any]] = [{"type": t} for t in _TYPES]
    out += [{"type": kind, "cards": [c]} for kind in ("play", "marriage") for c in _CARDS]
    out += [
        {"type": "play"},
        {"type": "play", "cards": ["ZZ"]},
        {"type": "play", "cards": ["2H"]},
        {"type": "marriage", "card": 7},
        {"type": "play", "card": "AS"},  # the retired shape
        {"type": "draw", "card": "AS"},
        {"type": "shuffle"},
        {"kind": "play"},
    ]
    return out


def scramble_hidden(state: State, seat: int | None, rnd: random.Random) -> State:
    """The opponent's unknown cards (both hands for a spectator) and the stock permuted."""
    deal = state.deal
    if deal is None:
        return state
    hidden_seats = [s for s in (0, 1) if s != seat]
    places: list[tuple[str, int]] = []
    pool: list[str] = []
    for s in hidden_seats:
        for i, c in enumerate(deal.hands[s]):
            if c not in deal.known[s]:
                places.append((f"hand{s}", i))
                pool.append(c)
    places += [("stock", i) for i in range(len(deal.stock))]
    pool += list(deal.stock)
    rnd.shuffle(pool)
    zones = {"hand0": list(deal.hands[0]), "hand1": list(deal.hands[1]), "stock": list(deal.stock)}
    for (zone, i), card in zip(places, pool, strict=True):
        zones[zone][i] = card
    hands = (tuple(zones["hand0"]), tuple(zones["hand1"]))
    return replace(state, deal=replace(deal, hands=hands, stock=tuple(zones["stock"])))
