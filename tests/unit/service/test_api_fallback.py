"""A bot's fallback: a bot seat's runner asks for the default move; the batch records
``lifecycle.BotFellBack`` and then the move the domain's rule makes, the view's last action
and the replay say so, and the audit re-derives it (a forged fallback move fails it)."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from domain.lifecycle import Lifecycle
from replays import build_replay
from replays.show import show
from replays.verify import check
from service.api.deps import EXTENSION
from service.games import GameService
from service.store import InMemoryEventStore
from tests.support.api import bearer, send_entropy

BOT = {"type": "bot", "bot": "fbbot"}


def table(client: FlaskClient) -> tuple[str, str, str]:
    """A Sixty-Six game of the bot (seat 0) and a person (seat 1): id, bot and person tokens."""
    token = client.post("/bots", json={"name": "fbbot"}).json["token"]
    game = client.post("/games", json={"game": "sixty_six", "seats": [BOT, {"type": "open"}],
                                       "options": {"game_target": 1}}).json  # fmt: skip
    person = client.post(f"/games/{game['id']}/seats/1", json={"name": "ann"}).json["token"]
    send_entropy(client, token, game["id"])  # the deal waits for the bot's own entropy
    return game["id"], token, person


def act(client: FlaskClient, game_id: str, token: str, seat: int, **action: Any) -> Any:
    version = client.get(f"/games/{game_id}/view?seat={seat}", headers=bearer(token)).json
    body = {**action, "expected_version": version["version"], "seat": seat}
    return client.post(f"/games/{game_id}/actions", json=body, headers=bearer(token))


def to_act(client: FlaskClient, game_id: str) -> int:
    return int(client.get(f"/games/{game_id}").json["to_act"][0])


def play_to_the_end(client: FlaskClient, game_id: str, bot: str, person: str) -> None:
    """The bot seat always falls back; the person plays its first legal action."""
    while client.get(f"/games/{game_id}").json["status"] != "over":
        seat = to_act(client, game_id)
        if seat == 0:
            answer = act(client, game_id, bot, 0, type="fallback", reason="timeout")
        else:
            view = client.get(f"/games/{game_id}/view", headers=bearer(person)).json["view"]
            answer = act(client, game_id, person, 1, **view["legal_actions"][0])
        assert answer.status_code == 200, answer.json


def replay_of(client: FlaskClient, game_id: str) -> Any:
    service: GameService = client.application.extensions[EXTENSION]
    loaded = service.load(game_id)
    seats = [s.public(i) for i, s in enumerate(loaded.meta.seats)]
    return build_replay(game_id, service.store.entries(game_id), game=loaded.meta.game,
                        seats=seats, outcome=loaded.game.outcome(loaded.state))  # fmt: skip


def test_a_bots_fallback_records_it_then_the_default_move(
    client: FlaskClient, store: InMemoryEventStore
) -> None:
    game_id, bot, person = table(client)
    if to_act(client, game_id) == 1:  # the person leads: the bot's turn comes next
        view = client.get(f"/games/{game_id}/view", headers=bearer(person)).json["view"]
        act(client, game_id, person, 1, **view["legal_actions"][0])
    service: GameService = client.application.extensions[EXTENSION]
    before = service.load(game_id)
    rules: Lifecycle[Any] = before.game  # type: ignore[assignment]
    from service.deal_keys import keys_of

    expected = rules.default_move(before.state, 0, keys_of(before.meta), before.version)
    answer = act(client, game_id, bot, 0, type="fallback", reason="raised")
    assert answer.status_code == 200, answer.json
    events = [e["event"] for e in answer.json["events"]]
    assert events[0] == {"type": "lifecycle.BotFellBack", "schema": 1, "seat": 0,
                         "reason": "raised", "rule": 1}  # fmt: skip
    # the move the rule chose (a card played, or a marriage announced with it): its events
    decided = [e.TYPE for e in rules.decide(before.state, 0, expected)]
    assert [e["type"] for e in events[1:]] == decided
    played = [e for e in events[1:] if e["type"] == "sixty_six.CardPlayed"]
    assert [e["card"] for e in played] == expected["cards"]
    told = client.get(f"/games/{game_id}/view", headers=bearer(person)).json["view"]
    assert told["last_action"]["fallback"] == "raised"
    assert told["last_action"]["text"].startswith("fbbot fell back (raised) to the default move")


def test_the_audit_re_derives_every_fallback_and_the_replay_shows_them(
    client: FlaskClient,
) -> None:
    game_id, bot, person = table(client)
    play_to_the_end(client, game_id, bot, person)
    replay = replay_of(client, game_id)
    assert check(replay).ok
    falls = [b for b in replay.batches if b.command.get("action", {}).get("type") == "fallback"]
    assert falls
    step = falls[0].events[-1].version
    assert "seat 0's bot fell back (timeout): the default move" in show(replay, step)


def test_a_forged_fallback_move_fails_the_audit(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def another(rules: Lifecycle[Any], state: Any, seat: int, *rest: Any) -> Any:
        chosen = real(rules, state, seat, *rest)
        legal = rules.legal_actions(state, seat)
        return next((a for a in legal if a != chosen), chosen)

    real = Lifecycle.default_move
    game_id, bot, person = table(client)
    monkeypatch.setattr(Lifecycle, "default_move", another)
    play_to_the_end(client, game_id, bot, person)
    monkeypatch.undo()
    report = check(replay_of(client, game_id))
    assert not report.ok and "CardPlayed" in report.reason, report.reason


def test_only_a_bot_seat_falls_back(client: FlaskClient) -> None:
    game_id, _, person = table(client)
    answer = act(client, game_id, person, 1, type="fallback", reason="raised")
    assert answer.status_code == 422
    assert answer.json["code"] == "illegal_action" and "not a bot's" in answer.json["detail"]
    assert answer.json["reason"] == "fallback_not_a_bot"


def test_a_fallback_names_a_known_reason_and_nothing_else(client: FlaskClient) -> None:
    game_id, bot, _ = table(client)
    seat = 0
    bad = act(client, game_id, bot, seat, type="fallback", reason="bored")
    assert bad.status_code == 422 and "raised, timeout, illegal" in bad.json["detail"]
    assert bad.json["reason"] == "unknown_fallback_reason"
    extra = act(client, game_id, bot, seat, type="fallback", reason="raised", cards=["AS"])
    assert extra.status_code == 422
