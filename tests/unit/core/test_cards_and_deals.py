"""Card codes, decks and explicit-deal validation."""

from __future__ import annotations

import pytest

from domain import cards
from domain.deals import deal_order, parse_deal
from domain.errors import InvalidCard, InvalidDeal


def test_card_codes_are_rank_then_suit_and_jokers() -> None:
    assert cards.parse_card("TH") == "TH"
    assert cards.parse_card("RJ") == "RJ"
    assert cards.rank("TH") == "T" and cards.suit("TH") == "H"
    assert cards.rank("BJ") == cards.JOKER_RANK and cards.is_joker("BJ")


@pytest.mark.parametrize("bad", ["10H", "th", "1C", "XJ", "", None, 7, "AHS"])
def test_bad_card_codes_are_rejected_with_the_code_in_the_message(bad: object) -> None:
    with pytest.raises(InvalidCard) as err:
        cards.parse_card(bad)
    assert repr(bad) in str(err.value)


def test_parse_cards_needs_a_list() -> None:
    assert cards.parse_cards(["2C", "3D"]) == ("2C", "3D")
    with pytest.raises(InvalidCard):
        cards.parse_cards("2C")


@pytest.mark.parametrize(
    ("deck", "size", "first", "last"),
    [
        (cards.deck_52, 52, "2C", "AS"),
        (cards.deck_54, 54, "2C", "BJ"),
        (cards.deck_24, 24, "9C", "AS"),
        (cards.deck_20, 20, "TC", "AS"),
        (cards.deck_32, 32, "7C", "AS"),
    ],
)
def test_decks_are_in_canonical_order_without_duplicates(deck, size, first, last) -> None:
    d = deck()
    assert len(d) == len(set(d)) == size
    assert (d[0], d[-1]) == (first, last)


def _deal(**over: object) -> dict:
    deal = {
        "seats": [
            {"hand": ["2C", "3C"], "face_up": ["4C"]},
            {"hand": ["2D", "3D"], "face_up": ["4D"]},
        ],
        "stock": ["5C", "5D"],
    }
    deal.update(over)
    return deal


def _parse(deal: object) -> dict:
    return parse_deal(deal, players=2, deck=cards.deck_52(), seat_zones=("hand", "face_up"))


def test_a_partial_deal_is_accepted_and_ordered_for_the_commitment() -> None:
    parsed = _parse(_deal())
    assert parsed["seats"][1]["hand"] == ("2D", "3D")
    assert deal_order(parsed, ("hand", "face_up")) == [
        "2C",
        "3C",
        "4C",
        "2D",
        "3D",
        "4D",
        "5C",
        "5D",
    ]


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (_deal(stock=["5C", "2C"]), "more than once: 2C"),
        (_deal(stock=["RJ"]), "'RJ' is not a card of this game's deck"),
        (_deal(stock=["1C"]), "'1C' is not a card"),
        (_deal(seats=[{"hand": []}]), "exactly 2 seats"),
        (_deal(seats=[{"hand": [], "blind": []}, {}]), "unknown zone(s): blind"),
        (_deal(trump="AS"), "unknown field(s): trump"),
        (_deal(stock="5C"), "deal.stock must be a list"),
        ("not a deal", "must be an object"),
    ],
)
def test_bad_explicit_deals_are_rejected_with_a_clear_message(deal: object, message: str) -> None:
    with pytest.raises(InvalidDeal) as err:
        _parse(deal)
    assert message in str(err.value)


def test_extra_zones_take_a_single_code_or_a_list() -> None:
    parsed = parse_deal(
        {"seats": [{"hand": ["9C"]}, {"hand": ["9D"]}], "stock": [], "extra": {"trump_card": "AS"}},
        players=2,
        deck=cards.deck_24(),
        seat_zones=("hand",),
        extra_zones=("trump_card",),
    )
    assert parsed["extra"]["trump_card"] == ("AS",)
