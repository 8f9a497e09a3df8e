"""``cardroom serve``: set up the environment, start the processes, supervise them.

The whole service on one host by default (gunicorn, RQ workers, the embedded Redis when
``REDIS_URL`` is unset); ``--only web`` or ``--only workers`` runs one role, as the Procfile's
lines do, so a Procfile runner (which stops everything when one of its processes exits) or a
platform scaling each role gets the same supervision: a child that dies is restarted.
"""

from __future__ import annotations

import argparse
import os
import socket
import time
from pathlib import Path

from service import metrics_dir
from service.processes import (
    URL_FILE,
    Child,
    DataDirInUse,
    launch_embedded_redis,
    lock_data_dir,
    log,
    start_embedded_redis,
    supervise,
    web_command,
    worker_command,
)

SCHEDULER = "workers.scheduler:from_config"
ROLES = ("web", "workers")


def run(args: argparse.Namespace) -> int:
    """Run ``cardroom serve`` with its parsed arguments; the exit status."""
    roles = (args.only,) if args.only else ROLES
    env = dict(os.environ)
    lock = None
    if not env.get("REDIS_URL") and not args.only:  # the embedded Redis: one serve per folder
        try:
            lock = _take_data_dir(args)
        except DataDirInUse as held:
            log(f"the data folder {Path(args.data_dir).resolve()} is in use by {held}; stop "
                "that one first, or give this one another --data-dir (or a REDIS_URL)")
            return 1
    status, problem = _problem(args, roles, env)
    if problem:
        log(problem)
        return status
    env.setdefault("CARDROOM_SCHEDULER", SCHEDULER)
    env.setdefault("CARDROOM_ARCHIVE_DIR", str(Path(args.data_dir).resolve() / "archive"))
    env.setdefault("CARDROOM_SIGNING_KEY", str(Path(args.data_dir).resolve() / "signing-key.pem"))
    if args.log_json:
        env["CARDROOM_LOG_FORMAT"] = "json"
    metrics_dir.prepare(env)  # /metrics sums every process of the host (multiprocess mode)
    children: list[Child] = []
    if not env.get("REDIS_URL"):
        children.append(_embedded_redis(Path(args.data_dir), args.appendfsync, env, lock))
    commands = []
    if "web" in roles:
        commands.append(
            web_command(
                args.host, args.port, args.web_workers,
                json_logs=args.log_json, access_log=args.access_log,
                keep_alive=args.keep_alive,
            )
        )  # fmt: skip
    if "workers" in roles:
        commands += [worker_command() for _ in range(args.bot_workers)]
    try:
        return supervise(commands, env, children)
    finally:
        if children:  # the embedded Redis is stopped: workers must not look for it
            (Path(args.data_dir) / URL_FILE).unlink(missing_ok=True)


def _problem(
    args: argparse.Namespace, roles: tuple[str, ...], env: dict[str, str]
) -> tuple[int, str]:
    """Why these processes cannot start, with the exit status (a settings problem 2, a busy
    port 1); "" when they can."""
    if args.only and not env.get("REDIS_URL"):
        return 2, (
            f"`cardroom serve --only {args.only}` needs REDIS_URL: the embedded Redis is "
            "started only by a whole `cardroom serve` (one Redis per data folder)"
        )
    if "web" in roles and port_in_use(args.host, args.port):
        other = args.port + 1
        return 1, (
            f"port {args.port} on {args.host} is already in use; choose another with "
            f"`PORT={other} make run` or `cardroom serve --port {other}`"
        )
    return 2, rq_problem(env)


def _embedded_redis(
    data_dir: Path, appendfsync: str, env: dict[str, str], lock: int | None
) -> Child:
    """Start the embedded Redis (its URL into ``env``), supervised like the others; it holds
    the data folder's ``lock`` too."""
    process, env["REDIS_URL"] = start_embedded_redis(data_dir, appendfsync=appendfsync, lock=lock)
    return Child(
        "embedded Redis", lambda: launch_embedded_redis(data_dir, appendfsync, lock), process
    )


def _take_data_dir(args: argparse.Namespace) -> int:
    """Lock the data folder for this serve (``processes.lock_data_dir``), saying who holds it."""
    started = time.strftime("%Y-%m-%d %H:%M:%S")
    return lock_data_dir(
        Path(args.data_dir),
        f"`cardroom serve` pid {os.getpid()} (http://{args.host}:{args.port}, started {started})",
    )


def port_in_use(host: str, port: int) -> bool:
    """Whether something already listens on host:port (so gunicorn could not bind it)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


def rq_problem(env: dict[str, str]) -> str:
    """Why RQ could not run with these settings ("" when it can): a Redis Cluster store needs
    RQ_REDIS_URL naming a plain Redis for RQ's queues."""
    from service.store.connect import NotPlainRedis, plain_url

    own = env.get("RQ_REDIS_URL")  # as workers.config.rq_redis_url reads them
    try:
        plain_url(own or env.get("REDIS_URL") or "redis://", "RQ_REDIS_URL" if own else "REDIS_URL")
    except NotPlainRedis as err:
        return str(err)
    return ""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``cardroom serve`` and its options."""
    serve = commands.add_parser("serve", help="run the web service and a worker")
    add = serve.add_argument
    add("--host", default=os.environ.get("HOST") or "127.0.0.1", help="address (HOST, 127.0.0.1)")
    add("--port", type=int, default=int(os.environ.get("PORT") or 8000), help="port (PORT, 8000)")
    add("--web-workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY") or 2),
        help="gunicorn workers (WEB_CONCURRENCY, 2)")  # fmt: skip
    add("--bot-workers", type=int, default=1, help="RQ worker processes (1)")
    add("--keep-alive", type=int, default=None,
        help="seconds gunicorn keeps an idle connection (2; behind a proxy: more than its)")
    add("--only", choices=ROLES, help="run one role (needs REDIS_URL): as the Procfile's lines")
    add("--data-dir", default="var",
        help="data dir: the embedded Redis's files, the archive (CARDROOM_ARCHIVE_DIR) (./var)")
    add("--log-json", action="store_true",
        default=(os.environ.get("CARDROOM_LOG_FORMAT") or "").lower() == "json",
        help="log one JSON object per line (also CARDROOM_LOG_FORMAT=json)")  # fmt: skip
    add("--no-access-log", dest="access_log", action="store_false",
        default=os.environ.get("CARDROOM_ACCESS_LOG", "1") != "0",
        help="no access log line per request (also CARDROOM_ACCESS_LOG=0)")  # fmt: skip
    add("--appendfsync", choices=("always", "everysec"),
        default=os.environ.get("CARDROOM_APPENDFSYNC", "always"),
        help="the embedded Redis' AOF fsync: always (default: an acknowledged action is on "
        "disk) or everysec (faster; a power loss may drop the last second of actions)")  # fmt: skip
    serve.set_defaults(run=run)
