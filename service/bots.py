"""Which bot names exist, and whether a user bot's worker is alive.

The built-in bots (``BUILTIN_BOTS``) play every game and are served by the operator's own
workers. Any other name exists once a worker serving it has registered it: ``cardroom worker
--bot NAME --import module`` records the name (and the games the bot plays) when it starts and
refreshes its ``seen`` time every ``CARDROOM_BOT_HEARTBEAT_SECONDS`` (5); a name whose last
heartbeat is older than ``CARDROOM_BOT_LIVE_SECONDS`` (15) is known but has no live worker.

In Redis the registry is one hash, ``<namespace>:bots``: name -> JSON ``{"games", "seen"}``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

BUILTIN_BOTS = ("heuristic", "random", "search")
# built-in bots that play only some games (the others play every game)
BUILTIN_GAMES: dict[str, tuple[str, ...]] = {"search": ("sheepshead", "shithead", "sixty_six")}
HEARTBEAT_SECONDS = 5.0
LIVE_SECONDS = 15.0


def heartbeat_seconds() -> float:
    """How often a worker refreshes its bots' registrations."""
    return float(os.environ.get("CARDROOM_BOT_HEARTBEAT_SECONDS") or HEARTBEAT_SECONDS)


def live_seconds() -> float:
    """How old a registration's last heartbeat may be for its worker to count as alive."""
    return float(os.environ.get("CARDROOM_BOT_LIVE_SECONDS") or LIVE_SECONDS)


@dataclass(frozen=True, slots=True)
class RegisteredBot:
    """A user bot's registration: the games it plays (empty: every game) and its last heartbeat."""

    name: str
    games: tuple[str, ...]
    seen: float

    def plays(self, game: str) -> bool:
        return not self.games or game in self.games


class BotRegistry(Protocol):
    """Where workers record the bots they serve."""

    def heartbeat(self, name: str, games: Iterable[str], now: float) -> None:
        """Record (or refresh) a bot served by a running worker."""
        ...

    def registered(self) -> dict[str, RegisteredBot]:
        """Every user bot ever registered, by name."""
        ...

    def create_account(self, name: str, token_hash: str) -> bool:
        """An HTTP bot account (False when the name is an account already)."""
        ...

    def account_of(self, token_hash: str) -> str | None:
        """The HTTP bot account a token belongs to."""
        ...

    def is_account(self, name: str) -> bool:
        """True for an HTTP bot account's name."""
        ...

    def add_game(self, name: str, game_id: str) -> None:
        """Record that a game seats the HTTP bot."""
        ...

    def games(self, name: str) -> list[str]:
        """The games that seat the HTTP bot."""
        ...


class MemoryBotRegistry:
    """A registry in one process (tests, the in-memory store)."""

    def __init__(self) -> None:
        self._bots: dict[str, RegisteredBot] = {}
        self._accounts: dict[str, str] = {}  # token hash -> name
        self._games: dict[str, list[str]] = {}

    def create_account(self, name: str, token_hash: str) -> bool:
        if name in self._accounts.values():
            return False
        self._accounts[token_hash] = name
        return True

    def account_of(self, token_hash: str) -> str | None:
        return self._accounts.get(token_hash)

    def is_account(self, name: str) -> bool:
        return name in self._accounts.values()

    def add_game(self, name: str, game_id: str) -> None:
        self._games.setdefault(name, []).append(game_id)

    def games(self, name: str) -> list[str]:
        return list(self._games.get(name, []))

    def heartbeat(self, name: str, games: Iterable[str], now: float) -> None:
        self._bots[name] = RegisteredBot(name, tuple(sorted(games)), now)

    def registered(self) -> dict[str, RegisteredBot]:
        return dict(self._bots)


class RedisBotRegistry:
    """The registry in the service's Redis (one hash per namespace)."""

    def __init__(self, client: Any, namespace: str) -> None:
        self.client = client
        self.namespace = namespace
        self.key = f"{namespace}:bots"
        self.accounts_key = f"{namespace}:bot-accounts"  # name -> token hash
        self.tokens_key = f"{namespace}:bot-tokens"  # token hash -> name

    def create_account(self, name: str, token_hash: str) -> bool:
        if not self.client.hsetnx(self.accounts_key, name, token_hash):
            return False
        self.client.hset(self.tokens_key, token_hash, name)
        return True

    def account_of(self, token_hash: str) -> str | None:
        name = self.client.hget(self.tokens_key, token_hash)
        return name.decode() if isinstance(name, bytes) else name

    def is_account(self, name: str) -> bool:
        return bool(self.client.hexists(self.accounts_key, name))

    def add_game(self, name: str, game_id: str) -> None:
        self.client.rpush(f"{self.namespace}:bot-games:{name}", game_id)

    def games(self, name: str) -> list[str]:
        raw = self.client.lrange(f"{self.namespace}:bot-games:{name}", 0, -1)
        return [g.decode() if isinstance(g, bytes) else str(g) for g in raw]

    def heartbeat(self, name: str, games: Iterable[str], now: float) -> None:
        self.client.hset(self.key, name, json.dumps({"games": sorted(games), "seen": now}))

    def registered(self) -> dict[str, RegisteredBot]:
        out: dict[str, RegisteredBot] = {}
        for raw_name, raw in self.client.hgetall(self.key).items():
            name = raw_name.decode() if isinstance(raw_name, bytes) else str(raw_name)
            try:
                data = json.loads(raw)
                out[name] = RegisteredBot(
                    name, tuple(str(g) for g in data.get("games", ())), float(data["seen"])
                )
            except (ValueError, KeyError, TypeError, AttributeError):
                continue  # a malformed entry is no registration
        return out


class BotDirectory:
    """What the service asks: which names a game may seat, which seats lack a live worker."""

    def __init__(self, registry: BotRegistry, clock: Callable[[], float] = time.time) -> None:
        self.registry = registry
        self.clock = clock

    def known(self, game: str) -> list[str]:
        """Bot names a seat of that game may name."""
        users = {n for n, b in self.registry.registered().items() if b.plays(game)}
        builtin = {b for b in BUILTIN_BOTS if game in BUILTIN_GAMES.get(b, (game,))}
        return sorted(builtin | users)

    def missing(self, seats: Iterable[tuple[int, str]]) -> list[dict[str, Any]]:
        """The ``(seat, bot)`` pairs naming a user bot with no live worker."""
        pairs = [(s, b) for s, b in seats if b not in BUILTIN_BOTS]
        if not pairs:
            return []
        bots, now = self.registry.registered(), self.clock()
        return [
            {"seat": s, "bot": b, "last_seen": bots[b].seen if b in bots else None}
            for s, b in pairs
            if b not in bots or now - bots[b].seen > live_seconds()
        ]
