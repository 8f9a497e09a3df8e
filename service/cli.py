"""The ``cardroom`` command: run the service, run a worker, audit and show replay files.

cardroom serve [--host H] [--port P]     web + worker (embedded Redis if REDIS_URL is unset),
        [--only web|workers]             each restarted with backoff if it dies; one serve per
                                         data folder (a second one refuses, naming the first)
cardroom worker [--queue Q ...]          the bot / replay RQ worker (non-forking)
cardroom replay verify FILE [--receipts R [--public-key K]] [--expect-head H] [--source SOURCE]
                                         exit 0 with a summary, 1 naming the first bad event
cardroom replay show FILE --step N [--as SEAT] [--json]
cardroom bot run module:Class --url URL --token TOKEN
cardroom bot add|revoke NAME             hold a name for your own bot / revoke one (admin)
cardroom arena --game G --bots A,B[,...] --games N [--workers K] [--json FILE] [--import M]
cardroom archive [--dir D] [--after SECONDS] [--game ID ...]
                                         move finished games from Redis to the archive
cardroom admin games|end|purge ...       the operator's endpoints (CARDROOM_ADMIN_TOKEN)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from service import admin_cli, serve
from service.processes import log


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    parser = _parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        return int(args.run(args))
    except BrokenPipeError:
        # the reader went away (``cardroom replay show ... | head``): stop quietly; point
        # stdout at /dev/null so the interpreter's final flush does not fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardroom", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(title="commands")
    serve.add_parser(commands)
    _worker_parser(commands)
    _replay_parser(commands)
    _arena_parser(commands)
    _bot_parser(commands)
    _archive_parser(commands)
    admin_cli.add_parser(commands)
    return parser


def _archive_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    archive = commands.add_parser("archive", help="move finished games to the archive now")
    archive.add_argument("--dir", default=os.environ.get("CARDROOM_ARCHIVE_DIR") or "",
                         help="the archive's directory (CARDROOM_ARCHIVE_DIR)")  # fmt: skip
    archive.add_argument("--after", type=float, default=None,
                         help="games that ended this many seconds ago or more "
                         "(CARDROOM_ARCHIVE_AFTER, 3600); 0: every finished game")  # fmt: skip
    archive.add_argument("--game", action="append", dest="games", default=[],
                         help="archive this game now, whenever it ended (repeatable)")  # fmt: skip
    archive.set_defaults(run=_run_archive)


def _run_archive(args: argparse.Namespace) -> int:
    from workers.archiver import retention, run_until_none_due

    if not args.dir:
        log("cardroom archive: set CARDROOM_ARCHIVE_DIR (or --dir) to the archive's directory")
        return 2
    moving = retention(args.dir)
    if args.after is not None:
        moving.after = args.after
    if not args.games:
        import threading

        count = run_until_none_due(moving, threading.Event())
        print(f"archived {count} finished games")
        return 0
    moved = [moving.archive_game(game_id) for game_id in args.games]
    for one in moved:
        print(f"{one.game_id}: {one.outcome}")
    return 1 if any(m.outcome not in ("archived", "already archived") for m in moved) else 0


def _bot_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    bot = commands.add_parser("bot", help="run your own bot over HTTP")
    sub = bot.add_subparsers(title="bot commands")
    run = sub.add_parser("run", help="play a bot account's turns with a bot class")
    run.add_argument("spec", help="module:Class with choose(view, rng)")
    run.add_argument("--url", required=True, help="the service's base URL")
    run.add_argument("--token", required=True, help="the bot account's token")
    run.add_argument("--max-games", type=int, default=0, help="stop after N finished games")
    run.add_argument(
        "--games-at-once", type=int, default=4, help="play turns of up to N games at once (4)"
    )
    run.add_argument(
        "--move-seconds", type=float, default=10.0,
        help="a decision taking longer is abandoned and the fallback sent (10; 0: no limit)",
    )  # fmt: skip
    run.set_defaults(run=_run_bot)
    admin_cli.add_bot_commands(sub)  # add / revoke a bot name (the operator's token)


def _run_bot(args: argparse.Namespace) -> int:
    from workers.http_bot import run

    importable_here()
    return run(
        args.spec,
        args.url,
        args.token,
        args.max_games,
        games_at_once=args.games_at_once,
        move_seconds=args.move_seconds,
    )


def _arena_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    arena = commands.add_parser("arena", help="play bots against each other on duplicate deals")
    arena.add_argument("--game", required=True, help="sixty_six, shithead or sheepshead")
    arena.add_argument("--bots", required=True, help="one bot name per seat, comma-separated")
    arena.add_argument("--games", type=int, default=100, help="games to play (whole deals)")
    arena.add_argument("--workers", type=int, default=1, help="parallel processes (1)")
    arena.add_argument(
        "--seed", default="", help="the seed the deals derive from (default: drawn, printed)"
    )
    arena.add_argument(
        "--bot-seed", default="", help="the seed of the bots' rngs (default: drawn, printed)"
    )
    arena.add_argument(
        "--no-duplicate", action="store_true", help="play each deal once (default: every rotation)"
    )
    arena.add_argument(
        "--move-seconds", type=float, default=30.0,
        help="a decision that takes longer ends the game against its bot (30; 0: no limit)",
    )  # fmt: skip
    arena.add_argument("--options", default="", help="game options as a JSON object")
    arena.add_argument("--json", default="", help="write the results as JSON to this file")
    arena.add_argument("--plot", default="", help="write a PNG chart of the per-deal results")
    arena.add_argument(
        "--import", action="append", dest="imports", default=[], help="module with your bots"
    )
    arena.add_argument("--quiet", action="store_true", help="no progress bar")
    arena.set_defaults(run=_run_arena)


def _run_arena(args: argparse.Namespace) -> int:
    from workers.arena import main as arena_main

    importable_here()
    return arena_main(args)


def _worker_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    worker = commands.add_parser("worker", help="run the bot and replay RQ worker (no fork)")
    worker.add_argument(
        "--queue",
        action="append",
        dest="queues",
        help="queue to serve (repeatable; default: the built-in bots and replays queues)",
    )
    worker.add_argument(
        "--bot",
        action="append",
        dest="bots",
        default=[],
        help="serve this bot's queue (bot:<name>; repeatable; with --import for your own bot)",
    )
    worker.add_argument(
        "--data-dir",
        default=os.environ.get("CARDROOM_DATA_DIR") or "var",
        help="without REDIS_URL: use the embedded Redis that `cardroom serve` runs there (./var)",
    )
    worker.add_argument("--burst", action="store_true", help="stop when the queues are empty")
    worker.add_argument("--no-sweep", action="store_true", help="do not re-run stalled bot turns")
    worker.add_argument(
        "--import",
        action="append",
        dest="imports",
        default=[],
        help="module to import first (registers your own bots)",
    )
    worker.set_defaults(run=_run_worker)


def _replay_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    replay = commands.add_parser("replay", help="audit or show a replay file")
    sub = replay.add_subparsers(title="replay commands")
    verify = sub.add_parser("verify", help="re-derive the deal and re-run every command")
    verify.add_argument("file")
    verify.add_argument("--json", action="store_true", help="print the report as JSON")
    verify.add_argument(
        "--receipts",
        metavar="R",
        help="JSON file of [version, head_hash] pairs kept during play: each must match",
    )
    verify.add_argument("--public-key", metavar="K",
                        help="the server's receipt key (GET /fairness/key): every receipt must "
                             "carry its signature")  # fmt: skip
    verify.add_argument("--expect-head", metavar="H", help="the head hash the game must end on")
    verify.add_argument("--source", metavar="SOURCE",
                        help="a fork's source replay: its origin must agree with it")  # fmt: skip
    verify.set_defaults(run=_run_verify)
    show = sub.add_parser("show", help="print the table at a step")
    show.add_argument("file")
    show.add_argument("--step", type=int, default=None, help="event version (default: the end)")
    show.add_argument("--as", dest="as_seat", type=int, default=None, help="as this seat saw it")
    show.add_argument("--json", action="store_true", help="print JSON instead of text")
    show.set_defaults(run=_run_show)


def _run_verify(args: argparse.Namespace) -> int:
    from pathlib import Path

    from replays.fair import parse_receipts
    from replays.format import ReplayFormatError, read
    from replays.verify import check

    try:
        receipts = parse_receipts(Path(args.receipts).read_text()) if args.receipts else []
        report = check(
            read(args.file),
            receipts=receipts,
            expect_head=args.expect_head,
            source=read(args.source) if args.source else None,
        )
        unsigned = _unsigned(args, report.game_id) if report.ok else ""
    except (OSError, ReplayFormatError) as err:
        print(f"FAILED {args.file}: {err}", file=sys.stderr)
        return 1
    if unsigned:
        print(f"FAILED {args.file}: {unsigned}", file=sys.stderr)
        return 1
    if args.json:
        print(
            json.dumps(
                {
                    "ok": report.ok,
                    "bad_version": report.bad_version,
                    "reason": report.reason,
                    "summary": report.summary(),
                }
            )
        )
    else:
        print(report.summary(), file=sys.stdout if report.ok else sys.stderr)
    return 0 if report.ok else 1


def _unsigned(args: argparse.Namespace, game_id: str) -> str:
    """What is wrong with the receipts' signatures ("" when --public-key is not given)."""
    if not args.public_key:
        return ""
    if not args.receipts:
        return "--public-key checks the signatures of --receipts: give both"
    from service.receipts import check_signatures

    return check_signatures(Path(args.receipts).read_text(), game_id, args.public_key)


def _run_show(args: argparse.Namespace) -> int:
    from replays.format import ReplayFormatError, read
    from replays.show import render, table_at

    try:
        data = table_at(read(args.file), args.step, args.as_seat)
    except (OSError, ReplayFormatError, ValueError) as err:
        print(f"cardroom replay show: {err}", file=sys.stderr)
        return 1
    print(json.dumps(data, indent=2) if args.json else render(data))
    return 0


def importable_here() -> None:
    """Modules in the current folder can be imported (``--import mybots``, ``mybot:Class``
    find ./mybots.py), as ``python -m`` allows."""
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())


def worker_redis(data_dir: Path) -> str:
    """The store's Redis for a worker, said out loud: ``REDIS_URL``; else the embedded Redis
    of the ``cardroom serve`` running on ``data_dir`` (it writes the URL there); else the
    default, with a warning that it is not the running service's."""
    from service.processes import running_embedded_redis
    from workers.config import DEFAULT_URL

    url = os.environ.get("REDIS_URL")
    if url:
        log(f"worker: using REDIS_URL {url}")
        return url
    found = running_embedded_redis(data_dir)
    if found:
        log(f"worker: REDIS_URL is not set: using the embedded Redis of the `cardroom serve` "
            f"running on {data_dir.resolve()}: {found}")  # fmt: skip
        return found
    log(
        f"worker: WARNING: REDIS_URL is not set and no `cardroom serve` runs an embedded Redis "
        f"in {data_dir.resolve()}: using {DEFAULT_URL}. If the service runs elsewhere, export "
        "the REDIS_URL it printed, or pass --data-dir of its folder."
    )
    return DEFAULT_URL


def _run_worker(args: argparse.Namespace) -> int:
    from service import metrics_dir

    problem = serve.rq_problem(dict(os.environ))
    if problem:
        log(problem)
        return 2
    metrics_dir.prepare()  # before prometheus-client is imported (service.metrics_dir)
    from workers.config import bot_queue
    from workers.runner import run_worker

    queues = (args.queues or []) + [bot_queue(b) for b in args.bots]
    importable_here()
    os.environ["REDIS_URL"] = worker_redis(Path(args.data_dir))
    return run_worker(
        queues=queues or None,
        burst=args.burst,
        sweep=not args.no_sweep,
        imports=args.imports,
        bots=args.bots,
    )


if __name__ == "__main__":
    sys.exit(main())
