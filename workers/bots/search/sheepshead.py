"""The Sheepshead search bot's world sampler and rollout (see ``workers.bots.search``).

What the seat knows (``Knowledge``), from its view (the current hand's tricks, the picker, the
called card, the blitz queens shown, the blind and the burial when it picked) and its redacted
history (the match options, from ``GameStarted``):

- every card played, its own hand, and as the picker the blind and what it buried;
- voids: a seat that did not follow the led suit (trump counting as one suit) holds none of it;
- the partner card (the called card, or the J♦) is never with the picker once the picker
  called it or the teams are announced as not alone; a called jack means the picker holds the
  J♦ (in hand or buried); shown blitz queens stay with the picker until played, in hand or
  buried (the picker may bury any card, R6.2).

A world deals the unseen cards to the places the seat cannot see (the other seats' hands, the
blind before the pick, the burial for the others) respecting those constraints: the most
constrained cards first, each to an allowed place at random by free room; a card whose places
are all full takes one while dealt cards move along a chain of places to one with room (an
augmenting path, so a deal is always found when one exists). A rollout plays the candidate
action, then the hand to its end with the heuristic bot's play (the picking, burying and
calling through its view, the card play on the bare state), on the domain's ``decide``; the
value is the seat's score for the hand.

Searched: the pick/pass decision and every card play; burying, calling and cracking are the
heuristic's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from domain.frozen import copy_with
from domain.games.sheepshead import views
from domain.games.sheepshead.cards import (
    DECK,
    effective_suit,
    sort_hand,
    total_points,
    trick_winner_index,
)
from domain.games.sheepshead.config import layout, read_options
from domain.games.sheepshead.decide import decide
from domain.games.sheepshead.events import HandScored, HandThrownIn, MatchEnded
from domain.games.sheepshead.evolve import evolve
from domain.games.sheepshead.rules import playing_actions, tricks_per_hand
from domain.games.sheepshead.scoring import score_leaster, score_normal
from domain.games.sheepshead.state import PLAYING, Hand, State, Trick
from workers.bots.base import Action, View, register_bot
from workers.bots.search.pimc import IterationSearch, events_of
from workers.bots.sheepshead import SheepsheadHeuristic

DEFAULT_ITERATIONS = 40
_HEURISTIC = SheepsheadHeuristic()
_SEARCHED = frozenset({"pick", "pass", "play"})


@dataclass
class Knowledge:
    """The hidden places, their sizes, and which unseen card may go where."""

    options: dict[str, Any]
    places: dict[str, int] = field(default_factory=dict)  # place -> cards it holds unseen
    unseen: list[str] = field(default_factory=list)
    banned: dict[str, set[str]] = field(default_factory=dict)  # card -> places it cannot be
    must: dict[str, set[str]] = field(default_factory=dict)  # card -> the places it must be in
    known: dict[str, list[str]] = field(default_factory=dict)  # place -> cards known there


def match_options(view: View) -> dict[str, Any]:
    """The match's options, from the history's GameStarted (defaults without a history)."""
    for kind, event in events_of(view):
        if kind == "GameStarted":
            return dict(event["options"])
    return read_options({}, int(view["players"]))


def _played(view: View) -> list[tuple[int, str, str]]:
    """(seat, card, led suit) of every card played this hand, in order."""
    out: list[tuple[int, str, str]] = []
    tricks = [(t["seats"], t["cards"]) for t in view["tricks"]]
    tricks.append(([t["seat"] for t in view["trick"]], [t["card"] for t in view["trick"]]))
    for seats, cards in tricks:
        if cards:
            led = effective_suit(cards[0])
            out += [(int(s), str(c), led) for s, c in zip(seats, cards, strict=True)]
    return out


def knowledge(view: View) -> Knowledge:
    """Read the seat's view and history (see the module docstring)."""
    me = int(view["seat"])
    options = match_options(view)
    k = Knowledge(options=options)
    picker = view.get("picker")
    played = _played(view)
    seen = set(view.get("hand") or ()) | {c for _, c, _ in played}
    blind_size = layout(int(view["players"]), options).blind_size
    for seat in view["seats"]:
        s = int(seat["seat"])
        if s != me and not seat["sitting_out"]:
            k.places[f"hand{s}"] = int(seat["cards"])
    if picker is None:
        k.places["blind"] = blind_size
    elif picker == me:
        seen |= set(view.get("blind") or ()) | set(view.get("buried") or ())
    elif view["phase"] not in ("burying", "picker_preparing"):
        k.places["buried"] = blind_size  # (before the burial the picker's count holds it)
    for s, card, led in played:
        if effective_suit(card) != led:
            for c in DECK:
                if effective_suit(c) == led:
                    k.banned.setdefault(c, set()).add(f"hand{s}")
    if picker is not None and picker != me:
        p8 = {f"hand{picker}", "buried"}
        called = view.get("called")
        partner_card = called or ("JD" if options["partner_rule"] == "jack_of_diamonds" else None)
        if partner_card and (called or view.get("alone") is False):
            k.banned.setdefault(partner_card, set()).update(p8)
        if called and options["partner_rule"] == "jack_of_diamonds":
            k.must["JD"] = p8
        for queen in _shown_queens(view):
            k.must[queen] = p8
    k.unseen = [c for c in DECK if c not in seen]
    return k


def _shown_queens(view: View) -> list[str]:
    pairs = {"black": ("QC", "QS"), "red": ("QH", "QD")}
    return [q for pair in view.get("blitz") or () for q in pairs[pair]]


def allowed_places(k: Knowledge, card: str) -> list[str]:
    """The hidden places an unseen card may be in."""
    bad = k.banned.get(card, ())
    return [p for p in k.must.get(card, k.places.keys()) if p in k.places and p not in bad]


def deal(k: Knowledge, rng: random.Random) -> dict[str, list[str]]:
    """The unseen cards dealt to the hidden places under the constraints (ValueError when no
    deal exists)."""
    allowed = {c: allowed_places(k, c) for c in k.unseen}
    room = dict(k.places)
    out: dict[str, list[str]] = {p: [] for p in room}
    cards = list(k.unseen)
    rng.shuffle(cards)
    cards.sort(key=lambda c: len(allowed[c]))  # the most constrained first
    for card in cards:
        free = [p for p in allowed[card] if room[p] > 0]
        if free:
            place = rng.choices(free, weights=[room[p] for p in free])[0]
            out[place].append(card)
        else:
            place = _make_room(card, allowed, room, out, rng)
        room[place] -= 1
    return out


def _make_room(
    card: str,
    allowed: dict[str, list[str]],
    room: dict[str, int],
    out: dict[str, list[str]],
    rng: random.Random,
) -> str:
    """Deal ``card`` to a full place, moving dealt cards along the shortest chain of places
    that ends in one with room; that place (ValueError when there is no such chain: then the
    cards dealt so far and ``card`` fit in no deal, by the augmenting path theorem)."""
    came: dict[str, tuple[str, str | None]] = {p: (card, None) for p in allowed[card]}
    queue = rng.sample(list(came), len(came))
    for end in queue:  # breadth first: the queue grows while it is read
        if room[end] > 0:
            break
        for moved in rng.sample(out[end], len(out[end])):
            for place in allowed[moved]:
                if place not in came:
                    came[place] = (moved, end)
                    queue.append(place)
    else:
        raise ValueError("no deal of the unseen cards fits what the seat has seen")
    place = end
    while True:
        moved, previous = came[place]
        out[place].append(moved)
        if previous is None:
            return end
        out[previous].remove(moved)
        place = previous


def sample_world(view: View, rng: random.Random) -> State:
    """A full state consistent with the seat's view and history (see the module docstring)."""
    k = knowledge(view)
    dealt = deal(k, rng)
    me, players = int(view["seat"]), int(view["players"])
    hands = tuple(
        tuple(view["hand"]) if s == me else tuple(dealt.get(f"hand{s}", ())) for s in range(players)
    )
    picker = view.get("picker")
    played = _played(view)
    blind: tuple[str, ...]
    buried: tuple[str, ...] = ()
    p8: tuple[str, ...] = ()
    if picker is None:
        blind = tuple(dealt["blind"])
    else:
        if picker == me:
            buried = tuple(view.get("buried") or ())
            blind = tuple(view.get("blind") or ())
        else:
            buried = tuple(dealt.get("buried", ()))
            blind = buried  # the seat never saw the blind; only its size matters now
        p8 = hands[picker] + tuple(c for s, c, _ in played if s == picker) + buried
    called = view.get("called")
    alone = view.get("alone")
    if picker is not None and alone is None and view["phase"] in ("playing", "cracking"):
        alone = called is None and "JD" in p8
    partner_card = None if alone in (None, True) else (called or "JD")
    partner = next((s for s, cards in enumerate(hands) if partner_card in cards), None)
    partner = next((s for s, c, _ in played if c == partner_card), partner)
    blitz = tuple(view.get("blitz") or ())
    doubled = 2 ** len(blitz) * (2 if view.get("cracked_by") is not None else 1)
    doubled *= 2 if view.get("recracked") else 1
    order = [(int(view["dealer"]) + i) % players for i in range(1, players + 1)]
    active = tuple(s for s in order if not view["seats"][s]["sitting_out"])
    hand = Hand(
        deal=int(view["deal_number"]),
        number=int(view["hand_number"]),
        dealer=int(view["dealer"]),
        active=active,
        hands=hands,
        blind=blind,
        phase=view["phase"],
        to_act=me,
        passed=tuple(s for s in active if view["seats"][s]["passed"]),
        picker=picker,
        blitz=blitz,
        shown=tuple(_shown_queens(view)),
        p8=p8,
        buried=buried,
        called=called,
        alone=alone,
        announced=view.get("alone") is not None and picker != me,
        partner=partner,
        partner_card=partner_card,
        revealed=any(seat["partner"] for seat in view["seats"]),
        leaster=view.get("leaster"),
        crackers=tuple(view.get("crackers") or ()),
        cracked_by=view.get("cracked_by"),
        recracked=bool(view.get("recracked")),
        trick_seats=tuple(int(t["seat"]) for t in view["trick"]),
        trick_cards=tuple(str(t["card"]) for t in view["trick"]),
        tricks=tuple(
            Trick(
                number=int(t["number"]),
                seats=tuple(t["seats"]),
                cards=tuple(t["cards"]),
                winner=int(t["winner"]),
                points=int(t["points"]),
            )
            for t in view["tricks"]
        ),
    )
    return State(
        started=True,
        players=players,
        options=k.options,
        totals=tuple(int(t) for t in view["totals"]),
        pending_multiplier=max(1, int(view.get("multiplier") or 1) // doubled),
        hand=hand,
    )


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
