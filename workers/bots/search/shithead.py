"""The Shithead search bot's rollout (see ``workers.bots.search``); its worlds are
``domain.worlds.shithead``'s (what the seat knows, and how the unseen cards are dealt).

A rollout plays the chosen action, then the game on with the heuristic bot's play for every
seat (the arena's opponents), straight on the domain's ``decide_play`` (no JSON), until the
seat is out (a success) or the shithead (a failure).

Pre-play (swaps) and blind flips are not searched: the heuristic's swaps, a random slot.
"""

from __future__ import annotations

import random
from typing import Any

from domain.cards import rank
from domain.games.shithead.events import CardsPlayed
from domain.games.shithead.options import Rules
from domain.games.shithead.play import Batch, decide_play, resolve_placed, turn_actions
from domain.games.shithead.rules import (
    FACE_DOWN,
    FACE_UP,
    HAND,
    face_down_slots,
    face_up_cards,
    pile_rank,
    rank_problem,
    tier,
)
from domain.games.shithead.state import PLAY, State
from domain.worlds.shithead import sample_world
from workers.bots.base import Action, View, register_bot
from workers.bots.search.pimc import IterationSearch
from workers.bots.shithead import _VALUE, BIG_PILE, CHEAP_PILE, ShitheadHeuristic, specials
from workers.bots.shithead import _play as heuristic_play

DEFAULT_ITERATIONS = 16
ROLLOUT_ACTIONS = 400  # a rollout longer than this is scored by the cards left
_HEURISTIC = ShitheadHeuristic()


def _policy_view(state: State, seat: int) -> dict[str, Any]:
    """The few view fields the heuristic's play reads, straight from the state."""
    return {
        "seat": seat,
        "to_act": [seat],
        "pile": state.pile,
        "stock_count": len(state.stock),
        "seats": {seat: {"hand_count": len(state.hands[seat]), "face_up": state.face_up[seat]}},
    }


def policy(state: State, seat: int, special: frozenset[str], rng: random.Random) -> Action:
    """The heuristic bot's play on the bare state (a random slot in the face-down tier)."""
    if tier(state, seat) == FACE_DOWN:
        return {"type": "flip", "slot": rng.choice(face_down_slots(state, seat))}
    legal = turn_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    return heuristic_play(_policy_view(state, seat), legal, special)


def fast_rules(rules: Rules) -> bool:
    """True when ``fast_play`` knows these rules (sets of any size, no stacks, no stock play)."""
    return not (rules.stack_face_up or rules.match_count or rules.play_from_stock)


def fast_play(state: State, seat: int, special: frozenset[str]) -> tuple[str, ...] | None:
    """The set the heuristic would play from the hand or face-up tier, by rank and count
    (suits do not matter), or None when it would pick up; only under ``fast_rules``."""
    rules, pile = state.info.rules, state.pile
    cards = state.hands[seat] or face_up_cards(state, seat)
    groups: dict[str, list[str]] = {}
    for card in cards:
        groups.setdefault(rank(card), []).append(card)
    top = pile_rank(rules, pile)
    legal = [r for r in groups if rank_problem(rules, top, r) is None]
    if not legal:
        return None
    if pile:
        last = rank(pile[-1])
        if last != "*" and last in groups and last in legal:
            run = 0
            for card in reversed(pile):
                if rank(card) != last:
                    break
                run += 1
            if run + len(groups[last]) >= 4:
                return tuple(groups[last])  # completes four of a kind: a free turn
    ordinary = [r for r in legal if r not in special]
    low = min((_VALUE[r] for r in ordinary), default=99)
    if "T" in legal and "T" in special and len(pile) >= BIG_PILE and low >= _VALUE["J"]:
        return (groups["T"][0],)
    if ordinary:
        return tuple(groups[_BY_VALUE[low]])
    extra = [r for r in legal if r in special]
    if not pile or len(pile) > CHEAP_PILE or _endgame(state, seat):
        return (groups[min(extra, key=lambda r: _KEEP.get(r, -1))][0],)
    return None


_BY_VALUE = {v: r for r, v in _VALUE.items()}
_KEEP = {"2": 0, "*": 1, "T": 2}


def _endgame(state: State, seat: int) -> bool:
    table = sum(len(slot) for slot in state.face_up[seat])
    return not state.stock and len(state.hands[seat]) + table <= 3


def _apply_play(state: State, seat: int, cards: tuple[str, ...]) -> State:
    """A validated play's events (``fast_play`` only names legal sets), as decide emits them."""
    batch = Batch(state)
    source = HAND if state.hands[seat] else FACE_UP
    batch.emit(CardsPlayed(seat=seat, cards=cards, source=source))
    resolve_placed(batch, seat, rank(cards[0]))
    return batch.state


def rollout(world: State, seat: int, action: Action, rng: random.Random) -> float:
    """1 when the seat gets out, 0 when it is the shithead (cards left decide a long game)."""
    special = specials(world.options)
    fast = fast_rules(world.info.rules)
    state = decide_play(world, seat, str(action["type"]), action).state
    for _ in range(ROLLOUT_ACTIONS):
        if seat in state.out:
            return 1.0
        if state.loser is not None or state.to_act is None:
            return 0.0 if state.loser == seat else 1.0
        mover = state.to_act
        if fast and tier(state, mover) != FACE_DOWN:
            cards = fast_play(state, mover, special)
            if cards is not None:
                state = _apply_play(state, mover, cards)
                continue
        move = policy(state, mover, special, rng)
        state = decide_play(state, mover, str(move["type"]), move).state
    return _cards_left_value(state, seat)


def _cards_left_value(state: State, seat: int) -> float:
    def left(s: int) -> int:
        down = sum(c is not None for c in state.face_down[s])
        return len(state.hands[s]) + sum(len(x) for x in state.face_up[s]) + down

    mine = left(seat)
    worst = max(left(s) for s in range(state.players) if s not in state.out)
    return 0.0 if mine == worst else 1.0


def _key(action: Action) -> tuple[Any, ...]:
    """Suits do not matter (R1.2): one candidate per type, rank and count."""
    cards = action.get("cards") or []
    face_up = action.get("face_up_card")
    return (
        action["type"],
        cards[0][0] if cards else None,
        len(cards),
        face_up[0] if face_up else None,
    )


class ShitheadAdapter:
    """Shithead for ``IterationSearch``: only the play phase's own turns are searched."""

    def forced(self, view: View) -> Action | None:
        legal = view["legal_actions"]
        if len(legal) == 1:
            return dict(legal[0])
        if view.get("phase") != PLAY or view.get("to_act", [None])[0] != view["seat"]:
            return _HEURISTIC.choose(view, random.Random(0))
        return None

    def candidates(self, view: View) -> list[Action]:
        first = _HEURISTIC.choose(view, random.Random(0))
        out: dict[tuple[Any, ...], Action] = {_key(first): dict(first)}
        for action in view["legal_actions"]:
            out.setdefault(_key(action), dict(action))
        return list(out.values())

    def sample(self, view: View, rng: random.Random) -> State:
        return sample_world(view, rng)

    def rollout(self, world: State, seat: int, action: Action, rng: random.Random) -> float:
        return rollout(world, seat, action, rng)


class ShitheadSearch(IterationSearch):
    """The ``search`` bot: a blind flip is random, every other own turn is searched."""

    def __init__(self, iterations: int = DEFAULT_ITERATIONS) -> None:
        super().__init__(ShitheadAdapter(), iterations)

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = view["legal_actions"]
        if len(legal) > 1 and all(a["type"] == "flip" for a in legal):
            return dict(rng.choice(legal))
        return super().choose(view, rng)


register_bot("search", game="shithead")(ShitheadSearch)
