"""R1-R3 and §16.3: components, configurations and the deal."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from domain.cards import deck_52, deck_54
from domain.errors import IllegalAction, InvalidDeal, InvalidOptions, InvalidSetup
from domain.games.shithead.events import CardsDealt, CardsPlayed, GameStarted, TurnPassed
from domain.protocol import Setup, fold
from domain.shuffle import deal_label, deck_commitment, seeded_choice, shuffled
from tests.contract.scenario_shithead import cards_in_play
from tests.unit.shithead.helpers import (
    GAME,
    act,
    creation,
    deal,
    given,
    legal,
    play,
    playing,
    plays,
    preplay,
)

TWO = ("3C 5D 9H | 4C 6C 8C", "7D 8D JD | 4D 6D KD")


def _seeded(players: int, **options: object) -> list:
    return GAME.start(Setup(players=players, seed="s1", dealer=0, options=options))


def test_R1_1_a_standard_52_card_deck_and_two_jokers_with_six_players() -> None:
    four = fold(GAME, _seeded(4))
    six = fold(GAME, _seeded(6))
    assert sorted(cards_in_play(four)) == sorted(deck_52())
    assert sorted(cards_in_play(six)) == sorted(deck_54())


def test_R1_2_suits_do_not_matter_and_jokers_are_interchangeable() -> None:
    state = given(playing(*TWO), CardsPlayed(seat=0, cards=("9H",), source="hand"))
    state = given(state, TurnPassed(seat=1, reason="played"))
    assert [a["cards"] for a in legal(state, 1) if a["type"] == "play"] == [["JD"]]
    jokers = playing("RJ 3C 9H | 4C 6C 8C", "BJ 8D JD | 4D 6D KD", jokers="always")
    jokers = given(jokers, CardsPlayed(seat=0, cards=("9H",), source="hand"))
    on_nine_0 = plays(given(jokers, TurnPassed(seat=0, reason="x")), 0)
    on_nine_1 = plays(given(jokers, TurnPassed(seat=1, reason="x")), 1)
    assert "RJ" in on_nine_0 and "BJ" in on_nine_1


@pytest.mark.parametrize(
    ("low", "high"), [("3", "4"), ("8", "9"), ("9", "J"), ("Q", "K"), ("K", "A")]
)
def test_R1_3_rank_order_three_low_ace_high(low: str, high: str) -> None:
    state = playing(f"{low}C {high}C 5D | 2H 4S 7S", f"{low}D {high}D 6H | 4H 7H 2S")
    state = given(state, CardsPlayed(seat=0, cards=(f"{high}C",), source="hand"))
    state = given(state, TurnPassed(seat=1, reason="played"))
    with pytest.raises(IllegalAction) as err:
        play(state, 1, f"{low}D")
    assert err.value.reason == "too_low"
    assert play(state, 1, f"{high}D")[0][0] == CardsPlayed(
        seat=1, cards=(f"{high}D",), source="hand"
    )


def test_R1_4_each_seat_has_hand_face_up_and_face_down_and_the_table_shares_stock_pile_burned() -> (
    None
):
    state = preplay(*TWO, stock="2S 3S")
    view = GAME.reveal(state)
    assert view["seats"][0]["hand"] == ["3C", "5D", "9H"]
    assert view["seats"][0]["face_up"] == [["4C"], ["6C"], ["8C"]]
    assert len(view["seats"][0]["face_down"]) == 3
    assert (view["stock"], view["pile"], view["burned"]) == (["2S", "3S"], [], [])


def test_R1_5_face_down_slots_are_numbered_in_deal_order() -> None:
    state = preplay("3C 5D 9H | 4C 6C 8C | 2H 3H 4H", "7D 8D JD | 4D 6D KD")
    assert state.face_down[0] == ("2H", "3H", "4H")
    assert GAME.view(state, 0)["seats"][0]["face_down_slots"] == [0, 1, 2]


def test_R1_6_every_card_is_in_exactly_one_zone_throughout_a_game() -> None:
    events = _seeded(3)
    state = fold(GAME, events)
    dealt = Counter(cards_in_play(state))
    rnd = random.Random(6)
    for _ in range(300):
        if GAME.outcome(state) is not None:
            break
        seat = GAME.seats_to_act(state)[0]
        state = act(state, seat, rnd.choice(GAME.legal_actions(state, seat)))[1]
        assert Counter(cards_in_play(state)) == dealt


@pytest.mark.parametrize("players", [1, 7])
def test_R2_1_two_to_six_players(players: int) -> None:
    with pytest.raises(InvalidSetup, match="2 to 6 players"):
        GAME.start(Setup(players=players, seed="s"))


def test_R2_2_auto_jokers_only_with_six_players() -> None:
    for players in range(2, 7):
        state = fold(GAME, _seeded(players))
        has_jokers = {"RJ", "BJ"} <= set(cards_in_play(state))
        assert has_jokers == (players == 6)


@pytest.mark.parametrize(("players", "stock"), [(2, 34), (3, 25), (4, 16), (5, 7), (6, 0)])
def test_R2_3_stock_size_after_the_deal(players: int, stock: int) -> None:
    dealt = _seeded(players)[1]
    assert isinstance(dealt, CardsDealt)
    assert len(dealt.stock) == stock


def test_R2_3_a_deal_larger_than_the_deck_is_rejected() -> None:
    with pytest.raises(InvalidOptions, match="54 cards do not fit a 52-card deck"):
        GAME.start(Setup(players=6, seed="s", options={"jokers": "never"}))
    with pytest.raises(InvalidOptions, match="60 cards"):
        GAME.start(Setup(players=4, seed="s", options={"cards_per_row": 5}))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"sevens_low": True, "sevens_glass": True}, "sevens_low and sevens_glass"),
        ({"eights_reverse_transparent": True, "eights_low": True}, "eights_low"),
        ({"joker_mode": "skip_two"}, "needs jokers"),
        ({"cards_per_row": 6}, "cards_per_row must be one of 3, 4, 5"),
        ({"hand_size": 0}, "hand_size must be at least 1"),
        ({"nonsense": 1}, "unknown option"),
    ],
)
def test_R2_4_forbidden_option_combinations_are_rejected(options: dict, message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        GAME.start(Setup(players=4, seed="s", options=options))


def test_R3_1_the_first_dealer_is_given_or_drawn_from_the_seed() -> None:
    given_dealer = GAME.start(Setup(players=4, seed="abc", dealer=2))[0]
    drawn = GAME.start(Setup(players=4, seed="abc"))[0]
    assert isinstance(given_dealer, GameStarted) and given_dealer.dealer == 2
    assert isinstance(drawn, GameStarted) and drawn.dealer == seeded_choice("abc", "dealer", 4)
    with pytest.raises(InvalidSetup, match="dealer must be a seat"):
        GAME.start(Setup(players=4, seed="abc", dealer=4))


def test_R3_2_the_shuffle_is_recorded_by_seed_and_commitment() -> None:
    first, again = _seeded(4), _seeded(4)
    assert first == again
    started = first[0]
    assert isinstance(started, GameStarted)
    order = shuffled(deck_52(), "s1", deal_label(0))
    assert started.seed == "s1" and started.explicit_deal is False
    assert started.commitment == deck_commitment("s1", order)
    assert started.options["jokers"] == "auto" and started.options["action_limit"] == 5000


def test_R3_3_batch_deal_from_the_dealers_left_face_down_then_face_up_then_hand() -> None:
    events = GAME.start(Setup(players=3, seed="d", dealer=1))
    order = shuffled(deck_52(), "d", deal_label(0))
    dealt = events[1]
    assert isinstance(dealt, CardsDealt)
    # recipients 2, 0, 1 (the dealer last), three cards at a time
    assert dealt.face_down[2] == tuple(order[0:3])
    assert dealt.face_down[0] == tuple(order[3:6])
    assert dealt.face_down[1] == tuple(order[6:9])
    assert dealt.face_up[2] == tuple(order[9:12])
    assert dealt.hands[2] == tuple(order[18:21])
    assert dealt.hands[1] == tuple(order[24:27])
    assert dealt.stock == tuple(order[27:])


def test_R3_4_face_up_cards_are_public_hands_private_face_down_hidden() -> None:
    state = preplay(*TWO)
    mine, theirs = GAME.view(state, 0), GAME.view(state, 1)
    assert mine["hand"] == ["3C", "5D", "9H"]
    assert theirs["hand"] == ["7D", "8D", "JD"]
    assert theirs["seats"][0]["face_up"] == [["4C"], ["6C"], ["8C"]]
    assert theirs["seats"][0]["hand_count"] == 3
    text = repr(mine) + repr(theirs) + repr(GAME.view(state, None))
    for card in state.face_down[0] + state.face_down[1]:
        assert card not in text


def test_R3_5_explicit_partial_deals_are_accepted() -> None:
    events = creation(*TWO, stock="2H")
    started = events[0]
    assert isinstance(started, GameStarted) and started.explicit_deal is True
    state = fold(GAME, events)
    assert state.stock == ("2H",) and state.hands[1] == ("7D", "8D", "JD")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (("3C 5D 9H | 4C 6C 8C", "3C 8D JD | 4D 6D KD"), "more than once: 3C"),
        (("3C 5D 9H | 4C 6C 8C", "RJ 8D JD | 4D 6D KD"), "'RJ' is not a card"),
        (("3C 5D | 4C 6C 8C", "7D 8D JD | 4D 6D KD"), r"seats\[0\].hand must hold 3 card"),
        (("3C 5D 9H | 4C 6C", "7D 8D JD | 4D 6D KD"), r"seats\[0\].face_up must hold 3"),
        (("3C 5D 9H | 4C 6C 8C", "7D 8D JD | 4D 6D KD | 2H 2S 3S 3H"), r"seats\[1\].face_down"),
    ],
)
def test_R3_5_bad_explicit_deals_are_rejected(spec: tuple[str, str], message: str) -> None:
    raw = deal(*spec)
    with pytest.raises(InvalidDeal, match=message):
        GAME.start(Setup(players=2, seed="s", deal=raw))


def test_R3_5_unknown_zones_are_rejected() -> None:
    raw = deal(*TWO)
    raw["seats"][0]["pocket"] = ["2C"]
    with pytest.raises(InvalidDeal, match="unknown zone"):
        GAME.start(Setup(players=2, seed="s", deal=raw))
