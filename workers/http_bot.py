"""``cardroom bot run module:Class --url URL --token TOKEN``: a user's bot over HTTP only.

The process follows the bot account's event stream (``GET /bots/stream``, resumed with
``Last-Event-ID`` after the last finished game it saw, reconnecting with a growing pause when
the connection ends or fails). On ``entropyWanted``, before anything else of that game, it
draws the seat's 32 bytes of entropy with ``secrets`` and posts them (``POST
/games/{id}/seats/{seat}/entropy``; the same value again if asked again): the deal waits for
them, and the bot's share of the seed is then its own (docs/fairness.md); when the game is
over, it checks that the history records that value as the seat's (logged either way). On
every ``yourTurn`` it reads the seat's view (with the redacted history when the bot sets
``wants_history``), asks the bot class's
``choose(view, rng)`` and sends the action (``expected_version``, ``seat`` and an
``Idempotency-Key``). The rng is seeded by (game, seat, version), as for the service's own bots.

Turns of up to ``games_at_once`` games are played at once (each game's turns one after the
other, the newest turn of a game replacing one not yet started). When the bot raises, takes
longer than ``move_seconds`` or answers an action the rules refuse, the runner logs it and
sends ``{"type": "fallback", "reason": "raised" | "timeout" | "illegal"}``: the service makes
the game's default move for the seat and records it as a fallback (docs/bots.md). A decision
that overran is abandoned: its thread runs on until the bot returns, and its answer is
dropped. A request the service refuses for the bot account's rate (a 429, docs/bots.md) is
sent again once its ``Retry-After`` has passed, as often as it takes: a bot faster than its
account's limit is slowed down, never failed. Only the standard library is used.
"""

from __future__ import annotations

import importlib
import json
import logging
import random
import secrets
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

log = logging.getLogger("cardroom.bot")

RAISED, TIMEOUT, ILLEGAL = "raised", "timeout", "illegal"
LONGEST_PAUSE = 30.0  # seconds between reconnects, at most


def retry_after(headers: Any) -> float:
    """Seconds a 429's ``Retry-After`` asks to wait (whole seconds; 1 when it says none)."""
    try:
        return max(1.0, float((headers or {}).get("Retry-After") or 1))
    except ValueError:  # an HTTP date: this service never sends one
        return 1.0


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
        """(status, JSON body); a 429 is sent again after its ``Retry-After`` until it passes
        (an action keeps its ``Idempotency-Key``: played once whatever happens)."""
        while True:
            status, answer, wait = self._send(method, path, body, headers)
            if status != 429:
                return status, answer
            log.info("%s %s: over the bot's rate limit; again in %g s", method, path, wait)
            time.sleep(wait)

    def _send(
        self, method: str, path: str, body: Any, headers: dict[str, str] | None
    ) -> tuple[int, Any, float]:
        data = None if body is None else json.dumps(body).encode()
        sent = {"Authorization": f"Bearer {self.token}", **(headers or {})}
        if data is not None:
            sent["Content-Type"] = "application/json"
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as response:
                return response.status, json.loads(response.read() or b"null"), 0.0
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read() or b"null"), retry_after(err.headers)

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


def decide(bot: Any, view: dict[str, Any], rng: random.Random, seconds: float) -> Any:
    """The bot's answer, or (reason, detail) when it raised or took longer than ``seconds``
    (0: no limit). The decision runs in a thread of its own, abandoned when it overruns."""
    answer: dict[str, Any] = {}

    def ask() -> None:
        try:
            answer["action"] = dict(bot.choose(view, rng))
        except Exception as err:
            answer["error"] = err

    thread = threading.Thread(target=ask, name="bot-choose", daemon=True)
    thread.start()
    thread.join(seconds if seconds > 0 else None)
    if thread.is_alive():
        return (TIMEOUT, f"no answer in {seconds:g} s (abandoned)")
    if "error" in answer:
        err = answer["error"]
        log.error("the bot raised", exc_info=(type(err), err, err.__traceback__))
        return (RAISED, f"{type(err).__name__}: {err}")
    return answer["action"]


class Turns:
    """Plays the bot's turns: up to ``games_at_once`` games at once, one turn per game."""

    def __init__(self, bot: Any, client: Client, games_at_once: int, move_seconds: float) -> None:
        self.bot, self.client, self.move_seconds = bot, client, move_seconds
        self.pool = ThreadPoolExecutor(max(1, games_at_once), thread_name_prefix="turn")
        self.lock = threading.Lock()
        self.running: dict[str, Future[str]] = {}
        self.waiting: dict[str, tuple[int, int]] = {}

    def turn(self, game_id: str, seat: int, version: int) -> None:
        """Play it now, or after the game's turn in progress (the newest one wins)."""
        with self.lock:
            if game_id in self.running:
                self.waiting[game_id] = (seat, version)
                return
            self._start(game_id, seat, version)

    def _start(self, game_id: str, seat: int, version: int) -> None:
        future = self.pool.submit(self._play, game_id, seat, version)
        self.running[game_id] = future
        future.add_done_callback(lambda _: self._next(game_id))

    def _next(self, game_id: str) -> None:
        with self.lock:
            self.running.pop(game_id, None)
            queued = self.waiting.pop(game_id, None)
            if queued is not None:
                self._start(game_id, *queued)

    def _play(self, game_id: str, seat: int, version: int) -> str:
        try:
            result = play_turn(self.client, self.bot, game_id, seat, version, self.move_seconds)
        except Exception:  # the runner carries on; the service's idle rule covers the turn
            log.exception("game %s seat %s: the turn failed", game_id, seat)
            return "failed"
        log.info("game %s seat %s: %s", game_id, seat, result)
        return result

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=False)


def play_turn(
    client: Client, bot: Any, game_id: str, seat: int, version: int, move_seconds: float = 0
) -> str:
    """One turn: view, choose, act (the fallback when the bot fails). Returns what happened."""
    status, body = client.request("GET", f"/games/{game_id}/view?seat={seat}")
    if status != 200 or body["version"] != version:
        return "stale"
    view = body["view"]
    if not view.get("legal_actions"):
        return "nothing to do"
    if getattr(bot, "wants_history", False):
        view["history"] = client.history(game_id, seat)
    answer = decide(bot, view, random.Random(f"{game_id}:{seat}:{version}"), move_seconds)
    if isinstance(answer, tuple):
        return fall_back(client, game_id, seat, version, *answer)
    if answer == {"type": "wait"}:
        return "waits"
    key = {"Idempotency-Key": f"httpbot:{game_id}:{seat}:{version}"}
    sent = {**answer, "expected_version": version, "seat": seat}
    status, reply = client.request("POST", f"/games/{game_id}/actions", sent, key)
    if status == 422:
        detail = f"{answer} was refused: {(reply or {}).get('detail')}"
        return fall_back(client, game_id, seat, version, ILLEGAL, detail)
    return "played" if status == 200 else f"not played ({status})"


class Entropy:
    """The bot's own entropy for each seat a game awaits it for: drawn once with ``secrets``,
    posted, and sent again unchanged if the stream asks again (a lost answer, a reconnect)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.drawn: dict[tuple[str, int], str] = {}

    def send(self, game_id: str, seat: int) -> str:
        """Post the seat's entropy; what happened."""
        value = self.drawn.setdefault((game_id, seat), secrets.token_hex(32))
        body = {"entropy": value}
        status, reply = self.client.request("POST", f"/games/{game_id}/seats/{seat}/entropy", body)
        if status == 200 and (reply or {}).get("entropy") == value:
            dealt = ": the game is dealt" if reply.get("dealt") else ""
            return f"entropy sent ({value}){dealt}"
        detail = (reply or {}).get("detail") if isinstance(reply, dict) else reply
        log.error("game %s seat %s: the entropy was not recorded (%s): %s",
                  game_id, seat, status, detail)  # fmt: skip
        return f"entropy not recorded ({status})"

    def check(self, game_id: str) -> list[str]:
        """Once the game is over: is the entropy each of its seats sent the one its history
        records for that seat, as the client's (the seed's input; ``cardroom replay verify``
        re-derives the seed from it)? What was found, by seat; then nothing is kept (a
        finished game's entropy is public)."""
        mine = {seat: value for (game, seat), value in self.drawn.items() if game == game_id}
        found: list[str] = []
        if mine:
            filled = {e.get("seat"): e for e in self.client.history(game_id, min(mine))
                      if e.get("type") == "lifecycle.SeatFilled"}  # fmt: skip
            for seat, value in sorted(mine.items()):
                event = filled.get(seat, {})
                if event.get("entropy") == value and event.get("source") == "client":
                    found.append(f"seat {seat}: its own entropy is the one recorded")
                    continue
                found.append(f"seat {seat}: the recorded entropy is NOT the one it sent "
                             f"(recorded {event.get('entropy')!r}, source "
                             f"{event.get('source')!r})")  # fmt: skip
                log.error("game %s %s", game_id, found[-1])
        for key in [k for k in self.drawn if k[0] == game_id]:
            del self.drawn[key]
        return found


def fall_back(
    client: Client, game_id: str, seat: int, version: int, reason: str, detail: str
) -> str:
    """Ask the service for the game's default move, recorded as this bot's fallback."""
    log.warning("game %s seat %s: the bot failed (%s: %s); sending the fallback",
                game_id, seat, reason, detail)  # fmt: skip
    sent = {"type": "fallback", "reason": reason, "expected_version": version, "seat": seat}
    key = {"Idempotency-Key": f"httpbot:{game_id}:{seat}:{version}:fallback"}
    status, reply = client.request("POST", f"/games/{game_id}/actions", sent, key)
    if status != 200:
        log.error("game %s seat %s: the fallback was not accepted (%s): %s",
                  game_id, seat, status, (reply or {}).get("detail"))  # fmt: skip
        return f"failed ({reason}); the fallback was not played ({status})"
    return f"fell back ({reason}): the default move was played"


def run(
    spec: str,
    url: str,
    token: str,
    max_games: int = 0,
    *,
    games_at_once: int = 4,
    move_seconds: float = 10.0,
) -> int:
    """Serve the bot until stopped (or until ``max_games`` games have finished)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    client = Client(url, token)
    turns = Turns(load_bot(spec), client, games_at_once, move_seconds)
    try:
        log.info("serving %s at %s: up to %d games at once, %g s a decision",
                 spec, client.url, games_at_once, move_seconds)  # fmt: skip
        return follow(client, turns, max_games)
    except KeyboardInterrupt:  # Ctrl-C: a stop, not a crash
        # not through logging: the interrupt may have landed inside a logging call that
        # holds its handler's lock
        print("cardroom bot run: stopped", file=sys.stderr, flush=True)
        return 0
    finally:
        turns.close()


def follow(client: Client, turns: Turns, max_games: int) -> int:
    """Read the stream, reconnecting with a growing pause, until ``max_games`` finished."""
    finished: set[str] = set()
    entropy = Entropy(client)
    pause = 1.0
    while True:
        try:
            for message in client.events():
                pause = 1.0
                if message.get("type") == "entropyWanted":  # first: the deal waits for it
                    game_id, seat = message["game"], int(message["seat"])
                    log.info("game %s seat %s: %s", game_id, seat, entropy.send(game_id, seat))
                elif message.get("type") == "yourTurn":
                    turns.turn(message["game"], int(message["seat"]), int(message["version"]))
                elif message.get("type") == "gameFinish":
                    for said in entropy.check(message["game"]):
                        log.info("game %s %s", message["game"], said)
                    finished.add(message["game"])
                    log.info("game %s is over", message["game"])
                    if max_games and len(finished) >= max_games:
                        return 0
        except urllib.error.HTTPError as err:
            if err.code in (401, 403):
                log.error("the service refused the bot token (%s): stopping", err.code)
                return 1
            if err.code == 429:  # the account's rate: not a failure, its wait is a floor
                pause = max(pause, retry_after(err.headers))
            log.warning("stream refused (%s); reconnecting in %.0f s", err.code, pause)
        except (urllib.error.URLError, ConnectionError, TimeoutError) as err:
            log.warning("stream interrupted (%s); reconnecting in %.0f s", err, pause)
        time.sleep(pause)
        pause = min(pause * 2, LONGEST_PAUSE)
