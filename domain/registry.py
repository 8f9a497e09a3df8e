"""The games cardroom knows, by name."""

from __future__ import annotations

from typing import Any

from domain.errors import UnknownGame
from domain.protocol import Game

_GAMES: dict[str, Game[Any]] = {}
_MODULES = ("domain.games.shithead", "domain.games.sixty_six", "domain.games.sheepshead")


def register(game: Game[Any]) -> Game[Any]:
    """Add a game under its name."""
    _GAMES[game.name] = game
    return game


def _load() -> None:
    # Imported lazily (each game module registers itself here); a missing one is an error.
    import importlib

    for module in _MODULES:
        importlib.import_module(module)


def get_game(name: object) -> Game[Any]:
    """The game of that name, or UnknownGame listing the known ones."""
    if len(_GAMES) < len(_MODULES):
        _load()
    game = _GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(sorted(_GAMES))}")
    return game


def all_games() -> dict[str, Game[Any]]:
    """Every registered game."""
    if len(_GAMES) < len(_MODULES):
        _load()
    return dict(_GAMES)
