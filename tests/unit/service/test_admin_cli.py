"""``cardroom admin`` against the app served over real HTTP: list, end and purge games with the
operator's token from the environment."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator

import pytest

from service import seating
from service.cli import main
from service.digests import game_id_for_key
from service.store import InMemoryEventStore
from tests.support.api import make_app
from tests.support.live_app import serving

TOKEN = "operator-secret-cli-4242"
OPEN2 = [{"type": "open"}, {"type": "open"}]


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, InMemoryEventStore]]:
    store = InMemoryEventStore()
    app = make_app(store, CARDROOM_ADMIN_TOKEN=TOKEN)
    monkeypatch.setenv("CARDROOM_ADMIN_TOKEN", TOKEN)
    with serving(app) as url:
        yield url, store


def _create(url: str, count: int) -> list[str]:
    ids = []
    for _ in range(count):
        request = urllib.request.Request(
            f"{url}/games", data=json.dumps({"game": "shithead", "seats": OPEN2}).encode(),
            headers={"Content-Type": "application/json"}, method="POST",
        )
        with urllib.request.urlopen(request) as response:
            ids.append(json.loads(response.read())["id"])
    return ids


def test_the_operator_lists_ends_and_purges_a_creator_s_junk_games(
    served: tuple[str, InMemoryEventStore], capsys: pytest.CaptureFixture[str]
) -> None:
    url, store = served
    junk = _create(url, 3)
    assert main(["admin", "--url", url, "games", "--creator", "127.0.0.1"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert sorted(line.split()[0] for line in listed) == sorted(junk)
    assert all("waiting" in line and "127.0.0.1" in line for line in listed)
    # when each was created, as a date the operator reads (UTC), not Unix seconds
    assert all(re.search(r"  \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ  ", line) for line in listed)
    assert main(["admin", "--url", url, "end", junk[0], "--reason", "spam"]) == 0
    assert "ended at version" in capsys.readouterr().out
    assert main(["admin", "--url", url, "purge", "--creator", "127.0.0.1"]) == 0
    out = capsys.readouterr().out
    assert "purged 3 of 3 games" in out
    assert all(store.meta(game_id) is None for game_id in junk)


def test_a_new_game_id_never_starts_with_a_dash_which_a_shell_command_reads_as_an_option(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = iter(["-starts-dashed12", "--two-dashes-abc", "Plain_id-0123456"])
    monkeypatch.setattr(seating.secrets, "token_urlsafe", lambda _n: next(drawn))
    assert seating.new_game_id() == "Plain_id-0123456"


def test_an_older_id_that_starts_with_a_dash_is_named_after_double_dash(
    served: tuple[str, InMemoryEventStore], capsys: pytest.CaptureFixture[str]
) -> None:
    # an Idempotency-Key's game id is a digest of the key (kept across versions): some start
    # with "-"; argparse reads "-Xy..." as an option, "--" ends the options
    key = next(k for k in (f"k{i}" for i in range(10_000)) if game_id_for_key(k).startswith("-"))
    url, store = served
    request = urllib.request.Request(
        f"{url}/games", data=json.dumps({"game": "shithead", "seats": OPEN2}).encode(),
        headers={"Content-Type": "application/json", "Idempotency-Key": key}, method="POST",
    )
    with urllib.request.urlopen(request) as response:
        dashed = json.loads(response.read())["id"]
    assert dashed == game_id_for_key(key)
    assert main(["admin", "--url", url, "end", "--reason", "spam", "--", dashed]) == 0
    assert "ended at version" in capsys.readouterr().out
    meta = store.meta(dashed)
    assert meta is not None and meta.status == "over"


def test_refusals_exit_1_with_the_problem_and_the_token_comes_from_the_environment(
    served: tuple[str, InMemoryEventStore], capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, _ = served
    assert main(["admin", "--url", url, "end", "nosuchgame", "--reason", "x"]) == 1
    assert "404 not_found" in capsys.readouterr().err
    assert main(["admin", "--url", url, "purge"]) == 1  # neither ids nor filters
    monkeypatch.setenv("CARDROOM_ADMIN_TOKEN", "not-the-token")
    assert main(["admin", "--url", url, "games"]) == 1
    assert "403 forbidden" in capsys.readouterr().err
    monkeypatch.delenv("CARDROOM_ADMIN_TOKEN")
    assert main(["admin", "--url", url, "games"]) == 2
    assert "set CARDROOM_ADMIN_TOKEN" in capsys.readouterr().err


def test_the_operator_holds_lists_and_revokes_bot_names(
    served: tuple[str, InMemoryEventStore], capsys: pytest.CaptureFixture[str]
) -> None:
    url, _ = served
    assert main(["bot", "add", "lowball", "--url", url]) == 0
    assert main(["admin", "--url", url, "bots", "add", "helper"]) == 0
    assert main(["admin", "--url", url, "bots", "add", "heuristic"]) == 1  # a built-in name
    capsys.readouterr()
    assert main(["admin", "--url", url, "bots"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in listed] == [["helper", "operator"],
                                                     ["lowball", "operator"]]  # fmt: skip
    assert main(["bot", "revoke", "lowball", "--url", url]) == 0
    assert "lowball: revoked (was operator)" in capsys.readouterr().out
    assert main(["admin", "--url", url, "bots", "list"]) == 0
    assert "lowball  revoked" in capsys.readouterr().out
