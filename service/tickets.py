"""Stream tickets: a short-lived, reusable pass to one seat's private event stream.

A browser ``EventSource`` cannot send ``Authorization``, and the long-lived seat token must not
go in a URL (logs, history, referrers). ``POST /games/{id}/stream-tickets`` (with the token)
returns a ticket; ``GET /games/{id}/stream?ticket=T`` follows that seat's stream until the ticket
expires (EventSource reconnects reuse it).

A ticket is ``<seat>.<expiry unix seconds>.<mac>``, the mac an HMAC-SHA256 of the game, seat and
expiry keyed by the seat's stored token hash: nothing to store, valid on every web process,
and void once the seat's token changes. It grants reading, never acting.
"""

from __future__ import annotations

import hashlib
import hmac
import re

from service.errors import Unauthorized
from service.store.port import GameMeta

TICKET = re.compile(r"^(\d{1,3})\.(\d{1,12})\.([0-9a-f]{64})$")


def issue(meta: GameMeta, seat: int, now: float, seconds: int) -> str:
    """A ticket to ``seat``'s stream of this game, valid ``seconds`` from ``now``."""
    expires = int(now) + seconds
    return f"{seat}.{expires}.{_mac(meta, seat, expires)}"


def check(meta: GameMeta, ticket: str, now: float) -> int:
    """The seat the ticket is for; Unauthorized if it is malformed, forged or expired."""
    match = TICKET.match(ticket)
    if match is None:
        raise Unauthorized("unknown stream ticket")
    seat, expires = int(match.group(1)), int(match.group(2))
    if not 0 <= seat < len(meta.seats) or meta.seats[seat].token_hash is None:
        raise Unauthorized("unknown stream ticket")
    if not hmac.compare_digest(match.group(3), _mac(meta, seat, expires)):
        raise Unauthorized("unknown stream ticket")
    if expires <= now:
        raise Unauthorized("the stream ticket has expired; ask for a new one")
    return seat


def _mac(meta: GameMeta, seat: int, expires: int) -> str:
    key = meta.seats[seat].token_hash
    assert key is not None
    message = f"cardroom stream ticket|{meta.id}|{seat}|{expires}".encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()
