"""A golden match: the same seed and the same bot play always give the same hash-chained log.

A change of this hash is a compatibility break (event shapes, deal order or rules), not a test to
update lightly.
"""

from __future__ import annotations

import random

from domain.chain import chain
from domain.games.sixty_six import GAME
from domain.protocol import Setup, fold
from workers.bots.sixty_six import WAIT, HeuristicBot

GOLDEN_EVENTS = 416
GOLDEN_HEAD = "72627402432023e7bdabcc4cb1e13e7af6814b5eb814482d65521e9739da683f"


def golden_log() -> list[dict[str, object]]:
    bot, rnd = HeuristicBot(), random.Random("golden")
    log = GAME.start(Setup(players=2, seed="golden-66"))
    state = fold(GAME, log)
    while GAME.outcome(state) is None:
        for seat in (1 - state.deal.turn, state.deal.turn):
            if seat not in GAME.seats_to_act(state):
                continue
            action = bot.choose(GAME.view(state, seat), rnd)
            if action != WAIT:
                events = GAME.decide(state, seat, action)
                state = fold(GAME, events, state)
                log += events
                break
    return [GAME.codec.encode(e) for e in log]


def test_the_golden_match_log_is_stable() -> None:
    log = golden_log()
    assert (len(log), chain(log)[-1]) == (GOLDEN_EVENTS, GOLDEN_HEAD)
