"""The Sheepshead search bot samples worlds from the seat's view and redacted history only."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import islice
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from domain.games.sheepshead.cards import DECK, effective_suit
from domain.games.sheepshead.events import HandScored
from domain.games.sheepshead.state import State
from domain.registry import get_game
from domain.worlds.sheepshead import Knowledge, allowed_places, deal
from tests.support.decisions import as_json, comparable, decision_at, decisions, played_by
from workers.bots.base import get_bot
from workers.bots.search.sheepshead import SheepsheadSearch, play_out, policy, sample_world

GAME = get_game("sheepshead")


def _decisions(
    seed: str, players: int, options: dict[str, Any] | None = None, bots: str = "heuristic"
) -> Iterator[tuple[State, int, dict[str, Any]]]:
    """(real state, seat, the seat's view with its redacted history) at every pick or play."""
    asked = lambda state, view: view["phase"] in ("picking", "playing")  # noqa: E731
    return decisions(GAME, asked, seed, players, options, bots)


def _where(state: State) -> dict[str, str]:
    """Every card still unplayed: in which seat's hand, the blind or the burial."""
    hand = state.hand
    assert hand is not None
    places = {c: f"hand{s}" for s, cards in enumerate(hand.hands) for c in cards}
    if hand.picker is None:
        places.update((c, "blind") for c in hand.blind)
    places.update((c, "buried") for c in hand.buried)
    return places


def _voids(view: dict[str, Any]) -> set[tuple[int, str]]:
    """(seat, suit) for every seat that did not follow a led suit this hand (an oracle that
    reads the view's tricks independently of the bot)."""
    out = set()
    tricks = [list(zip(t["seats"], t["cards"], strict=True)) for t in view["tricks"]]
    tricks.append([(t["seat"], t["card"]) for t in view["trick"]])
    for trick in tricks:
        if trick:
            led = effective_suit(trick[0][1])
            out |= {(s, led) for s, c in trick[1:] if effective_suit(c) != led}
    return out


OPTION_SETS = [
    {},
    {"partner_rule": "called_ace"},
    {"jd_call_up": "never"},
    {"allow_voluntary_alone": True, "blitzing": True},
    {"cracking": True, "no_pick": "doubler"},
]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# a blitzing picker buried a shown queen, then did not follow trump (see the test below)
@example(seed="fa", players=3, options=OPTION_SETS[3], bots="random", pick=57, world_seed=0)
@given(
    seed=st.text("abcdefgh", min_size=1, max_size=6),
    players=st.integers(3, 7),
    options=st.sampled_from(OPTION_SETS),
    bots=st.sampled_from(["heuristic", "random"]),
    pick=st.integers(0, 150),
    world_seed=st.integers(0, 2**32),
)
def test_a_sampled_world_never_gives_a_seat_a_card_it_cannot_have(
    seed: str,
    players: int,
    options: dict[str, Any],
    bots: str,
    pick: int,
    world_seed: int,
) -> None:
    """The seat's own cards, the tricks, the picker's blind and burial stay as they are; no
    unseen card goes to a seat void in its suit, the partner card never goes to the picker once
    the picker called it, and every hidden place keeps its size."""
    real, seat, view = decision_at(_decisions(seed, players, {**options, "rounds": 2}, bots), pick)
    world = sample_world(view, random.Random(world_seed))
    truth, sampled = _where(real), _where(world)
    assert sorted(sampled) == sorted(truth)  # the same cards, each once
    for card in view["hand"]:
        assert sampled[card] == truth[card] == f"hand{seat}"
    hand = real.hand
    assert hand is not None and world.hand is not None
    if hand.picker == seat:
        assert world.hand.buried == hand.buried
    voids = _voids(view)
    for card, place in sampled.items():
        if place.startswith("hand"):
            assert (int(place[4:]), effective_suit(card)) not in voids, (card, place)
    called = view.get("called")
    if called and hand.picker is not None and hand.picker != seat and called in sampled:
        assert sampled[called] not in (f"hand{hand.picker}", "buried")
    assert [len(h) for h in world.hand.hands] == [len(h) for h in hand.hands]
    assert world.hand.trick_cards == hand.trick_cards and world.hand.tricks == hand.tricks


def test_a_shown_blitz_queen_the_picker_buried_is_dealt_to_the_burial() -> None:
    """Seat 1 picked blitzing QC QS and buried QS; its AC on a trump lead shows it holds no
    trump, so the shown QS can only be in the burial."""
    options = {**OPTION_SETS[3], "rounds": 2}
    real, seat, view = decision_at(_decisions("fa", 3, options, "random"), 57)
    assert (view["picker"], view["blitz"], seat) == (1, ["black"], 2)
    assert real.hand is not None and "QS" in real.hand.buried
    assert [(t["seat"], t["card"]) for t in view["trick"]] == [(0, "AD"), (1, "AC")]
    for world_seed in range(10):
        assert _where(sample_world(view, random.Random(world_seed)))["QS"] == "buried"


@st.composite
def _knowledge_of_a_deal(draw: st.DrawFn) -> Knowledge:
    """Knowledge that some deal fits: a deal, then bans and musts that it keeps."""
    names = [f"hand{s}" for s in range(draw(st.integers(1, 7)))] + ["buried"]
    cards = draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=28, unique=True))
    truth = {c: draw(st.sampled_from(names)) for c in cards}
    k = Knowledge(options={}, unseen=cards)
    k.places = {p: sum(1 for c in cards if truth[c] == p) for p in names}
    for card in cards:
        others = [p for p in names if p != truth[card]]
        k.banned[card] = set(draw(st.lists(st.sampled_from(others))))
        if draw(st.booleans()):
            k.must[card] = {truth[card], *draw(st.lists(st.sampled_from(names)))}
    return k


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(k=_knowledge_of_a_deal(), world_seed=st.integers(0, 2**32))
def test_the_sampler_finds_a_deal_whenever_one_fits(k: Knowledge, world_seed: int) -> None:
    dealt = deal(k, random.Random(world_seed))
    assert {p: len(cards) for p, cards in dealt.items()} == k.places
    assert sorted(c for cards in dealt.values() for c in cards) == sorted(k.unseen)
    for place, cards in dealt.items():
        assert all(place in allowed_places(k, c) for c in cards)


def test_the_sampler_finds_the_deal_a_random_greedy_pass_almost_never_finds() -> None:
    """Six cards fit only hand0 (their other places are full); fourteen more fit hand0 or
    hand1. A pass that deals the fourteen first, by room, leaves hand0's six places to the
    six in 1 of C(20, 6) = 38,760 passes."""
    six = ["QC", "QS", "QH", "QD", "JC", "JS"]
    fourteen = ["7C", "8C", "9C", "TC", "KC", "AC", "7S", "8S", "9S", "TS", "KS", "AS", "7H", "8H"]
    k = Knowledge(options={}, places={"hand0": 6, "hand1": 14, "hand2": 1, "buried": 1})
    k.unseen = [*six, *fourteen, "AH", "TH"]
    k.must = {"AH": {"hand2"}, "TH": {"buried"}} | {c: {"hand0", "hand1"} for c in fourteen}
    k.banned = {c: {"hand1"} for c in six}
    for world_seed in range(20):
        assert sorted(deal(k, random.Random(world_seed))["hand0"]) == sorted(six)


def test_the_sampler_says_so_when_no_deal_fits() -> None:
    k = Knowledge(options={}, places={"hand0": 1, "hand1": 2}, unseen=["AC", "TC", "KC"])
    k.banned = {"AC": {"hand1"}, "TC": {"hand1"}}  # two cards for hand0's one place
    with pytest.raises(ValueError, match="no deal"):
        deal(k, random.Random(0))


def test_every_sampled_world_looks_to_the_seat_like_the_real_game() -> None:
    rng = random.Random(3)
    checked = 0
    for seed, players in (("v1", 5), ("v2", 3), ("v3", 6)):
        for _, seat, view in _decisions(seed, players, {"rounds": 2}):
            world = sample_world(view, rng)
            seen = comparable(as_json(GAME.view(world, seat)))
            want = comparable(view)
            for key in ("last_hand", "outcome"):  # the past hands are not rebuilt
                seen.pop(key), want.pop(key)
            assert seen == want
            checked += 1
    assert checked > 100


def test_the_search_bot_plays_a_legal_action_at_every_decision_of_a_whole_match() -> None:
    bot = get_bot("search", "sheepshead")
    assert isinstance(bot, SheepsheadSearch)
    bot.iterations = 2
    made = played_by(GAME, bot, "legal", 5)
    assert all(action in view["legal_actions"] for _, view, action in made)
    assert len(made) > 20


def test_the_bot_decides_from_the_view_alone() -> None:
    """The same view and history give the same choice whatever the hidden cards really are."""
    bot = SheepsheadSearch(iterations=3)
    for real, seat, view in islice(_decisions("v5", 5), 30):
        world = sample_world(view, random.Random(7))
        assert _where(world) != _where(real) or view["phase"] == "playing"
        other = as_json(GAME.view(world, seat))
        other["history"] = view["history"]
        assert bot.choose(other, random.Random(2)) == bot.choose(view, random.Random(2))


@pytest.mark.slow
def test_the_called_card_never_goes_to_the_picker_and_a_called_jack_leaves_the_jd_with_it() -> None:
    rng = random.Random(11)
    checked = 0
    for seed in ("c1", "c2", "c3", "c4", "c5", "c6"):
        for options in ({"partner_rule": "called_ace"}, {}):
            for real, seat, view in _decisions(seed, 5, options):
                hand = real.hand
                assert hand is not None
                called = view.get("called")
                if not called or hand.picker == seat or hand.revealed or view["phase"] != "playing":
                    continue
                p8 = (f"hand{hand.picker}", "buried")
                for _ in range(20):
                    sampled = _where(sample_world(view, rng))
                    assert sampled.get(called, "played") not in p8
                    if called[0] == "J" and "JD" in sampled:
                        assert sampled["JD"] in p8
                checked += 1
    assert checked > 10


def test_the_fast_play_out_scores_what_the_engine_scores_with_the_same_play() -> None:
    """``play_out`` (plain lists) ends a hand exactly as the domain's decide/evolve does when
    every seat plays the heuristic's card."""
    compared = 0
    for seed, players in (("p1", 5), ("p2", 3), ("p3", 6), ("p4", 7)):
        for _, seat, view in _decisions(seed, players, {"rounds": 2}):
            if view["phase"] != "playing":
                continue
            world = sample_world(view, random.Random(compared))
            assert play_out(world, seat) == _engine_play_out(world, seat)
            compared += 1
    assert compared > 100


def _engine_play_out(state: State, seat: int) -> float:
    rng = random.Random(0)
    while True:
        hand = state.hand
        assert hand is not None and hand.to_act is not None
        for event in GAME.decide(state, hand.to_act, policy(state, hand.to_act, rng)):
            if isinstance(event, HandScored):
                return float(event.scores[seat])
            state = GAME.evolve(state, event)
