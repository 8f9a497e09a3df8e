"""A golden match: one seed and one portable chooser always give the same hash-chained log.

A change of this hash is a compatibility break (event shapes, deal order or rules), not a test to
update lightly. The chooser draws from the portable SHA-256 stream, never from ``random``.
"""

from __future__ import annotations

from domain.chain import chain
from domain.games.sixty_six import GAME
from domain.protocol import Setup, fold
from domain.shuffle import SeededStream

GOLDEN_EVENTS = 124
GOLDEN_HEAD = "507cc0ee757edb5e2a28db370d0c6cd81d2ff26df7812a4218b7ba4e48b5a709"


def golden_log() -> list[dict[str, object]]:
    stream = SeededStream("golden-66", "chooser")
    log = GAME.start(Setup(players=2, seed="golden-66"))
    state = fold(GAME, log)
    while GAME.outcome(state) is None:
        seat = state.deal.turn
        if state.deal.points(seat) >= 66:
            action = {"type": "declare_out"}
        else:
            legal = [a for a in GAME.legal_actions(state, seat) if a["type"] != "declare_out"]
            action = legal[stream.below(len(legal))]
        events = GAME.decide(state, seat, action)
        state = fold(GAME, events, state)
        log += events
    return [GAME.codec.encode(e) for e in log]


def test_the_golden_match_log_is_stable() -> None:
    log = golden_log()
    assert (len(log), chain(log)[-1]) == (GOLDEN_EVENTS, GOLDEN_HEAD)
