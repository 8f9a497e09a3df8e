"""The Sheepshead search bot's rollout (see ``workers.bots.search``); its worlds are
``domain.worlds.sheepshead``'s (what the seat knows, and how the unseen cards are dealt).

A rollout plays the candidate action, then the hand to its end with the heuristic bot's play
(the picking, burying and calling through its view, the card play on the bare state), on the
domain's ``decide``; the value is the seat's score for the hand.

Searched: the pick/pass decision and every card play; burying, calling and cracking are the
heuristic's.
"""

from __future__ import annotations

import random
from typing import Any

from domain.frozen import copy_with
from domain.games.sheepshead import views
from domain.games.sheepshead.cards import (
    effective_suit,
    sort_hand,
    total_points,
    trick_winner_index,
)
from domain.games.sheepshead.decide import decide
from domain.games.sheepshead.events import HandScored, HandThrownIn, MatchEnded
from domain.games.sheepshead.evolve import evolve
from domain.games.sheepshead.rules import playing_actions, tricks_per_hand
from domain.games.sheepshead.scoring import score_leaster, score_normal
from domain.games.sheepshead.state import PLAYING, Hand, State, Trick
from domain.worlds.sheepshead import sample_world
from workers.bots.base import Action, View, register_bot
from workers.bots.search.pimc import IterationSearch
from workers.bots.sheepshead import SheepsheadHeuristic

DEFAULT_ITERATIONS = 40
_HEURISTIC = SheepsheadHeuristic()
_SEARCHED = frozenset({"pick", "pass", "play"})


def _role(hand: Hand, seat: int) -> str | None:
    if hand.picker is None:
        return None
    if seat == hand.picker:
        return "picker"
    if hand.alone is None:
        return None
    return "partner" if seat == hand.partner else "defender"


def _play_view(state: State, hand: Hand, seat: int) -> dict[str, Any]:
    """The few view fields the heuristic's card play reads, straight from the state."""
    picker = hand.picker
    seen_alone = hand.announced or seat == picker
    return {
        "seat": seat,
        "players": state.players,
        "picker": picker,
        "role": _role(hand, seat),
        "alone": hand.alone if seen_alone else None,
        "called": hand.called,
        "leaster": hand.leaster,
        "trick": [
            {"seat": s, "card": c} for s, c in zip(hand.trick_seats, hand.trick_cards, strict=True)
        ],
        "seats": [
            {
                "seat": s,
                "partner": hand.partner == s and hand.revealed,
                "sitting_out": s not in hand.active,
            }
            for s in range(state.players)
        ],
    }


def policy(state: State, seat: int, rng: random.Random) -> Action:
    """The heuristic bot's choice: card play from the bare state, the rest through a view."""
    hand = state.hand
    assert hand is not None
    if hand.phase == PLAYING:
        legal = playing_actions(state, hand, seat)
        if len(legal) == 1:
            return legal[0]
        return _HEURISTIC._play(_play_view(state, hand, seat), legal)
    return _HEURISTIC.choose(views.view(state, seat), rng)


def play_out(state: State, seat: int) -> float:
    """The rest of a hand in play, every seat playing the heuristic's card, on plain lists
    (the follow rule of R8.4 only: not for ``called_ace``); the seat's score for the hand."""
    hand = state.hand
    assert hand is not None and hand.to_act is not None
    hands = [list(sort_hand(h)) for h in hand.hands]
    seats, cards = list(hand.trick_seats), list(hand.trick_cards)
    tricks = list(hand.tricks)
    revealed, to_act = hand.revealed, hand.to_act
    view = _play_view(state, hand, to_act)
    marks = view["seats"]
    active, count = hand.active, tricks_per_hand(state)
    while len(tricks) < count:
        held = hands[to_act]
        legal = held
        if cards:
            led = effective_suit(cards[0])
            legal = [c for c in held if effective_suit(c) == led] or held
        if len(legal) == 1:
            card = legal[0]
        else:
            view["seat"] = to_act
            view["role"] = _role(hand, to_act)
            view["alone"] = hand.alone if hand.announced or to_act == hand.picker else None
            view["trick"] = [{"seat": s, "card": c} for s, c in zip(seats, cards, strict=True)]
            choice = _HEURISTIC._play(view, [{"type": "play", "cards": [c]} for c in legal])
            card = choice["cards"][0]
        held.remove(card)
        seats.append(to_act)
        cards.append(card)
        if to_act == hand.partner and card == hand.partner_card:
            revealed = True
            marks[to_act]["partner"] = True
        if len(cards) < len(active):
            to_act = active[(active.index(to_act) + 1) % len(active)]
            continue
        winner = seats[trick_winner_index(cards)]
        number = len(tricks) + 1
        tricks.append(
            Trick(number=number, seats=tuple(seats), cards=tuple(cards), winner=winner,
                  points=total_points(cards))
        )  # fmt: skip
        seats, cards, to_act = [], [], winner
    done = copy_with(hand, tricks=tuple(tricks), trick_seats=(), trick_cards=(), revealed=revealed)
    scored = score_leaster(state, done) if hand.leaster else score_normal(state, done)
    return float(scored.scores[seat])


def rollout(world: State, seat: int, action: Action, rng: random.Random) -> float:
    """Play the action, then the hand to its end; the seat's score for the hand."""
    state = world
    mover, move = seat, action
    fast = world.options["partner_rule"] != "called_ace"
    for _ in range(400):
        for event in decide(state, mover, move):
            if isinstance(event, HandScored):
                return float(event.scores[seat])
            if isinstance(event, HandThrownIn | MatchEnded):
                return 0.0
            state = evolve(state, event)
        hand = state.hand
        if hand is None or hand.to_act is None or state.over:
            return 0.0
        if fast and hand.phase == PLAYING:
            return play_out(state, seat)
        mover = hand.to_act
        move = policy(state, mover, rng)
    return 0.0


class SheepsheadAdapter:
    """Sheepshead for ``IterationSearch``: picking and card play are searched."""

    def forced(self, view: View) -> Action | None:
        legal = view["legal_actions"]
        if len(legal) == 1:
            return dict(legal[0])
        if not {a["type"] for a in legal} <= _SEARCHED:
            return _HEURISTIC.choose(view, random.Random(0))
        return None

    def candidates(self, view: View) -> list[Action]:
        first = _HEURISTIC.choose(view, random.Random(0))
        rest = [dict(a) for a in view["legal_actions"] if a != first]
        return [dict(first), *rest]

    def sample(self, view: View, rng: random.Random) -> State:
        return sample_world(view, rng)

    def rollout(self, world: State, seat: int, action: Action, rng: random.Random) -> float:
        return rollout(world, seat, action, rng)


class SheepsheadSearch(IterationSearch):
    """The ``search`` bot for Sheepshead."""

    def __init__(self, iterations: int = DEFAULT_ITERATIONS) -> None:
        super().__init__(SheepsheadAdapter(), iterations)


register_bot("search", game="sheepshead")(SheepsheadSearch)
