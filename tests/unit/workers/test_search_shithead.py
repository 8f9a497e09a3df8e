"""The Shithead search bot samples worlds from the seat's view and redacted history only."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from itertools import islice
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games.shithead.state import State
from domain.registry import get_game
from tests.support.decisions import as_json, comparable, decision_at, decisions, played_by
from workers.bots.base import get_bot
from workers.bots.search.shithead import ShitheadSearch, fast_play, sample_world
from workers.bots.shithead import specials

GAME = get_game("shithead")


def _decisions(
    seed: str, players: int, options: dict[str, Any] | None = None, bots: str = "heuristic"
) -> Iterator[tuple[State, int, dict[str, Any]]]:
    """(real state, seat, the seat's view with its redacted history) at every play decision."""
    return decisions(GAME, lambda state, view: state.phase == "play", seed, players, options, bots)


def _where(state: State) -> dict[str, tuple[str, int]]:
    """Every card's place: (zone, seat), seat -1 for the shared zones."""
    places: dict[str, tuple[str, int]] = {}
    for s in range(state.players):
        places.update((c, ("hand", s)) for c in state.hands[s])
        places.update((c, ("up", s)) for stack in state.face_up[s] for c in stack)
        places.update((c, ("down", s)) for c in state.face_down[s] if c is not None)
    for zone in ("stock", "pile", "burned"):
        places.update((c, (zone, -1)) for c in getattr(state, zone))
    return places


def _seen(view: dict[str, Any]) -> set[str]:
    """Every card named anywhere in the seat's view or history (what the seat has seen)."""
    text = json.dumps([view["hand"], view["seats"], view["pile"], view["history"]])
    return {card for card in _DECK if f'"{card}"' in text}


_DECK = [r + s for r in "23456789TJQKA" for s in "CDHS"] + ["RJ", "BJ"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.text("abcdefgh", min_size=1, max_size=6),
    players=st.integers(2, 5),
    pickup=st.sampled_from(["one", "none", "all"]),
    bots=st.sampled_from(["heuristic", "random"]),
    pick=st.integers(0, 400),
    world_seed=st.integers(0, 2**32),
)
def test_a_sampled_world_never_gives_a_seat_a_card_it_cannot_have(
    seed: str, players: int, pickup: str, bots: str, pick: int, world_seed: int
) -> None:
    """Every card the seat has seen lies where it really lies; every other card lies in a place
    the seat cannot see (another seat's hand, a face-down slot, the stock); nothing else moves."""
    options = {"face_up_pickup": pickup, "action_limit": 400}
    decision = decision_at(_decisions(seed, players, options, bots), pick)
    if decision is None:
        return
    real, seat, view = decision
    world = sample_world(view, random.Random(world_seed))
    truth, sampled = _where(real), _where(world)
    assert sorted(sampled) == sorted(truth)  # the same cards, each once
    seen = _seen(view)
    for card, place in sampled.items():
        if card in seen:
            assert place == truth[card], card
        else:
            assert place[0] in ("hand", "down", "stock") and place != ("hand", seat), card
            assert truth[card][0] in ("hand", "down", "stock"), card
    for s in range(players):
        assert len(world.hands[s]) == len(real.hands[s])
        assert [c is None for c in world.face_down[s]] == [c is None for c in real.face_down[s]]
    assert len(world.stock) == len(real.stock)


def test_every_sampled_world_looks_to_the_seat_exactly_like_the_real_game() -> None:
    rng = random.Random(3)
    checked = 0
    for seed, players in (("v1", 4), ("v2", 3), ("v3", 5)):
        for _, seat, view in _decisions(seed, players):
            world = sample_world(view, rng)
            assert comparable(as_json(GAME.view(world, seat))) == comparable(view)
            checked += 1
    assert checked > 100


def test_hidden_cards_are_sampled_not_read_from_the_state() -> None:
    rng = random.Random(4)
    _, _, view = next(iter(_decisions("v4", 4)))
    stocks = {sample_world(view, rng).stock for _ in range(10)}
    assert len(stocks) > 1


def test_the_search_bot_plays_a_legal_action_at_every_decision_of_a_whole_game() -> None:
    bot = get_bot("search", "shithead")
    assert isinstance(bot, ShitheadSearch)
    bot.iterations = 2
    made = played_by(GAME, bot, "legal", 4)
    assert all(action in view["legal_actions"] for _, view, action in made)
    assert sum(state.phase == "play" for state, _, _ in made) > 5  # searched, not the preplay


def test_the_bot_decides_from_the_view_alone() -> None:
    """The same view and history give the same choice whatever the hidden cards really are:
    the real game and a sampled world (other hidden cards, the same view) get the same answer."""
    bot = ShitheadSearch(iterations=3)
    compared = 0
    for real, seat, view in islice(_decisions("v5", 4), 40):
        world = sample_world(view, random.Random(7))
        assert _where(world) != _where(real) or not real.stock
        other = as_json(GAME.view(world, seat))
        other["history"] = view["history"]
        assert bot.choose(other, random.Random(2)) == bot.choose(view, random.Random(2))
        compared += 1
    assert compared == 40


def test_the_fast_rollout_play_is_the_heuristic_bot_s_choice() -> None:
    """``fast_play`` (ranks and counts on the bare state) chooses what the heuristic bot chooses
    from the view: the same rank and count, or None where the heuristic picks the pile up."""
    heuristic = get_bot("heuristic", "shithead")
    compared = 0
    for seed, players in (("f1", 4), ("f2", 3), ("f3", 5), ("f4", 2)):
        for real, seat, view in _decisions(seed, players):
            if view["legal_actions"][0]["type"] == "flip":
                continue
            special = specials(view["options"])
            want = heuristic.choose(view, random.Random(0))
            got = fast_play(real, seat, special)
            if want["type"] == "pickup":
                assert got is None
            else:
                assert got is not None
                assert (got[0][0], len(got)) == (want["cards"][0][0], len(want["cards"]))
            compared += 1
    assert compared > 200
