"""Which bot names exist, and whether a user bot's worker is alive.

The built-in bots (``BUILTIN_BOTS``) play every game and are served by the operator's own
workers. Any other name exists once a worker serving it has registered it: ``cardroom worker
--bot NAME --import module`` records the name (and the games the bot plays) when it starts and
refreshes its ``seen`` time every ``CARDROOM_BOT_HEARTBEAT_SECONDS`` (5); a name whose last
heartbeat is older than ``CARDROOM_BOT_LIVE_SECONDS`` (15) is known but has no live worker.

In Redis the registry is one hash, ``<namespace>:bots``: name -> JSON ``{"games", "seen"}``.

An HTTP bot account's games: the *active* ones (seating the bot, not yet seen finished; a sorted
set ``<namespace>:bot-active:<name>`` by creation time) and a bounded history of the finished
ones (the last ``FINISHED_KEPT``, a Redis stream ``<namespace>:bot-finished:<name>`` whose entry
ids are the cursors a bot resumes from). A game leaves the active set once, when a bot stream
first sees it over (``finish_game``), so the active set holds only live games; it enters the
history before it leaves the active set, so a process dying in between loses no game.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

BUILTIN_BOTS = ("heuristic", "random", "search")
# built-in bots that play only some games (the others play every game)
BUILTIN_GAMES: dict[str, tuple[str, ...]] = {"search": ("sheepshead", "shithead", "sixty_six")}
HEARTBEAT_SECONDS = 5.0
LIVE_SECONDS = 15.0
FINISHED_KEPT = 100  # finished games a bot can resume from, per bot
CLAIM_MS = 10_000  # a finishing game's claim (``RedisBotRegistry.finish_game``)
CURSOR = re.compile(r"\d{1,20}-\d{1,20}")
# what holds a name besides an HTTP account's token hash (64 hex digits: never one of these)
OPERATOR, REVOKED = "@operator", "@revoked"
ACCOUNTS_MAX = 1000  # names held at most (CARDROOM_BOT_ACCOUNTS_MAX)


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
        """True for an HTTP bot account's name (a revoked one's too: nobody plays its seats)."""
        ...

    def holders(self) -> dict[str, str]:
        """Every name held, with what holds it: ``OPERATOR``, ``REVOKED`` or an account's
        token hash (the operator's listing)."""
        ...

    def account_count(self) -> int:
        """How many names are held (accounts, the operator's, revoked ones)."""
        ...

    def claim_operator(self, name: str) -> bool:
        """Hold the name for the operator's bot (False when an HTTP account holds it)."""
        ...

    def operators(self) -> set[str]:
        """The names the operator holds."""
        ...

    def revoke(self, name: str) -> str | None:
        """Nobody holds the name any more (an account's token stops working, a worker's bot
        is no longer seatable) and nobody may take it but the operator; what held it."""
        ...

    def registrations(self, names: Iterable[str]) -> dict[str, RegisteredBot]:
        """The registrations of those names (the ones registered)."""
        ...

    def held(self, names: Iterable[str]) -> dict[str, str]:
        """What holds each of those names (the ones held), as ``holders``."""
        ...

    def add_game(self, name: str, game_id: str) -> None:
        """Record that a game seats the HTTP bot (an active game)."""
        ...

    def active(self, name: str) -> list[str]:
        """The HTTP bot's games not yet seen finished, oldest first."""
        ...

    def finish_game(self, name: str, game_id: str) -> bool:
        """Move a finished game from the active ones to the history (True for the one call
        that moved it; a game moves once)."""
        ...

    def finished_cursor(self, name: str) -> str:
        """The cursor of the newest finished game ("0-0" when none)."""
        ...

    def finished_since(self, name: str, cursor: str) -> list[tuple[str, str]]:
        """``(cursor, game)`` of the kept finished games after ``cursor``, oldest first."""
        ...


class MemoryBotRegistry:
    """A registry in one process (tests, the in-memory store)."""

    def __init__(self) -> None:
        self._bots: dict[str, RegisteredBot] = {}
        self._accounts: dict[str, str] = {}  # token hash -> name
        self._held: dict[str, str] = {}  # name -> token hash, OPERATOR or REVOKED
        self._active: dict[str, dict[str, None]] = {}  # name -> games in creation order
        self._finished: dict[str, deque[tuple[int, str]]] = {}
        self._sequence = 0

    def create_account(self, name: str, token_hash: str) -> bool:
        if name in self._held:
            return False
        self._held[name] = token_hash
        self._accounts[token_hash] = name
        return True

    def account_of(self, token_hash: str) -> str | None:
        return self._accounts.get(token_hash)

    def is_account(self, name: str) -> bool:
        return self._held.get(name, OPERATOR) != OPERATOR

    def holders(self) -> dict[str, str]:
        return dict(self._held)

    def account_count(self) -> int:
        return len(self._held)

    def claim_operator(self, name: str) -> bool:
        if self._held.get(name, REVOKED) not in (OPERATOR, REVOKED):
            return False
        self._held[name] = OPERATOR
        return True

    def operators(self) -> set[str]:
        return {n for n, h in self._held.items() if h == OPERATOR}

    def revoke(self, name: str) -> str | None:
        held = self._held.get(name)
        if held is not None:
            self._held[name] = REVOKED
            self._accounts.pop(held, None)
            self._bots.pop(name, None)
        return held

    def registrations(self, names: Iterable[str]) -> dict[str, RegisteredBot]:
        return {n: self._bots[n] for n in names if n in self._bots}

    def held(self, names: Iterable[str]) -> dict[str, str]:
        return {n: self._held[n] for n in names if n in self._held}

    def add_game(self, name: str, game_id: str) -> None:
        self._active.setdefault(name, {})[game_id] = None

    def active(self, name: str) -> list[str]:
        return list(self._active.get(name, {}))

    def finish_game(self, name: str, game_id: str) -> bool:
        if self._active.get(name, {}).pop(game_id, False) is False:
            return False
        self._sequence += 1
        kept = self._finished.setdefault(name, deque(maxlen=FINISHED_KEPT))
        kept.append((self._sequence, game_id))
        return True

    def finished_cursor(self, name: str) -> str:
        kept = self._finished.get(name)
        return f"{kept[-1][0]}-0" if kept else "0-0"

    def finished_since(self, name: str, cursor: str) -> list[tuple[str, str]]:
        after = _cursor_key(cursor)
        return [(f"{n}-0", game) for n, game in self._finished.get(name, ())
                if (n, 0) > after]

    def heartbeat(self, name: str, games: Iterable[str], now: float) -> None:
        self._bots[name] = RegisteredBot(name, tuple(sorted(games)), now)

    def registered(self) -> dict[str, RegisteredBot]:
        return dict(self._bots)


class RedisBotRegistry:
    """The registry in the service's Redis (one hash per namespace)."""

    def __init__(self, client: Any, namespace: str, claim_ms: int = CLAIM_MS) -> None:
        self.client = client
        self.namespace = namespace
        self.claim_ms = claim_ms  # how long a dead process's claim on a finishing game holds
        self.key = f"{namespace}:bots"
        # name -> token hash, OPERATOR or REVOKED: who holds a name (one HSETNX decides)
        self.accounts_key = f"{namespace}:bot-accounts"
        self.tokens_key = f"{namespace}:bot-tokens"  # token hash -> name
        self.operators_key = f"{namespace}:bot-operators"  # the operator's names (a set)

    def create_account(self, name: str, token_hash: str) -> bool:
        if not self.client.hsetnx(self.accounts_key, name, token_hash):
            return False
        self.client.hset(self.tokens_key, token_hash, name)
        return True

    def account_of(self, token_hash: str) -> str | None:
        name = self.client.hget(self.tokens_key, token_hash)
        return name.decode() if isinstance(name, bytes) else name

    def is_account(self, name: str) -> bool:
        held = self.client.hget(self.accounts_key, name)
        return held is not None and _text(held) != OPERATOR

    def holders(self) -> dict[str, str]:
        return {_text(k): _text(v) for k, v in self.client.hgetall(self.accounts_key).items()}

    def account_count(self) -> int:
        return int(self.client.hlen(self.accounts_key))

    def claim_operator(self, name: str) -> bool:
        if not self.client.hsetnx(self.accounts_key, name, OPERATOR):
            held = _text(self.client.hget(self.accounts_key, name) or REVOKED)
            if held not in (OPERATOR, REVOKED):
                return False  # an HTTP account's: the operator revokes it first
            self.client.hset(self.accounts_key, name, OPERATOR)
        self.client.sadd(self.operators_key, name)
        return True

    def operators(self) -> set[str]:
        return {_text(n) for n in self.client.smembers(self.operators_key)}

    def revoke(self, name: str) -> str | None:
        raw = self.client.hget(self.accounts_key, name)
        if raw is None:
            return None
        self.client.hset(self.accounts_key, name, REVOKED)
        self.client.hdel(self.tokens_key, _text(raw))
        self.client.srem(self.operators_key, name)
        self.client.hdel(self.key, name)
        return _text(raw)

    def registrations(self, names: Iterable[str]) -> dict[str, RegisteredBot]:
        wanted = sorted(set(names))
        if not wanted:
            return {}
        found = zip(wanted, self.client.hmget(self.key, wanted), strict=True)
        return {n: bot for n, raw in found if (bot := _registration(n, raw)) is not None}

    def held(self, names: Iterable[str]) -> dict[str, str]:
        wanted = sorted(set(names))
        if not wanted:
            return {}
        found = zip(wanted, self.client.hmget(self.accounts_key, wanted), strict=True)
        return {n: _text(raw) for n, raw in found if raw is not None}

    def _active_key(self, name: str) -> str:
        return f"{self.namespace}:bot-active:{name}"

    def _finished_key(self, name: str) -> str:
        return f"{self.namespace}:bot-finished:{name}"

    def add_game(self, name: str, game_id: str) -> None:
        self.client.zadd(self._active_key(name), {game_id: time.time()}, nx=True)

    def active(self, name: str) -> list[str]:
        legacy = f"{self.namespace}:bot-games:{name}"  # the unbounded list it replaces
        if self.client.exists(legacy):
            for index, game in enumerate(self.client.lrange(legacy, 0, -1)):
                self.client.zadd(self._active_key(name), {_text(game): index}, nx=True)
            self.client.delete(legacy)
        raw = self.client.zrange(self._active_key(name), 0, -1)
        return [_text(g) for g in raw]

    def finish_game(self, name: str, game_id: str) -> bool:
        # The history first, then the active set: a process that dies between the two leaves
        # the game active, and the next stream to see it over moves it again, finding it in
        # the history already. A claim (a key set only if absent, with a time to live) lets
        # one caller at a time move a game, so two streams of one bot record it once; a claim
        # left by a dead process lapses. The two keys need not share a Redis Cluster slot.
        active = self._active_key(name)
        if self.client.zscore(active, game_id) is None:
            return False  # moved already (maybe since trimmed from the history): not again
        claim = f"{self.namespace}:bot-finishing:{name}:{game_id}"
        if not self.client.set(claim, b"1", nx=True, px=self.claim_ms):
            return False
        try:
            history = self._finished_key(name)
            kept = self.client.xrevrange(history, count=FINISHED_KEPT)
            if all(_text(_field(fields, "game")) != game_id for _, fields in kept):
                self.client.xadd(history, {"game": game_id}, maxlen=FINISHED_KEPT,
                                 approximate=False)  # fmt: skip
            return bool(self.client.zrem(active, game_id))
        finally:
            self.client.delete(claim)

    def finished_cursor(self, name: str) -> str:
        last = self.client.xrevrange(self._finished_key(name), count=1)
        return _text(last[0][0]) if last else "0-0"

    def finished_since(self, name: str, cursor: str) -> list[tuple[str, str]]:
        entries = self.client.xrange(self._finished_key(name), min=f"({cursor}")
        return [(_text(entry), _text(_field(fields, "game"))) for entry, fields in entries]

    def heartbeat(self, name: str, games: Iterable[str], now: float) -> None:
        self.client.hset(self.key, name, json.dumps({"games": sorted(games), "seen": now}))

    def registered(self) -> dict[str, RegisteredBot]:
        found = ((_text(n), raw) for n, raw in self.client.hgetall(self.key).items())
        return {n: bot for n, raw in found if (bot := _registration(n, raw)) is not None}


def _registration(name: str, raw: Any) -> RegisteredBot | None:
    """A stored registration (None when absent or malformed: no registration)."""
    if raw is None:
        return None
    try:
        data = json.loads(raw)
        return RegisteredBot(name, tuple(str(g) for g in data.get("games", ())),
                             float(data["seen"]))  # fmt: skip
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def builtin_bots(game: str) -> list[str]:
    """The service's own bots that play ``game``."""
    return [b for b in BUILTIN_BOTS if game in BUILTIN_GAMES.get(b, (game,))]


class BotDirectory:
    """What the service asks: which names a game may seat, which seats lack a live worker."""

    def __init__(
        self,
        registry: BotRegistry,
        clock: Callable[[], float] = time.time,
        accounts_max: int = ACCOUNTS_MAX,
    ) -> None:
        self.registry = registry
        self.clock = clock
        self.accounts_max = accounts_max  # names held at most (0: no bound)

    def unknown(self, game: str, names: Iterable[str]) -> list[str]:
        """Those of ``names`` no seat of that game may name: a built-in bot that plays it, or
        a name not revoked whose registration (a worker's or an account's) plays it
        (two reads, whatever the number of accounts)."""
        users = [n for n in set(names) if n not in BUILTIN_BOTS]
        held = self.registry.held(users) if users else {}
        live = [n for n in users if held.get(n) != REVOKED]
        found = self.registry.registrations(live)
        return sorted(n for n in set(names) if not self._plays(n, game, found))

    @staticmethod
    def _plays(name: str, game: str, found: dict[str, RegisteredBot]) -> bool:
        if name in BUILTIN_BOTS:
            return game in BUILTIN_GAMES.get(name, (game,))
        return name in found and found[name].plays(game)

    def known(self, game: str) -> list[str]:
        """The built-in and operator's bot names a seat of that game may name (never the
        HTTP accounts: the list stays as short as the operator's own)."""
        operators = self.registry.registrations(self.registry.operators())
        users = {n for n, b in operators.items() if b.plays(game)}
        return sorted(set(builtin_bots(game)) | users)

    def missing(self, seats: Iterable[tuple[int, str]]) -> list[dict[str, Any]]:
        """The ``(seat, bot)`` pairs naming a user bot with no live worker."""
        pairs = [(s, b) for s, b in seats if b not in BUILTIN_BOTS]
        if not pairs:
            return []
        bots, now = self.registry.registrations(b for _, b in pairs), self.clock()
        return [
            {"seat": s, "bot": b, "last_seen": bots[b].seen if b in bots else None}
            for s, b in pairs
            if b not in bots or now - bots[b].seen > live_seconds()
        ]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _field(fields: dict[Any, Any], key: str) -> Any:
    return fields.get(key, fields.get(key.encode()))


def valid_cursor(cursor: str) -> bool:
    """True for a finished-games cursor as the stream hands them out (``<ms>-<seq>``)."""
    return CURSOR.fullmatch(cursor) is not None


def _cursor_key(cursor: str) -> tuple[int, int]:
    first, _, second = cursor.partition("-")
    return int(first), int(second or 0)
