"""The default move (domain.default_move): a frozen rule, pinned here by value.

A change that makes any of these fail changes which move old replays recorded: it is a
compatibility break, not a test to update (a new rule gets a new number).
"""

from __future__ import annotations

import pytest

from domain.default_move import RULE, canonical_form, default_move, move_seed
from domain.errors import IllegalAction
from domain.lifecycle import Keys, lifecycle
from domain.protocol import fold
from domain.registry import get_game

PLAYS = [
    {"type": "play", "cards": ["TH"]},
    {"type": "declare_out"},
    {"type": "play", "cards": ["AS"]},
    {"type": "marriage", "cards": ["KH"]},
]


def seed(n: int) -> str:
    return f"{n:064x}"


def test_the_rule_is_number_one() -> None:
    assert RULE == 1


def test_the_seed_is_sha256_of_game_seed_version_and_seat() -> None:
    # sha256(b"cardroom/timeout-move\0" + b"ab"*32 + b"\0" + b"7" + b"\0" + b"1")
    assert move_seed("ab" * 32, 7, 1) == (
        "6a23fbd84264e0cfc79cf8a26e492a4ae4c8a4889b6a4cd0e6a26b138cacd95c"
    )


def test_the_candidates_are_ordered_by_canonical_json_with_cards_sorted() -> None:
    assert canonical_form({"type": "play", "cards": ["TH", "3C"]}) == (
        '{"cards":["3C","TH"],"type":"play"}'
    )
    # sixty_six skips declare_out; the others by text: {"cards":["AS"],...} {"cards":["KH"],...}
    # {"cards":["TH"],...}
    assert default_move("sixty_six", PLAYS, seed(0)) == {"type": "play", "cards": ["AS"]}
    assert default_move("sixty_six", PLAYS, seed(1)) == {"type": "marriage", "cards": ["KH"]}
    assert default_move("sixty_six", PLAYS, seed(2)) == {"type": "play", "cards": ["TH"]}
    assert default_move("sixty_six", PLAYS, seed(3)) == {"type": "play", "cards": ["AS"]}


def test_the_order_the_legal_actions_come_in_does_not_matter() -> None:
    for n in range(6):
        assert default_move("sixty_six", PLAYS[::-1], seed(n)) == default_move(
            "sixty_six", PLAYS, seed(n)
        )


def test_a_skipped_kind_is_made_only_when_nothing_else_is_legal() -> None:
    only = [{"type": "declare_out"}]
    assert default_move("sixty_six", only, seed(5)) == {"type": "declare_out"}
    assert default_move("sheepshead", [{"type": "pick"}, {"type": "pass"}], seed(0)) == {
        "type": "pass"
    }
    assert default_move("sheepshead", [{"type": "crack"}, {"type": "no_crack"}], seed(1)) == {
        "type": "no_crack"
    }


def test_a_seat_with_no_legal_action_has_no_default_move() -> None:
    with pytest.raises(IllegalAction) as refused:
        default_move("shithead", [], seed(0))
    assert refused.value.reason == "no_move"


def test_in_shitheads_swap_phase_the_default_move_is_ready() -> None:
    rules = lifecycle(get_game("shithead"))
    keys = Keys(secret="5e" * 32)
    created = rules.create(players=2, options={}, dealer=None, keys=keys,
                           filled=[(0, "01" * 32), (1, "02" * 32)])  # fmt: skip
    state = fold(rules, created)
    legal = rules.legal_actions(state, 0)
    assert {a["type"] for a in legal} == {"swap", "ready"}
    for n in range(4):
        assert default_move("shithead", legal, seed(n)) == {"type": "ready"}


def test_a_game_object_and_its_name_give_the_same_move() -> None:
    game = get_game("sixty_six")
    assert all(
        default_move(game, PLAYS, seed(n)) == default_move("sixty_six", PLAYS, seed(n))
        for n in range(4)
    )
