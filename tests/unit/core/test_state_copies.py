"""Every game's state changes through ``copy_with`` (domain/frozen.py) or a constructor: mypy
checks the field names and types of each change (to mypy ``copy_with`` is
``dataclasses.replace``), no other module builds a state from a ``__dict__`` by hand, and every
state a fold makes holds exactly its fields."""

from __future__ import annotations

import ast
import dataclasses
import random
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

ROOT = Path(__file__).resolve().parents[3]
STATE_CLASSES = (sixty_six.State, sixty_six.Deal, shithead.State, shithead.Info,
                 sheepshead.State, sheepshead.Hand, sheepshead.Trick)
PLAYERS = {"sixty_six": 2, "shithead": 3, "sheepshead": 5}


def _live(name: str) -> Any:
    game = get_game(name)
    return fold(game, game.start(Setup(players=PLAYERS[name], seed="copies")))


def _instances() -> list[Any]:
    six, shit, sheep = _live("sixty_six"), _live("shithead"), _live("sheepshead")
    return [six, six.deal, shit, shit.info, sheep, sheep.hand]


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
def test_a_copy_stays_frozen(original: Any) -> None:
    copied = copy_with(original)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(copied, dataclasses.fields(copied)[0].name, 3)


@pytest.mark.slow  # runs mypy
def test_mypy_refuses_a_misspelt_field_or_a_wrong_type_in_a_change_of_every_state(
    tmp_path: Path,
) -> None:
    modules = {cls.__module__ for cls in STATE_CLASSES}
    imports = "\n".join(f"import {module}" for module in sorted(modules))
    bad = "\n".join(f"    copy_with(x{i}, {_misspelt(cls)}=x{i}.{_first(cls)})"
                    for i, cls in enumerate(STATE_CLASSES))
    params = ", ".join(f"x{i}: {cls.__module__}.{cls.__qualname__}"
                       for i, cls in enumerate(STATE_CLASSES))
    probe = tmp_path / "probe.py"
    probe.write_text(f"from domain.frozen import copy_with\n{imports}\n\n"
                     f"def bad({params}) -> None:\n{bad}\n"
                     f"    copy_with(x1, turn='one')\n\n"
                     f"def good(x1: domain.games.sixty_six.state.Deal) -> object:\n"
                     f"    return copy_with(x1, turn=1, phase='lead')\n")
    out, _, status = mypy_api.run(["--strict", "--no-incremental", "--cache-dir", str(tmp_path),
                                   str(probe)])
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1 and len(errors) == len(STATE_CLASSES) + 1, out
    for cls, error in zip(STATE_CLASSES, errors, strict=False):
        assert f'"{_misspelt(cls)}"' in error, (cls, error)
    assert '"turn"' in errors[-1] and '"str"' in errors[-1], errors[-1]


def _first(cls: type) -> str:
    return dataclasses.fields(cls)[0].name


def _misspelt(cls: type) -> str:
    """The class's first field with two letters swapped, as a slip of the fingers makes it."""
    name = _first(cls)
    return name[1] + name[0] + name[2:]


def test_no_module_but_domain_frozen_reads_or_writes_an_objects_dict() -> None:
    found = []
    for package in ("domain", "replays", "workers"):  # where states are made and copied
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == ROOT / "domain" / "frozen.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                touches = (isinstance(node, ast.Attribute) and node.attr == "__dict__") or (
                    isinstance(node, ast.Constant) and node.value == "__dict__"
                )
                if touches:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, f"copy a state with domain.frozen.copy_with, not by hand: {found}"


@pytest.mark.parametrize("name", sorted(PLAYERS))
def test_every_state_a_fold_makes_holds_exactly_its_fields(name: str) -> None:
    game, rnd = get_game(name), random.Random(name)
    for match in range(3):
        state = fold(game, game.start(Setup(players=PLAYERS[name], seed=f"fields-{match}")))
        while game.outcome(state) is None:
            _assert_exact_fields(state)
            seat = game.awaited_seats(state)[0]
            action = rnd.choice(game.legal_actions(state, seat))
            state = fold(game, game.decide(state, seat, action), state)
        _assert_exact_fields(state)


def _assert_exact_fields(value: Any) -> None:
    """Every dataclass in the state, nested ones too, holds its fields and nothing else."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = [f.name for f in dataclasses.fields(value)]
        if hasattr(value, "__dict__"):
            assert sorted(vars(value)) == sorted(names), type(value).__qualname__
        for name in names:
            _assert_exact_fields(getattr(value, name))
    elif isinstance(value, tuple | list):
        for item in value:
            _assert_exact_fields(item)

