"""The protocol's promises for Shithead: codec, redaction, action limit, no leaks, combos."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from domain.errors import DomainError, InvalidOptions
from domain.frozen import copy_with
from domain.games.shithead import events as shithead_events
from domain.games.shithead import options as shithead_options
from domain.games.shithead import rules as shithead_rules
from domain.games.shithead.events import CardsDealt, CardsPlayed, GameStarted, PilePickedUp
from domain.games.shithead.options import rules_for
from domain.protocol import Setup, action_key, fold
from domain.registry import get_game
from tests.contract.scenario_shithead import candidate_actions, scramble_hidden
from tests.unit.shithead.helpers import GAME, act


def _random_game(players: int, seed: str, steps: int, **options: object):  # type: ignore[no-untyped-def]
    events = GAME.start(Setup(players=players, seed=seed, options=options))
    state = fold(GAME, events)
    rnd = random.Random(seed)
    states = [state]
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        choices = [(s, a) for s in GAME.seats_to_act(state) for a in GAME.legal_actions(state, s)]
        seat, action = rnd.choice(choices)
        batch, state = act(state, seat, action)
        events += batch
        states.append(state)
    return events, states


def test_the_game_is_registered() -> None:
    assert get_game("shithead") is GAME


def test_deal_6_choose_3_uses_the_same_deal_size_check() -> None:
    with pytest.raises(InvalidOptions, match="do not fit"):
        GAME.start(Setup(players=6, seed="s", options={"deal_6_choose_3": True, "jokers": "never"}))


def test_stored_events_fold_to_the_same_state() -> None:
    events, states = _random_game(4, "codec", 400, play_from_stock=True, ten_out_of_turn=True)
    stored = [json.loads(json.dumps(GAME.codec.encode(e))) for e in events]
    assert fold(GAME, [GAME.codec.decode(d) for d in stored]) == states[-1]


def test_redaction_hides_the_seed_other_hands_face_down_cards_and_the_stock() -> None:
    started, dealt = GAME.start(Setup(players=3, seed="red", dealer=0))
    assert isinstance(started, GameStarted) and isinstance(dealt, CardsDealt)
    assert "seed" not in GAME.redact(started, 1) and GAME.redact(started, 1)["commitment"]
    shown = GAME.redact(dealt, 1)
    assert shown["hands"] == [3, list(dealt.hands[1]), 3]
    assert shown["face_down"] == [3, 3, 3] and shown["stock"] == 25
    assert shown["face_up"] == dealt.face_up
    assert GAME.redact(dealt, None)["hands"] == [3, 3, 3]


def test_no_view_changes_when_hidden_cards_are_permuted() -> None:
    rnd = random.Random(9)
    for options in (
        {},
        {"ten_out_of_turn": True},
        {"deal_6_choose_3": True, "stack_face_up": True},
    ):
        _, states = _random_game(4, f"leak{options}", 250, **options)
        for state in states[::5]:
            for seat in (0, 1, 2, 3, None):
                scrambled = scramble_hidden(state, seat, rnd)
                assert GAME.view(scrambled, seat) == GAME.view(state, seat)


def test_decide_accepts_exactly_the_listed_actions() -> None:
    _, states = _random_game(3, "agree", 200, face_up_pickup="all", match_count=True)
    refused = 0
    for state in states[::10]:
        for seat in range(3):
            keys = {action_key(a) for a in GAME.legal_actions(state, seat)}
            for action in GAME.legal_actions(state, seat):
                GAME.decide(state, seat, action)
            assert len(keys) == len(GAME.legal_actions(state, seat))
            for action in candidate_actions(state, seat):  # the other direction
                if action_key(action) in keys:
                    continue
                with pytest.raises(DomainError):
                    GAME.decide(state, seat, action)
                refused += 1
    assert refused > 100, "the candidates include many unlisted actions"


def test_listing_and_deciding_share_one_set_check(monkeypatch: pytest.MonkeyPatch) -> None:
    _, states = _random_game(3, "one-check", 60, match_count=True)
    state = next(
        s for s in states
        if s.phase == "play" and s.pile and s.to_act is not None
        and any(a["type"] == "play" for a in GAME.legal_actions(s, s.to_act))
    )
    seat = state.to_act
    # The rank rule is written once (options.rank_problem_of); Rules tabulates it for both.
    monkeypatch.setattr(shithead_options, "rank_problem_of", lambda *args: "too_low")
    monkeypatch.setattr(shithead_options, "_BUILT", {})
    rules = rules_for(state.options, state.players)
    refused = copy_with(state, info=copy_with(state.info, rules=rules))
    assert not any(a["type"] == "play" for a in GAME.legal_actions(refused, seat))
    assert shithead_rules.play_problem(rules, state.pile, state.lead_count, "A", 1) == "too_low"
    monkeypatch.undo()
    monkeypatch.setattr(shithead_rules, "count_problem", lambda *args: "wrong_count")
    assert not any(a["type"] == "play" for a in GAME.legal_actions(state, seat))
    assert shithead_rules.play_problem(state.info.rules, state.pile, state.lead_count, "A", 1) == (
        "wrong_count"
    )


def test_the_action_limit_option_is_validated() -> None:
    with pytest.raises(InvalidOptions, match="action_limit must be at least 1"):
        GAME.start(Setup(players=2, seed="s", options={"action_limit": 0}))
    _, states = _random_game(2, "limit", 100, action_limit=7)
    outcome = GAME.outcome(states[-1])
    assert outcome is not None and outcome["reason"] == "action_limit" and outcome["loser"] is None
    assert states[-1].actions == 7


def test_the_event_builders_fill_every_field_as_the_constructor_does() -> None:
    names = lambda cls: tuple(f.name for f in dataclasses.fields(cls))  # noqa: E731
    assert names(CardsPlayed) == shithead_events.PLAYED_FIELDS
    assert names(PilePickedUp) == shithead_events.PICKED_UP_FIELDS
    played = shithead_events.cards_played(2, ("7C", "7H"), "hand")
    assert played == CardsPlayed(seat=2, cards=("7C", "7H"), source="hand")
    assert type(played) is CardsPlayed
    picked = shithead_events.pile_picked_up(1, ("3C",), ("KS",), "pickup")
    assert picked == PilePickedUp(seat=1, cards=("3C",), face_up_cards=("KS",), cause="pickup")
    with pytest.raises(dataclasses.FrozenInstanceError):
        played.seat = 3  # type: ignore[misc]
