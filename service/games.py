"""The service layer: every use case of the API (and of the bot workers) as one method call.

No Flask here. ``GameService(store, scheduler)`` is all a caller needs::

    service = GameService(RedisEventStore.from_url(url, namespace), scheduler)
    service.submit_action(game_id, seat, {"type": "play", "cards": ["3H"]}, expected_version=7,
                          idempotency_key="bot:...")

Each use case is a class of its own module, given the store's ports it uses and the other
parts it needs (``service.loading``: the rules and loading a game; ``service.settling``: what
follows an append; ``service.access``: seats, tokens and bot seats): ``Creating`` and
``Joining`` (``service.seating``), ``Forking``, ``Reviewing``, ``Exporting`` (replay files),
``Acting`` (the action path), ``Expiry``, ``Timeouts`` (a clock's), ``Idling``, ``Reading``
and ``ArchivedReads``, ``Operating``, ``PublicLog`` (the commitment log's reads).
``GameService`` is where they are put together (the web app and the workers make one per
process) and what callers name: each of its methods is a use case's own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from domain.protocol import Game
from service.access import BotSeats, SeatAccess
from service.acting import Acting
from service.archive import Archive
from service.archived import ArchivedReads
from service.bots import BotDirectory
from service.cache import StateCache
from service.expiry import Expiry
from service.exporting import Exporting
from service.folding import Loaded
from service.forking import Forking
from service.idle import Idling
from service.loading import GameLoader, Rulebook
from service.operating import Operating
from service.public_log import PublicLog
from service.reading import Reading
from service.receipts import Signer
from service.reviewing import Reviewing
from service.scheduling import NoScheduler, Scheduler
from service.sealing import Seals
from service.seating import Creating, Joining
from service.settling import AfterAppend
from service.store.port import EventStore
from service.timeouts import Timeouts

__all__ = ["GameService", "Loaded", "NoScheduler", "Scheduler"]


class GameService:
    """The use cases of one process, on one store (every port of it). ``games`` adds games
    beside the registry's (tests); ``cache`` is shared per process; ``bots`` None: any bot
    name is accepted (trusted callers, tests); ``check_action``: the action's shape by the
    game's schemas before the game decides it; ``archive``: where finished games go
    (``service.retention``); ``signer``: signs the receipts it gives; ``bot_pace_ms``: the pace
    of bots in the games with people it creates, unless their creator sets one."""

    def __init__(
        self,
        store: EventStore,
        scheduler: Scheduler | None = None,
        *,
        games: Mapping[str, Game[Any]] | None = None,
        cache: StateCache | None = None,
        clock: Callable[[], float] = time.time,
        bots: BotDirectory | None = None,
        check_action: Callable[[str, Any], None] | None = None,
        archive: Archive | None = None,
        bot_pace_ms: int = 0,
        signer: Signer | None = None,
    ) -> None:
        self.store = store  # what it was made from (tests); each use case got its ports
        self.scheduler: Scheduler = scheduler or NoScheduler()
        self.cache = cache or StateCache()
        self.bots = bots
        self.archive = archive
        self.signer = signer
        self._clock = clock
        now = self.now  # every use case's clock: the service's, whatever it is set to
        rules = self.rulebook = Rulebook(games)
        loader = GameLoader(store, store, rules, self.cache, archive)
        after = AfterAppend(self.cache, store, self.scheduler)
        bot_seats = BotSeats(bots, now)
        access = SeatAccess(loader, self.cache, bot_seats)
        seals = Seals(loader)
        creating = Creating(rules, loader, store, store, store, bot_seats, after, now, bot_pace_ms)
        joining = Joining(loader, store, store, store, after, now, access, seals, signer)
        forking = Forking(rules, loader, store, creating, access, seals, archive)
        acting = Acting(rules, loader, store, store, self.cache, after, now, check_action, signer)
        timeouts = Timeouts(loader, store, store, after, now)
        reading = Reading(rules, loader, store, store, store, store, access, bot_seats, now,
                          seals, signer)  # fmt: skip
        archived = ArchivedReads(reading, loader, store, store, seals, archive, signer)
        operating = Operating(loader, store, store, store, store, self.cache, after, bots)

        # games and their rules
        self.rules = rules.of
        self.load = loader.load
        self.catalogue = reading.catalogue
        # creating, joining, forking, reviewing
        self.create_game = creating.create_game
        self.complete_create = creating.complete_create
        self.join_seat = joining.join_seat
        self.post_entropy = joining.post_entropy  # an HTTP bot account's own entropy
        self.fork_game = forking.fork_game
        self.fork_prehistory = forking.fork_prehistory
        self.rematch_game = forking.rematch_game
        reviewing = Reviewing(loader, store, self.scheduler, seals)
        self.review = reviewing.review
        self.keep_review = reviewing.keep  # made by a worker (workers.review)
        exporting = Exporting(loader, store, store, seals)  # a finished game's replay file
        self.export_replay = exporting.export_replay
        self.publishable_replays = exporting.publishable  # what a directory may show now
        self.replay_of = exporting.replay_of
        self.sealed = seals.sealed  # a sealed fork (of a game still played) now
        # seats, tokens and bots
        self.claim = access.claim
        self.holder_in = access.holder_in
        self.seat_for_token = access.seat_for_token
        self.reader_seat = access.reader_seat
        self.stream_ticket = access.stream_ticket
        self.bots_missing = bot_seats.missing
        self.create_bot_account = bot_seats.create_account
        # the action path, and what moves a game nobody moves
        self.submit_action = acting.submit_action
        self.expire_if_due = Expiry(loader, store, after).expire_if_due
        self.enforce_clock = timeouts.enforce_clock
        self.move_on_idle = Idling(loader, store, store, after, now).move_on_idle
        # reads, of live and archived games
        self.view = reading.view
        self.view_for = reading.view_for
        self.wait = reading.wait
        self.wait_any = reading.wait_any
        self.versions = reading.versions
        self.watch = reading.watch
        self.unwatch = reading.unwatch
        self.spectators = reading.spectators
        self.summary = archived.summary
        self.events_after = archived.events_after
        self.events_for = archived.events_for
        self.list_games = archived.list_games
        self.replay_file = archived.replay_file
        public_log = PublicLog(store, signer)  # fair dealing's public record
        self.commitment_log = public_log.page
        self.logged_commitment = public_log.entry
        # the operator's
        self.admin_games = operating.admin_games
        self.stop_game = operating.stop_game
        self.purge_game = operating.purge_game
        self.bot_names = operating.bot_names
        self.add_operator_bot = operating.add_operator_bot
        self.revoke_bot = operating.revoke_bot

    def now(self) -> float:
        """The service's clock (Unix seconds): what stamps clocked games' commands."""
        return self._clock()

    @property
    def wall(self) -> Callable[[], float]:
        """The service's clock as a function (``now``)."""
        return self.now
