"""This worker process's service layer: one per process (it holds the fold cache), made from
the environment (``workers.config``) on first use. The jobs (``workers.jobs``,
``workers.clocks``) run against it; tests and benchmarks hand it another."""

from __future__ import annotations

from service.games import GameService
from service.store.redis import RedisEventStore
from workers import config
from workers.scheduler import RQScheduler

_service: GameService | None = None


def service() -> GameService:
    """This process's service layer, made on first use."""
    global _service
    if _service is None:
        url, namespace = config.redis_url(), config.namespace()
        _service = GameService(
            RedisEventStore.from_url(url, namespace, config.idempotency_ttl()),
            RQScheduler.from_url(config.rq_redis_url(), namespace, store_url=url),
        )
    return _service


def use_service(svc: GameService | None) -> None:
    """Run the jobs of this process against another service (tests); None resets."""
    global _service
    _service = svc
