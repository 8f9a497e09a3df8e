"""Where prometheus-client's multiprocess files live: each process sets it up itself.

Every process of one service on one host (gunicorn's master and workers, ``cardroom worker``,
``cardroom serve`` and whatever runs them: a Procfile runner, systemd) calls ``prepare`` before
prometheus-client is imported. It points ``PROMETHEUS_MULTIPROC_DIR`` at the host's directory
for the namespace (unless the variable is set already), creates it, and holds a shared lock on
it for the process's life; the first process to arrive when no other holds the lock (the
service started from nothing) wipes the files a previous run left. So ``/metrics`` on any web
process reports the sum over every process of the host, with no set-up by hand, and a restart
of one process keeps the counters of the others (a restart of them all starts from zero). The
last process to exit removes the directory.

Standard library only: gunicorn's master imports this (through ``service.gunicorn_conf``)
before gevent patches its workers.
"""

from __future__ import annotations

import atexit
import fcntl
import os
import shutil
import tempfile
from collections.abc import MutableMapping
from pathlib import Path

ENV = "PROMETHEUS_MULTIPROC_DIR"
LOCK_NAME = ".in-use"  # shared-locked by every live process using the directory

_held: list[int] = []  # this process's lock, open (and so held) until it exits


def default_dir(namespace: str) -> Path:
    """The host's directory for a namespace's processes (one per user)."""
    return Path(tempfile.gettempdir()) / f"cardroom-metrics-{os.getuid()}-{namespace}"


def prepare(environ: MutableMapping[str, str] | None = None) -> Path:
    """Set up this process's metrics directory (idempotent); returns it."""
    environ = os.environ if environ is None else environ
    path = Path(environ.get(ENV) or default_dir(environ.get("CARDROOM_NAMESPACE") or "cardroom"))
    environ[ENV] = str(path)
    if _held:
        return path
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    lock = os.open(path / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pass  # other processes of the service run: their figures stay
    else:
        wipe(path)  # nobody else is here: what is left is a previous run's
    fcntl.flock(lock, fcntl.LOCK_SH)  # waits while another process wipes
    _held.append(lock)
    atexit.register(_leave, path, lock, os.getpid())
    return path


def _leave(path: Path, lock: int, owner: int) -> None:
    """At exit: the last process of the service removes the directory (a forked child, which
    shares its parent's lock, leaves it to the parent)."""
    if os.getpid() != owner:
        return
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return  # others still use it
    shutil.rmtree(path, ignore_errors=True)


def wipe(path: Path) -> None:
    """Delete the metric files in ``path`` (prometheus-client's ``*.db``)."""
    for file in path.glob("*.db"):
        file.unlink(missing_ok=True)


def forget_dead(path: Path) -> None:
    """Drop the live gauges (``livesum``/``liveall``) of processes that are gone, however they
    ended (gunicorn reports its own workers' deaths; a SIGKILLed master's workers, or a killed
    worker process, nobody does)."""
    for file in path.glob("gauge_live*_*.db"):
        pid = file.stem.rpartition("_")[2]
        if pid.isdigit() and not _alive(int(pid)):
            file.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
