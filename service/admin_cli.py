"""``cardroom admin ...``: the operator's endpoints (``/admin/``) from a shell.

It speaks HTTP only (standard library), to ``--url`` (``CARDROOM_URL``, default
``http://127.0.0.1:8000``) with the token of ``CARDROOM_ADMIN_TOKEN`` (from the environment,
never an argument: a command line is visible to every user of the machine). The service logs
every act. Exit status: 0 done, 1 refused or failed (the problem's detail printed), 2 usage.

cardroom admin games [--game G] [--status S] [--creator ADDRESS] [--limit N]
cardroom admin end GAME --reason TEXT
cardroom admin purge GAME ... | --creator ADDRESS [--status S] [--game G]
cardroom admin bots [list | add NAME | revoke NAME]    (also: cardroom bot add|revoke NAME)
cardroom admin queues [--older SECONDS]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from datetime import UTC, datetime
from typing import Any

DEFAULT_URL = "http://127.0.0.1:8000"
DASHED = "an id that starts with - goes after --, as in: end --reason R -- -Xy..."
Commands = argparse._SubParsersAction  # argparse's own type of a parser's subcommands


class AdminError(Exception):
    """A refused or failed request, said as its problem's detail."""


def add_parser(commands: Commands[argparse.ArgumentParser]) -> None:
    """``cardroom admin`` and its subcommands."""
    admin = commands.add_parser("admin", help="the operator's tools (CARDROOM_ADMIN_TOKEN)")
    admin.add_argument("--url", default=os.environ.get("CARDROOM_URL") or DEFAULT_URL,
                       help=f"the service's base URL (CARDROOM_URL, {DEFAULT_URL})")  # fmt: skip
    sub = admin.add_subparsers(title="admin commands")
    games = sub.add_parser("games", help="list games, newest first, with their creator")
    _filters(games)
    games.add_argument("--limit", type=int, default=100)
    games.set_defaults(run=_run(list_games))
    end = sub.add_parser("end", help="end a game not over (recorded with your reason)")
    end.add_argument("game", help=DASHED)
    end.add_argument("--reason", required=True, help="why (recorded in the game's events)")
    end.set_defaults(run=_run(end_game))
    purge = sub.add_parser("purge", help="forget games nobody plays (waiting or over)")
    purge.add_argument("games", nargs="*", help=f"game ids; or the filters below ({DASHED})")
    _filters(purge)
    purge.set_defaults(run=_run(purge_games))
    queues = sub.add_parser("queues", help="RQ's queues and the games stalled on a bot")
    queues.add_argument("--older", type=float, default=10.0,
                        help="stalled: unmoved this long, as the sweeper saw (10 s)")  # fmt: skip
    queues.set_defaults(run=_run(show_queues))
    bots = sub.add_parser("bots", help="bot names: list, add (the operator's), revoke")
    bots.set_defaults(run=_run(list_bots))
    add_bot_commands(bots.add_subparsers(title="bots commands"), with_list=True)


def add_bot_commands(sub: Commands[argparse.ArgumentParser], with_list: bool = False) -> None:
    """``add NAME`` and ``revoke NAME`` (under ``cardroom admin bots`` and ``cardroom bot``)."""
    if with_list:
        sub.add_parser("list", help="every bot name held").set_defaults(run=_run(list_bots))
    add = sub.add_parser("add", help="hold a name for your own bot (no account may take it)")
    add.add_argument("name")
    add.set_defaults(run=_run(add_bot))
    revoke = sub.add_parser("revoke", help="revoke a bot name (an account's token stops)")
    revoke.add_argument("name")
    revoke.set_defaults(run=_run(revoke_bot))
    # under ``cardroom admin`` the admin's --url stands unless given again here
    url = argparse.SUPPRESS if with_list else os.environ.get("CARDROOM_URL") or DEFAULT_URL
    for parser in (add, revoke):
        parser.add_argument("--url", default=url, help="the service's base URL (CARDROOM_URL)")


def _filters(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", help="only this game (shithead, sixty_six, sheepshead)")
    parser.add_argument("--status", choices=("waiting", "playing", "over"))
    parser.add_argument("--creator", help="only games created from this client address")


def _run(command: Any) -> Any:
    def run(args: argparse.Namespace) -> int:
        token = os.environ.get("CARDROOM_ADMIN_TOKEN") or ""
        if not token:
            print("cardroom admin: set CARDROOM_ADMIN_TOKEN to the service's admin token",
                  file=sys.stderr)  # fmt: skip
            return 2
        try:
            return int(command(Admin(args.url, token), args))
        except AdminError as err:
            print(f"cardroom admin: {err}", file=sys.stderr)
            return 1

    return run


class Admin:
    """The admin endpoints of one service."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url.rstrip("/")
        self.token = token

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """One request; its JSON answer, or AdminError with the problem's detail."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.url}{path}", data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            raise AdminError(f"{method} {path}: {err.code} {_detail(err)}") from None
        except (urllib.error.URLError, OSError) as err:
            raise AdminError(f"{self.url} does not answer: {err}") from None

    def games(self, **filters: Any) -> list[dict[str, Any]]:
        query = urllib.parse.urlencode({k: v for k, v in filters.items() if v is not None})
        return list(self.call("GET", f"/admin/games?{query}")["games"])


def list_games(admin: Admin, args: argparse.Namespace) -> int:
    for game in admin.games(game=args.game, status=args.status, creator=args.creator,
                            limit=args.limit):  # fmt: skip
        print(_game_line(game))
    return 0


def end_game(admin: Admin, args: argparse.Namespace) -> int:
    ended = admin.call("POST", f"/admin/games/{_quoted(args.game)}/end", {"reason": args.reason})
    print(f"{ended['id']}: ended at version {ended['version']} ({args.reason})")
    return 0


def purge_games(admin: Admin, args: argparse.Namespace) -> int:
    ids = list(args.games)
    if not ids and args.creator is None and args.status is None and args.game is None:
        raise AdminError("purge names games, or filters them (--creator, --status, --game)")
    if not ids:
        found = admin.games(game=args.game, status=args.status, creator=args.creator,
                            limit=10_000)  # fmt: skip
        ids = [g["id"] for g in found]
    failed = 0
    for game_id in ids:
        try:
            purged = admin.call("DELETE", f"/admin/games/{_quoted(game_id)}")
            print(f"{game_id}: purged ({purged['status']})")
        except AdminError as err:
            failed += 1
            print(f"{game_id}: {err}")
    print(f"purged {len(ids) - failed} of {len(ids)} games")
    return 1 if failed else 0


def show_queues(admin: Admin, args: argparse.Namespace) -> int:
    backlog = admin.call("GET", f"/admin/queues?older={args.older:g}")
    for queue in backlog["queues"]:
        print(f"queue {queue['queue']}: {queue['waiting']} waiting, {queue['started']} running")
    for game in backlog["stalled"]:
        seats = ", ".join(f"seat {s['seat']} ({s['bot']})" for s in game["seats"])
        print(f"stalled {game['game']} v{game['version']} for {game['stalled_seconds']:.0f} s: "
              f"{seats}")  # fmt: skip
    return 0


def list_bots(admin: Admin, args: argparse.Namespace) -> int:
    for bot in admin.call("GET", "/admin/bots")["bots"]:
        seen = "-" if bot["last_seen"] is None else f"{bot['last_seen']:.0f}"
        print(f"{bot['name']}  {bot['kind']:<8}  last seen {seen}")
    return 0


def add_bot(admin: Admin, args: argparse.Namespace) -> int:
    admin.call("PUT", f"/admin/bots/{_quoted(args.name)}")
    print(f"{args.name}: held for your bot (cardroom worker --bot {args.name} serves it)")
    return 0


def revoke_bot(admin: Admin, args: argparse.Namespace) -> int:
    revoked = admin.call("DELETE", f"/admin/bots/{_quoted(args.name)}")
    games = ", ".join(revoked["live_games"]) or "none"
    print(f"{args.name}: revoked (was {revoked['was']}); live games seating it: {games}")
    return 0


def _game_line(game: dict[str, Any]) -> str:
    seats = ",".join(s.get("name") or s.get("bot") or s["type"] for s in game["seats"])
    created = datetime.fromtimestamp(game["created"], UTC).strftime("%Y-%m-%d %H:%M:%SZ")
    return (f"{game['id']}  {game['status']:<7}  {game['game']:<10}  {created}  "
            f"{game['creator'] or '-'}  {seats}")  # fmt: skip


def _quoted(game_id: str) -> str:
    return urllib.parse.quote(game_id, safe="")


def _detail(err: urllib.error.HTTPError) -> str:
    try:
        problem = json.loads(err.read())
    except ValueError:
        return str(err.reason)
    return f"{problem.get('code', '')}: {problem.get('detail', '')}"
