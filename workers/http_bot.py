"""``cardroom bot run module:Class --url URL --token TOKEN``: a user's bot over HTTP only.

The process follows the bot account's event stream (``GET /bots/stream``); on every
``yourTurn`` it reads the seat's view (``GET /games/{id}/view``, with the redacted history from
``GET /games/{id}/events`` when the bot sets ``wants_history``), asks the bot class's
``choose(view, rng)`` and sends the action (``POST /games/{id}/actions`` with
``expected_version``, ``seat`` and an ``Idempotency-Key``). The rng is seeded by
(game, seat, version), as for the service's own bots. A stale turn (409) is skipped; a
refused action is replaced by a random legal one so a buggy bot cannot stall its table. It
reconnects when a stream connection ends. Only the standard library is used.
"""

from __future__ import annotations

import importlib
import json
import logging
import random
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

log = logging.getLogger("cardroom.bot")


class Client:
    """The few HTTP calls a bot makes, with its bot token."""

    def __init__(self, url: str, token: str, timeout: float = 30) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.last_event_id: str | None = None  # resumes the finished games after a reconnect

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        sent = {"Authorization": f"Bearer {self.token}", **(headers or {})}
        if data is not None:
            sent["Content-Type"] = "application/json"
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null")

    def events(self) -> Iterator[dict[str, Any]]:
        """The bot's stream messages until the connection ends (resuming after the last
        ``gameFinish`` seen, as EventSource does with ``Last-Event-ID``)."""
        headers = {"Authorization": f"Bearer {self.token}"}
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = self.last_event_id
        req = urllib.request.Request(self.url + "/bots/stream", headers=headers)
        with urllib.request.urlopen(req, timeout=self.timeout) as response:
            event_id = None
            for raw in response:
                line = raw.decode().rstrip("\n")
                if line.startswith("id: "):
                    event_id = line[len("id: ") :]
                elif line.startswith("data: "):
                    yield json.loads(line[len("data: ") :])
                    if event_id is not None:
                        self.last_event_id, event_id = event_id, None

    def history(self, game_id: str, seat: int) -> list[dict[str, Any]]:
        """The seat's redacted events, every page."""
        out: list[dict[str, Any]] = []
        after: int | None = 0
        while after is not None:
            status, page = self.request("GET", f"/games/{game_id}/events?after={after}")
            if status != 200:
                break
            out += [item["event"] for item in page["events"]]
            after = page.get("next_after")
        return out


def load_bot(spec: str) -> Any:
    """``module:Class`` -> an instance."""
    module_name, _, attr = spec.partition(":")
    if not attr:
        raise SystemExit(f"cardroom bot run: expected module:Class, got {spec!r}")
    return getattr(importlib.import_module(module_name), attr)()


def play_turn(client: Client, bot: Any, game_id: str, seat: int, version: int) -> str:
    """One turn: view, choose, act. Returns what happened."""
    status, body = client.request("GET", f"/games/{game_id}/view?seat={seat}")
    if status != 200 or body["version"] != version:
        return "stale"
    view = body["view"]
    if not view.get("legal_actions"):
        return "nothing to do"
    if getattr(bot, "wants_history", False):
        view["history"] = client.history(game_id, seat)
    rng = random.Random(f"{game_id}:{seat}:{version}")
    action = dict(bot.choose(view, rng))
    if action == {"type": "wait"}:
        return "waits"
    key = {"Idempotency-Key": f"httpbot:{game_id}:{seat}:{version}"}
    sent = {**action, "expected_version": version, "seat": seat}
    status, answer = client.request("POST", f"/games/{game_id}/actions", sent, key)
    if status == 422:
        log.warning("the bot's action %s was refused: %s", action, answer.get("detail"))
        fallback = {**rng.choice(view["legal_actions"]), "expected_version": version, "seat": seat}
        key = {"Idempotency-Key": f"httpbot:{game_id}:{seat}:{version}:fallback"}
        status, answer = client.request("POST", f"/games/{game_id}/actions", fallback, key)
    return "played" if status == 200 else f"not played ({status})"


def run(spec: str, url: str, token: str, max_games: int = 0) -> int:
    """Serve the bot until stopped (or until ``max_games`` games have finished)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    bot = load_bot(spec)
    client = Client(url, token)
    finished: set[str] = set()
    while True:
        try:
            for message in client.events():
                kind = message.get("type")
                if kind == "yourTurn":
                    result = play_turn(
                        client, bot, message["game"], int(message["seat"]), int(message["version"])
                    )
                    log.info("game %s seat %s: %s", message["game"], message["seat"], result)
                elif kind == "gameFinish":
                    finished.add(message["game"])
                    log.info("game %s is over", message["game"])
                    if max_games and len(finished) >= max_games:
                        return 0
        except (urllib.error.URLError, ConnectionError, TimeoutError) as err:
            log.warning("stream interrupted (%s); reconnecting", err)
            time.sleep(1)
