"""``GET /admin/queues``: RQ's queues of the service and the live games stalled on a bot's turn
(as the sweeper records them), for the operator."""

from __future__ import annotations

import time

import pytest

from service.cli import main
from tests.support.api import bearer, make_app
from tests.support.live_app import serving
from tests.unit.workers.conftest import Stack

TOKEN = "operator-secret-queues-9"
BOTS_ONLY = [{"type": "bot", "bot": "heuristic"}, {"type": "bot", "bot": "random"}]


def test_the_operator_sees_waiting_turns_and_a_game_stalled_on_a_bot(stack: Stack) -> None:
    client = make_app(stack.store, scheduler=stack.scheduler, CARDROOM_ADMIN_TOKEN=TOKEN,
                      CARDROOM_NAMESPACE="unit").test_client()  # fmt: skip
    game_id = stack.service.create_game("sixty_six", BOTS_ONLY, seed="queues")["id"]
    version = stack.store.version(game_id)
    stack.sweeper(clock=lambda: time.time() - 60).tick()
    answer = client.get("/admin/queues", headers=bearer(TOKEN))
    assert answer.status_code == 200, answer.json
    queues = {q["queue"]: q for q in answer.json["queues"]}
    assert queues["unit:bots"] == {"queue": "unit:bots", "waiting": 1, "started": 0}
    [stalled] = answer.json["stalled"]
    assert stalled["game"] == game_id and stalled["version"] == version
    assert stalled["stalled_seconds"] >= 59
    seat = stalled["seats"][0]["seat"]
    assert stalled["seats"] == [{"seat": seat, "bot": BOTS_ONLY[seat]["bot"]}]
    fresh = client.get("/admin/queues?older=120", headers=bearer(TOKEN)).json
    assert fresh["stalled"] == []
    assert client.get("/admin/queues").status_code == 401


def test_without_rq_the_queues_are_not_found(stack: Stack) -> None:
    client = make_app(stack.store, CARDROOM_ADMIN_TOKEN=TOKEN).test_client()
    missing = client.get("/admin/queues", headers=bearer(TOKEN))
    assert missing.status_code == 404 and "CARDROOM_SCHEDULER" in missing.json["detail"]


def test_cardroom_admin_queues_prints_the_backlog(
    stack: Stack, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    app = make_app(stack.store, scheduler=stack.scheduler, CARDROOM_ADMIN_TOKEN=TOKEN,
                   CARDROOM_NAMESPACE="unit")  # fmt: skip
    game_id = stack.service.create_game("sixty_six", BOTS_ONLY, seed="queues-cli")["id"]
    stack.sweeper(clock=lambda: time.time() - 60).tick()
    monkeypatch.setenv("CARDROOM_ADMIN_TOKEN", TOKEN)
    with serving(app) as url:
        assert main(["admin", "--url", url, "queues"]) == 0
    out = capsys.readouterr().out
    assert "queue unit:bots: 1 waiting, 0 running" in out
    assert f"stalled {game_id} v" in out
