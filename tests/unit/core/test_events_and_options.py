"""The event codec round-trips and upcasts; options validate with readable errors."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError, dataclass
from pathlib import Path
from typing import Any

import pytest

from domain.chain import GENESIS, chain, link_hash, link_hash_text
from domain.errors import InvalidOptions
from domain.events import Event, EventCodec, UnknownEvent, canonical_json
from domain.lifecycle import lifecycle
from domain.options import Option, action_limit_option, non_default, parse_options
from domain.protocol import action_key
from domain.registry import get_game


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsPlayed(Event):
    TYPE = "test.CardsPlayed"
    SCHEMA = 2
    seat: int
    cards: tuple[str, ...]
    source: str


codec = EventCodec([CardsPlayed])


@codec.upcaster("test.CardsPlayed", 1)
def _add_source(data: dict) -> dict:
    return {**data, "source": "hand"}


def test_events_are_frozen_facts() -> None:
    e = CardsPlayed(seat=0, cards=("3H",), source="hand")
    with pytest.raises(FrozenInstanceError):
        e.seat = 1  # type: ignore[misc]


def test_codec_round_trips_through_json_with_tuples_restored() -> None:
    e = CardsPlayed(seat=1, cards=("3H", "3S"), source="face_up")
    data = json.loads(json.dumps(codec.encode(e)))
    assert data == {
        "type": "test.CardsPlayed",
        "schema": 2,
        "seat": 1,
        "cards": ["3H", "3S"],
        "source": "face_up",
    }
    assert codec.decode(data) == e


def test_an_old_schema_is_upcast_before_decoding() -> None:
    old = {"type": "test.CardsPlayed", "schema": 1, "seat": 0, "cards": ["4C"]}
    assert codec.decode(old) == CardsPlayed(seat=0, cards=("4C",), source="hand")


def test_unknown_event_types_are_refused() -> None:
    with pytest.raises(UnknownEvent):
        codec.decode({"type": "test.Nope", "schema": 1})


def test_stored_names_are_registered_once() -> None:
    with pytest.raises(ValueError):
        codec.register(CardsPlayed)


def test_canonical_json_is_key_sorted_and_compact() -> None:
    assert canonical_json({"b": 1, "a": [1, 2]}) == '{"a":[1,2],"b":1}'


def test_hash_chain_detects_any_edit() -> None:
    events = [{"type": "x", "n": i} for i in range(3)]
    hashes = chain(events)
    assert hashes[0] == link_hash(GENESIS, events[0])
    edited = [events[0], {"type": "x", "n": 9}, events[2]]
    assert chain(edited)[1:] != hashes[1:]
    assert chain(list(reversed(events)))[-1] != hashes[-1]


SPECS = (
    Option(name="jokers", kind="choice", default="auto", choices=("auto", "always", "never")),
    Option(name="ten_burns", kind="bool", default=True),
    Option(name="cards_per_row", kind="int", default=3, choices=(3, 4, 5)),
    Option(name="hand_size", kind="int", default=None, minimum=1, nullable=True),
    action_limit_option(),
)


def test_options_fill_defaults_and_keep_given_values() -> None:
    opts = parse_options(SPECS, {"ten_burns": False, "hand_size": 4})
    assert opts == {
        "jokers": "auto",
        "ten_burns": False,
        "cards_per_row": 3,
        "hand_size": 4,
        "action_limit": 5000,
    }
    assert non_default(SPECS, opts) == {"ten_burns": False, "hand_size": 4}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"colour": 1}, "unknown option(s): colour"),
        ({"ten_burns": "yes"}, "ten_burns must be true or false"),
        ({"jokers": "sometimes"}, "jokers must be one of"),
        ({"cards_per_row": 6}, "cards_per_row must be one of 3, 4, 5"),
        ({"cards_per_row": True}, "cards_per_row must be an integer"),
        ({"hand_size": 0}, "hand_size must be at least 1"),
        ({"action_limit": "many"}, "action_limit must be an integer"),
        ([["jokers", "off"]], "options must be an object"),
        (["jokers"], "options must be an object"),
        ("jokers", "options must be an object"),
    ],
)
def test_bad_options_are_rejected_with_a_readable_message(raw: object, message: str) -> None:
    with pytest.raises(InvalidOptions) as err:
        parse_options(SPECS, raw)  # type: ignore[arg-type]
    assert message in str(err.value)


def test_action_key_ignores_card_order_only() -> None:
    assert action_key({"type": "play", "cards": ["3H", "3S"]}) == action_key(
        {"cards": ["3S", "3H"], "type": "play"}
    )
    assert action_key({"type": "flip", "slot": 0}) != action_key({"type": "flip", "slot": 1})


def test_the_chain_over_stored_text_is_the_chain_over_the_event() -> None:
    event = {"type": "x", "cards": ["3H", "AS"], "seat": 1}
    assert link_hash_text(GENESIS, canonical_json(event)) == link_hash(GENESIS, event)


@dataclass(frozen=True, slots=True, kw_only=True)
class Dealt(Event):
    TYPE = "test.Dealt"
    hands: tuple[tuple[str, ...], ...]
    options: dict[str, Any]
    loser: int | None = None


dealt_codec = EventCodec([Dealt])


def test_a_decoded_event_has_every_list_as_a_tuple_all_the_way_down() -> None:
    data = {"type": "test.Dealt", "schema": 1, "hands": [["3H"], ["4S", "5D"]],
            "options": {"order": [1, [2]]}, "loser": None}
    assert dealt_codec.decode(data) == Dealt(
        hands=(("3H",), ("4S", "5D")), options={"order": (1, (2,))}, loser=None
    )


def test_a_field_left_out_takes_its_default_and_a_required_one_is_refused() -> None:
    assert dealt_codec.decode({"type": "test.Dealt", "schema": 1, "hands": [], "options": {}}) == (
        Dealt(hands=(), options={})
    )
    with pytest.raises(TypeError):
        dealt_codec.decode({"type": "test.Dealt", "schema": 1, "options": {}, "loser": 1})


def test_a_field_no_event_has_is_refused_even_in_the_place_of_one_it_has() -> None:
    with pytest.raises(TypeError):
        dealt_codec.decode({"type": "test.Dealt", "schema": 1, "hands": [], "options": {},
                            "winner": 1})
    with pytest.raises(TypeError):
        codec.decode({"type": "test.CardsPlayed", "schema": 2, "seat": 0, "cards": [],
                      "sauce": "hand"})


@pytest.mark.parametrize("name", ["shithead", "sheepshead", "sixty_six"])
def test_every_golden_event_decodes_as_its_class_constructor_builds_it(name: str) -> None:
    rules = lifecycle(get_game(name))
    for path in sorted((Path(__file__).parents[2] / "golden").rglob(f"{name}-*.replay.json")):
        for batch in json.loads(path.read_text())["batches"]:
            for stored in batch["events"]:
                data = stored["event"]
                event = rules.codec.decode(data)
                cls = type(event)
                fields = {k: _frozen(v) for k, v in data.items() if k not in ("type", "schema")}
                assert data["schema"] != cls.SCHEMA or event == cls(**fields), data


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value
