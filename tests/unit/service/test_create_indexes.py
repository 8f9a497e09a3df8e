"""A half-done create is finished with every index it belongs to, a bot account's included."""

from __future__ import annotations

import pytest

from service.bots import BotDirectory, MemoryBotRegistry
from service.games import GameService
from service.store import InMemoryEventStore
from tests.support.fakegame import GAMES

DEAL = {"seats": [{"hand": ["AS", "9H"]}, {"hand": ["KD", "TC"]}]}


def test_finishing_a_half_done_create_lists_it_for_its_bot_account_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store, registry = InMemoryEventStore(), MemoryBotRegistry()
    service = GameService(store, games=GAMES, bots=BotDirectory(registry))
    service.create_bot_account("mybot")
    seats = [{"type": "bot", "bot": "mybot"}, {"type": "bot", "bot": "random"}]
    with monkeypatch.context() as patch:
        patch.setattr(store, "_list_game", lambda meta: (_ for _ in ()).throw(OSError("crash")))
        with pytest.raises(OSError):
            service.create_game("fake", seats, deal=DEAL, dealer=1, idempotency_key="k")
    [game_id] = store.unsettled(before=1e12)
    assert registry.active("mybot") == []  # the crash came before the account's index
    assert service.complete_create(game_id)  # what the sweeper does
    assert registry.active("mybot") == [game_id]
    again = service.create_game("fake", seats, deal=DEAL, dealer=1, idempotency_key="k")
    assert again["id"] == game_id and registry.active("mybot") == [game_id]
