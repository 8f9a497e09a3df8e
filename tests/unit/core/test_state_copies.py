"""The engines' fast state copies are plain typed functions over every field of their class:
mypy checks each call's field names and types, and a field added to the class without its
copy parameter fails here."""

from __future__ import annotations

import inspect
from dataclasses import fields
from typing import Any

import pytest

from domain.games.shithead import state as shithead
from domain.games.sixty_six import state as sixty_six
from domain.protocol import Setup, fold
from domain.registry import get_game

COPIES = [
    pytest.param(shithead.changed, shithead.State, id="shithead.changed"),
    pytest.param(sixty_six.copy_deal, sixty_six.Deal, id="sixty_six.copy_deal"),
    pytest.param(sixty_six.copy_state, sixty_six.State, id="sixty_six.copy_state"),
]


@pytest.mark.parametrize(("copy", "cls"), COPIES)
def test_a_copy_takes_every_field_by_name_with_the_field_s_type(copy: Any, cls: type) -> None:
    params = list(inspect.signature(copy).parameters.values())[1:]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params)
    assert [(p.name, p.annotation) for p in params] == [(f.name, f.type) for f in fields(cls)]


def _live(name: str, players: int) -> Any:
    game = get_game(name)
    return fold(game, game.start(Setup(players=players, seed="copies")))


@pytest.mark.parametrize(("copy", "cls"), COPIES)
def test_a_copy_keeps_every_field_it_is_not_given(copy: Any, cls: type) -> None:
    state = _live("shithead", 3) if cls is shithead.State else _live("sixty_six", 2)
    original = state.deal if cls is sixty_six.Deal else state
    for f in fields(cls):
        marker = object()
        copied = copy(original, **{f.name: marker})
        assert getattr(copied, f.name) is marker
        assert all(
            getattr(copied, other.name) is getattr(original, other.name)
            for other in fields(cls) if other.name != f.name
        )
    assert copy(original) == original and copy(original) is not original
