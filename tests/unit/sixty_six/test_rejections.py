"""§16: every rejection code, raised with the offending value and no hidden card."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from domain.errors import DomainError, GameOver, InvalidAction, InvalidCard, NotYourTurn
from domain.games.sixty_six import GAME
from domain.games.sixty_six.state import State
from domain.protocol import Setup, fold
from tests.contract.scenario_sixty_six import candidate_actions
from tests.unit.sixty_six.helpers import HAND0, HAND1, deal, moves, rejected, start, table


def finished() -> State:
    return moves(table(game_target=1), (0, "declare"))


def closed_lead(card: str) -> State:
    state, _ = start("AC 9C KD 9H KH QD", "QC AS KS AD QH JS", "TH")
    return moves(state, (1, "close"), (1, f"play {card}"))


CASES: list[tuple[str, Callable[[], State], int, str]] = [
    ("deal_over", finished, 1, "play AC"),
    ("not_your_turn", table, 0, "play TC"),
    ("must_draw_or_close", lambda: moves(table(), (1, "play AC"), (0, "play TC")), 1, "play AD"),
    ("draw_not_expected", table, 1, "draw"),
    ("pass_not_expected", table, 1, "pass"),
    ("card_not_in_hand", table, 1, "play TC"),
    ("must_follow_suit", lambda: closed_lead("QC"), 0, "play KD"),
    ("must_head_trick", lambda: closed_lead("QC"), 0, "play 9C"),
    ("must_trump", lambda: closed_lead("AS"), 0, "play KD"),
    ("marriage_not_on_lead", lambda: moves(table(), (1, "play 9S")), 0, "marriage KS"),
    ("marriage_card_not_king_or_queen", table, 1, "marriage JS"),
    ("marriage_partner_missing",
     lambda: start(HAND0, "AC AD KH QC 9S JS", "TH")[0], 1, "marriage QC"),
    ("marriage_not_in_strict_phase",
     lambda: moves(table(marriage_in_strict_phase=False), (1, "close")), 1, "marriage KH"),
    ("exchange_not_between_tricks",
     lambda: moves(table(), (1, "play 9S"), (0, "play QS"), (0, "draw"), (0, "play 9D"),
                   (1, "play AD"), (1, "draw"), (1, "play JS")), 0, "exchange"),
    ("exchange_no_trick_won", lambda: start(HAND0, HAND1, "TH", dealer=1)[0], 0, "exchange"),
    ("exchange_no_trump_nine", lambda: moves(table(), (1, "play AC"), (0, "play TC")), 1,
     "exchange"),
    ("exchange_trump_card_gone",
     lambda: moves(table(), (1, "play 9S"), (0, "play QS"), (0, "close")), 0, "exchange"),
    ("close_not_on_lead", lambda: moves(table(), (1, "play AC")), 0, "close"),
    ("close_stock_not_open", lambda: moves(table(), (1, "close")), 1, "close"),
    ("close_first_lead_forbidden", lambda: table(close_on_first_lead=False), 1, "close"),
]


@pytest.mark.parametrize(("reason", "build", "seat", "move"), CASES, ids=[c[0] for c in CASES])
def test_each_rejection_code_is_raised_with_its_reason(
    reason: str, build: Callable[[], State], seat: int, move: str
) -> None:
    state = build()
    error = rejected(state, seat, move, reason)
    assert error.to_dict()["reason"] == reason
    assert build() == state


def test_rejection_classes_match_the_protocol() -> None:
    assert isinstance(rejected(finished(), 1, "play AC", "deal_over"), GameOver)
    assert isinstance(rejected(table(), 0, "play TC", "not_your_turn"), NotYourTurn)
    assert isinstance(rejected(table(), 1, {"type": "fly"}, "unknown_action"), InvalidAction)
    assert isinstance(rejected(table(), 1, "play ZZ", "invalid_card"), InvalidCard)
    assert isinstance(rejected(table(), 1, {"type": "play"}, "invalid_card"), InvalidCard)
    assert isinstance(rejected(table(), 1, {"type": "draw", "card": "AC"}, "invalid_action"),
                      InvalidAction)


def test_rejection_messages_name_the_offending_card() -> None:
    assert "TC" in rejected(table(), 1, "play TC", "card_not_in_hand").message
    assert "KD" in rejected(closed_lead("QC"), 0, "play KD", "must_follow_suit").message


def test_rejection_messages_never_name_a_hidden_card() -> None:
    rnd = random.Random(7)
    state = fold(GAME, GAME.start(Setup(players=2, seed="leak")))
    for _ in range(60):
        d = deal(state)
        for seat in (0, 1):
            hidden = {c for c in d.hands[1 - seat] if c not in d.known[1 - seat]} | set(d.stock)
            for action in candidate_actions(state, seat):
                message = _message(state, seat, action)
                if message and "cards" in action and action["cards"][0] in hidden:
                    continue  # the seat named that card itself
                assert not any(c in (message or "") for c in hidden), message
        choices = [(s, a) for s in GAME.seats_to_act(state) for a in GAME.legal_actions(state, s)
                   if a["type"] != "declare_out"]
        if not choices:
            break
        seat, a = rnd.choice(choices)
        state = fold(GAME, GAME.decide(state, seat, a), state)


def _message(state: State, seat: int, action: dict[str, Any]) -> str | None:
    try:
        GAME.decide(state, seat, action)
    except DomainError as err:
        return err.message
    return None


def test_play_and_marriage_take_cards_as_the_rules_file_says() -> None:
    err = rejected(table(), 1, {"type": "play", "card": "TC"}, "invalid_action")
    assert 'send {"type": "play", "cards": [<card code>]}' in err.message
    err = rejected(table(), 1, {"type": "marriage", "cards": ["KC", "QC"]}, "invalid_card")
    assert '"cards": [<card code>]' in err.message
    assert all("cards" in a for a in GAME.legal_actions(table(), 1) if a["type"] == "play")


def test_a_replay_recorded_with_the_retired_card_field_still_verifies() -> None:
    action = {"type": "play", "card": "TC"}
    assert GAME.upcast_action(action) == {"type": "play", "cards": ["TC"]}
    assert GAME.upcast_action({"type": "draw"}) == {"type": "draw"}
