"""Forks: a new game from a moment of another (``domain.forks`` holds the rules,
docs/analysis.md the API).

The source is read from the store, or, once it was archived (``service.retention``), from its
archived replay file: the same events, so the same origin. A game still being played is forked
only by one of its seats, as itself, with that seat's token: the fork is *sealed*, its seat's
alone until the source ends (``service.sealing``), its seat reserved for that token's holder
and every other seat a bot of the service."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.events import Event
from domain.forks import (
    GameForked,
    basis_at,
    check_forkable,
    check_moment,
    open_fork,
    prehistory,
    seat_fork,
)
from replays.format import loads
from service import digests
from service.access import SeatAccess
from service.archive import Archive
from service.bots import BUILTIN_BOTS
from service.errors import (
    Forbidden,
    GameArchived,
    GameNotOver,
    InvalidField,
    NotFound,
    Unauthorized,
)
from service.folding import Loaded
from service.loading import GameLoader, Rulebook
from service.sealing import Seals
from service.seating import Creating
from service.store.port import EventLog

OPEN = "open"  # the point of view with every card open (``as``)


@dataclass(frozen=True, slots=True)
class Source:
    """The game a fork starts from: its rules, seats, options and decoded events (all of them
    from an archived replay, with the versions of each of its actions; read up to the moment
    forked from the store otherwise)."""

    id: str
    rules: Any
    players: int
    options: dict[str, Any]
    version: int
    over: bool
    archived: tuple[Event, ...] | None  # an archived game's events (None: in the store)
    loaded: Loaded | None = None  # a game in the store, as read
    actions: tuple[range, ...] = ()  # an archived game's batches, as ranges of versions


class Forking:
    """Creating a fork (of a finished game, or a seat's of a game still played) or the rematch
    of a finished game, and what a seat of a fork knew before it."""

    def __init__(
        self,
        rules: Rulebook,
        loader: GameLoader,
        log: EventLog,
        creating: Creating,
        access: SeatAccess,
        seals: Seals,
        archive: Archive | None = None,
    ) -> None:
        self.access = access
        self.seals = seals
        self.rules = rules
        self.loader = loader
        self.log = log
        self.creating = creating
        self.archive = archive

    def fork_game(
        self,
        game_id: str,
        *,
        at: int,
        view_as: int | str,
        seats: Sequence[Mapping[str, Any]],
        idempotency_key: str | None = None,
        creator: str = "",
        token: str | None = None,
    ) -> dict[str, Any]:
        """A new game of the same rules and options that starts at version ``at`` of a
        finished game (in the store or archived), as seat ``view_as`` saw it (its unseen cards
        dealt afresh when the last seat is filled) or ``"open"`` (the exact position); of a
        game still played, as the seat whose ``token`` it is (a sealed fork)."""
        source = self._fork_source(game_id)
        if source.loaded is not None:  # nothing of a sealed fork
            self.seals.check_unsealed(source.loaded.meta.forked, None)
        if len(seats) != source.players:
            raise InvalidField("seats", f"must be {source.players} seats, as the game forked "
                               f"has, got {len(seats)}")  # fmt: skip
        if not source.over:
            self._check_live_fork(source, view_as, seats, token)
        origin = self._origin(source, at, view_as)
        return self.creating.create_game(
            source.rules.name,
            seats,
            options=source.options,
            idempotency_key=idempotency_key,
            creator=creator,
            fork=origin,
        )

    def _check_live_fork(
        self, source: Source, view_as: int | str, seats: Sequence[Mapping[str, Any]],
        token: str | None,
    ) -> None:  # fmt: skip
        """Unless the fork of a game still played is its seat's: as that seat, asked with its
        token (as the store says now), that seat open (for it) and the others the service's
        bots (no person or bot account of the fork's may learn, from its own cards, which
        cards the seat holds)."""
        game_id = source.id
        if not isinstance(view_as, int) or isinstance(view_as, bool):
            raise GameNotOver(f"game {game_id} is not over: every card is open in a "
                              "finished game's fork only; a seat forks a game still played as "
                              "itself")  # fmt: skip
        if token is None:
            raise Unauthorized(f"game {game_id} is still being played: only a seat forks "
                               "it, as itself, with its token (Authorization: Bearer)")  # fmt: skip
        assert source.loaded is not None
        holder = self.access.holder_in(source.loaded, token)
        held = "a bot account's seat" if holder.token_hash is None else f"seat {holder.seat}"
        if holder.token_hash is None or holder.seat != view_as:
            raise Forbidden(f"the token holds {held}, not seat {view_as}: a person's seat forks "
                            "a game still played as itself")  # fmt: skip
        for index, seat in enumerate(seats):
            wanted = "open" if index == view_as else "bot"
            if seat.get("type") != wanted or (wanted == "bot" and seat.get("bot") not in
                                               BUILTIN_BOTS):  # fmt: skip
                raise InvalidField("seats", f"of a fork of a game still played: seat {view_as} "
                                   "open (for its token's holder), every other seat one of the "
                                   f"service's bots ({', '.join(BUILTIN_BOTS)}); seat {index} "
                                   "is not")  # fmt: skip

    def rematch_game(self, game_id: str, token: str, creator: str = "") -> dict[str, Any]:
        """The rematch of a finished game, proposed or accepted by a person seated in it: a
        new game of the same rules and options with the same seats (the same bots; people's
        seats open, each person takes theirs with their own entropy), dealt afresh (no chosen
        seed or deal). Every seat asking gets the same game (``digests.rematch_of``): the first
        creates it, the others find it; the finished game's summary names it (``rematch``)."""
        loaded = self.loader.load(game_id)
        holder = self.access.holder_in(loaded, token)
        if holder.token_hash is None:
            raise Forbidden("a rematch is proposed by a person seated in the game, not by a "
                            "bot account")  # fmt: skip
        if not loaded.over:
            raise GameNotOver(f"game {game_id} is not over: a rematch follows its end")
        seats = [{"type": "bot", "bot": s.bot} if s.type == "bot" else {"type": "open"}
                 for s in loaded.meta.seats]  # fmt: skip
        return self.creating.create_game(
            loaded.meta.game,
            seats,
            options=loaded.meta.options,
            idempotency_key=digests.rematch_key(game_id),
            creator=creator,
        )

    def _fork_source(self, game_id: str) -> Source:
        """The game forked, from the store, else from the archive (GameArchived raised by the
        store's read names a game the archive holds)."""
        try:
            loaded = self.loader.load(game_id)
        except GameArchived:
            archived = None if self.archive is None else self.archive.get(game_id)
            if archived is None:  # purged from the archive since the store's answer
                raise NotFound(f"no game {game_id!r}") from None
            replay = loads(archived.replay)
            rules = self.rules.of(replay.header.game)
            events = tuple(rules.codec.decode(e.event) for e in replay.events)
            state = rules.initial_state()
            for event in events:
                state = rules.evolve(state, event)
            actions = tuple(range(b.events[0].version, b.events[-1].version + 1)
                            for b in replay.batches)  # fmt: skip
            return Source(game_id, rules, replay.header.players, dict(state.created.options),
                          len(events), True, events, actions=actions)  # fmt: skip
        return Source(game_id, loaded.game, loaded.meta.players, dict(loaded.meta.options),
                      loaded.version, loaded.over, None, loaded)  # fmt: skip

    def _moment(self, source: Source, at: int) -> tuple[list[Event], range]:
        """The source's first ``at`` events, decoded, and the versions of the action (one
        command's batch) that holds version ``at`` (empty when the source has fewer)."""
        if source.archived is not None:
            action = next((a for a in source.actions if at in a), range(0))
            return list(source.archived[:at]), action
        stored = self.log.read(source.id, 0, at)
        starts = [(e.version, e.batch) for e in stored if e.batch is not None]
        first, size = starts[-1] if starts else (0, 0)
        decode = source.rules.codec.decode
        return [decode(e.event) for e in stored], range(first, first + size)

    def fork_prehistory(self, loaded: Loaded, seat: int) -> list[dict[str, Any]]:
        """What ``seat`` of a forked game knew before the fork (``domain.forks.prehistory``;
        the source read from the store or its archived replay; nothing for another game, or
        once the source is gone from both)."""
        origin = getattr(loaded.state, "forked", None)
        if origin is None:
            return []
        rules = loaded.game
        events: list[Event] = []
        if origin.seat != seat:
            try:
                events, _ = self._moment(self._fork_source(origin.source), origin.version)
            except NotFound:
                return []
            if len(events) < origin.version:
                return []
        return prehistory(rules, origin, events, seat)

    def _origin(self, source: Source, at: int, view_as: int | str) -> GameForked:
        """The fork's origin event at version ``at`` of the (finished) source."""
        if not 1 <= at <= source.version:
            raise InvalidField("at", f"must be a version from 1 to {source.version}, got {at}")
        rules = source.rules
        events, action = self._moment(source, at)
        state = rules.initial_state()
        for event in events:
            state = rules.evolve(state, event)
        if view_as == OPEN:
            check_forkable(rules, state, None)
            check_moment(at, action)
            return open_fork(source.id, at, state.inner)
        if not isinstance(view_as, int) or not 0 <= view_as < source.players:
            raise InvalidField("as", f'must be "open" or a seat from 0 to '
                               f"{source.players - 1}, got {view_as!r}")  # fmt: skip
        check_forkable(rules, state, view_as)
        check_moment(at, action)
        return seat_fork(source.id, at, view_as, basis_at(rules, state, events, view_as),
                         state.inner, sealed=not source.over)  # fmt: skip
