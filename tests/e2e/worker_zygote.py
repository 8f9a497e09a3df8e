"""A worker zygote for the chaos test: imports the worker once, then forks a fresh ``cardroom
worker`` (the same ``workers.runner.run_worker``) for every ``spawn`` line read on stdin and
prints its pid. Killing a child is killing a real worker process; starting one costs a fork
instead of a Python start-up, so fifty kills fit on a busy two-core machine. Dead children are
reaped; closing stdin kills the remaining ones.

Run: ``python -m tests.e2e.worker_zygote`` (environment as for ``cardroom worker``).
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

import workers.jobs
import workers.sweeper
from workers import runner

children: set[int] = set()


def _reap(*_: Any) -> None:
    while children:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        children.discard(pid)


def _spawn() -> int:
    pid = os.fork()
    if pid == 0:  # the worker
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.dup2(2, 1)  # its output goes to the log, never into the pid pipe
        try:
            runner.run_worker()
        finally:
            os._exit(0)
    children.add(pid)
    return pid


def main() -> None:
    assert workers.jobs and workers.sweeper  # imported once, before any fork
    signal.signal(signal.SIGCHLD, _reap)
    for line in sys.stdin:
        if line.strip() == "spawn":
            print(_spawn(), flush=True)
    for pid in list(children):
        os.kill(pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
