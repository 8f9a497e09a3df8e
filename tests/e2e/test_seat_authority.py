"""Real processes (two gunicorn web processes, RQ workers, Redis): who holds a seat is decided
by the store, never by a web process's cached fold.

Each trial: a 2-player Sixty-Six, both web processes cache it (views on fresh connections, so
the kernel spreads them over both), Alice leaves, the web processes cache it again (every other
trial), and the seat changes hands: Carol joins it (``on_leave: open``) or the heuristic bot
has taken it (``on_leave: bot``). Then Alice's old token is refused for every action and every
read, on either process; Carol's token is accepted for every read and an action, on either
process, or the bot plays the seat.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
import requests

from tests.e2e.conftest import Stack

pytestmark = pytest.mark.e2e

TRIALS = 50  # of each kind
ASKS = 2  # times each request is sent, each on a new connection (either web process)
REFUSED = {401, 403}
ACTIONS = ({"type": "resign"}, {"type": "leave"}, {"type": "abort"},
           {"type": "play", "cards": ["AH"]})  # fmt: skip


def _fresh(method: str, url: str, **kwargs: Any) -> requests.Response:
    """One request on a connection of its own (so either web process may answer it)."""
    with requests.Session() as session:
        return session.request(method, url, timeout=10, **kwargs)


class Seat:
    def __init__(self, stack: Stack, game_id: str, token: str) -> None:
        self.url = f"{stack.base}/games/{game_id}"
        self.auth = {"Authorization": f"Bearer {token}"}

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        return _fresh("GET", f"{self.url}{path}", headers=self.auth, **kwargs)

    def post(self, path: str, body: dict[str, Any] | None = None) -> requests.Response:
        return _fresh("POST", f"{self.url}{path}", json=body, headers=self.auth)

    def ticket(self) -> str:
        response = self.post("/stream-tickets")
        assert response.status_code == 201, response.text
        return str(response.json()["ticket"])

    def reads(self) -> dict[str, requests.Response]:
        """Every read of a seat (the streams' first answer only)."""
        return {
            "view": self.get("/view"),
            "events": self.get("/events"),
            "events page": self.get("/events?after=0&limit=5"),
            "stream": self.get("/stream", stream=True),
            "stream ticket": self.post("/stream-tickets"),
        }


def _join(stack: Stack, game_id: str, seat: int, name: str) -> Seat:
    joined = _fresh("POST", f"{stack.base}/games/{game_id}/seats/{seat}", json={"name": name})
    assert joined.status_code == 201, joined.text
    return Seat(stack, game_id, joined.json()["token"])


def _warm(seat: Seat) -> int:
    """Views on fresh connections (both processes cache the game); the version last seen."""
    versions = [seat.get("/view").json()["version"] for _ in range(6)]
    return int(max(versions))


def _version(stack: Stack, game_id: str) -> int:
    return int(_fresh("GET", f"{stack.base}/games/{game_id}").json()["version"])


def _trial(stack: Stack, on_leave: str, warm_after_leave: bool) -> list[str]:
    """One leave and retake; what went wrong (nothing: an empty list). The web processes cache
    the game before the leave, and, with ``warm_after_leave``, again before the seat is
    retaken."""
    created = stack.create("sixty_six", [{"type": "open"}, {"type": "open"}],
                           options={"on_leave": on_leave})  # fmt: skip
    game_id = created["id"]
    alice, bob = _join(stack, game_id, 0, "alice"), _join(stack, game_id, 1, "bob")
    old_ticket = alice.ticket()
    left = alice.post("/actions", {"type": "leave", "expected_version": _warm(alice)})
    assert left.status_code == 200, left.text
    if warm_after_leave:
        _warm(bob)
    carol = _join(stack, game_id, 0, "carol") if on_leave == "open" else None
    wrong: list[str] = []
    for _ in range(ASKS):
        version = _version(stack, game_id)
        for action in ACTIONS:
            answer = alice.post("/actions", {**action, "expected_version": version})
            if answer.status_code not in REFUSED:
                wrong.append(f"alice's {action['type']}: {answer.status_code} {answer.text}")
        for name, answer in alice.reads().items():
            if answer.status_code not in REFUSED:
                wrong.append(f"alice's {name}: {answer.status_code}")
            answer.close()
        ticketed = _fresh("GET", f"{alice.url}/stream?ticket={old_ticket}", stream=True)
        if ticketed.status_code not in REFUSED:
            wrong.append(f"alice's old stream ticket: {ticketed.status_code}")
        ticketed.close()
        if carol is not None:
            wrong += _accepted(carol)
    if carol is not None:
        version = _version(stack, game_id)
        abort = carol.post("/actions", {"type": "abort", "expected_version": version})
        if abort.status_code != 200:
            wrong.append(f"carol's abort: {abort.status_code} {abort.text}")
    elif not _bot_plays(stack, game_id, bob):
        wrong.append("the bot that took seat 0 over did not play it")
    return [f"game {game_id}: {w}" for w in wrong]


def _bot_plays(stack: Stack, game_id: str, bob: Seat) -> bool:
    """Whether the bot now in seat 0 plays it: once the game waits on seat 0 (Bob moves first
    when it waits on him), its version moves on."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        summary = _fresh("GET", f"{stack.base}/games/{game_id}").json()
        if summary["seats"][0].get("bot") != "heuristic":
            return False
        if summary["status"] == "over" or 0 not in summary["to_act"]:
            view = bob.get("/view").json()
            legal = view["view"]["legal_actions"]
            if summary["status"] == "over" or not legal:
                return summary["status"] == "over"
            bob.post("/actions", {**legal[0], "expected_version": view["version"]})
            continue
        if _bot_moved(stack, game_id, summary["version"], deadline):
            return True
    return False


def _bot_moved(stack: Stack, game_id: str, version: int, deadline: float) -> bool:
    while time.monotonic() < deadline:
        if _version(stack, game_id) > version:
            return True
        time.sleep(0.02)
    return False


def _accepted(carol: Seat) -> list[str]:
    wrong = []
    for name, answer in carol.reads().items():
        if answer.status_code not in (200, 201):
            wrong.append(f"carol's {name}: {answer.status_code} {answer.text[:200]}")
        elif name == "view" and answer.json()["seat"] != 0:
            wrong.append(f"carol's view is of seat {answer.json()['seat']}")
        answer.close()
    issued = carol.post("/stream-tickets")
    if issued.status_code == 201:
        stream = _fresh("GET", f"{carol.url}/stream?ticket={issued.json()['ticket']}",
                        stream=True)  # fmt: skip
        if stream.status_code != 200:
            wrong.append(f"carol's ticket stream: {stream.status_code}")
        stream.close()
    return wrong


@pytest.mark.parametrize("on_leave", ["open", "bot"])
def test_a_left_seat_s_old_token_is_refused_and_its_new_holder_accepted_on_every_process(
    stack: Stack, on_leave: str
) -> None:
    wrong = [w for trial in range(TRIALS) for w in _trial(stack, on_leave, trial % 2 == 1)]
    assert not wrong, f"{len(wrong)} wrong answers, the first: {wrong[:5]}"
