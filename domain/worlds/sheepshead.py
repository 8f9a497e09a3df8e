"""The Sheepshead sampler: a world consistent with one seat's view and history.

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
augmenting path, so a deal is always found when one exists).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.games.sheepshead.cards import DECK, effective_suit
from domain.games.sheepshead.config import layout, read_options
from domain.games.sheepshead.state import Hand, State, Trick
from domain.worlds import Draws, View, events_of


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


def deal(k: Knowledge, rng: Draws) -> dict[str, list[str]]:
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
    rng: Draws,
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


def sample_world(view: View, rng: Draws) -> State:
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
