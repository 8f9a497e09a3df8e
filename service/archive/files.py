"""The archive in a directory (a local disk, or a volume every web process and worker mounts).

Layout under the root::

    games/<first two characters of the id>/<id>.summary.json   the public summary
    games/<first two characters of the id>/<id>.replay.json    the replay file
    index/<YYYY-MM-DD>.jsonl    one line per archived game created that day (UTC): its listing
                                entry; a later line ``{"id": ..., "deleted": true}`` forgets it

Every file is written to a temporary name, flushed to disk and renamed (then the directory is
flushed too), so a crash leaves either the old file or the new one, never half of one; a game's
index line is appended after both of its files are in place. The files are plain JSON: back
the directory up with any file copy (``tar``, ``rsync``); docs/operations.md, "Backups".

Listing reads the day files newest first: a page costs the days it spans, which suits a club's
thousands of games a day; a site archiving hundreds of thousands a day lists its archive from an
index of its own (an object store's adapter with a database beside it).
"""

from __future__ import annotations

import json
import os
import re
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from service.archive.port import ArchivedGame, listed

SAFE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # as the service's game ids: no path in them


class FileArchive:
    """Games kept as files under ``root`` (created when first needed)."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    def put(self, archived: ArchivedGame) -> None:
        self._write(self._path(archived.id, "replay"), archived.replay)
        self._write(self._path(archived.id, "summary"), _json(archived.summary))
        self._append_index(archived.created, {**listed(archived.summary), "id": archived.id})

    def get(self, game_id: str) -> ArchivedGame | None:
        summary = self.summary(game_id)
        if summary is None:
            return None
        try:
            replay = self._path(game_id, "replay").read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        return ArchivedGame(id=game_id, summary=summary, replay=replay)

    def summary(self, game_id: str) -> dict[str, Any] | None:
        if not SAFE_ID.match(game_id):
            return None
        try:
            text = self._path(game_id, "summary").read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        found: dict[str, Any] = json.loads(text)
        return found

    def listing(
        self, game: str | None = None, limit: int = 50, offset: int = 0
    ) -> list[dict[str, Any]]:
        wanted = offset + max(0, limit)
        found: list[dict[str, Any]] = []
        for day in sorted((self.root / "index").glob("*.jsonl"), reverse=True):
            if len(found) >= wanted:
                break
            entries = [e for e in _read_index(day) if game is None or e["game"] == game]
            found += sorted(entries, key=lambda e: (e["created"], e["id"]), reverse=True)
        return found[offset:wanted]

    def delete(self, game_id: str) -> bool:
        summary = self.summary(game_id)
        if summary is None:
            return False
        self._append_index(float(summary["created"]), {"id": game_id, "deleted": True})
        for part in ("summary", "replay"):
            self._path(game_id, part).unlink(missing_ok=True)
        return True

    def _path(self, game_id: str, part: str) -> Path:
        if not SAFE_ID.match(game_id):
            raise ValueError(f"not a game id: {game_id!r}")
        return self.root / "games" / game_id[:2] / f"{game_id}.{part}.json"

    def _write(self, path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
        with temporary.open("w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
        _sync_directory(path.parent)

    def _append_index(self, created: float, entry: dict[str, Any]) -> None:
        day = datetime.fromtimestamp(created, UTC).strftime("%Y-%m-%d")
        path = self.root / "index" / f"{day}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        line = (_json(entry) + "\n").encode()
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(descriptor, line)  # one write of one line: appends never interleave
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        _sync_directory(path.parent)


def _read_index(path: Path) -> list[dict[str, Any]]:
    """A day's entries as its last lines say (a ``deleted`` line forgets the game)."""
    latest: dict[str, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        if entry.get("deleted"):
            latest.pop(entry["id"], None)
        else:
            latest[entry["id"]] = entry
    return list(latest.values())


def _json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _sync_directory(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
