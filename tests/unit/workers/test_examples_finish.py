"""Every example bot (each Python block of docs/bots.md, every module of workers/examples) plays
to the end of every game it claims to play, at the smallest and a larger table, alone among
built-in bots and against itself: never stopped by the action limit."""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
import types
from pathlib import Path
from typing import Any

import pytest

import workers.examples
from domain.registry import all_games
from workers.arena import play_game
from workers.bots.base import games_of, register_bot

ROOT = Path(__file__).resolve().parents[3]
BLOCK = re.compile(r"^ *```python\n(.*?)^ *```", re.S | re.M)
TABLES = {"shithead": (2, 4), "sixty_six": (2,), "sheepshead": (3, 5)}


def doc_examples() -> list[tuple[str, str]]:
    """(example id, bot name) for each bot class in docs/bots.md's Python blocks."""
    found = []
    text = (ROOT / "docs" / "bots.md").read_text()
    for number, block in enumerate(BLOCK.findall(text)):
        module = types.ModuleType(f"docs_bots_block_{number}")
        sys.modules[module.__name__] = module
        exec(compile(_dedent(block), f"docs/bots.md block {number}", "exec"), module.__dict__)
        found += _bots_of(module, f"docs/bots.md block {number}")
    return found


def module_examples() -> list[tuple[str, str]]:
    """(example id, bot name) for each bot class in the modules of workers/examples."""
    found = []
    for info in pkgutil.iter_modules(workers.examples.__path__):
        module = importlib.import_module(f"workers.examples.{info.name}")
        found += _bots_of(module, f"workers/examples/{info.name}.py")
    return found


def _bots_of(module: types.ModuleType, where: str) -> list[tuple[str, str]]:
    """Each bot class of the module under a name of its own (two examples may register the
    same name, as the docs' ``lowball`` and workers/examples' do), for the games it claims."""
    out = []
    for attr, value in vars(module).items():
        if _is_bot_class(value, module) and not attr.startswith("_"):
            name = f"example_{module.__name__}_{attr}".lower()
            for game in _claimed_games(value):  # unregistered (`bot run`): every game
                register_bot(name, game)(value)
            out.append((f"{where}: {attr}", name))
    return out


def _is_bot_class(value: Any, module: types.ModuleType) -> bool:
    return (
        isinstance(value, type)
        and value.__module__ == module.__name__
        and callable(getattr(value, "choose", None))
    )


def _claimed_games(cls: type) -> list[str | None]:
    from workers.bots.base import _BOTS

    games = [game for (_, game), factory in _BOTS.items() if factory is cls]
    return [None] if not games or None in games else games


def _dedent(block: str) -> str:
    indent = min(len(line) - len(line.lstrip()) for line in block.splitlines() if line.strip())
    return "\n".join(line[indent:] for line in block.splitlines())


EXAMPLES = doc_examples() + module_examples()


def test_the_docs_and_the_examples_folder_have_bots_to_check() -> None:
    where = {example.split(":")[0] for example, _ in EXAMPLES}
    assert "workers/examples/lowball.py" in where
    assert sum(w.startswith("docs/bots.md") for w in where) >= 2


@pytest.mark.parametrize(("example", "bot"), EXAMPLES, ids=[e for e, _ in EXAMPLES])
def test_every_example_bot_finishes_every_game_it_claims_to_play(example: str, bot: str) -> None:
    claimed = games_of(bot) or tuple(sorted(all_games()))
    for game in claimed:
        for players in TABLES[game]:
            for seats in ([bot] + ["heuristic"] * (players - 1), [bot] * players):
                outcome = _play(game, seats)
                assert outcome.get("reason") != "action_limit", (
                    f"{example} stopped by the action limit in {game}, seats {seats}"
                )


def _play(game: str, seats: list[str]) -> dict[str, Any]:
    options = {"game_target": 3} if game == "sixty_six" else {}
    record = play_game(game, seats, f"examples-{game}-{len(seats)}", options, bot_seed="examples")
    assert record.outcome is not None, f"{record.ended_by}: {record.note}"
    return record.outcome
