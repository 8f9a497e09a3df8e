"""Post-game reviews: read the one kept with the game, or queue the job that makes it
(``workers.review``, on the scheduler's ``ReviewQueue``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from domain.events import canonical_json
from service.errors import GameNotOver, InvalidField
from service.loading import GameLoader
from service.scheduling import ReviewQueue, Scheduler
from service.sealing import Seals
from service.store.port import Exports


class Reviewing:
    """A finished game's review for one seat."""

    def __init__(
        self, loader: GameLoader, exports: Exports, scheduler: Scheduler, seals: Seals
    ) -> None:
        self.seals = seals
        self.loader = loader
        self.exports = exports
        self.scheduler = scheduler

    def review(self, game_id: str, seat: int) -> tuple[int, dict[str, Any]]:
        """(200, the review) once made, else (202, its state) with the job queued."""
        loaded = self.loader.load(game_id)
        if not loaded.over:
            raise GameNotOver(f"game {game_id} is not over: a review is of a finished game")
        self.seals.check_unsealed(loaded.meta.forked, None)  # a sealed fork's: once its source ends
        if not 0 <= seat < loaded.meta.players:
            raise InvalidField("seat", f"must be from 0 to {loaded.meta.players - 1}, got {seat}")
        kept = self.exports.review(game_id, seat)
        if kept is not None:
            return 200, dict(json.loads(kept))
        queued = isinstance(self.scheduler, ReviewQueue)
        if queued:
            self.scheduler.enqueue_review(game_id, seat)  # type: ignore[attr-defined]
        return 202, {"id": game_id, "seat": seat, "status": "running" if queued else "no worker"}

    def keep(self, game_id: str, seat: int, review: Mapping[str, Any]) -> None:
        """Keep a seat's review, made (``workers.review``), with the finished game."""
        self.exports.put_review(game_id, seat, canonical_json(review))
