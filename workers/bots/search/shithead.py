"""The Shithead search bot's world sampler and rollout (see ``workers.bots.search``).

What the seat knows, read from its view and its redacted history (``Knowledge``): its hand, every
face-up card, the pile, every card it has ever seen (dealt to it, drawn, played, flipped,
swapped, picked up) and, per other seat, the cards known to be in that seat's hand: the pile it
picked up (with the face-up cards taken along), the face-up card it swapped into its hand in
pre-play, a flipped or stock card it had to take. Those stay known until the seat plays them.

A world deals the cards the seat has never seen at random to the places it cannot see: the
other seats' hands (their unknown part), every face-down slot still covered (its own too) and
the stock. A rollout plays the chosen action, then the game on with the heuristic bot's play for
every seat (the arena's opponents), straight on the domain's ``decide_play`` (no JSON), until
the seat is out (a success) or the shithead (a failure).

Pre-play (swaps) and blind flips are not searched: the heuristic's swaps, a random slot.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from domain.cards import deck_52, deck_54, rank
from domain.games.shithead.events import CardsPlayed
from domain.games.shithead.options import Rules, rules_for
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
from domain.games.shithead.state import PLAY, Info, State
from workers.bots.base import Action, View, register_bot
from workers.bots.search.pimc import IterationSearch, events_of
from workers.bots.shithead import _VALUE, BIG_PILE, CHEAP_PILE, ShitheadHeuristic, specials
from workers.bots.shithead import _play as heuristic_play

DEFAULT_ITERATIONS = 16
ROLLOUT_ACTIONS = 400  # a rollout longer than this is scored by the cards left
_HEURISTIC = ShitheadHeuristic()


@dataclass
class Knowledge:
    """What one seat knows of the cards (see the module docstring)."""

    seen: set[str] = field(default_factory=set)
    known: list[set[str]] = field(default_factory=list)
    lead_count: int = 0


def knowledge(view: View) -> Knowledge:
    """Read the seat's view and redacted history."""
    me = int(view["seat"])
    players = len(view["seats"])
    k = Knowledge(seen=set(view.get("hand") or ()), known=[set() for _ in range(players)])
    pile = 0
    for kind, e in events_of(view):
        if kind == "CardsDealt":
            mine = e["hands"][me]
            k.seen.update(mine if isinstance(mine, list) else ())
            k.seen.update(c for cards in e["face_up"] for c in cards)
        elif kind == "FaceUpSwapped":
            k.seen.update((e["hand_card"], e["face_up_card"]))
            k.known[e["seat"]].discard(e["hand_card"])
            k.known[e["seat"]].add(e["face_up_card"])
        elif kind == "CardStacked":
            k.seen.add(e["card"])
            k.known[e["seat"]].discard(e["card"])
        elif kind == "FaceUpChosen":
            for stack in e["slots"]:
                k.seen.update(stack)
                k.known[e["seat"]].difference_update(stack)
        elif kind == "CardsPlayed":
            k.seen.update(e["cards"])
            k.known[e["seat"]].difference_update(e["cards"])
            k.lead_count = len(e["cards"]) if pile == 0 else k.lead_count
            pile += len(e["cards"])
        elif kind == "CardsDrawn":
            k.seen.update(e.get("cards") or ())
        elif kind == "PilePickedUp":
            taken = [*e["cards"], *e["face_up_cards"]]
            k.seen.update(taken)
            k.known[e["seat"]].update(taken)
            pile, k.lead_count = 0, 0
        elif kind == "PileBurned":
            pile, k.lead_count = 0, 0
        elif kind in ("FaceDownFlipped", "StockPlayed"):
            k.seen.add(e["card"])
            if e["legal"]:
                k.lead_count = 1 if pile == 0 else k.lead_count
                pile += 1
            else:
                k.known[e["seat"]].add(e["card"])
    k.known[me] = set()
    return k


def deck(rules: Rules) -> tuple[str, ...]:
    """The cards of the deal."""
    return tuple(deck_54() if rules.jokers_in_deck else deck_52())


def unseen_places(view: View, k: Knowledge) -> tuple[list[int], list[list[int]], int]:
    """How many unseen cards each other seat's hand holds, each seat's covered face-down
    slots, and the stock's size."""
    me = int(view["seat"])
    hands = [
        0 if s == me else int(seat["hand_count"]) - len(k.known[s])
        for s, seat in enumerate(view["seats"])
    ]
    slots = [list(seat["face_down_slots"]) for seat in view["seats"]]
    return hands, slots, int(view["stock_count"])


def sample_world(view: View, rng: random.Random) -> State:
    """A full state consistent with the seat's view and history (see the module docstring)."""
    me = int(view["seat"])
    options = dict(view["options"])
    players = len(view["seats"])
    rules = rules_for(options, players)
    k = knowledge(view)
    pool = [c for c in deck(rules) if c not in k.seen]
    rng.shuffle(pool)
    hand_need, slots, stock_size = unseen_places(view, k)
    if len(pool) != sum(hand_need) + sum(len(s) for s in slots) + stock_size:
        raise ValueError("the seat's knowledge does not add up to the table it sees")
    at = 0
    hands: list[tuple[str, ...]] = []
    for s in range(players):
        if s == me:
            hands.append(tuple(view["hand"] or ()))
            continue
        take = hand_need[s]
        hands.append((*sorted(k.known[s]), *pool[at : at + take]))
        at += take
    face_down: list[tuple[str | None, ...]] = []
    for s in range(players):
        row: list[str | None] = [None] * max([rules.cards_per_row, *(i + 1 for i in slots[s])])
        for i in slots[s]:
            row[i] = pool[at]
            at += 1
        face_down.append(tuple(row))
    stock = tuple(pool[at : at + stock_size])
    seats = view["seats"]
    out = tuple(
        s["seat"] for s in sorted((s for s in seats if s["out"]), key=lambda s: s["position"])
    )
    face_up = tuple(tuple(tuple(stack) for stack in s["face_up"]) for s in seats)
    shown = set(view["pile"]).union(*(c for up in face_up for c in up), *k.known, hands[me])
    start = view.get("starter")
    info = Info(
        players=players,
        dealer=int(view["dealer"]),
        options=options,
        rules=rules,
        starter=None if not start else (int(start["seat"]), str(start["rank"]), str(start["tier"])),
        flusher=view.get("flusher"),
    )
    return State(
        info=info,
        phase=PLAY,
        hands=tuple(hands),
        face_up=face_up,
        face_down=tuple(face_down),
        stock=stock,
        pile=tuple(view["pile"]),
        burned=tuple(sorted(k.seen - shown)),  # every other card seen went to the pile
        last_revealed=view.get("last_revealed"),
        ready=(True,) * players,
        chosen=(True,) * players,
        to_act=int(view["to_act"][0]),
        direction=int(view["direction"]),
        out=out,
        lead_count=k.lead_count,
        actions=int(view.get("actions") or 0),
    )


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
