"""``last_action``: every view says who did what, in game words (burns, pickups, tricks, deals),
as that seat may see it; the finished deal or hand stays readable in the view."""

from __future__ import annotations

from typing import Any

from domain.lifecycle import lifecycle
from domain.protocol import Setup, fold
from domain.registry import get_game
from tests.support.api import cards_in
from tests.unit.shithead.helpers import creation
from tests.unit.sixty_six.helpers import explicit_deal

SHITHEAD = lifecycle(get_game("shithead"))
SIXTY_SIX = lifecycle(get_game("sixty_six"))
SHEEPSHEAD = lifecycle(get_game("sheepshead"))


def _act(rules: Any, state: Any, seat: int, action: dict[str, Any]) -> Any:
    return fold(rules, rules.decide(state, seat, action), state)


def _shithead(*seats: str, stock: str = "") -> Any:
    state = fold(SHITHEAD, creation(*seats, stock=stock))
    assert SHITHEAD.view(state, 0)["last_action"] is None  # nothing done yet
    for seat in range(len(seats)):
        state = _act(SHITHEAD, state, seat, {"type": "ready"})
    return state


def test_a_burn_is_told_with_the_play_that_made_it() -> None:
    state = _shithead("3C TH 8D | 9S 9H 9D", "4C 5C 6D | KS KH KD", stock="6C 7C 8C 2D")
    state = _act(SHITHEAD, state, 0, {"type": "play", "cards": ["3C"]})
    state = _act(SHITHEAD, state, 1, {"type": "play", "cards": ["4C"]})
    state = _act(SHITHEAD, state, 0, {"type": "play", "cards": ["TH"]})
    last = SHITHEAD.view(state, 1)["last_action"]
    assert (last["seat"], last["type"], last["cards"]) == (0, "play", ["TH"])
    assert last["text"].startswith("seat 0 played TH from hand")
    assert any("the pile burned (ten" in r for r in last["results"])
    # seat 0 drew: seat 1 hears how many, never which
    drawn = [r for r in last["results"] if r.startswith("seat 0 drew")]
    assert drawn == ["seat 0 drew 1 card"] and "8C" not in cards_in(last)
    mine = SHITHEAD.view(state, 0)["last_action"]
    assert "seat 0 drew 8C" in mine["results"]


def test_a_pickup_says_what_was_taken() -> None:
    state = _shithead("3C 4D 8D | 9S 9H 9D", "AC 5C 6D | KS KH KD", stock="6C 7C")
    state = _act(SHITHEAD, state, 0, {"type": "play", "cards": ["3C"]})
    state = _act(SHITHEAD, state, 1, {"type": "play", "cards": ["AC"]})
    state = _act(SHITHEAD, state, 0, {"type": "pickup"})
    last = SHITHEAD.view(state, None)["last_action"]
    assert (last["seat"], last["type"]) == (0, "pickup")
    assert last["text"].startswith("seat 0 picked up the pile (3C AC)")


def _sixty_six() -> Any:
    deal = explicit_deal("TC TD 9H QS KS 9D", "AC AD KH QH 9S JS", "TH", "9C JC")
    setup = Setup(players=2, seed="t", dealer=0, options={}, deal=deal)
    return fold(SIXTY_SIX, get_game("sixty_six").start(setup))


def test_a_trick_taken_and_the_draw_are_told() -> None:
    state = _sixty_six()
    state = _act(SIXTY_SIX, state, 1, {"type": "play", "cards": ["AC"]})
    state = _act(SIXTY_SIX, state, 0, {"type": "play", "cards": ["TC"]})
    last = SIXTY_SIX.view(state, 0)["last_action"]
    assert last["text"] == "seat 0 played TC; seat 1 took the trick (21 points)"
    state = _act(SIXTY_SIX, state, 1, {"type": "draw"})
    mine, theirs = (SIXTY_SIX.view(state, s)["last_action"] for s in (1, 0))
    assert mine["type"] == "draw" and theirs["type"] == "draw"
    assert "9C" in cards_in(mine) and "9C" not in cards_in(theirs)


def test_a_finished_deal_stays_in_the_view_with_its_tricks() -> None:
    state = _sixty_six()
    state = _act(SIXTY_SIX, state, 1, {"type": "play", "cards": ["AC"]})
    state = _act(SIXTY_SIX, state, 0, {"type": "play", "cards": ["TC"]})
    state = _act(SIXTY_SIX, state, 0, {"type": "declare_out"})
    view = SIXTY_SIX.view(state, 0)
    result = view["last_deal_result"]
    assert view["deal_number"] == 1 and result["number"] == 0
    assert result["tricks_played"] == [{"winner": 1, "cards": ["AC", "TC"]}]
    assert list(result["tricks"]) == [0, 1]  # the counts, as DealScored has them
    assert result["winner"] == 1 and result["reason"] == "false_declaration"
    assert "seat 1 won the deal (false declaration" in view["last_action"]["text"]


def test_a_finished_leaster_names_its_winner_and_its_tricks() -> None:
    setup = Setup(players=5, seed="leaster", dealer=4, options={})
    state = fold(SHEEPSHEAD, get_game("sheepshead").start(setup))
    for _ in range(5):
        seat = SHEEPSHEAD.seats_to_act(state)[0]
        state = _act(SHEEPSHEAD, state, seat, {"type": "pass"})
    number = state.inner.hand.number
    while state.inner.hand.number == number:
        seat = SHEEPSHEAD.seats_to_act(state)[0]
        state = _act(SHEEPSHEAD, state, seat, SHEEPSHEAD.legal_actions(state, seat)[0])
    last = SHEEPSHEAD.view(state, 0)["last_hand"]
    assert last["kind"] == "leaster" and len(last["tricks"]) == 6
    assert last["winners"] == [s for s, score in enumerate(last["scores"]) if score > 0]
    assert len(last["winners"]) == 1 and last["defender_points"] is None


def test_a_picked_hand_tells_the_defenders_points() -> None:
    setup = Setup(players=5, seed="picked", dealer=4, options={})
    state = fold(SHEEPSHEAD, get_game("sheepshead").start(setup))
    state = _act(SHEEPSHEAD, state, 0, {"type": "pick"})
    while state.inner.last_result is None:
        seat = SHEEPSHEAD.seats_to_act(state)[0]
        state = _act(SHEEPSHEAD, state, seat, SHEEPSHEAD.legal_actions(state, seat)[0])
    last = SHEEPSHEAD.view(state, 3)["last_hand"]
    assert last["defender_points"] + last["team_points"] == 120
    assert len(last["tricks"]) == 6 and all("winner" in t for t in last["tricks"])
