"""A hostile HTTP bot, for the tests and the benchmark of bots' isolation (issue 28 §5): an
account seated in games beside heuristic bots, played (``loop``, ``instant``) or not
(``silent``) by client threads until stopped.

- ``loop``: answers every turn at once with the first of its legal actions, a Shithead swap
  whenever it may (so it never readies: each such game runs to its action limit), and replaces
  every game that ends;
- ``instant``: answers every turn at once with a move that takes the game on (no swap while
  anything else is legal), and replaces every game that ends;
- ``silent``: never answers (its games wait on it).

It is hostile to the service too: a refusal (a 429 past the bot account's rate) is not waited
out, its next request follows at once; ``refused`` counts them.

Whatever its mode, it sends its seat's own entropy as soon as it has made a game (the deal
waits for it, docs/bots.md), as every client does.
"""

from __future__ import annotations

import secrets
import threading
from typing import Any

import requests

HOSTILE = "hostile"
HEURISTIC = {"type": "bot", "bot": "heuristic"}
HOSTILE_GAMES = (("shithead", 4), ("sixty_six", 2))
# what ``instant`` leaves to the end: moves that keep a game where it is (docs/bots.md)
STALLING = ("swap", "stack", "declare_out")


class Hostile:
    """The hostile HTTP bot: an account seated in games beside heuristic bots, played (or not)
    by client threads until ``stop``."""

    def __init__(
        self, base: str, mode: str, games: int, stop: threading.Event, threads: int = 4
    ) -> None:
        self.base, self.mode, self.stop = base, mode, stop
        self.token = requests.post(f"{base}/bots", json={"name": HOSTILE}).json()["token"]
        self.actions = 0  # accepted
        self.served = 0  # its requests answered other than 429 (the stream's aside)
        self.refused = 0  # 429s, of its reads, actions and creates
        self.retry_after: set[str] = set()  # the Retry-After values they carried
        self._lock = threading.Lock()
        per = max(1, games // threads)
        self.threads = [threading.Thread(target=self._play, args=(i, per), daemon=True)
                        for i in range(threads)]  # fmt: skip
        # its event stream open, as a bot's client keeps it: the service counts the bot live
        self.threads.append(threading.Thread(target=self._listen, daemon=True))
        for thread in self.threads:
            thread.start()

    def join(self) -> None:
        for thread in self.threads:
            thread.join(30)

    def _play(self, index: int, games: int) -> None:
        http = requests.Session()
        http.headers["Authorization"] = f"Bearer {self.token}"
        mine = [self._create(http, index + i) for i in range(games)]
        while not self.stop.is_set():
            if self.mode == "silent":
                self.stop.wait(0.5)
                continue
            for position, game_id in enumerate(mine):
                try:
                    if not self._answer(http, game_id):
                        mine[position] = self._create(http, index + position)
                except requests.RequestException:
                    if self.stop.is_set():
                        return  # the service went away at the end
                    raise

    def _listen(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        while not self.stop.is_set():
            try:
                with requests.get(f"{self.base}/bots/stream", headers=headers, stream=True,
                                  timeout=30) as stream:  # fmt: skip
                    for _ in stream.iter_lines():
                        if self.stop.is_set():
                            return
            except requests.RequestException:
                self.stop.wait(0.5)

    def _create(self, http: requests.Session, turn: int) -> str:
        name, seats = HOSTILE_GAMES[turn % len(HOSTILE_GAMES)]
        seated = [{"type": "bot", "bot": HOSTILE}] + [HEURISTIC] * (seats - 1)
        created = http.post(f"{self.base}/games", json={"game": name, "seats": seated})
        while self._refused(created) and not self.stop.is_set():  # its token rides along
            created = http.post(f"{self.base}/games", json={"game": name, "seats": seated})
        if created.status_code == 429:
            return ""  # stopped meanwhile
        if created.status_code != 201:
            raise RuntimeError(f"the hostile bot's game was refused: {created.status_code} "
                               f"{created.text[:300]}")  # fmt: skip
        game_id = str(created.json()["id"])
        url = f"{self.base}/games/{game_id}/seats/0/entropy"
        entropy = {"entropy": secrets.token_hex(32)}
        sent = http.post(url, json=entropy)
        while self._refused(sent) and not self.stop.is_set():  # the same value again
            sent = http.post(url, json=entropy)
        if sent.status_code == 429:
            return game_id  # stopped meanwhile
        if sent.status_code != 200:
            raise RuntimeError(f"the hostile bot's entropy was refused: {sent.status_code} "
                               f"{sent.text[:300]}")  # fmt: skip
        return game_id

    def _answer(self, http: requests.Session, game_id: str) -> bool:
        """Play the game's turn at once if it waits on the bot; False once it is over."""
        read = http.get(f"{self.base}/games/{game_id}/view", params={"seat": 0})
        if self._refused(read):
            return True
        view = read.json()
        inner: dict[str, Any] = view.get("view", {})
        if inner.get("outcome") is not None:
            return False
        legal = inner.get("legal_actions") or []
        if not legal:
            return True
        if self.mode == "loop":
            chosen = [a for a in legal if a["type"] == "swap"]
        else:
            chosen = [a for a in legal if a["type"] not in STALLING]
        action = (chosen or legal)[0]
        body = {**action, "seat": 0, "expected_version": view["version"]}
        answer = http.post(f"{self.base}/games/{game_id}/actions", json=body)
        if answer.status_code == 200:
            with self._lock:
                self.actions += 1
        self._refused(answer)
        return True

    def _refused(self, answer: requests.Response) -> bool:
        """Tally an answer: True for a 429."""
        with self._lock:
            if answer.status_code != 429:
                self.served += 1
                return False
            self.refused += 1
            self.retry_after.add(answer.headers.get("Retry-After", ""))
        return True
