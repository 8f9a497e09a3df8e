"""A game's clock enforced (``domain.clock``; ``service.clocks`` holds the stamps and the
deadline index): the timeout of every seat out of time, each appended under the version it was
decided on, so it is recorded at most once whoever enforces it."""

from __future__ import annotations

from domain.lifecycle import Lifecycle, timeout_command
from domain.protocol import fold
from service import clocks, deal_keys
from service.folding import Loaded
from service.loading import log
from service.settling import Recording


class Timeouts(Recording):
    """A game's clock enforced: the timeout of every seat out of time recorded
    (``lifecycle.TimedOut``)."""

    def enforce_clock(self, game_id: str, expected_version: int | None = None) -> str:
        """Record the timeout of every seat out of time now, one batch each, earliest first
        (at most once: each append names the version its timeout was decided on): seats
        sharing a deadline (a simultaneous phase) all time out at once. Says what it did."""
        loaded = self.loader.load(game_id)
        if expected_version is not None and loaded.version != expected_version:
            return f"moved on: the game is at version {loaded.version}"
        done: list[str] = []
        while True:
            said, after = self._time_out(loaded)
            if after is None:
                return "; ".join(done) if done else said
            done.append(said)
            loaded = after

    def _time_out(self, loaded: Loaded) -> tuple[str, Loaded | None]:
        """The timeout of the first seat out of time in ``loaded``, if one is: what was done,
        and the game after it (None when nothing was recorded)."""
        game_id = loaded.meta.id
        due = clocks.next_due(loaded.state)
        at = clocks.now_ms(self.clock)
        if loaded.over or due is None:
            return "no clock runs", None
        if at < due[0]:
            return f"not due: {due[0] - at} ms left", None
        rules, keys = loaded.game, deal_keys.keys_of(loaded.meta)
        if not isinstance(rules, Lifecycle) or keys is None:
            return "no clock runs", None
        seat = due[1]
        events = rules.timeout(loaded.state, seat, at, keys, loaded.version)
        state = fold(rules, events, loaded.state)
        status = "over" if rules.outcome(state) is not None else None
        after = self.record(loaded, events, state, timeout_command(seat, at), status)
        if after is None:
            return "moved on while deciding", None
        log.info("game %s: seat %s timed out (%s late)", game_id, seat, at - due[0])
        return f"timed out seat {seat} at {at} ({at - due[0]} ms after its time)", after
