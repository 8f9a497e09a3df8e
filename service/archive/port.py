"""The archive port: keep a finished game, read it back, list what is kept, forget one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

# the fields of a game's listing entry (``GET /games``), all in its public summary
LISTED = ("id", "game", "status", "players", "seats", "prearranged", "created")


@dataclass(frozen=True, slots=True)
class ArchivedGame:
    """A finished game as archived: its public summary (as ``GET /games/{id}`` served it,
    seed and secret revealed) and its replay file (which verifies on its own)."""

    id: str
    summary: dict[str, Any]
    replay: str

    @property
    def game(self) -> str:
        return str(self.summary["game"])

    @property
    def created(self) -> float:
        return float(self.summary["created"])


def listed(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary's listing entry."""
    return {key: summary[key] for key in LISTED}


class Archive(Protocol):
    """Adapters: ``FileArchive`` (a directory), ``MemoryArchive`` (tests)."""

    def put(self, archived: ArchivedGame) -> None:
        """Keep a game durably (replacing an earlier copy); when it returns, the game may
        leave Redis."""
        ...

    def get(self, game_id: str) -> ArchivedGame | None:
        """The archived game, None when it is not archived."""
        ...

    def summary(self, game_id: str) -> dict[str, Any] | None:
        """The archived game's summary alone (its replay not read)."""
        ...

    def listing(self, game: str | None = None, limit: int = 50, offset: int = 0) -> list[
        dict[str, Any]
    ]:
        """Listing entries of archived games, newest created first, optionally one game's."""
        ...

    def delete(self, game_id: str) -> bool:
        """Forget an archived game (an operator's purge); True when there was one."""
        ...
