"""Dealer, deal, picking and commands (R3-R5, R13)."""

from __future__ import annotations

import pytest

from domain.errors import GameOver, InvalidDeal, InvalidOptions, InvalidSetup, NotYourTurn
from domain.games.sheepshead import GAME
from domain.games.sheepshead.cards import DECK
from domain.games.sheepshead.events import (
    GameStarted,
    HandDealt,
    LeasterStarted,
    Passed,
    Picked,
)
from domain.protocol import Setup, fold
from domain.shuffle import deal_label, deck_commitment, seeded_choice, shuffled

from .helpers import (
    STRONG,
    STRONG_BLIND,
    act,
    pick_and_bury,
    play_first_legal,
    refused,
    run,
    start,
)


def test_R3_1_five_players_by_default_and_three_to_seven_allowed() -> None:
    assert GAME.min_players == 3 and GAME.max_players == 7
    with pytest.raises(InvalidSetup):
        GAME.start(Setup(players=2, seed="s"))
    started = GAME.start(Setup(players=5, seed="s"))[0]
    assert isinstance(started, GameStarted) and started.options["rounds"] == 5


def test_R3_2_first_dealer_from_option_setup_or_seed() -> None:
    def dealer(options: dict[str, object], setup_dealer: int | None = None) -> int:
        event = GAME.start(Setup(players=5, seed="s", options=options, dealer=setup_dealer))[0]
        assert isinstance(event, GameStarted)
        return event.dealer

    assert dealer({}) == seeded_choice("s", "dealer", 5)
    assert dealer({"first_dealer": 3}) == 3
    assert dealer({"first_dealer": 3}, setup_dealer=1) == 1
    with pytest.raises(InvalidSetup):
        GAME.start(Setup(players=3, seed="s", options={"first_dealer": 4}))


def test_R3_3_the_deal_passes_to_the_left_after_every_hand() -> None:
    state = start(STRONG, STRONG_BLIND, dealer=4)
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    state, events = play_first_legal(state)
    dealt = [e for e in events if isinstance(e, HandDealt)]
    assert dealt[0].dealer == 0 and dealt[0].deal == 1 and dealt[0].hand == 1


def test_R3_4_picking_starts_left_of_the_dealer() -> None:
    state = start(STRONG, STRONG_BLIND, dealer=2)
    assert GAME.seats_to_act(state) == (3,)


def test_R4_1_the_whole_deal_is_stored_in_the_dealt_event() -> None:
    events = GAME.start(Setup(players=5, seed="s", dealer=0))
    dealt = events[1]
    assert isinstance(dealt, HandDealt)
    cards = [c for hand in dealt.hands for c in hand] + list(dealt.blind)
    assert sorted(cards) == sorted(DECK)


def test_R4_2_the_shuffle_is_the_documented_seeded_one_and_committed() -> None:
    events = GAME.start(Setup(players=5, seed="abc", dealer=4))
    started, dealt = events
    deck = shuffled(DECK, "abc", deal_label(0))
    assert isinstance(started, GameStarted) and isinstance(dealt, HandDealt)
    assert started.commitment == deck_commitment("abc", deck)
    assert dealt.hands[0] == tuple(deck[0:3] + deck[17:20])
    assert GAME.start(Setup(players=5, seed="abc", dealer=4)) == events


def test_R4_3_packets_three_blind_two_three_from_the_dealers_left() -> None:
    _started, dealt = GAME.start(Setup(players=5, seed="q", dealer=2))
    deck = shuffled(DECK, "q", deal_label(0))
    assert isinstance(dealt, HandDealt)
    order = [3, 4, 0, 1, 2]
    for i, seat in enumerate(order):
        assert dealt.hands[seat] == tuple(deck[3 * i : 3 * i + 3] + deck[17 + 3 * i : 20 + 3 * i])
    assert dealt.blind == tuple(deck[15:17])


def test_R4_4_six_cards_each_and_a_two_card_blind() -> None:
    state = start()
    assert state.hand is not None
    assert [len(h) for h in state.hand.hands] == [6] * 5 and len(state.hand.blind) == 2


def test_R4_5_no_redeal_even_without_ace_face_or_trump() -> None:
    weak = {0: ["7C", "8C", "9C", "7S", "8S", "9S"]}
    state = start(weak)
    assert GAME.legal_actions(state, 0) == [{"type": "pick"}, {"type": "pass"}]


def test_R5_1_picking_starts_with_the_dealers_left() -> None:
    state = start(dealer=4)
    assert state.hand is not None and state.hand.phase == "picking" and state.hand.to_act == 0


def test_R5_2_pick_or_pass_once_each_clockwise() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, _ = act(state, 0, {"type": "pass"})
    assert GAME.seats_to_act(state) == (1,)
    assert isinstance(refused(state, 0, {"type": "pick"}), NotYourTurn)


def test_R5_3_the_first_pick_ends_picking_and_takes_the_blind() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, events = run(state, [(0, {"type": "pass"}), (1, {"type": "pick"})])
    assert events[-1] == Picked(seat=1, blind=("AD", "TD"))
    assert state.hand is not None and len(state.hand.hands[1]) == 8
    assert state.hand.phase == "burying" and GAME.seats_to_act(state) == (1,)


def test_R5_4_all_pass_is_a_leaster_by_default() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, events = run(state, [(s, {"type": "pass"}) for s in range(5)])
    assert events[-1] == LeasterStarted(kind="leaster")
    assert state.hand is not None and state.hand.phase == "playing" and state.hand.to_act == 0


def test_R5_5_only_to_act_may_pick_or_pass() -> None:
    state = start(STRONG, STRONG_BLIND)
    assert refused(state, 2, {"type": "pass"}).reason == "not_your_turn"
    assert refused(state, 0, {"type": "play", "cards": ["QC"]}).reason == "wrong_phase"


def test_R5_6_passes_and_the_pick_are_public_the_blind_only_to_the_picker() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, events = run(state, [(0, {"type": "pass"}), (1, {"type": "pick"})])
    assert GAME.redact(events[0], 3) == {"type": "sheepshead.Passed", "schema": 1, "seat": 0}
    assert GAME.redact(events[1], 3)["blind"] == 2
    assert GAME.redact(events[1], 1)["blind"] == ("AD", "TD")
    assert GAME.view(state, 2)["seats"][0]["passed"] is True


def test_R13_1_to_act_follows_the_phase() -> None:
    state = start(STRONG, STRONG_BLIND)
    assert GAME.view(state, None)["to_act"] == [0]
    state, _ = act(state, 0, {"type": "pick"})
    assert GAME.view(state, None)["to_act"] == [0]
    state, _ = act(state, 0, {"type": "bury", "cards": ["AD", "TD"]})
    assert GAME.view(state, None)["to_act"] == [0] and state.hand is not None
    assert state.hand.phase == "playing"


def test_R13_2_error_codes() -> None:
    state = start(STRONG, STRONG_BLIND)
    assert refused(state, 1, {"type": "pick"}).reason == "not_your_turn"
    assert refused(state, 0, {"type": "bury", "cards": ["QC", "QS"]}).reason == "wrong_phase"
    state, _ = act(state, 0, {"type": "pick"})
    assert refused(state, 0, {"type": "bury", "cards": ["QC", "QC"]}).reason == "invalid_bury"
    assert refused(state, 0, {"type": "bury", "cards": ["QC", "AC"]}).reason == ("card_not_in_hand")
    state, _ = act(state, 0, {"type": "bury", "cards": ["AD", "TD"]})
    state, _ = act(state, 0, {"type": "play", "cards": ["QC"]})
    assert refused(state, 1, {"type": "play", "cards": ["AC"]}).reason == "card_not_in_hand"
    assert refused(state, 2, {"type": "play", "cards": ["AC"]}).reason == "not_your_turn"


def test_R13_2_match_over_and_messages_name_the_card() -> None:
    state = start(STRONG, STRONG_BLIND, options={"rounds": 1})
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    state, _ = act(state, 0, {"type": "play", "cards": ["QC"]})
    error = refused(state, 1, {"type": "play", "cards": ["AC"]})
    assert error.reason == "card_not_in_hand" and "AC" in error.message
    state, _ = play_first_legal(state)
    assert isinstance(refused(state, 0, {"type": "pass"}), GameOver)
    assert refused(state, 0, {"type": "pass"}).reason == "match_over"


def test_R13_3_the_next_hand_starts_automatically() -> None:
    state = start(STRONG, STRONG_BLIND, options={"rounds": 3})
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    state, _ = play_first_legal(state)
    assert state.hand is not None and state.hand.phase == "picking" and state.hand.dealer == 0
    assert GAME.seats_to_act(state) == (1,)


def test_R13_4_variant_commands_are_illegal_when_off() -> None:
    state = start({0: ["QC", "QS"]}, STRONG_BLIND)
    assert refused(state, 0, {"type": "pick", "blitz": True}).reason == "wrong_phase"
    assert refused(state, 0, {"type": "crack"}).reason == "wrong_phase"
    state, _ = act(state, 0, {"type": "pick"})
    assert refused(state, 0, {"type": "partner"}).reason == "wrong_phase"


def test_explicit_deal_sizes_and_options_are_validated() -> None:
    with pytest.raises(InvalidDeal):
        start({0: ["QC"] * 2})
    with pytest.raises(InvalidDeal):
        GAME.start(Setup(players=5, seed="s", deal={"seats": [{"hand": []}] * 5}))
    with pytest.raises(InvalidOptions):
        GAME.start(Setup(players=5, seed="s", options={"no_pick": "schwanzer"}))
    with pytest.raises(InvalidOptions):
        GAME.start(
            Setup(
                players=5, seed="s", options={"partner_rule": "called_ace", "jd_call_up": "never"}
            )
        )


def test_explicit_deal_replaces_only_the_first_hand_and_is_committed() -> None:
    state = start(STRONG, STRONG_BLIND, options={"rounds": 2})
    events = GAME.start(Setup(players=5, seed="test", dealer=4, deal=_deal_of(state)))
    assert isinstance(events[0], GameStarted) and events[0].explicit_deal
    order = [c for seat in range(5) for c in STRONG[seat]] + STRONG_BLIND
    assert events[0].commitment == deck_commitment("test", order)
    state, _ = pick_and_bury(fold(GAME, events), 0, ["AD", "TD"])
    state, log = play_first_legal(state)
    dealt = next(e for e in log if isinstance(e, HandDealt))
    deck = shuffled(DECK, "test", deal_label(1))
    assert dealt.hands[1] == tuple(deck[0:3] + deck[17:20])


def _deal_of(state: object) -> dict[str, object]:
    return {"seats": [{"hand": STRONG[s]} for s in range(5)], "extra": {"blind": STRONG_BLIND}}


def test_passing_all_the_way_records_each_pass() -> None:
    state = start(STRONG, STRONG_BLIND)
    _, events = run(state, [(s, {"type": "pass"}) for s in range(5)])
    assert [e.seat for e in events if isinstance(e, Passed)] == [0, 1, 2, 3, 4]


def test_an_explicit_deal_may_name_the_unused_stock_empty() -> None:
    state = start(STRONG, STRONG_BLIND)
    deal = {**_deal_of(state), "stock": []}
    events = GAME.start(Setup(players=5, seed="test", dealer=4, deal=deal))
    assert events == GAME.start(Setup(players=5, seed="test", dealer=4, deal=_deal_of(state)))
    with pytest.raises(InvalidDeal, match="unknown field"):
        GAME.start(Setup(players=5, seed="test", dealer=4, deal={**deal, "stock": ["AS"]}))
