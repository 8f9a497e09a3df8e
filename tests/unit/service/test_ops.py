"""Operators' endpoints on the in-memory store: /healthz, /metrics, JSON logs, bot-turn timing."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
from prometheus_client.parser import text_string_to_metric_families

from service import metrics
from tests.support.api import Table, make_app
from tests.unit.service.test_api_events import DEAL


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def value(text: str, name: str, **labels: str) -> float:
    return samples(text).get((name, tuple(sorted(labels.items()))), 0.0)


def test_healthz_answers_without_the_store() -> None:
    response = make_app().test_client().get("/healthz")
    assert response.status_code == 200 and response.get_json() == {"status": "ok"}


def test_readyz_on_the_memory_store_without_bots_is_ready() -> None:
    response = make_app().test_client().get("/readyz")
    assert response.status_code == 200
    assert response.get_json() == {"ready": True, "checks": {"store": "ok"}}


def test_metrics_count_requests_actions_and_open_streams() -> None:
    client = make_app().test_client()
    before = client.get("/metrics").get_data(as_text=True)
    table = Table(client, deal=DEAL, dealer=1)
    table.act(0, {"type": "play", "card": "AS"}, version=table.view(0)["version"])
    stream = client.get(f"/games/{table.id}/stream")  # streamed: open until read
    during = client.get("/metrics")
    assert during.mimetype == "text/plain"
    text = during.get_data(as_text=True)
    route = {"method": "POST", "route": "/games/<game_id>/actions", "status": "200"}
    assert value(text, "cardroom_http_request_seconds_count", **route) == 1 + value(
        before, "cardroom_http_request_seconds_count", **route
    )
    assert value(text, "cardroom_actions_appended_total", game="fake") == 1 + value(
        before, "cardroom_actions_appended_total", game="fake"
    )
    assert value(text, "cardroom_open_streams") == 1 + value(before, "cardroom_open_streams")
    stream.get_data()
    stream.close()
    after = client.get("/metrics").get_data(as_text=True)
    assert value(after, "cardroom_open_streams") == value(before, "cardroom_open_streams")


def test_a_bot_turn_is_timed() -> None:
    def turn() -> str:
        return "played"

    count = value(metrics.exposition().decode(), "cardroom_bot_turn_seconds_count")
    assert metrics.timed_bot_turn(turn)() == "played"
    now = value(metrics.exposition().decode(), "cardroom_bot_turn_seconds_count")
    assert now == count + 1


def test_queue_depths_are_reported() -> None:
    text = metrics.exposition(metrics.queue_depths(lambda: {"cardroom:bots": 3})).decode()
    assert value(text, "cardroom_queue_depth", queue="cardroom:bots") == 3


def test_games_waiting_and_playing_are_gauges_read_from_the_store() -> None:
    client = make_app().test_client()
    Table(client, deal=DEAL, dealer=1)  # two people joined: playing
    client.post("/games", json={"game": "fake", "seats": [{"type": "open"}] * 2})
    text = client.get("/metrics").get_data(as_text=True)
    assert value(text, "cardroom_games", status="playing") == 1
    assert value(text, "cardroom_games", status="waiting") == 1


@pytest.fixture
def root_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def test_json_logs_when_asked(root_logging: None) -> None:
    client = make_app(CARDROOM_LOG_FORMAT="json").test_client()
    out = io.StringIO()
    logging.getLogger().handlers[0].setStream(out)  # type: ignore[attr-defined]
    logging.getLogger("service.api.problems").warning("store unavailable: %s", "down")
    assert client.get("/healthz").status_code == 200
    record = json.loads(out.getvalue().splitlines()[-1])
    assert record["level"] == "warning" and record["message"] == "store unavailable: down"
    assert record["logger"] == "service.api.problems" and record["time"].endswith("Z")
