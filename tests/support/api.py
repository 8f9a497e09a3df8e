"""Driving the HTTP API from tests: a table of joined seats, and the card-leak detector."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from service.app import create_app
from service.store import InMemoryEventStore
from tests.support.fakegame import GAMES

CARD = re.compile(r"^(?:[2-9TJQKA][CDHS]|RJ|BJ)$")
CARD_IN_WORDS = re.compile(r"(?<![A-Za-z0-9_])(?:[2-9TJQKA][CDHS]|RJ|BJ)(?![A-Za-z0-9_])")
_keys = itertools.count()


def make_app(
    store: Any = None,
    *,
    redis: bool = False,
    archive: Any = None,
    scheduler: Any = None,
    **config: Any,
) -> Flask:
    """The app with the fake game beside the real ones: on ``store``, else on a new in-memory
    store, or (``redis=True``) on the Redis store the config names; ``scheduler``: the app's
    (None: the config's)."""
    settings = {"TESTING": True, "CARDROOM_SSE_SECONDS": 0.5, "CARDROOM_SSE_HEARTBEAT": 0.1,
                # rate limits are tested on their own (tests/unit/service/test_limits.py)
                "CARDROOM_RATE_LIMITS": 0, "RATELIMIT_STORAGE_URI": "memory://"}  # fmt: skip
    settings.update(config)
    if store is None and not redis:
        store = InMemoryEventStore()
    return create_app(settings, store=store, scheduler=scheduler, games=GAMES, archive=archive)


def cards_in(data: Any) -> set[str]:
    """Every card code anywhere in JSON data, also inside words (``last_action``'s text)."""
    if isinstance(data, str):
        if CARD.match(data):
            return {data}
        return set(CARD_IN_WORDS.findall(data)) if " " in data else set()
    if isinstance(data, Mapping):
        return set().union(*(cards_in(v) for v in data.values())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*(cards_in(v) for v in data)) if data else set()
    return set()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def send_entropy(client: FlaskClient, token: str, game_id: str) -> dict[int, str]:
    """What ``cardroom bot run`` does first: the bot account's own entropy for each of its
    seats the game awaits it for (the deal waits for them); the values sent, by seat."""
    sent = {}
    for seat in client.get(f"/games/{game_id}").json["awaiting_entropy"]:
        value = random.Random(f"{game_id}:{seat}").randbytes(32).hex()
        answer = client.post(f"/games/{game_id}/seats/{seat}/entropy",
                             json={"entropy": value}, headers=bearer(token))  # fmt: skip
        if answer.status_code == 401:
            continue  # another account's seat
        assert answer.status_code == 200, answer.json
        sent[seat] = value
    return sent


class Table:
    """A game created through the API with every seat open, then joined by one player each."""

    def __init__(
        self,
        client: FlaskClient,
        game: str = "fake",
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        seed: str = "table-seed",
        **extra: Any,
    ) -> None:
        self.client = client
        body = {"game": game, "seats": [{"type": "open"}] * players, "seed": seed,
                "options": dict(options or {}), **extra}
        created = client.post("/games", json=body)
        assert created.status_code == 201, created.json
        self.created = created.json
        self.id = created.json["id"]
        self.tokens = [self.join(s, f"player{s}").json["token"] for s in range(players)]

    def join(self, seat: int, name: str) -> Any:
        return self.client.post(f"/games/{self.id}/seats/{seat}", json={"name": name})

    def headers(self, seat: int | None) -> dict[str, str]:
        return {} if seat is None else bearer(self.tokens[seat])

    def summary(self) -> dict[str, Any]:
        return dict(self.client.get(f"/games/{self.id}").json)

    def view(self, seat: int | None) -> dict[str, Any]:
        response = self.client.get(f"/games/{self.id}/view", headers=self.headers(seat))
        assert response.status_code == 200, response.json
        return dict(response.json)

    def events(self, seat: int | None, after: int = 0) -> dict[str, Any]:
        """Every event after ``after``, following the pages (``next_after``)."""
        out: dict[str, Any] | None = None
        cursor: int | None = after
        while cursor is not None:
            response = self.client.get(
                f"/games/{self.id}/events?after={cursor}", headers=self.headers(seat)
            )
            assert response.status_code == 200, response.json
            page = dict(response.json)
            if out is None:
                out = page
            else:
                out["events"] += page["events"]
            cursor = page["next_after"]
        assert out is not None
        out["next_after"] = None  # one response holding every page
        return out

    def all_events(self, seat: int | None) -> dict[str, Any]:
        """Every page of the events (following ``next_after``) as one response."""
        log = self.events(seat)
        page = log
        while page.get("next_after") is not None:
            page = self.events(seat, after=page["next_after"])
            log["events"] = [*log["events"], *page["events"]]
        log["next_after"] = None
        return log

    def act(
        self, seat: int, action: Mapping[str, Any], version: int | None = None,
        key: str | None = None, **headers: str,
    ) -> Any:
        body = dict(action)
        if version is not None:
            body["expected_version"] = version
        sent = {**self.headers(seat), **headers}
        if key is not None:
            sent["Idempotency-Key"] = key
        return self.client.post(f"/games/{self.id}/actions", json=body, headers=sent)

    def random_move(
        self, rnd: random.Random, prefer: tuple[str, ...] = (), avoid: tuple[str, ...] = ()
    ) -> tuple[int, dict[str, Any], int] | None:
        """A random legal (seat, action, version) read from the seats' own views; an action
        of a type in ``prefer`` is taken whenever one is legal, one in ``avoid`` only when
        nothing else is."""
        choices = []
        version = 0
        for seat in range(len(self.tokens)):
            view = self.view(seat)
            version = view["version"]
            choices += [(seat, a) for a in view["view"]["legal_actions"]]
        if not choices:
            return None
        preferred = [(s, a) for s, a in choices if a.get("type") in prefer]
        allowed = [(s, a) for s, a in choices if a.get("type") not in avoid]
        seat, action = rnd.choice(preferred or allowed or choices)
        return seat, action, version


def new_key() -> str:
    return f"key-{next(_keys)}-{random.random()}"
