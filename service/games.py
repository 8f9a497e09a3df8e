"""The service layer: every use case of the API (and of the bot workers) as one method call.

No Flask here. ``GameService(store, scheduler)`` is all a caller needs::

    service = GameService(RedisEventStore.from_url(url, namespace), scheduler)
    service.submit_action(game_id, seat, {"type": "play", "cards": ["3H"]}, expected_version=7,
                          idempotency_key="bot:...")

The use cases live in mixins by concern: ``service.seating`` (create, join),
``service.forking`` (forks of finished games), ``service.reviewing`` (post-game reviews),
``service.access`` (tokens, tickets, bot accounts), ``service.acting`` (actions, expiry, a
clock's timeout), ``service.idle`` (moving on an idle game) and ``service.reading`` (views,
events, summaries), on ``service.base`` (construction, loading).
"""

from __future__ import annotations

from service.acting import Acting
from service.archived import ArchivedReads
from service.folding import Loaded
from service.idle import Idling
from service.operating import Operating
from service.reviewing import Reviewing
from service.scheduling import NoScheduler, Scheduler

__all__ = ["GameService", "Loaded", "NoScheduler", "Scheduler"]


class GameService(Reviewing, Acting, Idling, ArchivedReads, Operating):
    """The use cases. ``games`` replaces the registry (tests); ``cache`` is shared per process."""
