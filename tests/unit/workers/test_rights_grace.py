"""Optional rights and bots: while a person may play a ten out of turn (Shithead's
ten_out_of_turn), a bot's turn first waits up to rights_grace_ms for the game to move; the
person's ten in that time makes the bot's turn stale. The wait is the store's (it ends as soon
as the game moves), so the test hands the bot a wait in which the person plays."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.workers.conftest import Stack
from workers.jobs import play_bot_turn

RANDOM = {"type": "bot", "bot": "random"}


def _game(stack: Stack, person_hand: list[str], **options: Any) -> tuple[str, str]:
    deal = {"seats": [{"hand": person_hand, "face_up": ["9C", "9D", "9H"],
                       "face_down": ["JC", "JD", "JH"]},
                      {"hand": ["4C", "6D", "7S"], "face_up": ["8C", "8D", "8H"],
                       "face_down": ["QC", "QD", "QH"]}]}  # fmt: skip
    created = stack.service.create_game("shithead", [{"type": "open"}, RANDOM], deal=deal,
                                        options={"ten_out_of_turn": True, **options})  # fmt: skip
    game_id = str(created["id"])
    token = str(stack.service.join_seat(game_id, 0, "ann")["token"])
    stack.work()
    loaded = stack.service.load(game_id)
    for action in ({"type": "ready"}, {"type": "play", "cards": ["3C"]}):
        if action in loaded.game.legal_actions(loaded.state, 0):
            stack.service.submit_action(game_id, 0, action, loaded.version)
            loaded = stack.service.load(game_id)
    stack.queue("bots").empty()  # the bot's turn is played by hand below
    return game_id, token


def test_a_bot_waits_while_a_person_may_play_a_ten_out_of_turn(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, _ = _game(stack, ["3C", "TH", "5D"])
    loaded = stack.service.load(game_id)
    assert loaded.game.awaited_seats(loaded.state) == (1,)
    ten = {"type": "play", "cards": ["TH"]}
    assert ten in loaded.game.legal_actions(loaded.state, 0)
    waited: list[float] = []

    def person_plays_meanwhile(game: str, after: int, timeout: float) -> bool:
        waited.append(timeout)
        stack.service.submit_action(game, 0, ten, after)
        return True

    monkeypatch.setattr(stack.service, "wait", person_plays_meanwhile)
    result = play_bot_turn(game_id, 1, loaded.version)
    assert waited == [1.5] and result.startswith("stale")
    events = stack.service.events_after(game_id, loaded.version, 0)["events"]
    assert events[0]["event"]["type"] == "shithead.CardsPlayed"
    assert events[0]["event"]["seat"] == 0


def test_a_bot_does_not_wait_when_no_person_holds_an_optional_right(
    stack: Stack, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, _ = _game(stack, ["3C", "KH", "5D"], rights_grace_ms=800)
    loaded = stack.service.load(game_id)
    monkeypatch.setattr(stack.service, "wait", lambda *a: pytest.fail("the bot waited"))
    assert play_bot_turn(game_id, 1, loaded.version) == "played"
