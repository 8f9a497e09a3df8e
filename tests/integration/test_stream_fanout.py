"""Stream waits on a real Redis: many at once share one connection and each wakes on its game."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from service.store.redis import RedisEventStore
from tests.support.redis_server import OwnRedis, namespaced, unique_namespace

pytestmark = pytest.mark.integration

WAITERS = 150  # more than redis-py's pool of 100 connections


@pytest.fixture
def store() -> Iterator[RedisEventStore]:
    with namespaced("fanout", RedisEventStore.from_url) as made:
        yield made


def test_many_waits_share_one_connection_and_each_wakes_on_its_own_stream(
    store: RedisEventStore,
) -> None:
    results: dict[int, bool] = {}
    errors: list[BaseException] = []

    def wait(i: int) -> None:
        try:
            results[i] = store.wait(f"g{i}", 0, 20.0)
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=wait, args=(i,)) for i in range(WAITERS)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 10
    while store.waiting() < WAITERS and time.monotonic() < deadline and not errors:
        time.sleep(0.01)
    assert errors == []
    assert store.waiting() == WAITERS, (results, errors)
    for i in range(0, WAITERS, 2):  # the even games move
        store.client.xadd(store.key(f"g{i}", "events"), {"x": "1"}, id="1-0")
    deadline = time.monotonic() + 10
    while len(results) < WAITERS // 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    woken = sorted(results)
    assert woken == list(range(0, WAITERS, 2))
    assert all(results.values())
    # the store's own pool served no blocking read: the waits share the fan-out's connection
    # (a few pooled connections serve the test's XADDs and the reader's wake-up calls, which may
    # overlap on a loaded machine; one per waiter would be WAITERS of them)
    assert len(store.client.connection_pool._connections) <= 4 < WAITERS
    for i in range(1, WAITERS, 2):
        store.client.xadd(store.key(f"g{i}", "events"), {"x": "1"}, id="1-0")
    for thread in threads:
        thread.join(10)
    assert not errors
    assert len(results) == WAITERS and all(results.values())


def test_a_store_that_has_not_waited_yet_has_no_stream_waiting(store: RedisEventStore) -> None:
    assert store.waiting() == 0


def test_a_wait_on_a_quiet_stream_times_out_with_false(store: RedisEventStore) -> None:
    started = time.monotonic()
    assert store.wait("quiet", 0, 1.5) is False
    assert time.monotonic() - started >= 1.5


def test_a_wait_behind_the_stream_returns_at_once(store: RedisEventStore) -> None:
    store.client.xadd(store.key("moved", "events"), {"x": "1"}, id="3-0")
    assert store.wait("moved", 2, 10.0) is True


def test_more_concurrent_commands_than_connections_wait_for_one(tmp_path: Path) -> None:
    """A gevent worker runs hundreds of requests at once: the pool makes them wait for a
    connection instead of failing the 101st with "Too many connections" (a 503)."""
    own = OwnRedis(tmp_path, "--appendonly", "no")
    try:
        store = RedisEventStore.from_url(own.url, unique_namespace())
        errors: list[BaseException] = []

        def fetch() -> None:
            try:
                store.fetch("some-game", 0)
            except BaseException as err:
                errors.append(err)

        redis.Redis.from_url(own.url).execute_command("CLIENT", "PAUSE", "400", "ALL")
        threads = [threading.Thread(target=fetch) for _ in range(250)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert errors == []
    finally:
        own.stop()


def test_streams_woken_by_a_move_wait_again_without_interrupting_the_reader(
    store: RedisEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Streams woken by a move read the game and wait again from the new version: the reader's
    next XREAD already covers them, so a move costs no CLIENT UNBLOCK (each was a round trip
    and an XREAD sent again, 3-10 % of a web worker in bench_streams). A move appends a batch
    of entries, as an action does. Another game is waited on meanwhile, so the reader is always
    blocked on something when they come back."""
    from service.store.fanout import Fanout

    followers, moves, batch = 5, 6, 3
    quiet: list[bool] = []
    threading.Thread(target=lambda: quiet.append(store.wait("quiet", 0, 30.0)),
                     daemon=True).start()  # fmt: skip
    deadline = time.monotonic() + 10
    while store.waiting() < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    fanout = store._fanout
    assert isinstance(fanout, Fanout)
    nudges: list[float] = []
    nudge = fanout._nudge
    monkeypatch.setattr(fanout, "_nudge", lambda: (nudges.append(time.monotonic()), nudge()))
    seen: dict[int, list[int]] = {i: [] for i in range(followers)}

    def follow(i: int) -> None:
        version = 0
        while version < moves * batch:
            if store.wait("played", version, 10.0):
                time.sleep(0.05)  # a stream reads the game (a round trip or more) ...
                version += batch  # ... then waits again from where it is now
                seen[i].append(version)

    threads = [threading.Thread(target=follow, args=(i,)) for i in range(followers)]
    for thread in threads:
        thread.start()
    for move in range(1, moves + 1):
        deadline = time.monotonic() + 10
        while (store.waiting() < followers + 1 or not all(len(seen[i]) == move - 1
               for i in seen)) and time.monotonic() < deadline:  # fmt: skip
            time.sleep(0.005)
        if move == 2:
            nudges.clear()  # the first wait on the played game interrupts the reader, once
        pipe = store.client.pipeline(transaction=True)
        for version in range((move - 1) * batch + 1, move * batch + 1):
            pipe.xadd(store.key("played", "events"), {"x": "1"}, id=f"{version}-0")
        pipe.execute()
    for thread in threads:
        thread.join(10)
    expected = list(range(batch, moves * batch + 1, batch))
    assert all(versions == expected for versions in seen.values()), seen
    # one interruption a move before (the woken re-waited on a stream the reader had dropped)
    assert len(nudges) <= 1, len(nudges)
    store.client.xadd(store.key("quiet", "events"), {"x": "1"}, id="1-0")
