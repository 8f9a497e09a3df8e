"""A finished fake game, two cards a hand, as a replay for the format, audit and show tests;
forgeries of it with a consistent hash chain."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from domain.chain import link_hash
from domain.playout import play_out
from domain.protocol import Setup
from replays import Replay
from replays.format import Batch, RecordedEvent
from replays.record import replay_from_playout
from tests.support.fakegame import FAKE

SEATS = [{"type": "bot", "bot": "random"}, {"type": "human", "name": "alice"}]


def fake_replay(seed: str = "s1", deal: dict[str, Any] | None = None) -> Replay:
    setup = Setup(players=2, seed=seed, deal=deal, options={"hand_size": 2})
    rng = random.Random(seed)
    playout = play_out(FAKE, setup, lambda _state, choices: rng.choice(list(choices)))
    return replay_from_playout(FAKE, f"g-{seed}", setup, playout, seats=SEATS)


@pytest.fixture
def replay() -> Replay:
    return fake_replay()


def rechained(replay: Replay, batches: list[list[dict[str, Any]]]) -> Replay:
    """The replay with these events per batch and a consistent hash chain (a careful forger's)."""
    prev, version, built = replay.events[0].prev_hash, 0, []
    for batch, events in zip(replay.batches, batches, strict=True):
        recorded = []
        for event in events:
            version += 1
            digest = link_hash(prev, event)
            recorded.append(RecordedEvent(version=version, event=event, prev_hash=prev,
                                          hash=digest))  # fmt: skip
            prev = digest
        built.append(Batch(command=batch.command, events=tuple(recorded)))
    header = replace(replay.header, head_hash=prev, head_version=version)
    return replace(replay, header=header, batches=tuple(built))


def events_of(replay: Replay) -> list[list[dict[str, Any]]]:
    return [[dict(r.event) for r in b.events] for b in replay.batches]
