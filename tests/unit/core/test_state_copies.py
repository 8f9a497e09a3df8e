"""``copy_with`` (domain/frozen.py), the one fast copy of every engine's frozen state: it gives
what ``dataclasses.replace`` gives, refuses an unknown field at run time, and mypy checks its
field names and types at each call (to mypy it is ``dataclasses.replace``)."""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path
from typing import Any

import pytest
from mypy import api as mypy_api

from domain.frozen import copy_with
from domain.games.sheepshead import state as sheepshead
from domain.games.shithead import state as shithead
from domain.games.sixty_six import state as sixty_six
from domain.protocol import Setup, fold
from domain.registry import get_game


def _live(name: str, players: int) -> Any:
    game = get_game(name)
    return fold(game, game.start(Setup(players=players, seed="copies")))


def _instances() -> list[Any]:
    six, shit, sheep = _live("sixty_six", 2), _live("shithead", 3), _live("sheepshead", 5)
    return [six, six.deal, shit, shit.info, sheep, sheep.hand]


STATE_CLASSES = (sixty_six.State, sixty_six.Deal, shithead.State, shithead.Info,
                 sheepshead.State, sheepshead.Hand, sheepshead.Trick)


def test_every_state_class_is_a_frozen_dataclass_with_a_dict() -> None:
    for cls in STATE_CLASSES:
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        assert "__slots__" not in cls.__dict__, f"{cls.__qualname__}: copy_with copies __dict__"


@pytest.mark.parametrize("original", _instances(), ids=lambda o: type(o).__qualname__)
def test_a_copy_changes_the_given_field_keeps_the_others_and_equals_replace(original: Any) -> None:
    for f in dataclasses.fields(original):
        marker = object()
        copied = copy_with(original, **{f.name: marker})
        assert type(copied) is type(original)
        assert copied == dataclasses.replace(original, **{f.name: marker})
        assert getattr(copied, f.name) is marker
        assert all(getattr(copied, o.name) is getattr(original, o.name)
                   for o in dataclasses.fields(original) if o.name != f.name)
        assert getattr(original, f.name) is not marker  # the original is untouched
    assert copy_with(original) == original and copy_with(original) is not original


@pytest.mark.parametrize("original", _instances(), ids=lambda o: type(o).__qualname__)
def test_a_copy_stays_frozen_and_refuses_an_unknown_field(original: Any) -> None:
    with pytest.raises(TypeError, match="no field"):
        copy_with(original, no_such_field=1)
    copied = copy_with(original)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(copied, dataclasses.fields(copied)[0].name, 3)


def test_mypy_checks_the_field_names_and_types_of_a_copy(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(textwrap.dedent("""
        from domain.frozen import copy_with
        from domain.games.sixty_six.state import Deal

        def bad(deal: Deal) -> Deal:
            copy_with(deal, no_such_field=1)
            return copy_with(deal, turn="one")

        def good(deal: Deal) -> Deal:
            return copy_with(deal, turn=1, phase="lead")
    """))
    out, _, status = mypy_api.run(["--strict", "--no-incremental", "--cache-dir", str(tmp_path),
                                   str(probe)])
    assert status == 1, out
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert len(errors) == 2, out
    assert "no_such_field" in errors[0] and '"turn"' in errors[1], out
