"""``cardroom worker``: a non-forking RQ worker for bot turns and replay exports.

A forking RQ worker costs ~10 ms per job; ``SimpleWorker`` runs each job in its own process in
~3 ms. A crashed job is retried (the jobs are idempotent); a killed worker's job is re-run by
the sweeper thread (see ``workers.sweeper``), which also keeps this worker marked alive.
"""

from __future__ import annotations

import importlib
import logging
import threading
from collections.abc import Sequence

import redis
from rq import Queue, SimpleWorker

from workers import config

log = logging.getLogger("cardroom.worker")


def run_worker(
    queues: Sequence[str] | None = None,
    *,
    burst: bool = False,
    sweep: bool = True,
    imports: Sequence[str] = (),
    url: str | None = None,
) -> int:
    """Serve the queues until stopped (or until empty with ``burst``)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    for module in imports:
        importlib.import_module(module)
    connection = redis.Redis.from_url(url or config.redis_url())
    names = [_qualified(q) for q in queues] if queues else config.default_queues()
    worker = SimpleWorker([Queue(n, connection=connection) for n in names], connection=connection)
    stop = threading.Event()
    if sweep and not burst:
        from workers.sweeper import sweep_forever

        thread = threading.Thread(target=sweep_forever, args=(stop, worker.name), daemon=True)
        thread.start()
    log.info("serving %s (namespace %s)", ", ".join(names), config.namespace())
    try:
        worker.work(burst=burst, logging_level="WARNING")
    finally:
        stop.set()
    return 0


def _qualified(queue: str) -> str:
    """A queue name under this namespace (``bot:lowball`` -> ``<namespace>:bot:lowball``)."""
    prefix = config.queue_name("")
    return queue if not prefix or queue.startswith(prefix) else config.queue_name(queue)
