"""`cardroom archive` by hand: it needs the archive's directory, and says (exit 1) when a game
it was asked for could not be archived."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.cli import main
from tests.support.redis_server import redis_url, unique_namespace

pytestmark = pytest.mark.integration


def test_archive_needs_a_directory(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CARDROOM_ARCHIVE_DIR", raising=False)
    assert main(["archive"]) == 2
    assert "set CARDROOM_ARCHIVE_DIR (or --dir)" in capsys.readouterr().err


def test_a_game_it_cannot_archive_is_named_and_the_exit_status_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REDIS_URL", redis_url())
    monkeypatch.setenv("CARDROOM_NAMESPACE", unique_namespace("archive-cli"))
    assert main(["archive", "--dir", str(tmp_path), "--game", "nope"]) == 1
    assert capsys.readouterr().out == "nope: unknown\n"
    assert main(["archive", "--dir", str(tmp_path), "--after", "0"]) == 0
    assert capsys.readouterr().out == "archived 0 finished games\n"
