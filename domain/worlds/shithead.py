"""The Shithead sampler: a world consistent with one seat's view and history.

What the seat knows, read from its view and its redacted history (``Knowledge``): its hand, every
face-up card, the pile, every card it has ever seen (dealt to it, drawn, played, flipped,
swapped, picked up) and, per other seat, the cards known to be in that seat's hand: the pile it
picked up (with the face-up cards taken along), the face-up card it swapped into its hand in
pre-play, a flipped or stock card it had to take. Those stay known until the seat plays them.

A world deals the cards the seat has never seen at random to the places it cannot see: the
other seats' hands (their unknown part), every face-down slot still covered (its own too) and
the stock. Only the play phase is sampled (pre-play is not).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.cards import deck_52, deck_54
from domain.games.shithead.options import Rules, rules_for
from domain.games.shithead.state import PLAY, Info, State
from domain.worlds import Draws, View, events_of


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


def sample_world(view: View, rng: Draws) -> State:
    """A full state consistent with the seat's view and history (see the module docstring)."""
    if view.get("phase") != PLAY:
        raise ValueError(f"only the play phase is sampled, not {view.get('phase')!r}")
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
