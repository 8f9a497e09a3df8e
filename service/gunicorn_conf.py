"""gunicorn settings that ``cardroom serve`` adds (``--config python:service.gunicorn_conf``).

prometheus-client's multiprocess mode keeps one file per process: a dead worker's live gauges
(open streams) must be dropped, or /metrics would count its streams for ever.
"""

from __future__ import annotations

import os
from typing import Any


def child_exit(server: Any, worker: Any) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]
