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
    assert GAME.view(pending, 1)["may_send"] == ["resign", "withdraw_abort", "leave"]
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


def _lapsing(bots: tuple[int, ...], joined: tuple[int, ...]) -> Any:
    """A table created as the service creates games now: agreements to abort lapse."""
    state = fold(GAME, GAME.create(players=3, options={}, dealer=None, keys=KEYS, bots=bots,
                                   filled=[(s, ENTROPY[s]) for s in bots],
                                   abort_lapses=True))  # fmt: skip
    for seat in joined:
        state = fold(GAME, GAME.join(state, seat, ENTROPY[seat], KEYS), state)
    return state


def _play(state: Any, seat: int) -> tuple[list[Any], Any]:
    events = GAME.act(state, seat, GAME.legal_actions(state, seat)[0], KEYS)
    return events, fold(GAME, events, state)


def test_an_agreement_lapses_when_another_person_plays_on_instead_of_agreeing() -> None:
    dealt = _lapsing(bots=(2,), joined=(0, 1))
    pending = fold(GAME, GAME.act(dealt, 1, {"type": "abort"}, KEYS), dealt)
    declined, after = _play(pending, 0)  # seat 0, a person, moves instead of agreeing
    assert _names(declined)[0] == "AbortLapsed" and declined[0].seats == (1,)
    assert GAME.view(after, 0)["abort_agreed"] == []
    late = GAME.act(after, 0, {"type": "abort"}, KEYS)  # sixty moves later, say
    assert _names(late) == ["AbortAgreed"]  # the game goes on: seat 1 must agree again


def test_an_agreement_stands_while_bots_and_the_agreeing_person_move() -> None:
    dealt = _lapsing(bots=(2,), joined=(0, 1))
    pending = fold(GAME, GAME.act(dealt, 1, {"type": "abort"}, KEYS), dealt)
    events, after = _play(pending, 1)
    events2, after = _play(after, 2)
    assert "AbortLapsed" not in _names(events + events2)
    assert _names(GAME.act(after, 0, {"type": "abort"}, KEYS))[:2] == [
        "AbortAgreed", "GameAborted"]


def test_a_person_withdraws_their_agreement() -> None:
    dealt = _lapsing(bots=(2,), joined=(0, 1))
    pending = fold(GAME, GAME.act(dealt, 1, {"type": "abort"}, KEYS), dealt)
    withdrawn = GAME.act(pending, 1, {"type": "withdraw_abort"}, KEYS)
    assert _names(withdrawn) == ["AbortWithdrawn"]
    after = fold(GAME, withdrawn, pending)
    assert GAME.view(after, 1)["abort_agreed"] == [] and "abort" in GAME.view(after, 1)["may_send"]
    assert _names(GAME.act(after, 0, {"type": "abort"}, KEYS)) == ["AbortAgreed"]
    with pytest.raises(IllegalAction) as refused:
        GAME.act(after, 1, {"type": "withdraw_abort"}, KEYS)
    assert refused.value.reason == "abort_not_agreed"


def test_a_game_created_before_agreements_lapsed_keeps_them_until_the_end() -> None:
    old = {"type": GameCreated.TYPE, "schema": 3, "game": "shithead", "players": 2,
           "options": {}, "dealer": None, "commitment": "00" * 32, "prearranged": False,
           "bots": [], "salted_deck": False}  # fmt: skip
    created = GAME.codec.decode(old)
    assert isinstance(created, GameCreated) and created.abort_lapses is False
