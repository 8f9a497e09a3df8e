"""`cardroom replay verify|show` on real game files: exit codes and what they print."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from domain.playout import play_out
from domain.protocol import Setup
from domain.registry import get_game
from replays import write
from replays.record import replay_from_playout
from service.cli import main


@pytest.fixture
def replay_file(tmp_path: Path) -> Path:
    game = get_game("sixty_six")
    setup = Setup(players=2, seed="cli")
    rng = random.Random(7)
    playout = play_out(game, setup, lambda _s, choices: rng.choice(list(choices)))
    path = tmp_path / "game.json"
    write(replay_from_playout(game, "g-cli", setup, playout), path)
    return path


def test_verify_prints_ok_and_exits_zero(
    replay_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "verify", str(replay_file)]) == 0
    assert capsys.readouterr().out.startswith("OK sixty_six game g-cli")


def test_verify_names_the_first_bad_event_and_exits_non_zero(
    replay_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(replay_file.read_text())
    data["batches"][2]["events"][0]["event"]["seat"] = 1 - data["batches"][2]["events"][0][
        "event"
    ].get("seat", 0)
    replay_file.write_text(json.dumps(data))
    version = data["batches"][2]["events"][0]["version"]
    assert main(["replay", "verify", str(replay_file)]) == 1
    assert f"FAILED sixty_six game g-cli: event {version}:" in capsys.readouterr().err


def test_verify_refuses_a_file_that_is_not_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{broken")
    assert main(["replay", "verify", str(path)]) == 1
    assert "not valid JSON" in capsys.readouterr().err


def test_show_prints_the_table_at_a_step_as_a_seat(
    replay_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "show", str(replay_file), "--step", "3", "--as", "1"]) == 0
    out = capsys.readouterr().out
    assert "step 3 of" in out and "as seat 1 saw it" in out


def test_show_as_json_is_machine_readable(
    replay_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "show", str(replay_file), "--step", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["step"] == 2 and data["as_seat"] is None and "table" in data


def test_show_refuses_a_step_past_the_end(
    replay_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "show", str(replay_file), "--step", "100000"]) == 1
    assert "step must be between 1 and" in capsys.readouterr().err
