"""The ``Quotas`` port's contract: a request counted once against its windows, by its append
or by ``count``."""

from __future__ import annotations

import time
from typing import Any

import pytest

from service.store import (
    IdempotencyRecord,
    Quota,
    QuotaExceeded,
)
from tests.support.store_contract.base import (
    StoreCase,
    action,
    events,
)


class QuotasContract(StoreCase):
    """Given any adapter, the ``Quotas`` port keeps its promises."""

    def test_an_append_counts_its_quota_and_past_it_stores_nothing(self, store: Any) -> None:
        meta = self.created(store)
        once = ((1, 60_000),)
        first, head = Quota("seat:a", once), self.head(store, meta.id)
        store.append(meta.id, 2, events("CardPlayed"), action(), prev_hash=head, quota=first)
        assert first.counted
        head = self.head(store, meta.id)
        with pytest.raises(QuotaExceeded) as err:
            store.append(meta.id, 3, events("CardPlayed"), action("TH"), prev_hash=head,
                         idempotency=IdempotencyRecord("k", "f", 4), snapshot=b"never",
                         quota=Quota("seat:a", once))  # fmt: skip
        assert err.value.window == 0 and 0 < err.value.retry_after_ms <= 60_000
        assert store.version(meta.id) == 3 and store.snapshot(meta.id) is None
        # nothing of the refused append was kept: its idempotency key is free
        store.append(meta.id, 3, events("CardPlayed"), action("TH"), prev_hash=head,
                     idempotency=IdempotencyRecord("k", "f", 4),
                     quota=Quota("seat:b", once))  # fmt: skip
        assert store.version(meta.id) == 4  # another seat has a budget of its own

    def test_a_request_is_counted_once_by_whichever_counts_it_first(self, store: Any) -> None:
        meta, other = self.created(store), self.created(store)
        twice = ((2, 60_000),)
        quota = Quota("seat:a", twice)
        store.count(meta.id, quota)
        store.count(meta.id, quota)
        head = self.head(store, meta.id)
        store.append(meta.id, 2, events("CardPlayed"), action(), prev_hash=head, quota=quota)
        store.count(meta.id, Quota("seat:a", twice))  # the second request
        with pytest.raises(QuotaExceeded):
            store.count(meta.id, Quota("seat:a", twice))
        store.count(other.id, Quota("seat:a", twice))  # each game counts apart

    def test_a_quota_window_starts_again_once_it_ends(self, store: Any) -> None:
        meta = self.created(store)
        windows = ((5, 60_000), (1, 100))
        store.count(meta.id, Quota("seat:a", windows))
        with pytest.raises(QuotaExceeded) as err:
            store.count(meta.id, Quota("seat:a", windows))
        assert err.value.window == 1 and err.value.retry_after_ms <= 100
        time.sleep(0.15)
        store.count(meta.id, Quota("seat:a", windows))  # the short window began again
        with pytest.raises(QuotaExceeded):
            store.count(meta.id, Quota("seat:a", windows))
