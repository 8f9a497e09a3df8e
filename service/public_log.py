"""The public commitment log as ``GET /fairness/log`` serves it: a page of its entries with
the last one's head signed, and one game's entry (docs/fairness.md, "The commitment log")."""

from __future__ import annotations

from typing import Any

from service.errors import NotFound
from service.receipts import Signer
from service.store.port import CommitmentLog


class PublicLog:
    """Reads of the store's commitment log, the head signed by the server's key (if any)."""

    def __init__(self, log: CommitmentLog, signer: Signer | None) -> None:
        self.log = log
        self.signer = signer

    def page(self, after: int, limit: int) -> dict[str, Any]:
        """The entries after index ``after`` (at most ``limit``) and the last one's head,
        signed (None: no entry)."""
        entries = self.log.commitment_log(after, limit)
        if not entries:
            return {"entries": [], "head": None}
        last, signer = entries[-1], self.signer
        signed = signer.sign_log_head(last["index"], last["hash"]) if signer else None
        return {"entries": entries,
                "head": {"index": last["index"], "hash": last["hash"], "signature": signed}}

    def entry(self, game_id: str) -> dict[str, Any]:
        """A game's entry in the log; NotFound when it is not logged."""
        found = self.log.logged(game_id)
        if found is None:
            raise NotFound(f"game {game_id} is not in the commitment log")
        return found
