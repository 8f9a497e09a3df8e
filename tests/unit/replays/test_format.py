"""A replay survives writing and reading unchanged, and a file that is not a replay says why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.chain import GENESIS
from replays import FORMAT, VERSION, Replay, ReplayFormatError, dumps, loads, read, write


def test_a_replay_round_trips_through_its_file(replay: Replay, tmp_path: Path) -> None:
    path = tmp_path / "game.replay.json"
    write(replay, path)
    assert read(path) == replay
    assert loads(dumps(replay)).to_dict() == replay.to_dict()


def test_a_format_1_header_names_format_game_seed_commitment_and_head(replay: Replay) -> None:
    data = json.loads(dumps(replay))  # the fake game fixture records format 1 (its own start)
    assert data["format"] == FORMAT and data["version"] == 1 and VERSION == 2
    assert "secret" not in data and "prearranged" not in data
    assert data["game"] == "fake" and data["game_id"] == "g-s1"
    assert data["seed"] == "s1" and len(data["commitment"]) == 64
    assert data["seats"][1] == {"type": "human", "name": "alice"}
    assert data["head_version"] == len(replay.events)
    assert data["head_hash"] == replay.events[-1].hash
    assert data["outcome"]["reason"] == "finished"


def test_every_batch_carries_its_command_and_chained_events(replay: Replay) -> None:
    first, *rest = replay.batches
    assert first.command["kind"] == "start" and first.command["setup"]["seed"] == "s1"
    assert first.events[0].prev_hash == GENESIS
    assert all(b.command["kind"] == "action" for b in rest)
    assert [e.version for e in replay.events] == list(range(1, len(replay.events) + 1))


def test_the_file_puts_one_event_per_line(replay: Replay) -> None:
    lines = dumps(replay).splitlines()
    assert sum('"version": ' in line and '"hash"' in line for line in lines) == len(replay.events)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"format": "other"}', "format is 'other'"),
        (json.dumps({"format": FORMAT, "version": 99}), "version 99 is not supported"),
        (json.dumps({"format": FORMAT, "version": VERSION, "game": 3}), "header.game must be"),
    ],
)
def test_a_file_that_is_not_a_replay_is_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(ReplayFormatError, match=message):
        loads(text)


def test_the_package_names_its_submodules_not_functions_of_the_same_name() -> None:
    import importlib
    import inspect

    package = importlib.import_module("replays")
    importlib.import_module("replays.verify")
    importlib.import_module("replays.show")
    assert inspect.ismodule(package.verify)
    assert inspect.ismodule(package.show)
