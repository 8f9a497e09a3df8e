"""The moves the service makes for a seat (an idle seat, a bot's fallback) on the test game:
the batch each makes, its clock stamp, the reveal when the move ends the game, and the words a
game without narration still gets."""

from __future__ import annotations

from typing import Any

import pytest

from domain import clock
from domain.default_move import default_move, move_seed
from domain.errors import IllegalAction
from domain.fallback import BotFellBack
from domain.idle import SeatIdled
from domain.lifecycle import Keys, Lifecycle, SeatLeft, SecretRevealed, lifecycle
from domain.protocol import fold
from domain.registry import get_game
from tests.support.fakegame import FAKE, CardPlayed, GameEnded

KEYS = Keys(secret="7a" * 32)
GAME = Lifecycle(FAKE)
ENTROPY = ("01" * 32, "02" * 32)


def _dealt(dealer: int, hand_size: int, **options: Any) -> Any:
    """Seat 0 a person's, seat 1 a bot's (clocked from 0 when options say so)."""
    created = GAME.create(players=2, options={"hand_size": hand_size, **options}, dealer=dealer,
                          keys=KEYS, bots=(1,), filled=[(1, ENTROPY[1])], at=0)  # fmt: skip
    state = fold(GAME, created)
    return fold(GAME, GAME.join(state, 0, ENTROPY[0], KEYS, at=0), state)


def test_an_idle_bots_move_is_the_default_move_of_the_version_asked() -> None:
    state = _dealt(dealer=0, hand_size=6)
    assert GAME.awaited_seats(state) == (1,)
    seed_of = GAME.seed(state, KEYS)
    for version in range(3, 9):
        events = GAME.idle(state, 1, KEYS, version)
        move = default_move(FAKE, GAME.legal_actions(state, 1), move_seed(seed_of, version, 1))
        assert events == [SeatIdled(seat=1), CardPlayed(seat=1, card=move["card"])], version


def test_an_idle_bots_last_move_ends_the_game_and_reveals_the_secret() -> None:
    state = _dealt(dealer=1, hand_size=1)
    state = fold(GAME, GAME.act(state, 0, GAME.legal_actions(state, 0)[0], KEYS), state)
    events = GAME.idle(state, 1, KEYS, 5)
    assert [type(e) for e in events] == [SeatIdled, CardPlayed, GameEnded, SecretRevealed]
    assert events[-1] == GAME.revelation(state, KEYS)


def test_an_idle_bots_move_on_a_clocked_game_is_stamped_at_the_idle_time() -> None:
    state = _dealt(dealer=0, hand_size=3, turn_seconds=30)
    events = GAME.idle(state, 1, KEYS, 5, at=9_000)
    assert isinstance(events[-1], clock.ClockSet) and events[-1].at == 9_000


def test_a_gone_bots_idle_seat_is_taken_over_by_the_leave_bot() -> None:
    state = _dealt(dealer=0, hand_size=3, leave_bot="random")
    events = GAME.idle(state, 1, KEYS, 5, gone=True)
    assert events == [SeatIdled(seat=1), SeatLeft(seat=1, bot="random")]


def test_a_fallback_on_a_game_without_narration_is_told_in_the_lifecycles_words() -> None:
    state = _dealt(dealer=0, hand_size=3)
    events = GAME.act(state, 1, {"type": "fallback", "reason": "illegal"}, KEYS, version=4)
    assert type(events[0]) is BotFellBack
    told = GAME.last_action(fold(GAME, events, state), 0)
    assert told == {"seat": 1, "type": "fallback", "results": [], "fallback": "illegal",
                    "text": "seat 1 fell back (illegal) to the default move"}  # fmt: skip


def test_a_fallback_on_a_narrated_game_says_the_move_after_its_reason() -> None:
    rules = lifecycle(get_game("sixty_six"))
    created = rules.create(players=2, options={}, dealer=0, keys=KEYS, bots=(0, 1),
                           filled=[(0, ENTROPY[0]), (1, ENTROPY[1])])  # fmt: skip
    state = fold(rules, created)
    [seat] = rules.awaited_seats(state)
    events = rules.act(state, seat, {"type": "fallback", "reason": "raised"}, KEYS, version=3)
    after = fold(rules, events, state)
    move_told = rules.last_action(fold(rules, events[1:], state), 1 - seat)
    assert move_told is not None
    told = rules.last_action(after, 1 - seat)
    assert told is not None and told["fallback"] == "raised"
    said = f"seat {seat} fell back (raised) to the default move: {move_told['text']}"
    assert told["text"] == said


def test_a_seat_with_nothing_to_play_has_no_default_move_saying_so() -> None:
    state = _dealt(dealer=0, hand_size=3)
    with pytest.raises(IllegalAction) as none:
        GAME.default_move(state, 0, KEYS, 4)  # seat 1 is to play
    assert (none.value.message, none.value.reason) == ("seat 0 has no move to make for it",
                                                       "no_move")  # fmt: skip


def test_the_words_for_an_event_are_the_games_and_none_without_narration() -> None:
    rules = lifecycle(get_game("sixty_six"))
    played = {"type": "sixty_six.CardPlayed", "seat": 1, "card": "AS", "role": "lead"}
    assert rules.tell(played) == "seat 1 led AS"
    assert GAME.tell({"type": "fake.CardPlayed", "seat": 1, "card": "AS"}) is None
    assert GAME.tell({"type": "lifecycle.SeatResigned", "seat": 1}) == "seat 1 resigned"


def test_an_old_sixty_six_action_is_read_in_todays_shape_and_the_test_game_keeps_its_own() -> None:
    rules = lifecycle(get_game("sixty_six"))
    assert rules.upcast_action({"type": "play", "card": "AS"}) == {"type": "play", "cards": ["AS"]}
    same = {"type": "play", "card": "9S"}
    assert GAME.upcast_action(same) is same


def test_a_timeout_that_forfeits_ends_the_game_with_the_secret_revealed() -> None:
    state = _dealt(dealer=0, hand_size=3, turn_seconds=5, on_timeout="forfeit")
    events = GAME.timeout(state, 1, 5_000, KEYS, 4)
    assert [type(e).__name__ for e in events] == ["TimedOut", "SecretRevealed"]
    assert events[-1] == GAME.revelation(state, KEYS) == SecretRevealed(
        secret=KEYS.secret, seed=GAME.seed(state, KEYS), deal=None)  # fmt: skip


def test_a_timeouts_last_move_ends_the_game_reveals_and_a_recorded_move_is_kept() -> None:
    state = _dealt(dealer=1, hand_size=1, turn_seconds=5)
    state = fold(GAME, GAME.act(state, 0, GAME.legal_actions(state, 0)[0], KEYS, at=1_000), state)
    events = GAME.timeout(state, 1, 7_000, KEYS, 5)
    assert [type(e).__name__ for e in events] == ["TimedOut", "CardPlayed", "GameEnded",
                                                 "SecretRevealed"]  # fmt: skip
    assert events[-1] == GAME.revelation(state, KEYS)
    state = _dealt(dealer=0, hand_size=4, turn_seconds=5)
    legal = GAME.legal_actions(state, 1)
    for move in legal:  # a timeout recorded before the rule: the move it names is made
        played = GAME.timeout(state, 1, 5_000, KEYS, 3, move)[1]
        assert played == CardPlayed(seat=1, card=move["card"])
    stamped = GAME.timeout(state, 1, 5_000, KEYS, 3)
    assert isinstance(stamped[-1], clock.ClockSet) and stamped[-1].at == 5_000
