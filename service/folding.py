"""Calling the rules from the service: fold stored events (checking the hash chain), and
decide without letting a rules crash on a malformed action become a 5xx. A crash in ``start``
is a bug (setups are validated by the games and raise InvalidSetup/InvalidOptions/InvalidDeal):
it stays a 500, logged at the edge."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import orjson

from domain.chain import walk
from domain.errors import DomainError, InvalidAction
from domain.lifecycle import Keys, Lifecycle
from domain.protocol import Action, Game, action_key
from service.store.port import ChainBroken, GameMeta, SeatRecord, StoredEvent
from service.store.records import salt_of

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Loaded:
    """A game read at its current version: metadata, rules, state, version, head hash."""

    meta: GameMeta
    game: Game[Any]
    state: Any
    version: int
    head_hash: str

    def __post_init__(self) -> None:
        # Who sits where follows the events: a seat a person left is open, or a bot's.
        if getattr(self.state, "vacant", ()) or getattr(self.state, "taken_over", ()):
            object.__setattr__(self, "meta", seated(self.meta, self.state))

    @property
    def over(self) -> bool:
        """True once the game has an outcome."""
        return self.game.outcome(self.state) is not None


def refold(meta: GameMeta, loaded: Loaded) -> Loaded:
    """``loaded`` with the store's ``meta`` seated by its own state (not by the state its fold
    started from: a seat the older state had left open may have been taken since)."""
    return Loaded(meta, loaded.game, loaded.state, loaded.version, loaded.head_hash)


def seated(meta: GameMeta, state: Any) -> GameMeta:
    """The metadata with the seats as the lifecycle's events leave them: a seat left open is
    ``open`` (whatever join record a crash may have left), a seat a bot took over is that bot's."""
    seats = list(meta.seats)
    for seat in state.vacant:
        seats[seat] = SeatRecord("open")
    for seat, bot in state.taken_over:
        seats[seat] = SeatRecord("bot", name=bot, bot=bot)
    return replace(meta, seats=tuple(seats))


def create(rules: Game[Any], keys: Keys, **setup: Any) -> list[Any]:
    """The lifecycle's creation batch (GameCreated, the bots' SeatFilled, the deal if full)."""
    if not isinstance(rules, Lifecycle):
        raise TypeError("create needs a game with its lifecycle")
    return rules.create(keys=keys, **setup)  # a crash here is an internal error (a logged 500)


def join(
    rules: Game[Any],
    state: Any,
    seat: int,
    entropy: str,
    keys: Keys,
    source: str,
    at: int | None = None,
) -> list[Any]:
    """The lifecycle's join: SeatFilled, and the deal when it fills the last seat."""
    if not isinstance(rules, Lifecycle):
        raise TypeError("join needs a game with its lifecycle")
    return rules.join(state, seat, entropy, keys, source, at)  # a crash is an internal error


def contribute(
    rules: Game[Any], state: Any, seat: int, entropy: str, keys: Keys, at: int | None = None
) -> list[Any]:
    """The lifecycle's contribute: a bot's own entropy (SeatFilled), the deal when it is last."""
    if not isinstance(rules, Lifecycle):
        raise TypeError("contribute needs a game with its lifecycle")
    return rules.contribute(state, seat, entropy, keys, at)


def decide(
    rules: Game[Any],
    state: Any,
    seat: int,
    action: Action,
    keys: Keys | None = None,
    at: int | None = None,
    version: int | None = None,
) -> list[Any]:
    """The game's decide (the lifecycle's ``act`` with keys: the last batch reveals the secret;
    ``version``: the game's, for a bot's fallback); a crash on an action that is not legal
    anyway is an InvalidAction."""
    try:
        if keys is not None and isinstance(rules, Lifecycle):
            return rules.act(state, seat, action, keys, at, version)
        return rules.decide(state, seat, action)
    except DomainError:
        raise
    except Exception as err:
        if is_legal(rules, state, seat, action):
            raise  # a bug in the rules for a legal action: let it be a 500
        log.warning("%s.decide crashed on a malformed action %r", rules.name, action)
        raise InvalidAction("the action is malformed for this game") from err


def is_legal(rules: Game[Any], state: Any, seat: int, action: Action) -> bool:
    try:
        return action_key(action) in {action_key(a) for a in rules.legal_actions(state, seat)}
    except Exception:
        return False


def fold_stored(loaded: Loaded, stored: Sequence[StoredEvent]) -> Loaded:
    """Fold stored events onto a loaded game, checking each link of the hash chain."""
    rules, state = loaded.game, loaded.state
    # The stored text is the canonical JSON: the hash is taken over it, with no re-encoding.
    links = [(s.version, s.prev_hash, s.hash, s.raw or s.event) for s in stored]
    walked = walk(links, loaded.head_hash, loaded.version, salt_of(loaded.meta))
    if not walked.ok:
        raise ChainBroken(f"game {loaded.meta.id}: event {walked.broken_at}: {walked.problem}")
    events = decoded(rules, stored)
    if isinstance(rules, Lifecycle):
        state = rules.evolve_all(state, events)
    else:
        for event in events:
            state = rules.evolve(state, event)
    return Loaded(loaded.meta, rules, state, walked.version, walked.head_hash)


def decoded(rules: Game[Any], stored: Sequence[StoredEvent]) -> list[Any]:
    """The events of stored entries, each decoded from its stored text (not through a stored
    event's lazily decoded ``event``). Events are frozen facts and many repeat word for word
    (a turn passing): each distinct text is decoded once."""
    decode, loads = rules.codec.decode, orjson.loads
    seen: dict[str, Any] = {}
    events = []
    for item in stored:
        raw = item.raw
        event = seen.get(raw)
        if event is None:
            event = decode(loads(raw) if raw else item.event)
            if raw:
                seen[raw] = event
        events.append(event)
    return events
