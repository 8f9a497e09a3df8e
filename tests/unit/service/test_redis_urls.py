"""Which Redis is which: the store's URL (one server or a cluster) and RQ's (a plain Redis)."""

from __future__ import annotations

import pytest

from service.cli import main
from service.store.connect import NotPlainRedis, cluster_nodes, is_cluster_url
from workers import config


def test_a_cluster_url_lists_its_startup_nodes() -> None:
    url = "redis+cluster://user:pw@10.0.0.1:7000,10.0.0.2:7001,[::1]:7002/?x=1"
    assert is_cluster_url(url) and is_cluster_url("rediss+cluster://h:1")
    assert not is_cluster_url("redis://127.0.0.1:6379/0") and not is_cluster_url("unix:///s")
    assert cluster_nodes(url) == [("10.0.0.1", 7000), ("10.0.0.2", 7001), ("::1", 7002)]
    assert cluster_nodes("redis+cluster://h") == [("h", 6379)]


def test_rq_defaults_to_the_stores_redis_and_takes_rq_redis_url_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("RQ_REDIS_URL", raising=False)
    monkeypatch.setenv("REDIS_URL", "redis://store:6379/0")
    assert config.rq_redis_url() == "redis://store:6379/0"
    monkeypatch.setenv("RQ_REDIS_URL", "redis://queues:6379/1")
    assert config.rq_redis_url() == "redis://queues:6379/1"
    assert config.rq_redis_url("redis://given:1/0") == "redis://given:1/0"


def test_rq_refuses_a_cluster(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RQ_REDIS_URL", raising=False)
    monkeypatch.setenv("REDIS_URL", "redis+cluster://a:7000,b:7001")
    with pytest.raises(NotPlainRedis, match="RQ_REDIS_URL"):
        config.rq_redis_url()
    monkeypatch.setenv("RQ_REDIS_URL", "redis+cluster://a:7000")
    with pytest.raises(NotPlainRedis, match="RQ does not run on a Redis Cluster"):
        config.rq_redis_url()


@pytest.mark.parametrize("command", [["worker", "--burst"], ["serve", "--port", "1"]])
def test_serve_and_worker_on_a_cluster_store_need_rq_redis_url(
    command: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("RQ_REDIS_URL", raising=False)
    monkeypatch.setenv("REDIS_URL", "redis+cluster://127.0.0.1:1")
    monkeypatch.setattr("service.serve.port_in_use", lambda host, port: False)
    assert main(command) == 2
    assert "set RQ_REDIS_URL to a plain redis:// URL" in capsys.readouterr().err
