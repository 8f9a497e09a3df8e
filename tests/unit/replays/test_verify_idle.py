"""An idle seat's batch in a replay (``domain.idle``): the audit re-runs it (a bot's default
move of the version before it, a gone bot's seat taken over, a person's leave) and refuses a
command it cannot re-run, saying why."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.default_move import RULE
from domain.events import Event
from domain.fairness import chain_salt
from domain.idle import idle_command
from domain.lifecycle import Keys, create_command, join_command, lifecycle
from domain.protocol import fold
from domain.registry import get_game
from replays import Replay, check
from replays.format import build_replay
from replays.record import entries

RULES = lifecycle(get_game("sixty_six"))
KEYS = Keys(secret="3c" * 32)
ENTROPY = ("01" * 32, "02" * 32)
Batches = list[tuple[Mapping[str, Any], Sequence[Event]]]


def _started(bots: tuple[int, ...], **options: Any) -> tuple[Any, Batches]:
    filled = [(seat, ENTROPY[seat]) for seat in bots]
    at = 0 if options else None  # a clocked game's commands are stamped
    created = RULES.create(players=2, options=options, dealer=0, keys=KEYS, filled=filled,
                           bots=bots, at=at)  # fmt: skip
    command = create_command(players=2, options=options, dealer=0, filled=filled, bots=bots)
    batches: Batches = [(command if at is None else {**command, "at": at}, created)]
    state = fold(RULES, created)
    for seat in (0, 1):
        if seat not in bots:
            joined = RULES.join(state, seat, ENTROPY[seat], KEYS)
            batches.append((join_command(seat, ENTROPY[seat], "client"), joined))
            state = fold(RULES, joined, state)
    return state, batches


def _replay(
    state: Any, batches: Batches, command: Mapping[str, Any] | None = None, at: int | None = None
) -> Replay:
    """The batches, an idle batch of the seat awaited (recorded with ``command`` if given,
    else its own), then the operator's stop."""
    version = sum(len(events) for _, events in batches)
    seat = RULES.awaited_seats(state)[0]
    gone = bool(command and command.get("gone") is True)
    idled = RULES.idle(state, seat, KEYS, version, at, gone)
    state = fold(RULES, idled, state)
    stopped = RULES.stop(state, KEYS, "test")
    state = fold(RULES, stopped, state)
    recorded = command if command is not None else idle_command(seat, RULE)
    recorded = recorded if at is None else {**recorded, "at": at}
    batches = [*batches, (recorded, idled), ({"kind": "stop", "reason": "test"}, stopped)]
    stored = entries(RULES, batches, chain_salt(KEYS.secret))
    return build_replay("g-idle", stored, game="sixty_six", outcome=RULES.outcome(state))


def test_an_idle_bots_default_move_a_gone_bots_takeover_and_a_persons_leave_verify() -> None:
    state, batches = _started(bots=(0, 1))
    seat = RULES.awaited_seats(state)[0]
    assert check(_replay(state, batches)).ok
    assert check(_replay(state, batches, idle_command(seat, RULE, gone=True))).ok
    person, joined = _started(bots=())
    assert check(_replay(person, joined)).ok


def test_an_idle_bots_move_is_re_derived_from_the_version_before_the_batch() -> None:
    state, batches = _started(bots=(0, 1))
    seat = RULES.awaited_seats(state)[0]
    version = sum(len(events) for _, events in batches)
    near = [canonical(RULES.idle(state, seat, KEYS, v)) for v in range(version - 1, version + 2)]
    assert len(set(near)) == 3  # a version off by one makes another move here
    assert check(_replay(state, batches)).ok


def test_an_idle_bots_move_on_a_clocked_game_is_re_run_at_the_commands_time() -> None:
    state, batches = _started(bots=(0, 1), turn_seconds=30)
    replay = _replay(state, batches, at=4_000)
    assert replay.batches[-2].events[-1].event["type"] == "lifecycle.ClockSet"
    assert check(replay).ok


def canonical(events: Sequence[Event]) -> str:
    return repr([RULES.codec.encode(e) for e in events])


def test_an_idle_command_of_another_rule_or_a_gone_that_is_no_boolean_is_refused() -> None:
    state, batches = _started(bots=(0, 1))
    seat = RULES.awaited_seats(state)[0]
    first = sum(len(events) for _, events in batches) + 1
    refusals = [
        ({"kind": "idle", "seat": seat, "rule": RULE + 1},
         f"an idle command names default-move rule {RULE + 1}; known: {RULE}"),
        ({"kind": "idle", "seat": seat},
         f"an idle command names default-move rule None; known: {RULE}"),
        ({"kind": "idle", "seat": seat, "rule": RULE, "gone": "yes"},
         "an idle command's gone is true or false, not 'yes'"),
    ]  # fmt: skip
    for command, reason in refusals:
        report = check(_replay(state, batches, command))
        assert (report.ok, report.bad_version, report.reason) == (False, first, reason)
