"""Sealed forks: a seat's fork of a game still being played is that seat's alone until the
game ends (docs/analysis.md, "Games still being played: sealed forks").

A fork's origin (``GameMeta.forked``) says ``sealed`` when it was made while its source was
played; whether the source is over now is asked of the store at the moment of each read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.errors import ForkSealed, GameArchived, NotFound
from service.loading import GameLoader


class Seals:
    """Whether a game is a sealed fork now, and the refusal of a read of one."""

    def __init__(self, loader: GameLoader) -> None:
        self.loader = loader

    def check_unsealed(self, forked: Mapping[str, Any] | None, seat: int | None) -> None:
        """ForkSealed unless a game may be read as ``seat`` (None: by anyone but a seat): a
        sealed fork is read by its seat alone while its source is still played."""
        if not forked or not forked.get("sealed") or (seat is not None and seat == forked["as"]):
            return
        if self.playing(str(forked["source"])):
            raise ForkSealed(
                f"this fork of game {forked['source']} (still being played) is seat "
                f"{forked['as']}'s alone until that game ends: it holds that seat's cards"
            )

    def sealed(self, forked: Mapping[str, Any] | None) -> bool:
        """Whether a game's fork origin (``GameMeta.forked``) keeps it sealed now."""
        return bool(forked and forked.get("sealed") and self.playing(str(forked["source"])))

    def playing(self, game_id: str) -> bool:
        """Whether the store holds that game not over now (an archived or purged game was
        over: only a finished game leaves the store)."""
        try:
            return not self.loader.load(game_id).over
        except (GameArchived, NotFound):
            return False
