"""Settings of the web app: defaults, overridden by the environment, then by ``create_app``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

DEFAULTS: dict[str, Any] = {
    "REDIS_URL": "redis://127.0.0.1:6379/0",  # the store; redis+cluster://h:p,h:p a cluster
    "RQ_REDIS_URL": "",  # RQ's queues, a plain Redis (default: REDIS_URL; see docs/operations)
    "CARDROOM_NAMESPACE": "cardroom",
    "CARDROOM_CACHE_SIZE": 4096,  # folded games kept per process (about 10 KB each)
    "CARDROOM_ACTION_SLOTS": 2,  # actions a web process plays at once, the rest queue (0: all)
    "CARDROOM_SSE_SECONDS": 25.0,  # one SSE connection's lifetime (clients reconnect)
    "CARDROOM_SSE_RETRY_MS": 1000,
    "CARDROOM_SSE_HEARTBEAT": 10.0,
    "CARDROOM_STREAM_TICKET_SECONDS": 300,  # a stream ticket's lifetime (EventSource reuses it)
    "CARDROOM_SCHEDULER": "",  # "package.module:factory"; factory(config) -> Scheduler
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "CARDROOM_WORKER_STALE_SECONDS": 30.0,  # /readyz: a worker heartbeat at most this old
    "CARDROOM_LOG_FORMAT": "",  # "json": one JSON object per log line
    "CARDROOM_RATE_LIMITS": 1,  # 1: the limits below apply (see service.api.limits); 0: off
    "CARDROOM_LIMIT_CREATE": "30 per minute",  # POST /games per client address
    "CARDROOM_LIMIT_ACTIONS": "20 per second",  # POST /games/{id}/actions per seat
    # every request with an HTTP bot account's token (actions and reads, all its games), per
    # account ("": none)
    "CARDROOM_LIMIT_BOT_REQUESTS": "10 per second",
    "CARDROOM_BOT_REFUSAL_PAUSE": 0.5,  # seconds a bot account's 429 is held (0: none)
    "RATELIMIT_STORAGE_URI": "",  # default: REDIS_URL
    # proxies in front of the app whose X-Forwarded-For / -Proto it believes (0: none; 1: one
    # nginx; see docs/operations.md): the rate limits then count the real client
    "CARDROOM_TRUSTED_PROXIES": 0,
    "CARDROOM_LIMIT_BOTS": "10 per hour",  # POST /bots (new bot accounts) per client address
    "CARDROOM_BOT_ACCOUNTS_MAX": 1000,  # bot names held at most (accounts, operator's, revoked)
    "CARDROOM_ADMIN_TOKEN": "",  # the operator's token of /admin/ (no default: admin off)
    "CARDROOM_ARCHIVE_DIR": "",  # finished games' archive (service.archive); "": none
    # a bot's pace in a game with people whose creator sets no bot_pace_ms (written into the
    # game's options: public, the same whatever the cards; docs/fairness.md, "Timing")
    "CARDROOM_BOT_PACE_MS": 1500,
    # the receipt key's file (service.receipts: Ed25519, made on first use; `cardroom serve`
    # keeps it in its data folder); "": receipts go unsigned
    "CARDROOM_SIGNING_KEY": "",
    "CARDROOM_IDEMPOTENCY_TTL": 7 * 24 * 3600.0,  # seconds a game's idempotency records
    # outlive its end (0: forever)
}


def from_env(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """DEFAULTS with every key found in the environment, converted to the default's type."""
    environ = os.environ if environ is None else environ
    out = dict(DEFAULTS)
    for key, default in DEFAULTS.items():
        if key in environ:
            out[key] = type(default)(environ[key])
    return out
