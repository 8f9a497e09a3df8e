"""The hook the service layer calls after every successful append (bot turns, replay exports)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable


class Scheduler(Protocol):
    """Told once after every successful append (game creation included), in the same process,
    after the append and before the response. Not called for an idempotent replay, nor when the
    process dies between the append and the call (a sweeper covers that).

    ``seats`` are the public seats (``{"seat", "type", "name"?, "bot"?}``), ``to_act`` the seats
    the game waits on (``awaited_seats``: optional moves such as declaring out of turn are not
    included, so bots are asked only when it is really their move), ``over`` whether the game
    has ended. Bot turns and replay exports are
    enqueued from here. Exceptions are logged and swallowed: the append has already happened.
    """

    def after_append(
        self,
        game_id: str,
        version: int,
        *,
        game: str,
        seats: Sequence[Mapping[str, Any]],
        to_act: Sequence[int],
        over: bool,
    ) -> None: ...


@runtime_checkable
class ReviewQueue(Protocol):
    """A scheduler that also queues post-game reviews (``workers.review``)."""

    def enqueue_review(self, game_id: str, seat: int) -> bool:
        """Queue the review of a finished game for a seat; False when queued already."""
        ...


class NoScheduler:
    """The default scheduler: does nothing."""

    def after_append(
        self,
        game_id: str,
        version: int,
        *,
        game: str,
        seats: Sequence[Mapping[str, Any]],
        to_act: Sequence[int],
        over: bool,
    ) -> None:
        return None
