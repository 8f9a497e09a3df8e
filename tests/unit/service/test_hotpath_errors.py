"""An error the action hot path meets is answered there, byte for byte as Flask answers it:
the one renderer (``problems.render``), the security headers, the request metric by status; and
nothing is stored (docs/decisions.md, "The action endpoint's errors are rendered in one place")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import redis
from prometheus_client import REGISTRY

from service import app as app_module
from service.api import hotpath, problems
from service.archive import MemoryArchive
from service.store import InMemoryEventStore
from service.store.port import ChainBroken
from tests.support.api import Table, bearer, make_app

DEAL = {"seats": [{"hand": ["AS", "9H"]}, {"hand": ["KD", "TC"]}]}
DEALT = 5
PLAY = {"type": "play", "card": "AS", "expected_version": DEALT}
ARCHIVED = "archived0000"


class FailingStore(InMemoryEventStore):
    """An in-memory store whose appends raise ``fail`` while it is set."""

    def __init__(self) -> None:
        super().__init__()
        self.fail: Exception | None = None

    def append(self, *args: Any, **kwargs: Any) -> Any:
        if self.fail is not None:
            raise self.fail
        return super().append(*args, **kwargs)


class OneArchived(MemoryArchive):
    """An archive holding one game, ``ARCHIVED`` (its summary is all the API asks of it)."""

    def summary(self, game_id: str) -> dict[str, Any] | None:
        return {"id": game_id} if game_id == ARCHIVED else super().summary(game_id)


class TwoPaths:
    """One store, one archive, two apps: ``hot`` (the hot path in front) and ``flask`` (the
    documented view serving every request), and a dealt table of the fake game on them."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.store, self.archive = FailingStore(), OneArchived()
        hot = make_app(self.store, archive=self.archive)
        with monkeypatch.context() as patch:
            patch.setattr(app_module, "install_hot_path", lambda app: None)
            flask = make_app(self.store, archive=self.archive)
        self.hot, self.flask = hot.test_client(), flask.test_client()
        self.front = hot.wsgi_app.app  # behind the bot accounts' limit (limits.BotRequests)
        assert isinstance(self.front, hotpath.ActionHotPath)
        self.table = Table(self.hot, deal=DEAL, dealer=1)
        self.path = f"/games/{self.table.id}/actions"

    def version(self) -> int:
        return self.store.version(self.table.id)

    def finish(self) -> None:
        for seat, card in ((0, "AS"), (1, "KD"), (0, "9H"), (1, "TC")):
            played = self.table.act(seat, {"type": "play", "card": card}, self.version())
            assert played.status_code == 200


def answer_of(response: Any) -> tuple[str, list[tuple[str, str]], bytes]:
    """What a client receives: the status line, the headers in order, the body."""
    return response.status, list(response.headers), response.get_data()


def timed(status: int) -> float:
    labels = {"method": "POST", "route": hotpath.ROUTE, "status": str(status)}
    return REGISTRY.get_sample_value("cardroom_http_request_seconds_count", labels) or 0.0


def not_flask(environ: Any, start_response: Any) -> Any:
    raise AssertionError("the hot path handed the request on to Flask")


Request = tuple[str, Any, dict[str, str]]  # path, body, headers
CASES: dict[str, tuple[int, str, Callable[[TwoPaths], Request]]] = {
    "unknown token": (401, "unauthorized",
                      lambda t: (t.path, PLAY, bearer("no-such-token"))),
    "another seat": (403, "forbidden",
                     lambda t: (t.path, {**PLAY, "seat": 1}, t.table.headers(0))),
    "unknown game": (404, "not_found",
                     lambda t: ("/games/nosuchgame00/actions", PLAY, t.table.headers(0))),
    "stale version": (409, "version_conflict",
                      lambda t: (t.path, {**PLAY, "expected_version": DEALT - 1},
                                 t.table.headers(0))),
    "not your turn": (409, "not_your_turn",
                      lambda t: (t.path, {**PLAY, "card": "KD"}, t.table.headers(1))),
    "game over": (409, "game_over",
                  lambda t: (t.finish(), (t.path, {**PLAY, "expected_version": t.version()},
                                          t.table.headers(0)))[1]),
    "archived": (410, "game_archived",
                 lambda t: (f"/games/{ARCHIVED}/actions", PLAY, t.table.headers(0))),
    "not in hand": (422, "illegal_action",
                    lambda t: (t.path, {**PLAY, "card": "KD"}, t.table.headers(0))),
    "wrong shape": (422, "invalid_action",
                    lambda t: (t.path, {**PLAY, "also": 1}, t.table.headers(0))),
    "reused key": (422, "idempotency_key_reused",
                   lambda t: (t.table.act(0, {"type": "play", "card": "AS"}, DEALT, key="k"),
                              (t.path, {**PLAY, "card": "9H"},
                               {**t.table.headers(0), "Idempotency-Key": "k"}))[1]),
    "store down": (503, "store_unavailable",
                   lambda t: (setattr(t.store, "fail", redis.ConnectionError("refused")),
                              (t.path, PLAY, t.table.headers(0)))[1]),
    "broken chain": (500, "integrity_error",
                     lambda t: (setattr(t.store, "fail", ChainBroken("link 3")),
                                (t.path, PLAY, t.table.headers(0)))[1]),
    "a bug": (500, "internal_error",
              lambda t: (setattr(t.store, "fail", RuntimeError("boom")),
                         (t.path, PLAY, t.table.headers(0)))[1]),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_the_hot_path_answers_an_error_byte_for_byte_as_flask_does(
    monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    status, code, request = CASES[case]
    paths = TwoPaths(monkeypatch)
    path, body, headers = request(paths)
    version = paths.version()
    answers = []
    for client, served_before_flask in ((paths.hot, True), (paths.flask, False)):
        before = timed(status)
        with monkeypatch.context() as patch:
            if served_before_flask:
                patch.setattr(paths.front, "flask", not_flask)
            answers.append(answer_of(client.post(path, json=body, headers=headers)))
        assert timed(status) == before + 1  # the request metric, labelled by its status
    hot, flask = answers
    assert hot == flask
    assert hot[0].startswith(f"{status} ") and f'"code": "{code}"'.encode() in hot[2]
    assert paths.version() == version  # nothing stored


def test_a_429_is_answered_in_front_as_flask_s_handler_answers_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A plain action past the limit, and a request handed on to Flask past it (If-Match), are
    refused by the hot path; Flask's handler makes the same answer of the same refusal."""
    store = InMemoryEventStore()
    app = make_app(store, CARDROOM_RATE_LIMITS=1, CARDROOM_LIMIT_ACTIONS="1 per minute")
    table = Table(app.test_client(), deal=DEAL, dealer=1)
    assert table.act(0, {"type": "play", "card": "AS"}, DEALT).status_code == 200
    rendered: list[Exception] = []
    render = problems.render
    monkeypatch.setattr(problems, "render", lambda error: rendered.append(error) or render(error))
    monkeypatch.setattr(app.wsgi_app.app, "flask", not_flask)
    for headers in ({}, {"If-Match": f'"{DEALT + 1}"'}):
        before = timed(429)
        refused = table.act(0, {"type": "play", "card": "9H"}, DEALT + 1, **headers)
        assert timed(429) == before + 1
        with app.test_request_context(f"/games/{table.id}/actions", method="POST"):
            by_flask = app.finalize_request(app.handle_user_exception(rendered.pop()))
        assert answer_of(refused) == answer_of(by_flask)
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "60"
    assert store.version(table.id) == DEALT + 1
