"""A finished game's replay file: built from its stream, audited (``replays.verify``) and kept
with the game (``Exports``), as the replays queue's job asks (``workers.jobs.export_replay``,
which also writes the files ``Exporting.publishable`` names to a directory if one is
configured: a sealed fork's waits for its source's end, docs/analysis.md)."""

from __future__ import annotations

from dataclasses import dataclass

from replays.format import Replay, build_replay, dumps
from replays.verify import VerificationFailed, check
from service.folding import Loaded
from service.loading import GameLoader
from service.public import public_seats
from service.sealing import Seals
from service.store.port import Encoded, EventLog, Exports


def replay_of(log: EventLog, loaded: Loaded) -> Replay:
    """A game's replay as its stream holds it: its public seats and, once over, its outcome."""
    meta = loaded.meta
    return build_replay(meta.id, log.entries(meta.id), game=meta.game, seats=public_seats(meta),
                        outcome=loaded.game.outcome(loaded.state))  # fmt: skip


@dataclass(frozen=True, slots=True)
class Exported:
    """A replay file kept: its text, its audit's summary, and the game's fork origin (a sealed
    fork's file is kept, not published until its source ends: ``Exporting.publishable``)."""

    text: str
    summary: str
    forked: Encoded | None


class Exporting:
    """A finished game's replay file, kept with it."""

    def __init__(self, loader: GameLoader, log: EventLog, exports: Exports, seals: Seals) -> None:
        self.loader = loader
        self.log = log
        self.exports = exports
        self.seals = seals

    def replay_of(self, loaded: Loaded) -> Replay:
        """The game's replay as its stream holds it now (``replay_of``)."""
        return replay_of(self.log, loaded)

    def export_replay(self, game_id: str) -> Exported | None:
        """Build, audit and keep a finished game's replay file (None: not over yet);
        VerificationFailed when it does not verify (nothing is kept)."""
        loaded = self.loader.load(game_id)
        if not loaded.over:
            return None
        replay = replay_of(self.log, loaded)
        report = check(replay, loaded.game)
        if not report.ok:
            raise VerificationFailed(report)
        text = dumps(replay)
        self.exports.put_replay(game_id, text)
        return Exported(text, report.summary(), loaded.meta.forked)

    def publishable(self, game_id: str, exported: Exported) -> dict[str, str]:
        """The replay files a directory may publish now that ``game_id``'s was exported (its
        ``export_replay``), by game id: its own, and those of its sealed forks that ended
        while it was played, held with it until now (``Exports.hold_fork``). A sealed fork's
        own file is held with its source instead, and none is published while the source is
        played: the file is held first, then the seal asked again (the store read anew), so a
        source that ends meanwhile either finds it held (its export runs after its end) or is
        seen over here (the file is published now)."""
        forked = exported.forked
        if forked is not None and self.seals.sealed(forked):
            self.exports.hold_fork(str(forked["source"]), game_id, exported.text)
            if self.seals.sealed(forked):
                return {}  # published by its source's export, once that game ends
        return {**self.exports.held_forks(game_id), game_id: exported.text}
