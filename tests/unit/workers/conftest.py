"""In-process workers on fakeredis: the service, the RQ scheduler and a burst SimpleWorker."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import fakeredis
import pytest
from rq import Queue, SimpleWorker

from service.games import GameService
from service.store.redis import RedisEventStore
from workers import config, process
from workers.scheduler import RQScheduler
from workers.sweeper import Sweeper

NAMESPACE = "unit"


class Stack:
    """A fakeredis server shared by the store (decoding) and RQ (raw bytes) clients."""

    def __init__(self) -> None:
        server = fakeredis.FakeServer()
        self.client = fakeredis.FakeRedis(server=server, decode_responses=True)
        self.rq = fakeredis.FakeRedis(server=server)
        self.scheduler = RQScheduler(self.rq, NAMESPACE)
        self.store = RedisEventStore(self.client, NAMESPACE)
        self.service = GameService(self.store, self.scheduler)

    def rebuild_service(self, **options: Any) -> GameService:
        """The service made again with these options (``GameService``'s), serving the jobs."""
        self.service = GameService(self.store, self.scheduler, **options)
        process.use_service(self.service)
        return self.service

    def sweeper(self, **options: Any) -> Sweeper:
        """A sweeper of this service and scheduler on the store's ports (``Sweeper``'s options)."""
        store = self.store
        return Sweeper(self.service, self.scheduler, creations=store, listing=store, log=store,
                       seats=store, clocks=store, **options)  # fmt: skip

    def queue(self, base: str) -> Queue:
        return Queue(config.queue_name(base, NAMESPACE), connection=self.rq)

    def work(self, *bases: str) -> None:
        """Run every queued job (and those they enqueue) in this process."""
        queues = [self.queue(b) for b in bases or (config.BOTS, config.REPLAYS)]
        SimpleWorker(queues, connection=self.rq).work(burst=True, logging_level="WARNING")


@pytest.fixture
def stack(monkeypatch: pytest.MonkeyPatch) -> Iterator[Stack]:
    monkeypatch.setenv("CARDROOM_NAMESPACE", NAMESPACE)
    monkeypatch.delenv("CARDROOM_REPLAY_DIR", raising=False)
    monkeypatch.setenv("CARDROOM_CHAIN_SECONDS", "0")  # one turn per job unless a test chains
    built = Stack()
    process.use_service(built.service)
    yield built
    process.use_service(None)
