"""``evolve_all`` (the fold of many events, the table copied once per run of the game's own
events) leaves the table that ``evolve`` one event at a time leaves, lifecycle facts between."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain.lifecycle import lifecycle
from domain.registry import get_game
from domain.seating import AbortAgreed

GOLDEN = sorted((Path(__file__).parents[2] / "golden").rglob("*.replay.json"))


def _events(rules: Any, path: Path) -> list[Any]:
    batches = json.loads(path.read_text())["batches"]
    return [rules.codec.decode(e["event"]) for b in batches for e in b["events"]]


def _one_by_one(rules: Any, state: Any, events: list[Any]) -> Any:
    for event in events:
        state = rules.evolve(state, event)
    return state


@pytest.mark.parametrize("path", GOLDEN, ids=[p.name for p in GOLDEN])
def test_folding_all_at_once_leaves_the_table_of_one_event_at_a_time(path: Path) -> None:
    rules = lifecycle(get_game(json.loads(path.read_text())["game"]))
    events = _events(rules, path)
    events.insert(len(events) // 2, AbortAgreed(seat=0))  # a lifecycle fact mid-run
    start = rules.initial_state()
    assert rules.evolve_all(start, events) == _one_by_one(rules, start, events)
    middle = _one_by_one(rules, start, events[:7])
    assert rules.evolve_all(middle, events[7:]) == _one_by_one(rules, middle, events[7:])
    assert rules.evolve_all(middle, []) is middle
