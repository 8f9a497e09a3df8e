"""The action endpoint's hot path answers exactly what the documented flask-smorest view does,
and hands whatever it does not take as it is to that view."""

from __future__ import annotations

import re
from typing import Any

import pytest

from service.api import actions
from service.store import InMemoryEventStore
from tests.support.api import Table, make_app

DEAL = {"seats": [{"hand": ["AS", "9H"]}, {"hand": ["KD", "TC"]}]}
DEALT = 5
HEX = re.compile("[0-9a-f]{64}")


def two_tables(monkeypatch: pytest.MonkeyPatch) -> tuple[Table, Table]:
    direct = Table(make_app(InMemoryEventStore()).test_client(), deal=DEAL, dealer=1)
    with monkeypatch.context() as patch:
        patch.setattr(actions, "install_direct", lambda app: None)  # the generic view only
        generic = Table(make_app(InMemoryEventStore()).test_client(), deal=DEAL, dealer=1)
    return direct, generic


def same_answer(one: Any, two: Any) -> None:
    assert one.status_code == two.status_code
    assert one.headers.get("ETag") == two.headers.get("ETag")
    assert one.headers["Content-Type"] == two.headers["Content-Type"]
    # each game has its own secret: its own commitment and head hashes
    first, second = (HEX.sub("<hex>", r.get_data(as_text=True)) for r in (one, two))
    assert first == second


def test_the_hot_path_answers_byte_for_byte_as_the_documented_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    direct, generic = two_tables(monkeypatch)
    plays: list[tuple[int, dict[str, Any], int, dict[str, str]]] = [
        (0, {"type": "play", "card": "AS"}, DEALT, {"Idempotency-Key": "k1"}),
        (0, {"type": "play", "card": "AS"}, DEALT, {"Idempotency-Key": "k1"}),  # retried
        (1, {"type": "play", "card": "KD"}, DEALT, {}),  # stale: 409
        (1, {"type": "play", "card": "QQ"}, DEALT + 1, {}),  # refused by the rules
        (1, {"type": "play", "card": "KD", "seat": 1}, DEALT + 1, {"If-Match": '"6"'}),
    ]
    for seat, action, version, headers in plays:
        same_answer(direct.act(seat, action, version, **headers),
                    generic.act(seat, action, version, **headers))  # fmt: skip


@pytest.mark.parametrize(
    "body",
    [
        {"type": 7, "expected_version": DEALT},
        {"type": "play", "card": "AS", "expected_version": -1},
        {"type": "play", "card": "AS", "expected_version": "5"},
        {"type": "play", "card": "AS", "expected_version": True},
        ["not", "an", "object"],
    ],
)
def test_what_the_schemas_refuse_is_refused_as_the_documented_view_does(
    monkeypatch: pytest.MonkeyPatch, body: Any
) -> None:
    direct, generic = two_tables(monkeypatch)
    headers = [{"Authorization": f"Bearer {t.tokens[0]}"} for t in (direct, generic)]
    same_answer(
        direct.client.post(f"/games/{direct.id}/actions", json=body, headers=headers[0]),
        generic.client.post(f"/games/{generic.id}/actions", json=body, headers=headers[1]),
    )


def test_a_plain_action_does_not_go_through_the_generic_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = Table(make_app(InMemoryEventStore()).test_client(), deal=DEAL, dealer=1)

    def generic(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the generic view served a plain action")

    monkeypatch.setattr(actions.Actions, "post", generic)
    response = table.act(0, {"type": "play", "card": "AS"}, DEALT, key="k1")
    assert response.status_code == 200 and response.json["version"] == DEALT + 1
