"""A bot that sends its own entropy (an HTTP bot account's seat, issue 30): the seat is the
bot's from creation but its entropy is awaited (``lifecycle.EntropyAwaited`` with a fallback
fixed then); the deal waits for the bot's ``SeatFilled`` (``source: "client"``), or for the
idle rule to fill the seat with the fallback (``source: "server"``). Nobody else fills it."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import InvalidSetup, NotYourTurn
from domain.fairness import deal_seed
from domain.idle import SeatIdled
from domain.lifecycle import (
    EntropyAwaited,
    EntropyNotAwaited,
    EntropyPosted,
    Keys,
    SeatAlreadyFilled,
    SeatFilled,
    lifecycle,
)
from domain.protocol import fold
from domain.registry import get_game

SECRET = "11" * 32
PERSON, BOT_OWN, FALLBACK, BUILT_IN = "22" * 32, "33" * 32, "44" * 32, "55" * 32
GAME = lifecycle(get_game("shithead"))
KEYS = Keys(secret=SECRET)


def _created(**options: Any) -> Any:
    """Seat 0 a person's, seat 1 an HTTP bot's (its entropy awaited), seat 2 a built-in bot."""
    events = GAME.create(players=3, options=options, dealer=None, keys=KEYS, bots=(1, 2),
                         filled=[(2, BUILT_IN)], awaiting=[(1, FALLBACK)])  # fmt: skip
    return events, fold(GAME, events)


def test_the_creation_batch_publishes_the_awaited_seat_with_its_fallback() -> None:
    events, state = _created()
    assert EntropyAwaited(seat=1, fallback=FALLBACK) in events
    assert SeatFilled(seat=2, entropy=BUILT_IN, source="server") in events
    assert state.awaiting_entropy == (1,) and not state.dealt
    facts = GAME.view(state, None)
    assert facts["open_seats"] == [0] and facts["awaiting_entropy"] == [1]


def test_the_deal_waits_for_the_bot_s_own_entropy_and_uses_it() -> None:
    _, state = _created()
    state = fold(GAME, GAME.join(state, 0, PERSON, KEYS), state)
    assert not state.dealt, "every person sat: the deal still waits for the bot's entropy"
    events = GAME.contribute(state, 1, BOT_OWN, KEYS)
    assert events[0] == SeatFilled(seat=1, entropy=BOT_OWN, source="client")
    after = fold(GAME, events, state)
    assert after.dealt and after.posted == (1,) and after.awaiting == ()
    assert GAME.seed(after, KEYS) == deal_seed(SECRET, [PERSON, BOT_OWN, BUILT_IN])
    assert "awaiting_entropy" not in GAME.view(after, 0)


def test_the_bot_may_send_first_and_the_last_person_deals() -> None:
    _, state = _created()
    state = fold(GAME, GAME.contribute(state, 1, BOT_OWN, KEYS), state)
    assert not state.dealt
    state = fold(GAME, GAME.join(state, 0, PERSON, KEYS), state)
    assert state.dealt and GAME.seed(state, KEYS) == deal_seed(SECRET,
                                                                [PERSON, BOT_OWN, BUILT_IN])


def test_nobody_else_fills_an_awaited_seat_and_only_it_takes_a_bot_s_entropy() -> None:
    _, state = _created()
    with pytest.raises(SeatAlreadyFilled):  # a person's join, or a server claiming one
        GAME.join(state, 1, PERSON, KEYS, source="server")
    for seat in (0, 2):  # a person's seat, a built-in bot's
        with pytest.raises(EntropyNotAwaited):
            GAME.contribute(state, seat, BOT_OWN, KEYS)
    state = fold(GAME, GAME.contribute(state, 1, BOT_OWN, KEYS), state)
    with pytest.raises(EntropyPosted):
        GAME.contribute(state, 1, FALLBACK, KEYS)
    with pytest.raises(EntropyNotAwaited):  # the same again: the service answers it, not a fold
        GAME.contribute(state, 1, BOT_OWN, KEYS)


def test_an_idle_bot_s_seat_is_filled_with_the_fallback_fixed_at_creation() -> None:
    _, state = _created()
    state = fold(GAME, GAME.join(state, 0, PERSON, KEYS), state)
    assert GAME.idle_seats(state) == (1,)
    events = GAME.idle(state, 1, KEYS, 5)  # (the version seeds a default move: none here)
    assert events[:2] == [SeatIdled(seat=1), SeatFilled(seat=1, entropy=FALLBACK, source="server")]
    after = fold(GAME, events, state)
    assert after.dealt and after.posted == ()
    assert GAME.seed(after, KEYS) == deal_seed(SECRET, [PERSON, FALLBACK, BUILT_IN])
    with pytest.raises(EntropyNotAwaited):  # too late: the seat was filled without it
        GAME.contribute(after, 1, BOT_OWN, KEYS)


def test_before_the_deal_only_an_awaited_bot_seat_is_idle() -> None:
    _, state = _created()
    with pytest.raises(NotYourTurn):
        GAME.idle(state, 0, KEYS, 4)  # a person's open seat: the game waits (and expires)
    plain = fold(GAME, GAME.create(players=2, options={}, dealer=None, keys=KEYS))
    assert GAME.idle_seats(plain) == ()


def test_an_awaited_seat_is_a_bot_s_seat_and_awaited_once() -> None:
    with pytest.raises(InvalidSetup):  # not among the bots
        GAME.create(players=3, options={}, dealer=None, keys=KEYS, bots=(2,),
                    filled=[(2, BUILT_IN)], awaiting=[(1, FALLBACK)])  # fmt: skip
    with pytest.raises(InvalidSetup):  # filled and awaited
        GAME.create(players=3, options={}, dealer=None, keys=KEYS, bots=(1,),
                    filled=[(1, BUILT_IN)], awaiting=[(1, FALLBACK)])  # fmt: skip
    with pytest.raises(InvalidSetup):  # a fallback of 32 bytes, as any entropy
        GAME.create(players=3, options={}, dealer=None, keys=KEYS, bots=(1,),
                    awaiting=[(1, "ab")])  # fmt: skip

