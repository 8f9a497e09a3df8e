"""Stream tickets: a seat's private stream for an EventSource, without the token in a URL."""

from __future__ import annotations

import json
import time

import pytest
from flask.testing import FlaskClient

from service import tickets
from service.errors import Unauthorized
from tests.support.api import Table, make_app
from tests.unit.service.test_api_events import DEAL, sse
from tests.unit.service.test_api_games import problem_of


@pytest.fixture
def client() -> FlaskClient:
    return make_app(CARDROOM_STREAM_TICKET_SECONDS=60).test_client()


@pytest.fixture
def table(client: FlaskClient) -> Table:
    return Table(client, deal=DEAL, dealer=1)


def _ticket(table: Table, seat: int) -> dict[str, object]:
    response = table.client.post(f"/games/{table.id}/stream-tickets", headers=table.headers(seat))
    assert response.status_code == 201, response.json
    return dict(response.json)


def _dealt_hands(table: Table, query: str) -> object:
    text = table.client.get(f"/games/{table.id}/stream?{query}").get_data(as_text=True)
    events = [m for m in sse(text) if m.get("event") == "event"]
    dealt = [json.loads(m["data"])["event"] for m in events]
    return next(e["hands"] for e in dealt if e["type"] == "fake.CardsDealt")


def test_a_ticket_follows_its_seats_private_stream_and_can_be_reused(table: Table) -> None:
    issued = _ticket(table, 0)
    assert issued["expires_in"] == 60
    ticket = str(issued["ticket"])
    assert table.tokens[0] not in ticket
    for _ in range(2):  # an EventSource reconnects with the same URL
        assert _dealt_hands(table, f"ticket={ticket}") == [["AS", "9H"], 2]
    assert _dealt_hands(table, f"ticket={_ticket(table, 1)['ticket']}") == [2, ["KD", "TC"]]
    assert _dealt_hands(table, "") == [2, 2]  # no ticket, no token: a spectator


def test_a_ticket_needs_a_seat_token(table: Table) -> None:
    problem_of(table.client.post(f"/games/{table.id}/stream-tickets"), 401, "unauthorized")
    bad = {"Authorization": "Bearer not-a-token"}
    problem_of(table.client.post(f"/games/{table.id}/stream-tickets", headers=bad), 401,
               "unauthorized")  # fmt: skip
    problem_of(table.client.post("/games/nosuchgame000000/stream-tickets",
                                 headers=table.headers(0)), 404, "not_found")  # fmt: skip


def test_unknown_forged_foreign_and_expired_tickets_are_401(
    table: Table, client: FlaskClient
) -> None:
    ticket = str(_ticket(table, 0)["ticket"])
    seat, expires, mac = ticket.split(".")
    other = Table(client, deal=DEAL, dealer=1)
    meta = table.client.application.extensions["cardroom"].store.meta(table.id)
    expired = tickets.issue(meta, 0, time.time() - 120, 60)
    for bad in (
        "nonsense",
        f"1.{expires}.{mac}",  # another seat
        f"{seat}.{int(expires) + 1000}.{mac}",  # a longer life
        f"{seat}.{expires}.{'0' * 64}",
        expired,
    ):
        response = table.client.get(f"/games/{table.id}/stream?ticket={bad}")
        problem_of(response, 401, "unauthorized")
    problem_of(client.get(f"/games/{other.id}/stream?ticket={ticket}"), 401, "unauthorized")


def test_a_ticket_and_a_token_together_are_refused(table: Table) -> None:
    ticket = _ticket(table, 0)["ticket"]
    response = table.client.get(
        f"/games/{table.id}/stream?ticket={ticket}", headers=table.headers(0)
    )
    problem_of(response, 400, "invalid_request")


def test_a_forged_ticket_for_an_unheld_or_missing_seat_is_unknown_not_a_500(
    client: FlaskClient,
) -> None:
    body = {"game": "fake", "seats": [{"type": "open"}, {"type": "open"}], "deal": DEAL,
            "dealer": 1}  # fmt: skip
    game = client.post("/games", json=body).json["id"]
    client.post(f"/games/{game}/seats/0", json={"name": "ann"})  # seat 1 stays open
    meta = client.application.extensions["cardroom"].store.meta(game)
    later = int(time.time()) + 60
    for seat in (1, 2):  # held by nobody; past the last seat
        with pytest.raises(Unauthorized, match=r"^unknown stream ticket$"):
            tickets.check(meta, f"{seat}.{later}.{'0' * 64}", time.time())
    with pytest.raises(Unauthorized, match=r"^unknown stream ticket$"):
        tickets.check(meta, "nonsense", time.time())
    with pytest.raises(Unauthorized, match=r"^unknown stream ticket$"):
        tickets.check(meta, f"0.{later}.{'0' * 64}", time.time())


def test_a_ticket_is_expired_from_its_expiry_second_on(table: Table) -> None:
    meta = table.client.application.extensions["cardroom"].store.meta(table.id)
    now = 1_000_000.0
    ticket = tickets.issue(meta, 0, now, 60)
    assert tickets.check(meta, ticket, now + 59.5) == 0
    with pytest.raises(Unauthorized, match=r"^the stream ticket has expired; ask for a new one$"):
        tickets.check(meta, ticket, now + 60)
