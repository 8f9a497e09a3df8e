"""A game nobody filled ends: once it has waited ``ttl`` seconds for players (the sweeper's
``CARDROOM_WAITING_TTL``), or, dealt, waited that long on a seat a person left open."""

from __future__ import annotations

from domain.protocol import fold
from service import deal_keys
from service.loading import GameLoader, log
from service.settling import AfterAppend, record
from service.store.port import EventLog, VersionConflict


class Expiry:
    """Ending a game still waiting for players (the sweeper's): ``lifecycle.GameExpired`` and
    the secret revealed."""

    def __init__(self, loader: GameLoader, log: EventLog, after: AfterAppend) -> None:
        self.loader = loader
        self.log = log
        self.after = after

    def expire_if_due(
        self, game_id: str, now: float, ttl: float, still_since: tuple[int, float] | None = None
    ) -> bool:
        """End a game still waiting for players ``ttl`` seconds after its creation (recorded as
        ``lifecycle.GameExpired`` and the secret revealed). True when it expired now.

        A dealt game waiting on a seat a person left open expires once it has stayed at the
        same version for ``ttl`` seconds: ``still_since`` is (version, since when), as the
        sweeper saw it."""
        loaded = self.loader.load(game_id)
        keys = deal_keys.keys_of(loaded.meta)
        state = loaded.state
        if keys is None or loaded.over or loaded.meta.created + ttl > now:
            return False
        if state.dealt and not (
            getattr(state, "vacant", ())
            and still_since is not None
            and still_since[0] == loaded.version
            and still_since[1] + ttl <= now
        ):
            return False
        rules = loaded.game
        events = rules.expire(state, keys)  # type: ignore[attr-defined]
        expired = fold(rules, events, state)
        try:
            record(self.log, self.after, loaded, events, expired, {"kind": "expire"}, "over")
        except VersionConflict:
            return False  # someone joined (or another sweeper expired it) meanwhile
        log.info("game %s expired with seats %s never filled", game_id, state.joinable)
        return True
