"""The service's side of inactivity (``domain.idle``): it judges the time, the domain the rest.

The sweeper (``workers.sweeper``) knows since when a game's version has not moved; once that is
the game's ``idle_seconds`` (a deal awaiting a bot's entropy: ``CARDROOM_ENTROPY_SECONDS``, at
most that), it calls ``Idling.move_on_idle`` with the version it saw. Every
seat the game awaits at that version gets its idle batch (``lifecycle.SeatIdled``, then a
person's leave, a bot's default move, or ``leave_bot`` taking over the seat of a bot that is
gone; before the deal, a bot seat whose entropy never came is filled with the fallback fixed at
creation), each appended under the version it was decided on: nothing is recorded if the game
moved meanwhile, and nothing twice.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from typing import Any

from domain.default_move import RULE
from domain.idle import DEFAULT_IDLE_SECONDS, idle_command
from domain.lifecycle import Lifecycle
from domain.protocol import fold
from service import clocks, deal_keys
from service.folding import Loaded
from service.settling import Recording

log = logging.getLogger(__name__)


def idle_seconds(options: Mapping[str, Any]) -> float:
    """A game's ``idle_seconds`` from its recorded options (the default when not recorded)."""
    return float(options.get("idle_seconds") or DEFAULT_IDLE_SECONDS)


class Idling(Recording):
    """Moving on a game nobody moved for its ``idle_seconds``."""

    def move_on_idle(self, game_id: str, version: int, gone: Collection[int] = ()) -> list[int]:
        """Record the idle batch of every seat the game awaits at ``version`` (the game has not
        moved since the caller saw it idle long enough; ``gone``: bot seats whose bot is gone, to
        be taken over). Returns the seats moved on."""
        loaded = self.loader.load(game_id)
        if loaded.version != version or loaded.over or not isinstance(loaded.game, Lifecycle):
            return []
        moved: list[int] = []
        for seat in loaded.game.idle_seats(loaded.state):
            if loaded.over or seat not in loaded.game.idle_seats(loaded.state):
                continue
            after = self._idle_batch(loaded, seat, seat in gone)
            if after is None:
                break  # someone moved meanwhile: the game is not idle after all
            loaded = after
            moved.append(seat)
        return moved

    def _idle_batch(self, loaded: Loaded, seat: int, gone: bool) -> Loaded | None:
        """One seat's idle batch appended under ``loaded``'s version (None: the game moved)."""
        rules, keys = loaded.game, deal_keys.keys_of(loaded.meta)
        assert isinstance(rules, Lifecycle)
        if keys is None:
            return None
        at = clocks.now_ms(self.clock)
        events = rules.idle(loaded.state, seat, keys, loaded.version, at, gone)
        state = fold(rules, events, loaded.state)
        over = rules.outcome(state) is not None
        waits = bool(state.vacant) and not loaded.state.vacant
        dealt = state.dealt and not loaded.state.dealt  # the last awaited entropy: the deal
        status = "over" if over else ("waiting" if waits else "playing" if dealt else None)
        command = clocks.stamp(idle_command(seat, RULE, gone), state, at)
        after = self.record(loaded, events, state, command, status)
        if after is None:
            return None
        game_id = loaded.meta.id
        log.warning("game %s: seat %s was idle at version %s", game_id, seat, loaded.version)
        return after
