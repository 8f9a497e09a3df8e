"""The bot interface and registry.

A bot sees exactly what its seat sees: the seat's view, whose ``legal_actions`` lists every
action it may send. ``choose`` returns one of them (or an equivalent action). ``rng`` is seeded
by the caller from (game id, seat, version), so a bot's play is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

View = dict[str, Any]
Action = dict[str, Any]

# What a bot returns when it wants no action now (while several seats may act at once and the
# others should move first): the bot job ends without playing and runs again after the next append.
WAIT: Action = {"type": "wait"}


def is_wait(action: Action) -> bool:
    """True for the WAIT answer."""
    return action.get("type") == WAIT["type"] and len(action) == 1


class Bot(Protocol):
    """A strategy: view + legal actions in, one action out."""

    def choose(self, view: View, rng: random.Random) -> Action:
        """The action to send (one of ``view["legal_actions"]``), or WAIT for none now."""
        ...


class UnknownBot(KeyError):
    """No bot of that name for that game."""


BotFactory = Callable[[], Bot]
_BOTS: dict[tuple[str, str | None], BotFactory] = {}


def register_bot(name: str, game: str | None = None) -> Callable[[BotFactory], BotFactory]:
    """Register a bot factory under ``name``, for one game or (game=None) for every game."""

    def add(factory: BotFactory) -> BotFactory:
        _BOTS[(name, game)] = factory
        return factory

    return add


def get_bot(name: str, game: str) -> Bot:
    """A fresh bot of that name for that game; a game-specific one wins over a generic one."""
    _load_builtin()
    factory = _BOTS.get((name, game)) or _BOTS.get((name, None))
    if factory is None:
        raise UnknownBot(f"no bot named {name!r} plays {game}; known: {', '.join(bot_names(game))}")
    return factory()


def bot_names(game: str) -> list[str]:
    """Names of the bots that can play that game."""
    _load_builtin()
    return sorted({n for (n, g) in _BOTS if g in (None, game)})


def games_of(name: str) -> tuple[str, ...] | None:
    """The games a registered bot plays (empty: every game), None when not registered here."""
    _load_builtin()
    games = {g for (n, g) in _BOTS if n == name}
    if not games:
        return None
    return () if None in games else tuple(sorted(g for g in games if g is not None))


class RandomBot:
    """Picks uniformly among the legal actions (reproducible through the seeded rng)."""

    def choose(self, view: View, rng: random.Random) -> Action:
        return dict(rng.choice(view["legal_actions"]))


register_bot("random")(RandomBot)


def _load_builtin() -> None:
    import importlib

    for module in (
        "workers.bots.shithead",
        "workers.bots.sixty_six",
        "workers.bots.sheepshead",
        "workers.bots.search.sixty_six",
        "workers.bots.search.shithead",
        "workers.bots.search.sheepshead",
    ):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as err:
            if err.name != module:
                raise
