"""Forks: a new game from a moment of a finished one (``domain.forks`` holds the rules,
docs/analysis.md the API).

The source is read from the store, or, once it was archived (``service.retention``), from its
archived replay file: the same events, so the same origin."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.events import Event
from domain.forks import GameForked, basis_at, check_forkable, open_fork, prehistory, seat_fork
from replays.format import loads
from service.archive import Archive
from service.errors import GameArchived, GameNotOver, InvalidField, NotFound
from service.folding import Loaded
from service.loading import GameLoader, Rulebook
from service.seating import Creating
from service.store.port import EventLog

OPEN = "open"  # the point of view with every card open (``as``)


@dataclass(frozen=True, slots=True)
class Source:
    """The game a fork starts from: its rules, seats, options and decoded events (all of them
    from an archived replay; read up to the moment forked from the store otherwise)."""

    id: str
    rules: Any
    players: int
    options: dict[str, Any]
    version: int
    over: bool
    archived: tuple[Event, ...] | None  # an archived game's events (None: in the store)


class Forking:
    """Creating a fork of a finished game, and what a seat of a fork knew before it."""

    def __init__(
        self,
        rules: Rulebook,
        loader: GameLoader,
        log: EventLog,
        creating: Creating,
        archive: Archive | None = None,
    ) -> None:
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
    ) -> dict[str, Any]:
        """A new game of the same rules and options that starts at version ``at`` of a
        finished game (in the store or archived), as seat ``view_as`` saw it (its unseen cards
        dealt afresh when the last seat is filled) or ``"open"`` (the exact position)."""
        source = self._fork_source(game_id)
        if not source.over:
            raise GameNotOver(f"game {game_id} is not over: only a finished game is forked "
                              "(its history is public by then)")  # fmt: skip
        if len(seats) != source.players:
            raise InvalidField("seats", f"must be {source.players} seats, as the game forked "
                               f"has, got {len(seats)}")  # fmt: skip
        origin = self._origin(source, at, view_as)
        return self.creating.create_game(
            source.rules.name,
            seats,
            options=source.options,
            idempotency_key=idempotency_key,
            creator=creator,
            fork=origin,
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
            return Source(game_id, rules, replay.header.players,
                          dict(state.created.options), len(events), True, events)  # fmt: skip
        return Source(game_id, loaded.game, loaded.meta.players, dict(loaded.meta.options),
                      loaded.version, loaded.over, None)  # fmt: skip

    def _source_events(self, source: Source, upto: int) -> list[Event]:
        """The source's first ``upto`` events, decoded."""
        if source.archived is not None:
            return list(source.archived[:upto])
        decode = source.rules.codec.decode
        return [decode(e.event) for e in self.log.read(source.id, 0, upto)]

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
                events = self._source_events(self._fork_source(origin.source), origin.version)
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
        events = self._source_events(source, at)
        state = rules.initial_state()
        for event in events:
            state = rules.evolve(state, event)
        if view_as == OPEN:
            check_forkable(rules, state, None)
            return open_fork(source.id, at, state.inner)
        if not isinstance(view_as, int) or not 0 <= view_as < source.players:
            raise InvalidField("as", f'must be "open" or a seat from 0 to '
                               f"{source.players - 1}, got {view_as!r}")  # fmt: skip
        check_forkable(rules, state, view_as)
        return seat_fork(source.id, at, view_as, basis_at(rules, state, events, view_as),
                         state.inner)  # fmt: skip
