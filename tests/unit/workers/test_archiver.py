"""One worker of a deployment archives at a time: the lease is taken when free, renewed by its
holder, and passes to another worker once its holder stops renewing it."""

from __future__ import annotations

import time

import fakeredis

from workers.archiver import elected


def test_one_worker_holds_the_archive_lease_until_it_lapses() -> None:
    connection = fakeredis.FakeRedis()
    assert elected(connection, "w1", 0.2) is True
    assert elected(connection, "w2", 0.2) is False
    assert elected(connection, "w1", 0.2) is True  # renewed
    time.sleep(0.3)  # w1 stopped renewing
    assert elected(connection, "w2", 0.2) is True
    assert elected(connection, "w1", 0.2) is False
