"""The app factory: configuration from the environment, the store and scheduler it builds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service import config
from service.app import create_app
from service.store import InMemoryEventStore
from service.store.redis import RedisEventStore
from tests.unit.service.test_service import RecordingScheduler

MADE: list[RecordingScheduler] = []


def scheduler_factory(settings: Mapping[str, Any]) -> RecordingScheduler:
    MADE.append(RecordingScheduler())
    return MADE[-1]


def test_settings_come_from_the_environment_with_their_types() -> None:
    settings = config.from_env({"CARDROOM_NAMESPACE": "x", "CARDROOM_CACHE_SIZE": "7",
                                "CARDROOM_SSE_SECONDS": "1.5", "UNRELATED": "1"})
    assert settings["CARDROOM_NAMESPACE"] == "x" and settings["CARDROOM_CACHE_SIZE"] == 7
    assert settings["CARDROOM_SSE_SECONDS"] == 1.5 and "UNRELATED" not in settings
    assert settings["MAX_CONTENT_LENGTH"] == 64 * 1024


def test_without_a_store_the_app_uses_redis_from_its_config() -> None:
    app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "CARDROOM_NAMESPACE": "ns1"})
    store = app.extensions["cardroom"].store
    assert isinstance(store, RedisEventStore) and store.namespace == "ns1"
    assert store.key("abc", "events") == "ns1:game:{abc}:events"


def test_the_scheduler_can_be_named_in_the_config() -> None:
    path = "tests.unit.service.test_app:scheduler_factory"
    app = create_app({"CARDROOM_SCHEDULER": path}, store=InMemoryEventStore())
    assert app.extensions["cardroom"].scheduler is MADE[-1]
    seats = [{"type": "bot", "bot": "random"}, {"type": "bot", "bot": "random"}]
    app.test_client().post("/games", json={"game": "shithead", "seats": seats})
    assert MADE[-1].calls and MADE[-1].calls[0]["to_act"]


def test_each_app_has_its_own_api_and_service() -> None:
    one, two = create_app(store=InMemoryEventStore()), create_app(store=InMemoryEventStore())
    assert one.extensions["cardroom"] is not two.extensions["cardroom"]
    assert one.test_client().get("/openapi.json").json == two.test_client().get(
        "/openapi.json"
    ).json
