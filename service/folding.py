"""Calling the rules from the service: fold stored events (checking the hash chain), and
start/decide without letting a rules crash on malformed input become a 5xx."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from domain.chain import link_hash, link_hash_text
from domain.errors import DomainError, InvalidAction, InvalidSetup
from domain.protocol import Action, Game, Setup, action_key
from service.store.port import ChainBroken, GameMeta, StoredEvent

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Loaded:
    """A game read at its current version: metadata, rules, state, version, head hash."""

    meta: GameMeta
    game: Game[Any]
    state: Any
    version: int
    head_hash: str

    @property
    def over(self) -> bool:
        """True once the game has an outcome."""
        return self.game.outcome(self.state) is not None


def start(rules: Game[Any], setup: Setup) -> list[Any]:
    """The game's start; a crash on odd input is logged and refused, never a 5xx."""
    try:
        return rules.start(setup)
    except DomainError:
        raise
    except Exception as err:
        log.exception("%s.start crashed on a setup", rules.name)
        raise InvalidSetup(f"{rules.name} cannot start from this setup") from err


def decide(rules: Game[Any], state: Any, seat: int, action: Action) -> list[Any]:
    """The game's decide; a crash on an action that is not legal anyway is an InvalidAction."""
    try:
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


def _link(prev_hash: str, stored: StoredEvent) -> str:
    """link_hash over the stored text itself (it is the canonical JSON: no re-encoding)."""
    if stored.raw:
        return link_hash_text(prev_hash, stored.raw)
    return link_hash(prev_hash, stored.event)


def fold_stored(loaded: Loaded, stored: Sequence[StoredEvent]) -> Loaded:
    """Fold stored events onto a loaded game, checking each link of the hash chain."""
    rules, head, state, version = loaded.game, loaded.head_hash, loaded.state, loaded.version
    decode, evolve = rules.codec.decode, rules.evolve
    for item in stored:
        if item.version != version + 1 or item.prev_hash != head:
            raise ChainBroken(f"game {loaded.meta.id}: event {item.version} is out of chain")
        if _link(head, item) != item.hash:
            raise ChainBroken(f"game {loaded.meta.id}: event {item.version} fails its hash")
        state = evolve(state, decode(item.event))
        head, version = item.hash, item.version
    return Loaded(loaded.meta, rules, state, version, head)
