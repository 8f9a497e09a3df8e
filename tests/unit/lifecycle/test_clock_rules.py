"""The clock as rules (domain.clock): given a clock, when a batch is stamped, then its ClockSet."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain import clock
from domain.default_move import default_move, move_seed
from domain.errors import IllegalAction, InvalidOptions
from domain.lifecycle import Keys, Lifecycle, lifecycle
from domain.protocol import fold
from domain.registry import get_game

SECRET = "5e" * 32


def running(deadlines: tuple[int | None, ...], banks: tuple[int, ...]) -> clock.Clock:
    base = clock.from_options({"turn_seconds": 10, "increment_seconds": 2}, len(banks))
    assert base is not None
    return clock.evolve(base, clock.ClockSet(at=0, deadlines=deadlines, banks=banks))


def test_a_move_in_time_keeps_the_bank_and_earns_the_increment() -> None:
    [event] = clock.after_batch(running((10_000, None), (5_000, 5_000)), [1], 0, 8_000)
    assert isinstance(event, clock.ClockSet)
    assert event.deadlines == (None, 18_000) and event.banks == (7_000, 5_000)


def test_a_late_move_within_its_bank_pays_the_lateness_and_earns_the_increment() -> None:
    [event] = clock.after_batch(running((10_000, None), (5_000, 5_000)), [1], 0, 13_000)
    assert isinstance(event, clock.ClockSet) and event.banks == (4_000, 5_000)


def test_a_move_later_than_its_turn_and_bank_leaves_the_bank_empty_without_the_increment() -> None:
    # turn 10 s, bank 5 s, increment 2 s: a move at 16 s is out of time; its bank stays empty
    [event] = clock.after_batch(running((10_000, None), (5_000, 5_000)), [1], 0, 16_000)
    assert isinstance(event, clock.ClockSet) and event.banks == (0, 5_000)
    [event] = clock.after_batch(running((10_000, None), (5_000, 5_000)), [1], 0, 15_000)
    assert isinstance(event, clock.ClockSet) and event.banks == (0, 5_000)  # at the limit
    [event] = clock.after_batch(running((10_000, None), (0, 0)), [1], 0, 9_999)
    assert isinstance(event, clock.ClockSet) and event.banks == (2_000, 0)  # in time, no bank


def test_the_time_left_is_never_negative() -> None:
    shown = clock.view(running((10_000, None), (5_000, 2_000)))
    assert shown is not None
    assert clock.remaining_ms(shown, 12_000) == [3_000, 2_000]
    assert clock.remaining_ms(shown, 99_000) == [0, 2_000]


def test_a_seat_still_awaited_keeps_its_deadline_and_nothing_changed_records_nothing() -> None:
    simultaneous = running((10_000, 10_000), (0, 0))
    [event] = clock.after_batch(simultaneous, [1], 0, 4_000)
    assert isinstance(event, clock.ClockSet) and event.deadlines == (None, 10_000)
    assert clock.after_batch(simultaneous, [0, 1], None, 4_000) == []
    assert clock.after_batch(simultaneous, [1], 0, None) == []  # an unstamped command


def test_a_timeout_before_the_time_is_refused() -> None:
    ticking = running((10_000, None), (5_000, 5_000))
    with pytest.raises(IllegalAction) as early:
        clock.timed_out(ticking, 0, 14_999)
    assert early.value.reason == "time_left"
    assert clock.timed_out(ticking, 0, 15_000).seat == 0
    with pytest.raises(IllegalAction) as idle:
        clock.timed_out(ticking, 1, 99_000)
    assert idle.value.reason == "no_clock"


def test_a_timeout_without_a_clock_or_for_no_seat_is_refused_saying_so() -> None:
    ticking = running((10_000, None), (5_000, 5_000))
    refusals = [
        (None, 0, "this game has no clock"),
        (ticking, 2, "no seat 2 on the clock"),  # one past the last seat
        (ticking, -1, "no seat -1 on the clock"),
        (ticking, "0", "no seat '0' on the clock"),
    ]
    for running_clock, seat, why in refusals:
        with pytest.raises(IllegalAction) as refused:
            clock.timed_out(running_clock, seat, 99_000)  # type: ignore[arg-type]
        assert (refused.value.message, refused.value.reason) == (why, "no_clock")


def test_in_shitheads_swap_phase_every_seat_runs_and_one_ready_stops_only_its_own() -> None:
    rules = lifecycle(get_game("shithead"))
    keys = Keys(secret=SECRET)
    options = {"turn_seconds": 30}
    created = rules.create(players=2, options=options, dealer=None, keys=keys,
                           filled=[(0, "01" * 32), (1, "02" * 32)], at=1_000)  # fmt: skip
    state = fold(rules, created)
    assert created[-1] == clock.ClockSet(at=1_000, deadlines=(31_000, 31_000), banks=(0, 0))
    events = rules.act(state, 0, {"type": "ready"}, keys, at=5_000)
    assert events[-1] == clock.ClockSet(at=5_000, deadlines=(None, 31_000), banks=(0, 0))
    assert rules.view(fold(rules, events, state), 1)["clock"]["deadlines"] == [None, 31_000]


def _clocked_sixty_six() -> tuple[Lifecycle[Any], Keys, Any, int]:
    """A Sixty-Six of 5 s turns dealt at time 0: its rules, keys, state and the seat awaited."""
    rules = lifecycle(get_game("sixty_six"))
    keys = Keys(secret=SECRET)
    created = rules.create(players=2, options={"turn_seconds": 5}, dealer=0, keys=keys,
                           filled=[(0, "01" * 32), (1, "02" * 32)], at=0)  # fmt: skip
    state = fold(rules, created)
    [seat] = rules.awaited_seats(state)
    return rules, keys, state, seat


def test_a_timeout_makes_the_domains_default_move_with_the_seed_of_game_version_and_seat() -> None:
    rules, keys, state, seat = _clocked_sixty_six()
    events = rules.timeout(state, seat, 5_000, keys, 9)
    assert [type(e).__name__ for e in events][:1] == ["TimedOut"]
    seed = move_seed(rules.seed(state, keys), 9, seat)
    move = default_move("sixty_six", rules.legal_actions(state, seat), seed)
    expected = rules.decide(rules.evolve(state, events[0]), seat, move)
    assert events[1 : 1 + len(expected)] == expected


def test_on_timeout_forfeit_without_a_clock_is_refused_and_the_default_is_accepted() -> None:
    with pytest.raises(InvalidOptions, match="on_timeout needs a clock"):
        clock.parse({"on_timeout": "forfeit"})
    assert clock.parse({"on_timeout": "move"}) == {}  # the default: changes nothing
    assert clock.parse({"turn_seconds": 5, "on_timeout": "forfeit"})["on_timeout"] == "forfeit"


def test_a_timeouts_default_move_is_told_as_one_not_as_the_seats_own() -> None:
    rules, keys, state, seat = _clocked_sixty_six()
    after = fold(rules, rules.timeout(state, seat, 5_000, keys, 9), state)
    for viewer in (None, 0, 1):
        told = rules.view(after, viewer)["last_action"]
        assert told["seat"] == seat
        said = f"seat {seat} ran out of time: the default move: seat {seat} "
        assert told["text"].startswith(said), told


def test_the_clock_shows_its_settings_in_seconds_and_when_it_was_last_set() -> None:
    options = {"turn_seconds": 10, "bank_seconds": 5, "increment_seconds": 2,
               "on_timeout": "forfeit"}  # fmt: skip
    ticking = clock.from_options(options, 2)
    assert ticking is not None
    ticking = clock.evolve(ticking, clock.ClockSet(at=7, deadlines=(10_007, None),
                                                   banks=(5_000, 4_000)))  # fmt: skip
    assert clock.view(ticking) == {
        "turn_seconds": 10, "bank_seconds": 5, "increment_seconds": 2, "on_timeout": "forfeit",
        "at": 7, "deadlines": [10_007, None], "banks": [5_000, 4_000],
    }  # fmt: skip
    shown = clock.view(ticking)
    assert shown is not None
    assert json.dumps([shown[f"{name}_seconds"] for name in ("turn", "bank", "increment")]) == (
        "[10, 5, 2]"  # whole seconds on the wire
    )
    assert clock.view(None) is None


def test_a_timeout_stops_the_seats_clock_empties_its_bank_and_is_when_the_clock_was_set() -> None:
    ticking = running((10_000, None), (5_000, 5_000))
    moved = clock.evolve(ticking, clock.TimedOut(seat=0, at=15_000, on_timeout="move"))
    shown = clock.view(moved)
    assert shown is not None
    assert (shown["at"], shown["deadlines"], shown["banks"]) == (15_000, [None, None], [0, 5_000])
    assert moved.forfeited is None
    lost = clock.evolve(ticking, clock.TimedOut(seat=0, at=15_000, on_timeout="forfeit"))
    assert lost.forfeited == 0


def test_a_mover_that_is_no_seat_of_the_clock_pays_nothing() -> None:
    ticking = running((10_000, None), (5_000, 5_000))
    for mover in (2, -1):  # one past the last seat; none
        [event] = clock.after_batch(ticking, [1], mover, 8_000)
        assert event == clock.ClockSet(at=8_000, deadlines=(None, 18_000), banks=(5_000, 5_000))


def test_a_timeout_refused_says_whose_time_and_until_when() -> None:
    ticking = running((10_000, None), (5_000, 5_000))
    refusals = [(1, 99_000, "seat 1 is not on the clock"),
                (0, 14_999, "seat 0 has time until 15000 ms, it is 14999")]  # fmt: skip
    for seat, at, why in refusals:
        with pytest.raises(IllegalAction) as refused:
            clock.timed_out(ticking, seat, at)
        assert refused.value.message == why


def test_a_command_is_stored_with_its_time_only_when_the_game_has_a_clock() -> None:
    assert clock.stamp({"type": "play"}, True, 5_000) == {"type": "play", "at": 5_000}
    assert clock.stamp({"type": "play"}, False, 5_000) == {"type": "play"}
    assert clock.stamp({"type": "play"}, True, None) == {"type": "play"}


def test_a_one_second_turn_is_a_clock_and_options_that_are_no_object_are_refused() -> None:
    quick = clock.from_options({"turn_seconds": 1}, 2)
    assert quick is not None and (quick.turn_ms, quick.deadlines) == (1_000, (None, None))
    assert clock.from_options({"turn_seconds": 0}, 2) is None
    with pytest.raises(InvalidOptions, match=r"^options must be an object$"):
        clock.split(["turn_seconds"])  # type: ignore[arg-type]
