"""Every step of every golden replay renders as every seat and as a spectator (everything
open); over HTTP (``GET /games/{id}/replay?at=V&as=S``) and through ``cardroom replay show``
the steps of every kind render the same.

A replay step may fall inside a batch (after a Sheepshead bury, before the
PreparationFinished of the same command; after a Shithead GameStarted, before the deal), so
views must be total over every prefix of a game's events, not only over settled states: the
fold's own views are rendered at every step; the endpoint and the command, which fold the same
way to the step asked, are asked at the first step after each kind of event, inside a batch
and at its end, and at the first and the last step (each request folds from the start, so all
steps through them took minutes without testing anything more).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest

from domain.lifecycle import lifecycle
from domain.registry import get_game
from replays import Replay, read
from service.cli import main
from service.json_ready import json_ready
from service.store import InMemoryEventStore
from service.store.port import GameMeta, SeatRecord
from tests.support.api import make_app

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
FILES = sorted(GOLDEN.glob("*.replay.json"))
# The three longest games render over HTTP and through the CLI with `make test` only (slow):
# the smaller replays take the same paths in the fast subset, and every replay's every step
# renders as every seat there (test_every_step_renders_as_every_seat).
LONG = ("sheepshead-5p-heuristic", "shithead-4p-heuristic", "shithead-3p-variant-seeded")
PATHS = [pytest.param(p, id=p.name.split(".")[0],
                      marks=pytest.mark.slow if p.name.split(".")[0] in LONG else ())
         for p in FILES]  # fmt: skip


def stored_game(store: InMemoryEventStore, replay: Replay) -> str:
    """The golden game put into the store batch by batch, exactly as it was recorded."""
    header = replay.header
    seats = tuple(SeatRecord("bot", name=s.get("name"), bot=s.get("bot")) for s in header.seats)
    meta = GameMeta(
        id=header.game_id,
        game=header.game,
        players=header.players,
        options=header.options,
        seats=seats,
        created=0.0,
        commitment=header.commitment or "",
        seed=header.seed or "",
        status="playing",
    )
    first, *rest = replay.batches
    store.create(meta, [e.event for e in first.events], first.command)
    for batch in rest:
        version = batch.events[0].version - 1
        prev = store.read(header.game_id, version - 1, version)[0].hash
        last = batch is rest[-1]
        store.append(
            header.game_id,
            version,
            [e.event for e in batch.events],
            batch.command,
            prev_hash=prev,
            status="over" if last else None,
        )
    return header.game_id


def viewers(replay: Replay) -> list[int | None]:
    return [None, *range(replay.header.players)]


def expected_tables(
    replay: Replay, steps: Collection[int] | None = None
) -> dict[int, dict[int | None, Any]]:
    """Each viewer's table at each step (every step, or those given), folded once event by
    event (not via the code tested)."""
    rules: Any = get_game(replay.header.game)
    if str(replay.events[0].event.get("type", "")).startswith("lifecycle."):
        rules = lifecycle(rules)  # format 2: the game inside its lifecycle
    state = rules.initial_state()
    tables: dict[int, dict[int | None, Any]] = {}
    for step, recorded in enumerate(replay.events, start=1):
        state = rules.evolve(state, rules.codec.decode(recorded.event))
        if steps is None or step in steps:
            tables[step] = {
                seat: json_ready(rules.reveal(state) if seat is None else rules.view(state, seat))
                for seat in viewers(replay)
            }
    return tables


def sample_steps(replay: Replay) -> list[int]:
    """The first and the last step, and the first step of each kind: an event type, inside a
    batch or ending it."""
    kinds: dict[tuple[str, bool], int] = {}
    for batch in replay.batches:
        for recorded in batch.events:
            kind = (str(recorded.event.get("type")), recorded is batch.events[-1])
            kinds.setdefault(kind, recorded.version)
    return sorted({1, replay.header.head_version, *kinds.values()})


@pytest.mark.parametrize("path", FILES, ids=[p.name.split(".")[0] for p in FILES])
def test_every_step_renders_as_every_seat(path: Path) -> None:
    replay = read(path)
    tables = expected_tables(replay)
    assert list(tables) == list(range(1, replay.header.head_version + 1))
    assert all(set(table) == set(viewers(replay)) for table in tables.values())


def test_the_sampled_steps_hold_every_kind_of_step() -> None:
    replay = read(GOLDEN / "sheepshead-5p-heuristic.replay.json")
    steps = sample_steps(replay)
    inside = [e.version for b in replay.batches for e in b.events[:-1]]
    assert steps[0] == 1 and steps[-1] == replay.header.head_version
    assert set(steps) & set(inside) and set(steps) - set(inside)
    assert len(steps) < replay.header.head_version / 4


@pytest.mark.parametrize("path", PATHS)
def test_each_kind_of_step_renders_as_every_seat_over_http(path: Path) -> None:
    replay = read(path)
    store = InMemoryEventStore()
    app = make_app(store)
    game_id = stored_game(store, replay)
    client = app.test_client()
    steps = sample_steps(replay)
    expected = expected_tables(replay, steps)
    failures: list[tuple[int, int | None, int]] = []
    for step in steps:
        for seat in viewers(replay):
            query: dict[str, Any] = {"at": step} if seat is None else {"at": step, "as": seat}
            response = client.get(f"/games/{game_id}/replay", query_string=query)
            if response.status_code != 200:
                failures.append((step, seat, response.status_code))
                continue
            data = response.json
            assert (data["step"], data["as_seat"]) == (step, seat)
            assert data["table"] == expected[step][seat], (step, seat)
    assert failures == []


@pytest.mark.parametrize("path", PATHS)
def test_each_kind_of_step_renders_as_every_seat_through_the_cli(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replay = read(path)
    head = replay.header.head_version
    failures: list[tuple[int, int | None, int, str]] = []
    for seat in viewers(replay):
        for step in sample_steps(replay):
            argv = ["replay", "show", str(path), "--step", str(step)]
            argv += [] if seat is None else ["--as", str(seat)]
            code = main(argv)
            out, err = capsys.readouterr()
            if code != 0:
                failures.append((step, seat, code, err))
                continue
            who = "everything open" if seat is None else f"as seat {seat} saw it"
            assert out.splitlines()[0].endswith(f"step {step} of {head}, {who}"), out
    assert failures == []
