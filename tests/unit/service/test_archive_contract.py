"""The archive port's contract, run against every adapter (a directory, memory)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from service.archive import Archive, ArchivedGame, FileArchive, MemoryArchive

DAY = 86400.0


def archived(game_id: str, created: float, game: str = "shithead") -> ArchivedGame:
    summary = {
        "id": game_id, "game": game, "status": "over", "players": 2, "created": created,
        "seats": [{"seat": 0, "type": "human", "name": "ann"}, {"seat": 1, "type": "bot"}],
        "prearranged": False, "outcome": {"reason": "finished"}, "seed": "ab" * 32,
    }  # fmt: skip
    return ArchivedGame(id=game_id, summary=summary, replay=f'{{"game_id": "{game_id}"}}\n')


@pytest.fixture(params=["files", "memory"])
def archive(request: pytest.FixtureRequest, tmp_path: Path) -> Archive:
    return FileArchive(tmp_path / "archive") if request.param == "files" else MemoryArchive()


def ids(entries: list[dict[str, Any]]) -> list[str]:
    return [e["id"] for e in entries]


def test_a_kept_game_reads_back_whole(archive: Archive) -> None:
    kept = archived("g1", 1_700_000_000.5)
    archive.put(kept)
    assert archive.get("g1") == kept
    assert archive.summary("g1") == kept.summary


def test_an_unknown_or_unsafe_id_is_not_archived(archive: Archive) -> None:
    assert archive.get("nope") is None and archive.summary("nope") is None
    assert archive.summary("../../etc/passwd") is None


def test_games_are_listed_newest_first_across_days_and_filtered(archive: Archive) -> None:
    start = 1_700_000_000.0
    for n, created in enumerate([start, start + 10, start + DAY, start + 3 * DAY + 5]):
        archive.put(archived(f"g{n}", created, "sheepshead" if n % 2 else "shithead"))
    assert ids(archive.listing()) == ["g3", "g2", "g1", "g0"]
    assert ids(archive.listing(limit=2, offset=1)) == ["g2", "g1"]
    assert ids(archive.listing(game="sheepshead")) == ["g3", "g1"]
    assert archive.listing()[0] == {
        "id": "g3", "game": "sheepshead", "status": "over", "players": 2,
        "seats": archived("g3", 0).summary["seats"], "prearranged": False,
        "created": start + 3 * DAY + 5,
    }  # fmt: skip


def test_keeping_a_game_again_replaces_it_and_lists_it_once(archive: Archive) -> None:
    archive.put(archived("g1", 1_700_000_000.0))
    again = ArchivedGame(id="g1", summary=archived("g1", 1_700_000_000.0).summary, replay="{}")
    archive.put(again)
    assert archive.get("g1") == again
    assert ids(archive.listing()) == ["g1"]


def test_a_deleted_game_is_gone_from_reads_and_listing(archive: Archive) -> None:
    archive.put(archived("g1", 1_700_000_000.0))
    archive.put(archived("g2", 1_700_000_001.0))
    assert archive.delete("g1") is True
    assert archive.get("g1") is None and archive.summary("g1") is None
    assert ids(archive.listing()) == ["g2"]
    assert archive.delete("g1") is False


def test_the_directory_holds_plain_files_a_copy_restores(tmp_path: Path) -> None:
    FileArchive(tmp_path / "a").put(archived("g1", 1_700_000_000.0))
    names = sorted(str(p.relative_to(tmp_path / "a")) for p in (tmp_path / "a").rglob("*.*"))
    assert names == ["games/g1/g1.replay.json", "games/g1/g1.summary.json",
                     "index/2023-11-14.jsonl"]  # fmt: skip
    (tmp_path / "a").rename(tmp_path / "restored")
    assert FileArchive(tmp_path / "restored").get("g1") == archived("g1", 1_700_000_000.0)
