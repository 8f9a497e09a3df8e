"""Sixty-Six and Sheepshead go through the same stack as Shithead: bots finish whole matches
by themselves, a person plays a match over HTTP, and the exported replays verify."""

from __future__ import annotations

import pytest

from domain.lifecycle import lifecycle
from domain.protocol import fold
from domain.registry import get_game
from replays.format import loads, read
from replays.verify import verify
from tests.e2e.conftest import BOT, Stack, play_person

pytestmark = pytest.mark.e2e
RANDOM = {"type": "bot", "bot": "random"}


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("sixty_six", [BOT, RANDOM], {}),
        ("sixty_six", [BOT, BOT], {"declare_timing": "own_turn", "game_target": 3}),
        ("sheepshead", [BOT, RANDOM, BOT, RANDOM, BOT], {}),
        ("sheepshead", [BOT, BOT, BOT], {"rounds": 2}),
    ],
)
def test_a_bots_only_match_finishes_and_its_replay_verifies(
    stack: Stack, game: str, seats: list[dict], options: dict
) -> None:
    created = stack.create(game, seats, seed=f"e2e-{game}-{len(seats)}", options=options)
    summary = stack.wait_over(created["id"])
    assert summary["outcome"]["reason"] == "finished"
    assert summary["outcome"]["winners"]
    report = verify(read(stack.wait_replay(created["id"])))
    assert report.events == summary["version"]


def test_bots_move_only_when_the_game_waits_on_them(stack: Stack) -> None:
    # With any-time declaring the seat that is not to move may declare out; bots are asked
    # only for awaited seats, so no bot ends a deal with a wild out-of-turn declaration.
    created = stack.create("sixty_six", [RANDOM, RANDOM], seed="e2e-no-wild-declare")
    stack.wait_over(created["id"])
    replay = read(stack.wait_replay(created["id"]))
    game = lifecycle(get_game("sixty_six"))
    state = game.initial_state()
    actions = 0
    for batch in replay.batches:
        if batch.command["kind"] == "action":
            assert batch.command["seat"] in game.awaited_seats(state), batch.command
            actions += 1
        state = fold(game, [game.codec.decode(e.event) for e in batch.events], state)
    assert actions > 0 and game.outcome(state) is not None


@pytest.mark.parametrize(
    ("game", "seats"),
    [
        ("sixty_six", [{"type": "open"}, BOT]),
        ("sheepshead", [{"type": "open"}, BOT, BOT, BOT, BOT]),
    ],
)
def test_a_person_plays_a_whole_match_against_bots_over_http(
    stack: Stack, game: str, seats: list[dict]
) -> None:
    created = stack.create(game, seats, seed=f"e2e-person-{game}")
    moves = play_person(stack, created["id"], 0, "alice")
    summary = stack.wait_over(created["id"])
    assert moves > 0 and summary["outcome"]["reason"] == "finished"
    replay = stack.http.get(f"{stack.base}/games/{created['id']}/replay")
    assert replay.status_code == 200
    assert verify(loads(replay.content)).events == summary["version"]
