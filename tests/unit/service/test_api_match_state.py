"""Over HTTP: an explicit Sixty-Six deal that starts in the middle of a match."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from service.store import InMemoryEventStore
from tests.support.api import Table
from tests.unit.sixty_six.helpers import explicit_deal


def _deal(**extra: Any) -> dict[str, Any]:
    deal = explicit_deal("TC TD 9H QS KS 9D", "AC AD KH QH 9S JS", "TH")
    deal["extra"].update(extra)
    return deal


def test_a_match_starts_at_5_6_with_two_carried_points(client: FlaskClient) -> None:
    table = Table(client, game="sixty_six", dealer=0,
                  deal=_deal(match_points=[5, 6], carry_over=2, deal_number=4))
    view = table.view(0)["view"]
    assert (view["game_points"], view["carry_over"], view["deal_number"]) == ([5, 6], 2, 4)
    assert table.summary()["prearranged"] is True


def test_a_bad_match_state_is_a_422_naming_the_field(
    client: FlaskClient, store: InMemoryEventStore
) -> None:
    body = {"game": "sixty_six", "seats": [{"type": "open"}] * 2, "dealer": 0,
            "deal": _deal(match_points=[7, 0])}
    response = client.post("/games", json=body)
    assert response.status_code == 422
    problem = response.json
    assert problem["code"] == "invalid_deal"
    assert problem["field"] == "deal.extra.match_points[0]"
    assert "deal.extra.match_points[0]" in problem["detail"]
    assert store.list_games() == []
