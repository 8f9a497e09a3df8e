"""`cardroom replay verify FILE --receipts R --expect-head H` on a format 2 replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replays import write
from service.cli import main
from tests.unit.lifecycle.test_receipts import sixty_six


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path, list[tuple[int, str]]]:
    replay, receipts = sixty_six()
    path, kept = tmp_path / "game.json", tmp_path / "receipts.json"
    write(replay, path)
    kept.write_text(json.dumps([{"version": v, "head_hash": h} for v, h in receipts]))
    return path, kept, receipts


def test_verify_accepts_the_receipts_and_head_of_the_game_played(
    files: tuple[Path, Path, list[tuple[int, str]]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, kept, receipts = files
    args = ["replay", "verify", str(path), "--receipts", str(kept)]
    assert main([*args, "--expect-head", receipts[-1][1]]) == 0
    assert "secret matches its commitment" in capsys.readouterr().out


def test_verify_fails_on_a_receipt_the_history_does_not_hold(
    files: tuple[Path, Path, list[tuple[int, str]]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, kept, receipts = files
    version, _ = receipts[3]
    kept.write_text(json.dumps([[version, "ab" * 32]]))
    assert main(["replay", "verify", str(path), "--receipts", str(kept)]) == 1
    assert f"event {version}: the history differs from a receipt" in capsys.readouterr().err


def test_verify_fails_on_another_expected_head(
    files: tuple[Path, Path, list[tuple[int, str]]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _, receipts = files
    assert main(["replay", "verify", str(path), "--expect-head", receipts[-2][1]]) == 1
    assert "is not the expected" in capsys.readouterr().err


def test_verify_refuses_malformed_receipts_with_a_clear_message(
    files: tuple[Path, Path, list[tuple[int, str]]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, kept, _ = files
    kept.write_text(json.dumps([[1, "short"]]))
    assert main(["replay", "verify", str(path), "--receipts", str(kept)]) == 1
    assert "receipt 0 is not a [version, 64-hex head hash] pair" in capsys.readouterr().err


def test_an_unknown_format_version_is_refused_with_a_clear_message(
    files: tuple[Path, Path, list[tuple[int, str]]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _, _ = files
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "version": 3}))
    assert main(["replay", "verify", str(path)]) == 1
    assert "replay format version 3 is not supported (this reads versions 1, 2)" in (
        capsys.readouterr().err
    )
