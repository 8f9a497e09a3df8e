"""show renders the table at any step, open or as one seat saw it."""

from __future__ import annotations

import pytest

from replays import Replay, table_at
from replays.show import show
from tests.support.fakegame import FAKE


def test_step_one_is_the_game_just_created(replay: Replay) -> None:
    data = table_at(replay, 1, game=FAKE)
    assert data["step"] == 1 and data["command"]["kind"] == "start"
    assert [e["type"] for e in data["events"]] == ["fake.GameStarted"]


def test_everything_open_shows_every_hand(replay: Replay) -> None:
    table = table_at(replay, 2, game=FAKE)["table"]
    assert len(table["hands"]) == 2
    assert all(isinstance(hand, list) and len(hand) == 2 for hand in table["hands"])


def test_a_seat_sees_only_its_own_hand_and_no_seed(replay: Replay) -> None:
    data = table_at(replay, 2, as_seat=1, game=FAKE)
    assert data["table"]["seats"][0]["cards"] == 2 and "hands" not in data["table"]
    assert isinstance(data["table"]["hand"], list)
    assert data["events"][1]["hands"][0] == 2
    assert "seed" not in data["command"]["setup"]


def test_the_last_step_shows_the_outcome_and_the_last_command(replay: Replay) -> None:
    text = show(replay, None, game=FAKE)
    head = replay.header.head_version
    assert f"step {head} of {head}, everything open" in text
    assert "reason=finished" in text.splitlines()[-1]
    assert "command: seat " in text


def test_a_mid_batch_step_shows_the_events_so_far(replay: Replay) -> None:
    data = table_at(replay, replay.header.head_version - 1, game=FAKE)
    assert [e["type"] for e in data["events"]] == ["fake.CardPlayed"]
    assert data["table"]["outcome"] is None


@pytest.mark.parametrize("step", [0, 99])
def test_a_step_outside_the_game_is_refused(replay: Replay, step: int) -> None:
    with pytest.raises(ValueError, match="step must be between 1 and"):
        table_at(replay, step, game=FAKE)


def test_a_seat_outside_the_game_is_refused(replay: Replay) -> None:
    with pytest.raises(ValueError, match="seat must be between 0 and 1"):
        table_at(replay, 1, as_seat=5, game=FAKE)
