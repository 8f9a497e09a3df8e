"""Event logs and the live stream over HTTP."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.store import InMemoryEventStore
from tests.support.api import Table, make_app
from tests.unit.service.test_api_games import problem_of

DEAL = {"seats": [{"hand": ["AS", "9H"]}, {"hand": ["KD", "TC"]}]}
DEALT = 5  # GameCreated, a SeatFilled per seat, then the fake game's start and deal
PLAYS = ((0, "AS"), (1, "KD"), (0, "9H"), (1, "TC"))




@pytest.fixture
def table(client: FlaskClient) -> Table:
    return Table(client, deal=DEAL, dealer=1)


def sse(text: str) -> list[dict[str, str]]:
    messages = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            name, _, value = line.partition(": ")
            fields[name] = value
        if fields:
            messages.append(fields)
    return messages


def test_during_play_each_seat_reads_only_its_redacted_events(
    table: Table, store: InMemoryEventStore
) -> None:
    mine = table.events(0)
    assert mine["over"] is False and mine["version"] == DEALT
    dealt = mine["events"][4]["event"]
    assert dealt["hands"] == [["AS", "9H"], 2]
    assert "seed" not in mine["events"][3]["event"]
    assert table.events(None)["events"][4]["event"]["hands"] == [2, 2]
    assert all("command" not in e and "prev_hash" not in e for e in mine["events"])
    # each item carries its hash as a receipt (the chain is salted: safe to publish)
    assert [e["hash"] for e in mine["events"]] == [s.hash for s in store.read(table.id)]
    assert mine["head_hash"] == store.read(table.id)[-1].hash


def test_events_after_a_version_are_only_the_newer_ones(table: Table) -> None:
    table.act(0, {"type": "play", "card": "AS"}, version=DEALT)
    assert [e["version"] for e in table.events(1, after=DEALT)["events"]] == [DEALT + 1]
    assert table.events(1, after=DEALT + 1)["events"] == []
    assert table.events(1, after=99)["events"] == []
    problem_of(table.client.get(f"/games/{table.id}/events?after=-1"), 422, "invalid_request")
    problem_of(table.client.get(f"/games/{table.id}/events?after=x"), 422, "invalid_request")


def test_once_over_the_full_log_with_commands_and_hashes_is_readable(
    table: Table, store: InMemoryEventStore
) -> None:
    for step, (seat, card) in enumerate(PLAYS):
        table.act(seat, {"type": "play", "card": card}, version=DEALT + step)
    log = table.events(None)
    assert log["over"] is True
    first = log["events"][0]
    assert first["command"]["kind"] == "create" and first["event"]["prearranged"] is True
    assert log["events"][2]["command"]["kind"] == "join" and log["events"][2]["batch"] == 3
    assert log["events"][3]["event"]["seed"] == "table-seed"
    assert log["events"][4]["event"]["hands"] == [["AS", "9H"], ["KD", "TC"]]
    assert log["events"][-1]["event"]["type"] == "lifecycle.SecretRevealed"
    stored = store.read(table.id)
    assert [(e["hash"], e["prev_hash"]) for e in log["events"]] == [
        (s.hash, s.prev_hash) for s in stored
    ]
    assert [e["command"] for e in log["events"] if "command" in e][3:] == [
        {"kind": "action", "seat": s, "action": {"type": "play", "card": c}}
        for s, c in ((0, "AS"), (1, "KD"), (0, "9H"), (1, "TC"))
    ]


def test_a_view_needs_a_valid_token_or_none(table: Table) -> None:
    assert table.view(None)["view"]["legal_actions"] == []
    assert table.view(None)["seat"] is None
    url = f"/games/{table.id}/view"
    problem_of(table.client.get(url, headers={"Authorization": "Bearer nope"}), 401,
               "unauthorized")
    problem_of(table.client.get(url, headers={"Authorization": "Token x"}), 401, "unauthorized")


def test_the_stream_sends_retry_then_events_with_their_versions(table: Table) -> None:
    response = table.client.get(f"/games/{table.id}/stream", headers=table.headers(0))
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    messages = sse(response.get_data(as_text=True))
    assert messages[0].keys() == {"retry"} and 1000 <= int(messages[0]["retry"]) < 2000
    events = [m for m in messages if m.get("event") == "event"]
    assert [m["id"] for m in events] == ["1", "2", "3", "4", "5"]
    assert json.loads(events[4]["data"])["event"]["hands"] == [["AS", "9H"], 2]
    assert len(json.loads(events[4]["data"])["hash"]) == 64  # every message carries a receipt


def test_the_stream_resumes_after_last_event_id(table: Table) -> None:
    table.act(0, {"type": "play", "card": "AS"}, version=DEALT)
    headers = {**table.headers(1), "Last-Event-ID": str(DEALT)}
    text = table.client.get(f"/games/{table.id}/stream", headers=headers).get_data(as_text=True)
    assert [m["id"] for m in sse(text) if m.get("event") == "event"] == [str(DEALT + 1)]
    bad = {"Last-Event-ID": "two"}
    problem_of(table.client.get(f"/games/{table.id}/stream", headers=bad), 400,
               "invalid_request")


def test_the_stream_delivers_events_appended_while_it_is_open(
    store: InMemoryEventStore,
) -> None:
    client = make_app(store, CARDROOM_SSE_SECONDS=10).test_client()
    table = Table(client, deal=DEAL, dealer=1)

    def play_to_the_end() -> None:
        for step, (seat, card) in enumerate(PLAYS):
            table.act(seat, {"type": "play", "card": card}, version=DEALT + step)

    timer = threading.Timer(0.1, play_to_the_end)
    timer.start()
    text = client.get(f"/games/{table.id}/stream?after={DEALT}").get_data(as_text=True)
    timer.join()
    messages = sse(text)
    ids = [int(m["id"]) for m in messages if m.get("event") == "event"]
    assert ids == list(range(DEALT + 1, DEALT + 7))  # 4 plays, the end, the reveal
    assert messages[-1]["event"] == "over"


def test_the_stream_ends_with_over_when_the_game_ends(table: Table) -> None:
    for step, (seat, card) in enumerate(PLAYS):
        table.act(seat, {"type": "play", "card": card}, version=DEALT + step)
    url = f"/games/{table.id}/stream?after={DEALT + 3}"
    messages = sse(table.client.get(url).get_data(as_text=True))
    assert [m.get("event") for m in messages[1:]] == ["event", "event", "event", "over"]



def test_the_event_log_is_paginated_by_limit_and_a_version_cursor(
    table: Table, store: InMemoryEventStore
) -> None:
    for seat, card, version in ((0, "AS", 2), (1, "KD", 3), (0, "9H", 4)):
        table.act(seat, {"type": "play", "card": card}, version=version)
    url = f"/games/{table.id}/events"
    pages, after = [], 0
    while after is not None and len(pages) < 10:
        page = table.client.get(f"{url}?after={after}&limit=2", headers=table.headers(0)).json
        pages.append([e["version"] for e in page["events"]])
        assert page["version"] == 5
        after = page["next_after"]
    assert pages == [[1, 2], [3, 4], [5]]
    whole = table.client.get(url, headers=table.headers(0)).json
    assert [e["version"] for e in whole["events"]] == [1, 2, 3, 4, 5]
    assert whole["next_after"] is None
    problem_of(table.client.get(f"{url}?limit=0"), 422, "invalid_request")
    problem_of(table.client.get(f"{url}?limit=1001"), 422, "invalid_request")


def test_the_default_page_is_bounded_and_documented(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").json
    params = spec["paths"]["/games/{game_id}/events"]["get"]["parameters"]
    limit = next(p for p in params if p["name"] == "limit")["schema"]
    assert limit["default"] == 200 and limit["maximum"] == 1000


def test_each_stream_lives_its_own_share_of_the_stream_lifetime(
    store: InMemoryEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Streams opened together must not all end (and reconnect) together: each connection's
    lifetime is drawn between half of CARDROOM_SSE_SECONDS and all of it."""
    import random
    import time

    client = make_app(store, CARDROOM_SSE_SECONDS=0.6, CARDROOM_SSE_HEARTBEAT=0.05).test_client()
    table = Table(client, deal=DEAL, dealer=1)
    draws = iter([0.0, 0.5, 0.999, 0.5])  # each stream: its lifetime, then its retry
    monkeypatch.setattr(random, "random", lambda: next(draws))
    lasted = []
    for _ in range(2):
        started = time.monotonic()
        client.get(f"/games/{table.id}/stream?after={DEALT}").get_data(as_text=True)
        lasted.append(time.monotonic() - started)
    assert 0.55 <= lasted[0] < 0.9  # the whole lifetime
    assert 0.28 <= lasted[1] < 0.45  # half of it


def test_each_stream_tells_its_own_reconnection_delay_between_retry_and_twice_it(
    store: InMemoryEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Streams cut together (a restart, a network failure) must not all come back in the same
    instant: each connection's ``retry:`` is drawn between CARDROOM_SSE_RETRY_MS and twice it."""
    import random

    client = make_app(store, CARDROOM_SSE_SECONDS=0.05, CARDROOM_SSE_RETRY_MS=1000).test_client()
    table = Table(client, deal=DEAL, dealer=1)
    draws = iter([0.5, 0.0, 0.5, 0.999])  # each stream: its lifetime, then its retry
    monkeypatch.setattr(random, "random", lambda: next(draws))
    told = []
    for _ in range(2):
        text = client.get(f"/games/{table.id}/stream?after={DEALT}").get_data(as_text=True)
        told.append(sse(text)[0])
    assert told == [{"retry": "1000"}, {"retry": "1999"}]


def test_the_streams_of_a_game_woken_together_share_one_read_of_the_store(
    store: InMemoryEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five streams of one game in one process, woken by the same action: one store read for
    all of them after the wait, not one each (bench_streams: those reads were the web's CPU)."""
    import time

    client = make_app(store, CARDROOM_SSE_SECONDS=3, CARDROOM_SSE_HEARTBEAT=3).test_client()
    table = Table(client, deal=DEAL, dealer=1)
    streams = 5
    reads: list[str] = []
    fetch = store.fetch

    def slow_fetch(game_id: str, after: int, idempotency_key: str | None = None) -> Any:
        if threading.current_thread().name.startswith("stream-"):
            reads.append(threading.current_thread().name)
            time.sleep(0.2)  # a store round trip the other woken streams overlap
        return fetch(game_id, after, idempotency_key)

    got: dict[str, list[str]] = {}

    def follow(name: str) -> None:
        text = client.get(f"/games/{table.id}/stream?after={DEALT}").get_data(as_text=True)
        got[name] = [m["id"] for m in sse(text) if m.get("event") == "event"]

    threads = [threading.Thread(target=follow, args=(f"stream-{i}",), name=f"stream-{i}")
               for i in range(streams)]  # fmt: skip
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # all five opened (their first reads done) and waiting
    monkeypatch.setattr(store, "fetch", slow_fetch)
    for step, (seat, card) in enumerate(PLAYS):
        table.act(seat, {"type": "play", "card": card}, version=DEALT + step)
    for thread in threads:
        thread.join()
    assert all(ids == [str(v) for v in range(DEALT + 1, DEALT + 7)] for ids in got.values())
    assert len(got) == streams
    # the five woke together: one read (two if one woke late), not one each
    assert len(reads) <= 2, reads


def test_open_spectator_streams_are_counted_in_the_summary_and_the_view(
    store: InMemoryEventStore,
) -> None:
    client = make_app(store, CARDROOM_SSE_SECONDS=30).test_client()
    table = Table(client, deal=DEAL, dealer=1)
    url = f"/games/{table.id}/stream"

    def counted() -> tuple[int, int, int]:
        return (client.get(f"/games/{table.id}").json["spectators"],
                table.view(0)["spectators"], table.view(None)["spectators"])  # fmt: skip

    def opened(**kwargs: Any) -> Any:
        response = client.get(url, buffered=False, **kwargs)
        body = iter(response.response)
        next(body), next(body)  # the retry, then the events so far: the stream is open
        return response

    assert counted() == (0, 0, 0)
    watching = [opened(), opened()]
    seat = opened(headers=table.headers(1))  # a seat's own stream is no spectator
    assert counted() == (2, 2, 2)
    watching[0].close()
    assert counted() == (1, 1, 1)
    watching[1].close()
    seat.close()
    assert counted() == (0, 0, 0)
    spec = client.get("/openapi.json").json["components"]["schemas"]
    assert spec["Summary"]["properties"]["spectators"]["type"] == "integer"
    assert spec["View"]["properties"]["spectators"]["type"] == "integer"


def test_streams_resuming_a_game_together_share_one_first_read_each_checking_its_seat(
    store: InMemoryEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six streams of one game resuming from the same Last-Event-ID at the same time (a crowd
    reconnecting, bench_streams' followers moving on to the next game): one store read for
    their first batch, not one each; every stream still gets its own seat's events, and a
    token that holds no seat is refused (401) by that same read, before its stream opens."""
    import time

    from service.api import events

    client = make_app(store).test_client()
    table = Table(client, deal=DEAL, dealer=1)
    table.act(0, {"type": "play", "card": "AS"}, version=DEALT)
    table.act(1, {"type": "play", "card": "KD"}, version=DEALT + 1)
    monkeypatch.setattr(events, "lifetime", lambda seconds: 0.0)  # the first batch, then end
    reads: list[str] = []
    fetch = store.fetch

    def slow_fetch(game_id: str, after: int, idempotency_key: str | None = None) -> Any:
        if threading.current_thread().name.startswith("stream-"):
            reads.append(threading.current_thread().name)
            time.sleep(0.3)  # a store round trip the other reconnects overlap
        return fetch(game_id, after, idempotency_key)

    monkeypatch.setattr(store, "fetch", slow_fetch)
    who = [None, None, None, 0, 1, "not-a-token"]
    got: dict[int, tuple[int, list[dict[str, str]]]] = {}

    def resume(i: int) -> None:
        token = who[i]
        headers = {"Last-Event-ID": str(DEALT - 1)}  # from the deal on
        if isinstance(token, int):
            headers.update(table.headers(token))
        elif token is not None:
            headers["Authorization"] = f"Bearer {token}"
        response = client.get(f"/games/{table.id}/stream", headers=headers)
        got[i] = (response.status_code, sse(response.get_data(as_text=True)))

    threads = [threading.Thread(target=resume, args=(i,), name=f"stream-{i}")
               for i in range(len(who))]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert [got[i][0] for i in range(len(who))] == [200] * 5 + [401]
    hands = []
    for i in range(5):
        batch = [m for m in got[i][1] if m.get("event") == "event"]
        assert [m["id"] for m in batch] == [str(v) for v in range(DEALT, DEALT + 3)]
        hands.append(json.loads(batch[0]["data"])["event"]["hands"])
    # each reads its own seat's redaction of that one read
    assert hands == [[2, 2]] * 3 + [[["AS", "9H"], 2], [2, ["KD", "TC"]]]
    # the six arrived together: one read (two if one came late), not six
    assert len(reads) <= 2, reads


def test_streams_of_one_seat_woken_together_share_the_page_made_of_their_read(
    store: InMemoryEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six spectators and a seat's own stream woken by the same move: their shared read makes
    one page for the spectators and one for the seat (redacting, narrating, a receipt per
    event: bench_streams' woken followers each made their own), each still sent as its reader
    may see it."""
    import time

    from service.reading import Reading

    client = make_app(store, CARDROOM_SSE_SECONDS=2, CARDROOM_SSE_HEARTBEAT=2).test_client()
    table = Table(client, deal=DEAL, dealer=1)
    who = [None] * 6 + [1]
    got: dict[int, list[dict[str, Any]]] = {}

    def follow(i: int) -> None:
        headers = table.headers(who[i])
        text = client.get(f"/games/{table.id}/stream?after={DEALT}", headers=headers).get_data(
            as_text=True
        )
        got[i] = [json.loads(m["data"]) for m in sse(text) if m.get("event") == "event"]

    threads = [threading.Thread(target=follow, args=(i,), name=f"stream-{i}")
               for i in range(len(who))]  # fmt: skip
    for thread in threads:
        thread.start()
    time.sleep(0.8)  # all opened and waiting
    made: list[int | None] = []
    fetch, events_out = store.fetch, Reading._events_out

    def slow_fetch(game_id: str, after: int, idempotency_key: str | None = None) -> Any:
        if threading.current_thread().name.startswith("stream-"):
            time.sleep(0.2)  # a store round trip the other woken streams overlap
        return fetch(game_id, after, idempotency_key)

    def counted(self: Reading, game_id: str, loaded: Any, newer: Any, seat: int | None) -> Any:
        if any(s.version == DEALT + 1 for s in newer):  # the move's page, not a later one
            made.append(seat)
        return events_out(self, game_id, loaded, newer, seat)

    monkeypatch.setattr(store, "fetch", slow_fetch)
    monkeypatch.setattr(Reading, "_events_out", counted)
    table.act(0, {"type": "play", "card": "AS"}, version=DEALT)
    for thread in threads:
        thread.join(10)
    moved = [[e for e in got[i] if e["version"] == DEALT + 1] for i in range(len(who))]
    assert all(len(m) == 1 for m in moved), got
    assert all(m == moved[0] for m in moved[:6])  # the spectators' page
    # one page a seat (two if a stream woke late and read on its own), not one a stream
    assert sorted(made, key=str).count(None) <= 2 and made.count(1) <= 2, made
    assert len(made) <= 3, made
