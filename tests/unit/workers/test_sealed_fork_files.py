"""A sealed fork's replay file (docs/analysis.md, "Games still being played: sealed forks"):
never written to ``CARDROOM_REPLAY_DIR`` while its source is played (it holds the forking
seat's cards), written when the source ends if the fork ended first, else when the fork ends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from replays import loads
from replays.verify import verify
from service.sealing import Seals
from tests.unit.workers.conftest import Stack
from workers.jobs import export_replay

OPEN = {"type": "open"}
BOT = {"type": "bot", "bot": "random"}


@pytest.fixture
def replays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDROOM_REPLAY_DIR", str(tmp_path))
    return tmp_path


def file_of(directory: Path, game_id: str) -> Path:
    return directory / f"{game_id}.replay.json"


def sealed_fork(stack: Stack, seed: str) -> tuple[str, str, str]:
    """A game with a person at seat 0 against a bot, played until seat 0 is to move, and seat
    0's fork of it there (sealed), its seat taken and its bot's turns played: (source, fork,
    the fork seat's token)."""
    svc = stack.service
    source = str(svc.create_game("sixty_six", [OPEN, BOT], seed=seed)["id"])
    token = svc.join_seat(source, 0, "alice")["token"]
    stack.work()
    loaded = svc.load(source)
    assert tuple(loaded.game.awaited_seats(loaded.state)) == (0,) and not loaded.over
    fork = str(svc.fork_game(source, at=loaded.version, view_as=0, seats=[OPEN, BOT],
                             token=token)["id"])  # fmt: skip
    assert svc.load(fork).meta.forked == {"source": source, "version": loaded.version, "as": 0,
                                          "sealed": True}  # fmt: skip
    svc.join_seat(fork, 0, "alice", token=token)
    stack.work()
    return source, fork, token


def resign(stack: Stack, game_id: str) -> None:
    """Seat 0 resigns (the game ends), then the jobs that follow run (its replay's export)."""
    svc = stack.service
    svc.submit_action(game_id, 0, {"type": "resign"}, svc.load(game_id).version)
    assert svc.load(game_id).over
    stack.work()


def test_a_sealed_fork_that_ended_first_gets_its_file_when_its_source_ends(
    stack: Stack, replays: Path
) -> None:
    source, fork, _ = sealed_fork(stack, "ended-first")
    resign(stack, fork)
    kept = stack.store.replay(fork)
    assert kept is not None  # exported and kept in Redis, ...
    assert not file_of(replays, fork).exists()  # ... not published while the source is played
    assert export_replay(fork)  # a retried export publishes nothing either
    assert not file_of(replays, fork).exists() and list(replays.iterdir()) == []
    resign(stack, source)  # the source ends: its export writes its file and the fork's
    assert file_of(replays, source).exists()
    text = file_of(replays, fork).read_text(encoding="utf-8")
    assert text == kept
    report = verify(loads(text), source=loads(file_of(replays, source).read_text()))
    assert report.ok, report.summary()


def test_a_fork_still_played_when_its_source_ends_gets_its_file_when_it_ends(
    stack: Stack, replays: Path
) -> None:
    source, fork, _ = sealed_fork(stack, "ended-last")
    resign(stack, source)
    assert file_of(replays, source).exists() and not file_of(replays, fork).exists()
    resign(stack, fork)  # no longer sealed: published by its own export, as any game's
    assert file_of(replays, fork).read_text(encoding="utf-8") == stack.store.replay(fork)


def test_a_source_that_ends_while_its_fork_s_export_runs_is_seen_over_by_that_export(
    stack: Stack, replays: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fork's export finds it sealed; then, before it holds the file, the source ends and
    its export runs (finding nothing held): the fork's export, asking the seal again once the
    file is held, sees the source over and publishes the file itself."""
    source, fork, _ = sealed_fork(stack, "ends-meanwhile")
    sealed = Seals.sealed
    asked: list[bool] = []

    def source_ends_after_the_first_question(seals: Seals, forked: Any) -> bool:
        answer = sealed(seals, forked)
        if forked:
            asked.append(answer)
            monkeypatch.setattr(Seals, "sealed", sealed)  # the next questions as ever
            svc = stack.service
            svc.submit_action(source, 0, {"type": "resign"}, svc.load(source).version)
            assert export_replay(source)  # the source's export: nothing held yet
            assert file_of(replays, source).exists() and not file_of(replays, fork).exists()
        return answer

    monkeypatch.setattr(Seals, "sealed", source_ends_after_the_first_question)
    stack.service.submit_action(fork, 0, {"type": "resign"}, stack.service.load(fork).version)
    assert export_replay(fork)
    assert asked == [True]  # sealed when first asked (held), over when asked again
    assert stack.store.held_forks(source) == {fork: stack.store.replay(fork)}
    assert file_of(replays, fork).read_text(encoding="utf-8") == stack.store.replay(fork)


def test_without_a_directory_nothing_is_held_or_written(stack: Stack) -> None:
    source, fork, _ = sealed_fork(stack, "no-directory")
    resign(stack, fork)
    assert stack.store.replay(fork) is not None and stack.store.held_forks(source) == {}
