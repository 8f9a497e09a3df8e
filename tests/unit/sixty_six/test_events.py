"""The events' fast builders make exactly what their constructors make."""

from __future__ import annotations

from dataclasses import fields

import pytest

from domain.games.sixty_six.events import CODEC, TrickWon, trick_won


@pytest.mark.parametrize(
    "values",
    [
        {"winner": 0, "cards": ("AS", "TS"), "points": 21, "tricks": (1, 0),
         "marriage_credited": 0, "last_trick_bonus": 0},
        {"winner": 1, "cards": ("9H", "KC"), "points": 4, "tricks": (3, 6),
         "marriage_credited": 40, "last_trick_bonus": 10},
    ],
)
def test_trick_won_builds_what_the_constructor_builds(values: dict[str, object]) -> None:
    built, constructed = trick_won(**values), TrickWon(**values)  # type: ignore[arg-type]
    assert built == constructed
    assert repr(built) == repr(constructed)
    assert CODEC.encode(built) == CODEC.encode(constructed)
    assert hash(built) == hash(constructed)


def test_trick_won_takes_every_field_in_the_order_of_the_fields() -> None:
    names = [f.name for f in fields(TrickWon)]
    assert list(trick_won.__code__.co_varnames[: trick_won.__code__.co_argcount]) == names
