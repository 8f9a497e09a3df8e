"""The games cardroom knows, by name."""

from __future__ import annotations

from typing import Any

from domain.errors import UnknownGame
from domain.protocol import Game

_GAMES: dict[str, Game[Any]] = {}
_LOADED: list[bool] = []  # the built-in games are imported once (a game imported first directly
# must not hide the others)


def register(game: Game[Any]) -> Game[Any]:
    """Add a game under its name."""
    _GAMES[game.name] = game
    return game


def _load() -> None:
    # Imported lazily so that a game module under construction never breaks the others.
    import importlib

    if _LOADED:
        return
    _LOADED.append(True)
    for module in ("domain.games.shithead", "domain.games.sixty_six", "domain.games.sheepshead"):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as err:
            if err.name != module:
                raise


def get_game(name: object) -> Game[Any]:
    """The game of that name, or UnknownGame listing the known ones."""
    _load()
    game = _GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(sorted(_GAMES))}")
    return game


def all_games() -> dict[str, Game[Any]]:
    """Every registered game."""
    _load()
    return dict(_GAMES)
