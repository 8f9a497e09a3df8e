"""Event streams on the real server (`cardroom serve`: gunicorn, gevent workers, Redis).

- many streams open at once while the action endpoint still answers (sync workers were each
  held by one stream; one XREAD connection per stream ran out of Redis connections);
- an idle stream lives its whole configured lifetime with heartbeats and ends cleanly (a
  blocking XREAD longer than redis-py's 5 s socket timeout ended it with a traceback).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import Stack

pytestmark = pytest.mark.e2e

STREAMS = 150  # bounded for the test; benchmarks/bench_streams.py holds 500


@pytest.fixture(scope="module")
def quiet_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    # heartbeat 6 s > redis-py's 5 s socket timeout; lifetime 12 s
    env = {"CARDROOM_SSE_SECONDS": "12", "CARDROOM_SSE_HEARTBEAT": "6"}
    running = Stack(tmp_path_factory.mktemp("streams"), bot_workers=0, env=env)
    yield running
    running.stop()


async def _open_stream(port: int, path: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A stream opened as EventSource does: a connection closed before any answer is opened
    again. gevent's gunicorn closes one whose request it has not read within its keep-alive
    (2 s), as it closes an idle one; 150 opened at once on a busy machine (load 13 on 2 cores)
    can leave the client, or the worker, that long between the accept and the read."""
    for _ in range(3):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        status = await asyncio.wait_for(reader.readline(), 30)
        if status:
            break
        writer.close()
    assert b" 200 " in status, status
    while (await asyncio.wait_for(reader.readline(), 30)).strip():
        pass  # headers
    first = await asyncio.wait_for(reader.readuntil(b"\n\n"), 30)
    assert b"retry:" in first, first
    return reader, writer


def _two_people(stack: Stack) -> tuple[str, list[dict[str, str]]]:
    game = stack.create("shithead", [{"type": "open"}, {"type": "open"}])
    auth = []
    for seat in (0, 1):
        joined = stack.http.post(
            f"{stack.base}/games/{game['id']}/seats/{seat}", json={"name": f"p{seat}"}, timeout=30
        )
        assert joined.status_code in (200, 201), joined.text
        auth.append({"Authorization": f"Bearer {joined.json()['token']}"})
    return game["id"], auth


def _act(stack: Stack, game_id: str, auth: list[dict[str, str]]) -> int:
    summary = stack.http.get(f"{stack.base}/games/{game_id}", timeout=30).json()
    seat = summary["to_act"][0]
    view = stack.http.get(f"{stack.base}/games/{game_id}/view", headers=auth[seat], timeout=30)
    action = view.json()["view"]["legal_actions"][0]
    response = stack.http.post(
        f"{stack.base}/games/{game_id}/actions",
        json={**action, "expected_version": view.json()["version"]},
        headers=auth[seat],
        timeout=30,
    )
    return response.status_code


def test_many_open_streams_do_not_stop_actions(quiet_stack: Stack) -> None:
    stack = quiet_stack
    idle = [stack.create("shithead", [{"type": "open"}] * 2)["id"] for _ in range(10)]
    game_id, auth = _two_people(stack)

    async def scenario() -> tuple[int, list[int], int, int]:
        paths = [f"/games/{idle[i % len(idle)]}/stream" for i in range(STREAMS - 10)]
        paths += [f"/games/{game_id}/stream"] * 10  # some follow the game being played
        opened = await asyncio.gather(*(_open_stream(stack.port, p) for p in paths))
        # every stream is open now: the API still answers, actions are appended
        codes = [await asyncio.to_thread(_act, stack, game_id, auth) for _ in range(5)]
        created = await asyncio.to_thread(
            stack.http.post,
            f"{stack.base}/games",
            json={"game": "shithead", "seats": [{"type": "open"}] * 2},
            timeout=30,
        )
        # the followers saw the actions; none of the streams has ended
        followed = 0
        for reader, _ in opened[-10:]:
            seen = b""
            while seen.count(b"event: event") < 5:
                seen += await asyncio.wait_for(reader.readuntil(b"\n\n"), 10)
            followed += 1
        still_open = sum(not reader.at_eof() for reader, _ in opened)
        for _, writer in opened:
            writer.close()
        return still_open, codes, created.status_code, followed

    still_open, codes, created, followed = asyncio.run(scenario())
    assert codes == [200] * 5
    assert created == 201
    assert followed == 10
    assert still_open == STREAMS


def test_an_idle_stream_lives_its_lifetime_with_heartbeats(quiet_stack: Stack) -> None:
    """A connection lives between half of CARDROOM_SSE_SECONDS (12 s here) and all of it
    (``events.lifetime``), sending a comment every heartbeat (6 s) while nothing happens."""
    stack = quiet_stack
    game_id = stack.create("shithead", [{"type": "open"}] * 2)["id"]

    async def follow() -> tuple[float, bytes]:
        started = time.monotonic()
        reader, writer = await _open_stream(stack.port, f"/games/{game_id}/stream")
        rest = await asyncio.wait_for(reader.read(), 30)  # to the end of the response
        writer.close()
        return time.monotonic() - started, rest

    lived, rest = asyncio.run(follow())
    assert 5.9 <= lived <= 15, f"the stream ended after {lived:.1f} s, not within 6-12 s"
    assert b": keep-alive" in rest
    assert rest.endswith(b"0\r\n\r\n"), "the chunked response did not end cleanly"
    logs = "".join(Path(p).read_text() for p in stack.log_of.values())
    assert "Traceback" not in logs
