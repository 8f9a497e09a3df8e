"""The action limit is counted in one place, in front of Flask (``service.api.hotpath``): every
request to the action endpoint, whatever Flask then makes of it."""

from __future__ import annotations

from service.store import InMemoryEventStore
from tests.support.api import Table, make_app
from tests.unit.service.test_api_games import problem_of

DEAL = {"seats": [{"hand": ["AS", "9H"]}, {"hand": ["KD", "TC"]}]}


def dealt_table(store: InMemoryEventStore) -> tuple[Table, int]:
    client = make_app(store, CARDROOM_RATE_LIMITS=1, CARDROOM_LIMIT_ACTIONS="2 per minute")
    table = Table(client.test_client(), deal=DEAL, dealer=1)
    return table, store.version(table.id)


def test_requests_flask_refuses_before_any_view_are_counted_too() -> None:
    store = InMemoryEventStore()
    table, dealt = dealt_table(store)
    headers = {"Authorization": f"Bearer {table.tokens[0]}", "Content-Type": "application/json"}
    nested = "[" * 40 + "]" * 40  # deeper than the body checks take
    deep = f'{{"type": "play", "card": "AS", "expected_version": {dealt}, "note": {nested}}}'
    problem_of(table.client.post(f"/games/{table.id}/actions", data=deep, headers=headers), 400,
               "invalid_request")  # fmt: skip
    problem_of(table.client.post(f"/games/{table.id}/actions", data="{", headers=headers), 400,
               "invalid_request")  # fmt: skip
    refused = table.act(0, {"type": "play", "card": "AS"}, version=dealt)  # the third request
    problem_of(refused, 429, "rate_limited")
    assert store.version(table.id) == dealt
