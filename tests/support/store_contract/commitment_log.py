"""The ``CommitmentLog`` port's contract: the public hash-chained log of the games' commitments."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from service.store.commitment_log import link as commitment_link
from tests.support.store_contract.base import (
    START,
    StoreCase,
    events,
    make_meta,
)


class CommitmentLogContract(StoreCase):
    """Given any adapter, the ``CommitmentLog`` port keeps its promises."""

    def test_the_commitment_log_chains_one_entry_per_game(self, store: Any) -> None:
        first = store.log_commitment("log-a", "a" * 64)
        assert store.log_commitment("log-b", "b" * 64) == first + 1
        assert store.log_commitment("log-a", "f" * 64) == first  # once per game: kept as it was
        entries = store.commitment_log(first - 1, 10)
        assert [(e["index"], e["game"], e["commitment"]) for e in entries] == [
            (first, "log-a", "a" * 64), (first + 1, "log-b", "b" * 64)]
        assert entries[1]["prev"] == entries[0]["hash"]
        assert entries[1]["hash"] == commitment_link(entries[0]["hash"], "log-b", "b" * 64)
        assert store.commitment_log(first + 1, 10) == []
        assert store.logged("log-b") == entries[1] and store.logged("log-c") is None

    def test_a_game_with_a_secret_is_logged_when_it_is_created(self, store: Any) -> None:
        meta = replace(make_meta(), secret="5" * 64)
        store.create(meta, events("GameStarted"), START)
        logged = [e for e in store.commitment_log(0, 1000) if e["game"] == meta.id]
        assert [e["commitment"] for e in logged] == [meta.commitment]
