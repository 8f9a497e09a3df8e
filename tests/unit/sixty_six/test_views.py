"""§18: what each seat, a spectator and a replay see; event redaction."""

from __future__ import annotations

import json

from domain.games.sixty_six import GAME
from domain.games.sixty_six.events import DealScored, GameStarted, HandDealt, StockLaid
from domain.protocol import Setup, fold
from domain.registry import get_game
from tests.unit.sixty_six.helpers import HAND0, HAND1, act, dealt, moves, of_type


def test_the_game_is_registered_for_two_players() -> None:
    game = get_game("sixty_six")
    assert game is GAME and (game.min_players, game.max_players) == (2, 2)


def test_a_seat_sees_its_hand_the_trump_card_and_sizes_but_not_the_other_hand() -> None:
    state, _ = dealt()
    view = GAME.view(state, 0)
    assert view["hand"] == ["TC", "9D", "TD", "9H", "QS", "KS"]
    assert (view["trump_card"], view["face_up_card"], view["stock_size"]) == ("TH", "TH", 12)
    assert [s["hand_size"] for s in view["seats"]] == [6, 6]
    text = json.dumps(view)
    assert not any(c in text for c in HAND1.split())
    assert "9C" not in text  # the stock's top card


def test_a_spectator_sees_only_public_facts() -> None:
    state, _ = dealt()
    state = moves(state, (1, "marriage KH"))
    view = GAME.view(state, None)
    assert "hand" not in view and view["legal_actions"] == []
    assert view["current_trick"] == [{"seat": 1, "card": "KH"}]
    assert view["marriages"] == [{"seat": 1, "suit": "H", "value": 40, "card": "KH",
                                  "shown": "QH", "credited": False}]
    assert "TC" not in json.dumps(view)


def test_known_cards_of_the_opponent_drop_off_once_played() -> None:
    state, _ = dealt()
    state = moves(state, (1, "marriage KH"), (0, "play TC"), (1, "draw"))
    assert GAME.view(state, 0)["opponent_known_cards"] == ["QH"]
    state = moves(state, (1, "play QH"))
    assert GAME.view(state, 0)["opponent_known_cards"] == []


def test_reveal_opens_hands_stock_and_seed() -> None:
    state, _ = dealt()
    table_open = GAME.reveal(state)
    assert [s["hand"] for s in table_open["seats"]] == [HAND0.split(), HAND1.split()]
    assert table_open["stock_cards"][0] == "9C" and table_open["under_stock"] == "TH"
    assert table_open["seed"] == "test"


def test_redact_hides_other_hands_the_stock_and_the_seed() -> None:
    _, events = dealt()
    started = GAME.redact(events[0], 0)
    assert isinstance(events[0], GameStarted) and "seed" not in started
    hands = {e.seat: e for e in of_type(events, HandDealt)}
    assert GAME.redact(hands[0], 0)["cards"] == tuple(HAND0.split())
    assert GAME.redact(hands[0], 1)["cards"] is None
    assert GAME.redact(hands[0], 1)["count"] == 6
    assert GAME.redact(hands[1], None)["cards"] is None
    stock = of_type(events, StockLaid)[0]
    assert GAME.redact(stock, 0)["cards"] is None and GAME.redact(stock, 0)["count"] == 11


def test_the_deal_result_reveals_points_tricks_and_reason_to_both() -> None:
    state, _ = dealt()
    state = moves(state, (1, "play AC"), (0, "play TC"))
    _, events = act(state, 1, "declare")
    result = of_type(events, DealScored)[0]
    redacted = GAME.redact(result, 0)
    assert (redacted["points"], redacted["tricks"], redacted["reason"]) == (
        (0, 21), (0, 1), "false_declaration")


def test_views_are_json_ready_and_fold_from_storage_is_identical() -> None:
    events = GAME.start(Setup(players=2, seed="json"))
    state = fold(GAME, events)
    json.dumps(GAME.view(state, 0))
    json.dumps(GAME.reveal(state))
    stored = [GAME.codec.decode(json.loads(json.dumps(GAME.codec.encode(e)))) for e in events]
    assert fold(GAME, stored) == state
