"""Reads that also serve archived games (over ``service.reading.Reading``).

A finished game that left Redis (``service.retention``) is answered from the archive: its
summary as it was when archived, its full event log and its replay file (verified like any),
and listings of finished games (or of all games) merge the store's with the archive's. Every
other read of it (a view, a stream, a seat) is ``GameArchived`` (410).
"""

from __future__ import annotations

from typing import Any

from domain.registry import get_game
from replays.format import Replay, dumps, loads
from service import narration
from service.access import Reader
from service.archive import Archive, ArchivedGame
from service.errors import GameArchived, GameNotOver
from service.exporting import replay_of
from service.json_ready import json_ready
from service.loading import GameLoader
from service.reading import Reading
from service.receipts import Signer
from service.sealing import Seals
from service.store.port import EventLog, Exports


class ArchivedReads:
    """Summaries, events, replays and listings of live and archived games alike: each read
    of ``reading``, or of ``archive`` once the game left the store."""

    def __init__(
        self,
        reading: Reading,
        loader: GameLoader,
        log: EventLog,
        exports: Exports,
        seals: Seals,
        archive: Archive | None = None,
        signer: Signer | None = None,
    ) -> None:
        self.seals = seals
        self.reading = reading
        self.loader = loader
        self.log = log
        self.exports = exports
        self.archive = archive
        self.signer = signer

    def summary(self, game_id: str, reader: Reader | None = None) -> dict[str, Any]:
        try:
            return self.reading.summary(game_id, reader)
        except GameArchived:
            summary = dict(self._archived(game_id).summary)
            summary["spectators"] = 0  # an archived game has no stream to watch
            summary["rematch"] = self.reading.rematch_made(game_id)
        # the receipt signed as a live game's is (Ed25519 signs deterministically: the same
        # signature), whoever archived it: a worker or `cardroom archive` holds no key
        if self.signer is not None and summary.get("head_hash"):
            summary["receipt_signature"] = self.signer.sign(
                game_id, summary["version"], summary["head_hash"])
        return summary

    def replay_file(self, game_id: str) -> str:
        """A finished game's replay file: the exported one, one built now from its stream, or
        the archived one. GameNotOver while it is played."""
        try:
            loaded = self.loader.load(game_id)
        except GameArchived:
            return self._archived(game_id).replay
        if not loaded.over:
            raise GameNotOver(f"game {game_id} is not over: its replay exists once it ends")
        self.seals.check_unsealed(loaded.meta.forked, None)  # a sealed fork's: once its source ends
        stored = self.exports.replay(game_id)
        if stored:
            return stored
        return dumps(replay_of(self.log, loaded))

    def events_after(
        self, game_id: str, after: int, seat: int | None, limit: int | None = None
    ) -> dict[str, Any]:
        try:
            return self.reading.events_after(game_id, after, seat, limit)
        except GameArchived:
            if seat is not None:  # no seat of an archived game reads as itself any more
                raise
            return self._archived_events(game_id, after, limit)

    def events_for(
        self,
        game_id: str,
        after: int,
        reader: Reader,
        limit: int | None = None,
        *,
        shared: bool = False,
    ) -> dict[str, Any]:
        try:
            return self.reading.events_for(game_id, after, reader, limit, shared=shared)
        except GameArchived:
            if reader.token is not None or reader.ticket is not None:
                raise
            return self._archived_events(game_id, after, limit)

    def _archived_events(self, game_id: str, after: int, limit: int | None) -> dict[str, Any]:
        """The spectators' events of an archived game: the full log, from its replay file."""
        archived = self._archived(game_id)
        return archived_events(archived, loads(archived.replay), max(0, after), limit)

    def list_games(
        self, game: str | None = None, status: str | None = None, limit: int = 50, offset: int = 0
    ) -> list[dict[str, Any]]:
        live = self.reading.list_games(game, status, limit + offset, 0)
        if self.archive is None or status not in (None, "over"):
            return live[offset : offset + limit]
        kept = self.archive.listing(game, limit + offset, 0)
        merged = {e["id"]: e for e in kept} | {e["id"]: e for e in live}  # live ones win
        newest = sorted(merged.values(), key=lambda e: (e["created"], e["id"]), reverse=True)
        return newest[offset : offset + limit]

    def _archived(self, game_id: str) -> ArchivedGame:
        found = None if self.archive is None else self.archive.get(game_id)
        if found is None:  # purged from the archive since: as any unknown game
            raise self.loader.unknown(game_id)
        return found


def archived_events(
    archived: ArchivedGame, replay: Replay, after: int, limit: int | None
) -> dict[str, Any]:
    """``events_after`` of an archived game, from its replay file (the full log: it is over)."""
    items = []
    for batch in replay.batches:
        for index, recorded in enumerate(batch.events):
            item = recorded.to_dict()
            if index == 0:
                item.update(command=batch.command, batch=len(batch.events))
            items.append(item)
    names = [seat.get("name") if seat.get("type") != "open" else None
             for seat in archived.summary.get("seats", [])]  # fmt: skip
    narration.tell_items(items, get_game(replay.header.game), names)
    version = replay.header.head_version
    upto = version if limit is None else min(after + max(1, limit), version)
    salted = bool(archived.summary.get("secret"))  # as ``public.receipt``: salted chains only
    head = {"head_hash": replay.header.head_hash} if salted else {}
    out: dict[str, Any] = {
        "id": archived.id, "version": version, **head, "over": True,
        "events": json_ready([i for i in items if after < i["version"] <= upto]),
    }  # fmt: skip
    if limit is not None:
        out["next_after"] = upto if upto < version else None
    return out
