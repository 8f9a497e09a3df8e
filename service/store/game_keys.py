"""Where the Redis store keeps a game (``service.store.redis``: the key layout is described
there): every key of a game shares the hash tag ``{<id>}``."""

from __future__ import annotations

from service.store.port import Quota

IDEM_PART = "idem"  # a game's idempotency records: one main hash, and buckets (IDEM_BUCKET)
# Versions per bucket of idempotency records: at most one record per version in a bucket, so
# each stays a listpack (Redis's compact encoding, up to 128 entries by default): about 40
# bytes a record against 90 in one large hash's table.
IDEM_BUCKET = 128
SNAPSHOT_PART = "snap"  # the latest snapshot of the folded state (service.snapshots)
REPLAY_PART = "replay"  # a game's exported replay file (compressed): <ns>:game:{<id>}:replay
WATCHERS_PART = "watchers"  # who watches: a sorted set, stream id -> expiry (Unix ms)
REVIEW_PART = "review"  # a finished game's reviews, a hash by seat: <ns>:game:{<id>}:review
HELD_PART = "held"  # its sealed forks' replay files until it ends: <ns>:game:{<id>}:held


class GameKeys:
    """The names of a game's keys (a mixin of ``RedisEventStore``: ``namespace`` is the
    store's)."""

    namespace: str

    def key(self, game_id: str, part: str) -> str:
        """The key of one part (events, meta, idem) of a game."""
        return f"{self.namespace}:game:{{{game_id}}}:{part}"

    def _idem_key(self, game_id: str, field: str, expected: int) -> str:
        """The hash the record of idempotency key ``field`` (``records.seat_key``) is kept in,
        when the append expects version ``expected``: a key ending in a version no later than
        that one (a bot's ``bot:<seat>:<version>``) in the bucket of its ``IDEM_BUCKET``
        versions, else the game's main hash (``IDEM_PART``)."""
        number = key_number(field)
        if number is None or number > expected:
            return self.key(game_id, IDEM_PART)
        return self._idem_bucket(game_id, number)

    def _idem_bucket(self, game_id: str, number: int) -> str:
        """The bucket of the records of keys ending in ``number``."""
        return self.key(game_id, f"{IDEM_PART}:{number // IDEM_BUCKET}")

    def _idem_keys(self, game_id: str, version: int) -> list[str]:
        """Every hash the records of a game at ``version`` may be kept in."""
        buckets = [f"{IDEM_PART}:{b}" for b in range(version // IDEM_BUCKET + 1)]
        return [self.key(game_id, part) for part in (IDEM_PART, *buckets)]

    def _quota_keys(self, game_id: str, quota: Quota) -> list[str]:
        """A quota's counters: in the game's slot (one script counts and appends)."""
        return [self.key(game_id, f"quota:{quota.name}:{n}/{ms}") for n, ms in quota.windows]

    def _idem_hashes(self, game_id: str, idempotency_key: str | None) -> list[str]:
        """The hashes a key's record is looked for in: its bucket (if it ends in a version),
        then the game's main hash (where records written before buckets are too)."""
        if not idempotency_key:
            return []
        number = key_number(idempotency_key)
        main = self.key(game_id, IDEM_PART)
        return [main] if number is None else [self._idem_bucket(game_id, number), main]


def key_number(field: str) -> int | None:
    """The version an idempotency key ends in (``...:<digits>``), if any."""
    last = field.rpartition(":")[2]
    return int(last) if 0 < len(last) <= 18 and last.isascii() and last.isdigit() else None
