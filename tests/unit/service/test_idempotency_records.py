"""What an action's idempotency record keeps and matches: 64 bits of its request's fingerprint
(a request agreeing on fewer bits is another request), for as long as the service's settings
say once the game is over."""

from __future__ import annotations

import fakeredis
import pytest
from flask.testing import FlaskClient

from service.api.deps import EXTENSION
from service.responses import FINGERPRINT_CHARS, same_request
from service.store import InMemoryEventStore
from service.store.game_keys import IDEM_PART
from service.store.redis import RedisEventStore
from tests.support.api import Table, make_app
from tests.unit.service.test_api_games import problem_of


def test_an_action_s_record_keeps_64_bits_of_its_request_s_fingerprint(
    store: InMemoryEventStore, client: FlaskClient
) -> None:
    table = Table(client, game="sixty_six", players=2)
    version = table.view(0)["version"]
    assert table.act(0, {"type": "abort"}, version=version, key="k1").status_code == 200
    fingerprint, _, recorded = store._games[table.id].keys["seat:0:k1"].rpartition(":")
    assert FINGERPRINT_CHARS == len(fingerprint) == 16 and int(recorded) == version + 1
    other = table.act(0, {"type": "abort"}, version=version + 1, key="k1")
    problem_of(other, 422, "idempotency_key_reused")


def test_a_fingerprint_matches_only_a_request_agreeing_on_64_bits() -> None:
    request = "0123456789abcdef" + "0" * 48
    assert same_request(request[:16], request) and same_request(request, request)
    assert not same_request(request[:8], request)  # too short to tell requests apart
    assert not same_request("01234567" + "f" * 8, request)  # agrees on 32 bits only
    assert not same_request("0123456789abcdee", request)


def test_the_idempotency_ttl_setting_is_the_stores(monkeypatch: pytest.MonkeyPatch) -> None:
    client = fakeredis.FakeRedis(decode_responses=True)
    monkeypatch.setattr(RedisEventStore, "from_url", classmethod(
        lambda cls, url, namespace, ttl=None: cls(client, namespace, ttl)))
    app = make_app(redis=True, CARDROOM_IDEMPOTENCY_TTL="2.5")
    store = app.extensions[EXTENSION].store
    assert store.idempotency_ttl == 2.5
    table = Table(app.test_client(), game="sixty_six", players=2)
    version = table.view(0)["version"]
    assert table.act(0, {"type": "resign"}, version=version, key="k").status_code == 200
    assert 0 < client.pttl(store.key(table.id, IDEM_PART)) <= 2500  # the game is over
