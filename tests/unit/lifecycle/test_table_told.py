"""What a table tells about itself on the test game (no narration of its own): the last action
after a resignation, an idle seat or a timeout, a finished game's view, a seat's own cards in
the game's events, the reveal of an explicit deal, the clock of the seat that moved, and the
refusals of a game not being played, word for word."""

from __future__ import annotations

from typing import Any

import pytest

from domain import clock
from domain.errors import DomainError, GameOver, InvalidAction, InvalidSetup, NotYourTurn
from domain.lifecycle import Keys, Lifecycle
from domain.protocol import Setup, fold
from tests.support.fakegame import FAKE, CardsDealt

GAME = Lifecycle(FAKE)
KEYS = Keys(secret="6b" * 32)
ENTROPY = ("01" * 32, "02" * 32)


def _dealt(keys: Keys = KEYS, **options: Any) -> Any:
    """Seat 1 a bot's, filled at creation; seat 0 joined: dealt, seat 1 to play."""
    created = GAME.create(players=2, options={"hand_size": 3, **options}, dealer=0, keys=keys,
                          bots=(1,), filled=[(1, ENTROPY[1])], at=0)  # fmt: skip
    state = fold(GAME, created)
    return fold(GAME, GAME.join(state, 0, ENTROPY[0], keys, at=0), state)


def _then(state: Any, events: list[Any]) -> Any:
    return fold(GAME, events, state)


def test_the_last_action_after_a_resignation_an_idle_seat_and_a_timeout() -> None:
    state = _dealt()
    resigned = _then(state, GAME.act(state, 0, {"type": "resign"}, KEYS))
    assert GAME.last_action(resigned, 1) == {"seat": 0, "type": "resign", "results": [],
                                             "text": "seat 0 resigned"}  # fmt: skip
    idled = _then(state, GAME.idle(state, 1, KEYS, 4))
    assert GAME.last_action(idled, 0) == {"seat": 1, "type": "idle", "results": [],
                                          "text": "seat 1 was idle too long"}  # fmt: skip
    clocked = _dealt(turn_seconds=5)
    late = _then(clocked, GAME.timeout(clocked, 1, 5_000, KEYS, 4))
    assert GAME.last_action(late, 0) == {"seat": 1, "type": "timeout", "results": [],
                                         "text": "seat 1 ran out of time"}  # fmt: skip


def test_a_finished_games_view_has_its_outcome_and_nothing_to_play() -> None:
    state = _dealt()
    over = _then(state, GAME.act(state, 0, {"type": "resign"}, KEYS))
    view = GAME.view(over, 1)
    assert view["outcome"] == GAME.outcome(over) == {"reason": "resigned", "resigned": 0,
                                                     "winners": [1], "losers": [0]}  # fmt: skip
    assert (view["legal_actions"], view["to_act"]) == ([], [])


def test_a_seat_sees_its_own_cards_in_the_games_events() -> None:
    state = _dealt()
    dealt = CardsDealt(hands=state.inner.hands)
    assert GAME.redact(dealt, 0)["hands"] == [list(state.inner.hands[0]), 3]
    assert GAME.redact(dealt, None)["hands"] == [3, 3]


def test_the_reveal_of_a_prearranged_deal_holds_the_deal() -> None:
    deal = {"seats": [{"hand": ["9S", "TS", "JS"]}, {"hand": ["9H", "TH", "JH"]}]}
    keys = Keys(secret=KEYS.secret, deal=deal)
    state = _dealt(keys)
    assert state.inner.hands == (("9S", "TS", "JS"), ("9H", "TH", "JH"))
    revealed = GAME.revelation(state, keys)
    assert revealed.deal == deal and revealed.secret == keys.secret
    assert GAME.revelation(state, KEYS).deal is None


def test_the_seat_that_moved_earns_its_increment() -> None:
    state = _dealt(turn_seconds=5, increment_seconds=2)
    card = GAME.legal_actions(state, 1)[0]
    events = GAME.act(state, 1, card, KEYS, at=1_000)
    assert events[-1] == clock.ClockSet(at=1_000, deadlines=(6_000, None), banks=(0, 2_000))


def test_a_game_not_being_played_refuses_a_move_saying_why() -> None:
    waiting = fold(GAME, GAME.create(players=2, options={}, dealer=0, keys=KEYS))
    with pytest.raises(NotYourTurn) as early:
        GAME.decide(waiting, 0, {"type": "play", "card": "9S"})
    assert (early.value.message, early.value.reason) == (
        "the game starts when every seat is filled", "not_started")
    state = _dealt()
    over = _then(state, GAME.act(state, 0, {"type": "resign"}, KEYS))
    with pytest.raises(GameOver) as ended:
        GAME.decide(over, 1, GAME.legal_actions(state, 1)[0])
    assert ended.value.message == "the game is over"
    left = _then(state, GAME.act(state, 0, {"type": "leave"}, KEYS))
    with pytest.raises(NotYourTurn) as waits:
        GAME.decide(left, 1, GAME.legal_actions(state, 1)[0])
    assert waits.value.message == "seat(s) 0 left open: the game waits for someone to take them"


def test_a_fallback_is_not_decided_and_an_action_that_is_no_object_is_refused() -> None:
    state = _dealt()
    with pytest.raises(InvalidAction) as fallback:
        GAME.decide(state, 1, {"type": "fallback", "reason": "raised"})
    assert fallback.value.message == (
        "a fallback is made with the server's keys and the version (act)")
    with pytest.raises(DomainError):
        GAME.decide(state, 1, ["play"])  # type: ignore[arg-type]


def test_a_deal_with_another_secret_is_refused() -> None:
    created = GAME.create(players=2, options={}, dealer=0, keys=KEYS)
    state = fold(GAME, created)
    state = fold(GAME, GAME.join(state, 0, ENTROPY[0], KEYS), state)
    with pytest.raises(InvalidSetup) as refused:
        GAME.join(state, 1, ENTROPY[1], Keys(secret="7c" * 32))
    assert refused.value.message == (
        "the secret does not match the commitment published at creation")


def test_a_games_own_deck_commitment_is_salted_only_when_created_so() -> None:
    chosen = Keys(secret=KEYS.secret, seed="chosen")
    plain = GAME.create(players=2, options={}, dealer=0, keys=chosen,
                        filled=[(0, ENTROPY[0]), (1, ENTROPY[1])])  # fmt: skip
    salted = GAME.create(players=2, options={}, dealer=0, keys=chosen, salted_deck=True,
                         filled=[(0, ENTROPY[0]), (1, ENTROPY[1])])  # fmt: skip
    started = [next(e for e in events if type(e).__name__ == "GameStarted")
               for events in (plain, salted)]  # fmt: skip
    own = FAKE.start(Setup(players=2, seed="chosen", options={}, dealer=0))[0]
    assert started[0].commitment == own.commitment != started[1].commitment
