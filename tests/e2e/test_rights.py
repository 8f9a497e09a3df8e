"""Real processes (web, RQ workers, Redis): a person uses the rights the rules give them.

A Sixty-Six marriage that takes the person to 66 carries the declaration out, so the bot's
follow can never come between the points and the declaration; a person resigns; the exported
replays verify.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from replays.format import read
from replays.verify import verify
from tests.e2e.conftest import BOT, Stack

pytestmark = pytest.mark.e2e

# Seat 1 (the person, leading first as the non-dealer) holds the trump ace, ten and jack, the
# trump marriage and the club ace; the bot holds no heart and the stock gives it none. Whatever
# the bot plays, the person wins the first three leads (AH, TH, AC: 32 points at least), and the
# trump marriage (40) then takes it past 66.
PERSON = ["AH", "TH", "KH", "QH", "JH", "AC"]
ROBOT = ["9C", "JC", "9D", "JD", "9S", "JS"]
STOCK = ["QC", "KC", "TC", "QD", "KD", "TD", "AD", "QS", "KS", "TS", "AS"]
DEAL = {"seats": [{"hand": ROBOT}, {"hand": PERSON}], "stock": STOCK,
        "extra": {"trump_card": "9H"}}  # fmt: skip
DECLARING = {"type": "marriage", "cards": ["KH"], "declare": True}


class Person:
    """One seat of a game, played over HTTP."""

    def __init__(self, stack: Stack, game_id: str, seat: int) -> None:
        self.stack, self.game_id, self.seat = stack, game_id, seat
        joined = stack.http.post(f"{stack.base}/games/{game_id}/seats/{seat}", json={"name": "p"})
        assert joined.status_code in (200, 201), joined.text
        self.auth = {"Authorization": f"Bearer {joined.json()['token']}"}

    def view(self) -> dict[str, Any]:
        url = f"{self.stack.base}/games/{self.game_id}/view"
        return dict(self.stack.http.get(url, headers=self.auth).json())

    def when_legal(self, action: dict[str, Any], timeout: float = 30) -> dict[str, Any]:
        """The view once ``action`` is among the seat's legal actions (the bot has moved)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            view = self.view()
            if action in view["view"]["legal_actions"]:
                return view
            time.sleep(0.02)
        raise AssertionError(f"{action} never became legal: {self.view()}")

    def send(self, action: dict[str, Any], version: int) -> dict[str, Any]:
        response = self.stack.http.post(
            f"{self.stack.base}/games/{self.game_id}/actions",
            json={**action, "expected_version": version},
            headers={**self.auth, "Idempotency-Key": f"p-{version}"},
        )
        assert response.status_code in (200, 201), response.text
        return dict(response.json())

    def resign(self) -> None:
        """Resign, again on a newer version while the bots keep moving (409)."""
        for _ in range(50):
            response = self.stack.http.post(
                f"{self.stack.base}/games/{self.game_id}/actions",
                json={"type": "resign", "expected_version": self.view()["version"]},
                headers=self.auth,
            )
            if response.status_code != 409:
                assert response.status_code == 200, response.text
                return
        raise AssertionError("the resignation kept meeting newer versions")


def test_a_marriage_reaching_66_declares_out_against_the_heuristic_bot(stack: Stack) -> None:
    created = stack.create("sixty_six", [BOT, {"type": "open"}], deal=DEAL, dealer=0)
    person = Person(stack, created["id"], 1)
    for lead in ("AH", "TH", "AC"):
        play = {"type": "play", "cards": [lead]}
        person.send(play, person.when_legal(play)["version"])
        person.send({"type": "draw"}, person.when_legal({"type": "draw"})["version"])
    view = person.when_legal(DECLARING)  # listed: it takes the person to 66
    response = person.send(DECLARING, view["version"])
    kinds = [e["event"]["type"] for e in response["events"]]
    assert kinds[:4] == ["sixty_six.MarriageAnnounced", "sixty_six.CardPlayed",
                         "sixty_six.DeclaredOut", "sixty_six.DealScored"]  # fmt: skip
    scored = response["events"][3]["event"]
    assert (scored["winner"], scored["reason"]) == (1, "declared_out")
    assert scored["points"][1] >= 66

    person.resign()  # ends the match: the replay follows
    summary = stack.wait_over(created["id"])
    assert summary["outcome"]["reason"] == "resigned"
    assert verify(read(stack.wait_replay(created["id"]))).events == summary["version"]


def test_a_person_resigns_and_the_bots_win(stack: Stack) -> None:
    created = stack.create("shithead", [{"type": "open"}, BOT, BOT], seed="e2e-resign")
    person = Person(stack, created["id"], 0)
    view = person.view()
    assert "resign" in view["view"]["may_send"]
    assert {"type": "resign"} not in view["view"]["legal_actions"]
    person.resign()
    summary = stack.wait_over(created["id"])
    assert summary["outcome"] == {
        "reason": "resigned", "resigned": 0, "winners": [1, 2], "losers": [0]
    }
    replay = read(stack.wait_replay(created["id"]))
    assert verify(replay).events == summary["version"]
    assert replay.events[-2].event["type"] == "lifecycle.SeatResigned"


def test_a_person_leaves_and_the_named_bot_plays_the_match_to_its_end(stack: Stack) -> None:
    created = stack.create("sixty_six", [{"type": "open"}, BOT], seed="e2e-leave",
                           options={"on_leave": "bot", "leave_bot": "heuristic"})  # fmt: skip
    person = Person(stack, created["id"], 0)
    assert "leave" in person.view()["view"]["may_send"]
    for _ in range(50):  # the bot may be moving: leave on the newest version
        response = stack.http.post(
            f"{stack.base}/games/{created['id']}/actions",
            json={"type": "leave", "expected_version": person.view()["version"]},
            headers=person.auth,
        )
        if response.status_code != 409:
            break
    assert response.status_code == 200, response.text
    refused = stack.http.get(f"{stack.base}/games/{created['id']}/view", headers=person.auth)
    assert refused.status_code == 403 and refused.json()["code"] == "seat_left"
    summary = stack.wait_over(created["id"])
    assert summary["outcome"]["reason"] == "finished"
    assert summary["seats"][0]["type"] == "bot" and summary["seats"][0]["bot"] == "heuristic"
    replay = read(stack.wait_replay(created["id"]))
    assert verify(replay).events == summary["version"]
    assert any(e.event["type"] == "lifecycle.SeatLeft" for e in replay.events)


@pytest.fixture(scope="module")
def short_wait(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """A stack whose games may wait for a person 2 s (CARDROOM_WAITING_TTL) before expiring."""
    running = Stack(Path(tmp_path_factory.mktemp("wait")), bot_workers=1,
                    env={"CARDROOM_WAITING_TTL": "2"})  # fmt: skip
    yield running
    running.stop()


def test_a_game_waiting_on_a_seat_left_open_expires_and_never_hangs(short_wait: Stack) -> None:
    stack = short_wait
    created = stack.create("sixty_six", [{"type": "open"}, {"type": "open"}], seed="e2e-wait")
    people = [Person(stack, created["id"], seat) for seat in (0, 1)]
    left = stack.http.post(
        f"{stack.base}/games/{created['id']}/actions",
        json={"type": "leave", "expected_version": people[1].view()["version"]},
        headers=people[1].auth,
    )
    assert left.status_code == 200, left.text
    summary = stack.wait_over(created["id"])
    assert summary["outcome"] == {"reason": "expired", "open_seats": [1], "winners": [],
                                  "losers": []}  # fmt: skip
    assert verify(read(stack.wait_replay(created["id"]))).events == summary["version"]
