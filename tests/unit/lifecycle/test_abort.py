"""Abort: before the deal one seated person ends the game; after it every person must agree
(bots are never asked). Nobody wins an aborted game."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import GameOver, IllegalAction, InvalidAction
from domain.lifecycle import GameCreated, Keys, lifecycle
from domain.protocol import fold
from domain.registry import get_game

SECRET = "11" * 32
ENTROPY = ["22" * 32, "33" * 32, "44" * 32]
GAME = lifecycle(get_game("shithead"))
KEYS = Keys(secret=SECRET)


def _table(bots: tuple[int, ...], joined: tuple[int, ...]) -> Any:
    """Three seats: ``bots`` filled at creation, then the people of ``joined``."""
    state = fold(GAME, GAME.create(players=3, options={}, dealer=None, keys=KEYS, bots=bots,
                                   filled=[(s, ENTROPY[s]) for s in bots]))  # fmt: skip
    for seat in joined:
        state = fold(GAME, GAME.join(state, seat, ENTROPY[seat], KEYS), state)
    return state


def _names(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]


def test_before_the_deal_one_seated_person_aborts_and_nobody_wins() -> None:
    waiting = _table(bots=(2,), joined=(0,))
    assert GAME.view(waiting, 0)["may_send"] == ["abort", "leave"]
    events = GAME.act(waiting, 0, {"type": "abort"}, KEYS)
    assert _names(events) == ["GameAborted", "SecretRevealed"]
    over = fold(GAME, events, waiting)
    assert GAME.outcome(over) == {"reason": "aborted", "agreed": [0], "winners": [],
                                  "losers": []}  # fmt: skip
    assert GAME.view(over, 0)["may_send"] == []
    with pytest.raises(GameOver):
        GAME.act(over, 0, {"type": "abort"}, KEYS)


def test_a_bot_or_an_empty_seat_cannot_abort() -> None:
    waiting = _table(bots=(2,), joined=(0,))
    for seat in (1, 2):
        with pytest.raises(IllegalAction) as refused:
            GAME.act(waiting, seat, {"type": "abort"}, KEYS)
        assert refused.value.reason == "abort_not_a_person"
    assert GAME.view(waiting, 2)["may_send"] == []


def test_after_the_deal_every_person_must_agree() -> None:
    dealt = _table(bots=(2,), joined=(0, 1))
    assert GAME.view(dealt, 1)["may_send"] == ["resign", "abort", "leave"]
    first = GAME.act(dealt, 1, {"type": "abort"}, KEYS)
    assert _names(first) == ["AbortAgreed"]
    pending = fold(GAME, first, dealt)
    assert GAME.outcome(pending) is None and GAME.view(pending, 0)["abort_agreed"] == [1]
    assert GAME.view(pending, 1)["may_send"] == ["resign", "leave"]
    with pytest.raises(IllegalAction) as again:
        GAME.act(pending, 1, {"type": "abort"}, KEYS)
    assert again.value.reason == "abort_already_agreed"
    # the bots keep playing meanwhile: a move does not cancel the agreement
    seat = GAME.awaited_seats(pending)[0]
    moved = fold(GAME, GAME.act(pending, seat, GAME.legal_actions(pending, seat)[0], KEYS),
                 pending)  # fmt: skip
    last = GAME.act(moved, 0, {"type": "abort"}, KEYS)
    assert _names(last) == ["AbortAgreed", "GameAborted", "SecretRevealed"]
    assert GAME.outcome(fold(GAME, last, moved))["agreed"] == [0, 1]


def test_one_person_among_bots_aborts_alone_after_the_deal() -> None:
    dealt = _table(bots=(1, 2), joined=(0,))
    assert _names(GAME.act(dealt, 0, {"type": "abort"}, KEYS))[-2:] == [
        "GameAborted", "SecretRevealed"]


def test_an_abort_carries_nothing_else() -> None:
    with pytest.raises(InvalidAction):
        GAME.act(_table(bots=(2,), joined=(0,)), 0, {"type": "abort", "now": True}, KEYS)


def test_a_game_created_before_bots_were_recorded_reads_every_seat_as_a_person() -> None:
    old = {"type": GameCreated.TYPE, "schema": 1, "game": "shithead", "players": 2,
           "options": {}, "dealer": None, "commitment": "00" * 32, "prearranged": False}
    created = GAME.codec.decode(old)
    assert isinstance(created, GameCreated) and created.bots is None
    assert fold(GAME, [created]).is_person(1)
