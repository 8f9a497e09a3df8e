"""The public log of every game's commitment (docs/fairness.md, "The commitment log"): append
only, hash-chained, one entry per game, so the server cannot show different commitments to
different people without the log showing it. Both stores keep it: ``RedisCommitmentLog`` (one
stream and one hash under the hash tag ``{<ns>:fairness}``, so a Redis Cluster keeps them on
one node) and ``MemoryCommitmentLog``.

An entry ``n`` (from 1) is ``{index, game, commitment, prev, hash}`` with
``hash = hex SHA-256("cardroom/log/1" || 0x00 || prev || 0x00 || utf8(game) || 0x00 ||
commitment)`` and ``prev`` the hash of entry ``n - 1`` (64 zeros before the first).
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any

GENESIS = "0" * 64
LABEL = b"cardroom/log/1"

# Append entry n unless the game is logged (then its index) or the log has moved past n - 1
# (then 0: the caller re-reads and retries). KEYS: the stream, the games' hash.
APPEND_LUA = """
local known = redis.call('HGET', KEYS[2], ARGV[2])
if known then return tonumber(known) end
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local top = 0
if #last > 0 then top = tonumber(string.match(last[1][1], '^(%d+)-')) end
if top ~= tonumber(ARGV[1]) - 1 then return 0 end
redis.call('XADD', KEYS[1], ARGV[1] .. '-0', 'game', ARGV[2], 'commitment', ARGV[3],
           'prev', ARGV[4], 'hash', ARGV[5])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
return tonumber(ARGV[1])
"""


def link(prev: str, game_id: str, commitment: str) -> str:
    """The hash of an entry."""
    parts = (LABEL, prev.encode(), game_id.encode(), commitment.encode())
    return hashlib.sha256(b"\x00".join(parts)).hexdigest()


def entry(index: int, game_id: str, commitment: str, prev: str) -> dict[str, Any]:
    """A log entry as served."""
    hashed = link(prev, game_id, commitment)
    return {"index": index, "game": game_id, "commitment": commitment, "prev": prev,
            "hash": hashed}  # fmt: skip


class RedisCommitmentLog:
    """The log on Redis (a mixin of ``RedisEventStore``)."""

    client: Any
    namespace: str

    def _log_keys(self) -> list[str]:
        tag = f"{{{self.namespace}:fairness}}"
        return [f"{tag}:log", f"{tag}:logged"]

    def log_commitment(self, game_id: str, commitment: str) -> int:
        """Append the game's commitment (once: a game logged before keeps its index)."""
        keys = self._log_keys()
        while True:
            last = self.client.xrevrange(keys[0], "+", "-", count=1)
            top, prev = (0, GENESIS) if not last else (_index(last[0][0]), last[0][1]["hash"])
            made = entry(top + 1, game_id, commitment, prev)
            args = [top + 1, game_id, commitment, prev, made["hash"]]
            index = int(self.client.eval(APPEND_LUA, 2, *keys, *args))
            if index:
                return index

    def commitment_log(self, after: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        """Entries after index ``after``, at most ``limit``."""
        found = self.client.xrange(self._log_keys()[0], f"{after + 1}-0", "+", count=limit)
        return [{"index": _index(i), "game": f["game"], "commitment": f["commitment"],
                 "prev": f["prev"], "hash": f["hash"]} for i, f in found]  # fmt: skip

    def logged(self, game_id: str) -> dict[str, Any] | None:
        """The game's entry in the log, None when it is not logged."""
        index = self.client.hget(self._log_keys()[1], game_id)
        found = self.commitment_log(int(index) - 1, 1) if index is not None else []
        return found[0] if found else None


def _index(stream_id: Any) -> int:
    text = stream_id.decode() if isinstance(stream_id, bytes) else str(stream_id)
    return int(text.split("-")[0])


class MemoryCommitmentLog:
    """The log in memory (a mixin of ``InMemoryEventStore``)."""

    def __init__(self) -> None:
        self._log: list[dict[str, Any]] = []
        self._logged: dict[str, int] = {}
        self._log_lock = threading.Lock()

    def log_commitment(self, game_id: str, commitment: str) -> int:
        """Append the game's commitment (once: a game logged before keeps its index)."""
        with self._log_lock:
            if game_id in self._logged:
                return self._logged[game_id]
            prev = self._log[-1]["hash"] if self._log else GENESIS
            self._log.append(entry(len(self._log) + 1, game_id, commitment, prev))
            self._logged[game_id] = len(self._log)
            return len(self._log)

    def commitment_log(self, after: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        """Entries after index ``after``, at most ``limit``."""
        with self._log_lock:
            return [dict(e) for e in self._log[max(0, after):max(0, after) + limit]]

    def logged(self, game_id: str) -> dict[str, Any] | None:
        """The game's entry in the log, None when it is not logged."""
        with self._log_lock:
            index = self._logged.get(game_id)
            return None if index is None else dict(self._log[index - 1])
