"""What workers need from ``service.ops`` without Flask: heartbeats and JSON logs.

(Kept apart so a ``cardroom worker`` starts without importing the web app.)
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time

import redis

HEARTBEAT_SECONDS = 5.0
OUTAGES: tuple[type[Exception], ...] = (redis.ConnectionError, redis.TimeoutError)


def workers_key(namespace: str) -> str:
    """The sorted set of worker heartbeats (worker -> unix time last seen)."""
    return f"{namespace}:workers:seen"


def heartbeat_forever(client: redis.Redis, namespace: str, stop: threading.Event) -> None:
    """A worker's heartbeat thread: note this worker as seen every HEARTBEAT_SECONDS."""
    name = f"{socket.gethostname()}:{os.getpid()}"
    key = workers_key(namespace)
    while True:
        try:
            now = time.time()
            pipe = client.pipeline(transaction=False)
            pipe.zadd(key, {name: now})
            pipe.zremrangebyscore(key, 0, now - 3600)  # forget workers gone for an hour
            pipe.execute()
        except OUTAGES:
            pass  # Redis is away: the worker waits for it; readiness says so meanwhile
        if stop.wait(HEARTBEAT_SECONDS):
            return


# JSON logs ---------------------------------------------------------------------------------


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message (and the exception)."""

    def format(self, record: logging.LogRecord) -> str:
        out = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "pid": record.process,
        }
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out)


JsonFormatter.converter = time.gmtime


def use_json_logs() -> None:
    """Send every log record to stderr as one JSON line."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    if root.level == logging.NOTSET or root.level > logging.INFO:
        root.setLevel(logging.INFO)
