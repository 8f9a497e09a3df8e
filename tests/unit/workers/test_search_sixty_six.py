"""The Sixty-Six search bot rebuilds worlds from the seat's view and redacted history only."""

from __future__ import annotations

import random
from itertools import islice
from typing import Any

from domain.registry import get_game
from tests.support.decisions import as_json, comparable, decisions
from workers.bots.base import get_bot
from workers.bots.search.sixty_six import SixtySixSearch, sample_world

GAME = get_game("sixty_six")


def _decisions(seed: str) -> Any:
    """(real state, seat, the seat's view with its redacted history) at every bot decision."""
    return decisions(GAME, lambda state, view: True, seed, 2)


def test_every_sampled_world_looks_to_the_seat_exactly_like_the_real_game() -> None:
    rng = random.Random(3)
    checked = 0
    for seed in ("w1", "w2", "w3"):
        for _, seat, view in _decisions(seed):
            world = sample_world(view, rng)
            assert comparable(as_json(GAME.view(world, seat))) == comparable(view)
            checked += 1
    assert checked > 100


def test_worlds_deal_only_unseen_cards_to_the_opponent_and_the_stock() -> None:
    rng = random.Random(5)
    for state, seat, view in _decisions("w4"):
        starts = [i for i, e in enumerate(view["history"]) if e["type"].endswith("DealStarted")]
        deal_events = view["history"][starts[-1] :]
        played = {e["card"] for e in deal_events if e["type"].endswith("CardPlayed")}
        hands = set()
        for _ in range(5):
            world = sample_world(view, rng)
            deal = world.deal
            opponent = set(deal.hands[1 - seat])
            assert not opponent & (set(view["hand"]) | played)
            assert set(view["opponent_known_cards"]) <= opponent
            assert not set(deal.stock) & (opponent | set(view["hand"]) | played)
            hands.add(frozenset(opponent))
        real = state.deal
        if real.stock_open and len(real.stock) > 2:
            assert len(hands) > 1  # the hidden cards are sampled, not read from the state


def test_the_search_bot_answers_a_legal_action_within_its_budget_of_worlds() -> None:
    bot = get_bot("search", "sixty_six")
    assert isinstance(bot, SixtySixSearch)
    bot.worlds = 4
    for _, _, view in islice(_decisions("w5"), 20):
        action = bot.choose(view, random.Random(1))
        assert action in view["legal_actions"] or action == {"type": "wait"}
