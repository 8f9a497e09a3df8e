"""The default move: what is played for a seat that does not move itself (a rule, frozen).

The service plays it for a seat that ran out of time (``on_timeout: move``, ``domain.clock``)
and for a bot seat whose bot has not answered for ``idle_seconds`` (``domain.idle``); a bot
runner may send it for a bot that raised or timed out. The rule, rule number ``RULE``:

1. take the seat's legal actions, leaving out the game's optional initiatives
   (``Game.default_move_skips``: kinds of action a seat is never made to take, such as
   declaring out; listed in each rules file's service section) unless nothing else is legal;
2. order them by their canonical form: the action's canonical JSON (sorted keys, no spaces)
   with every ``cards`` list sorted and every ``slots`` list sorted (its groups sorted too);
3. take the one at index ``int(seed, 16) % count``.

The seed the service uses is ``move_seed(game seed, version, seat)``: the game's seed is
revealed at the end, so an auditor re-derives every default move; nobody can foresee one
during play. A prearranged game with a salted deck (``GameCreated.salted_deck``) uses instead
the seed derived from the secret and every seat's entropy (``Lifecycle.move_base``): its
chosen seed may be short enough to guess, and its default moves must not help test a guess.
The rule never changes: a new rule gets a new number, and replays name the rule
their timeouts followed (docs/replay-format.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from domain.errors import IllegalAction
from domain.events import canonical_json
from domain.protocol import Action, Game, action_key
from domain.registry import get_game

RULE = 1


def default_move(game: Game[Any] | str, legal: Sequence[Action], seed: str) -> dict[str, Any]:
    """The default move among ``legal`` (a seat's legal actions) for a hex ``seed``."""
    skips = getattr(get_game(game) if isinstance(game, str) else game, "default_move_skips", ())
    if not legal:
        raise IllegalAction("no legal action to make for the seat", reason="no_move")
    chosen = [a for a in legal if a.get("type") not in skips] or list(legal)
    ordered = sorted(chosen, key=canonical_form)
    return dict(ordered[int(seed, 16) % len(ordered)])


def canonical_form(action: Mapping[str, Any]) -> str:
    """The text default moves are ordered by: canonical JSON with card lists sorted."""
    return canonical_json(dict(action_key(action)))


def move_seed(game_seed: str, version: int, seat: int) -> str:
    """The seed of the service's default move for ``seat``: from the game's seed (revealed at
    the end), the version the move is recorded after and the seat (64 hex digits)."""
    text = f"cardroom/timeout-move\x00{game_seed}\x00{version}\x00{seat}"
    return hashlib.sha256(text.encode()).hexdigest()
