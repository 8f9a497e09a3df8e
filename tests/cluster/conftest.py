"""A Redis Cluster (three masters) started once per test process and stopped at the end."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.redis_cluster import OwnCluster


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OwnCluster]:
    own = OwnCluster(tmp_path_factory.mktemp("redis-cluster"))
    yield own
    own.stop()
