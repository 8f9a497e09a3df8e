"""Forks: a new game from a moment of a finished one (a mixin of ``GameService``;
``domain.forks`` holds the rules, docs/analysis.md the API)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.forks import GameForked, basis_at, check_forkable, open_fork, prehistory, seat_fork
from service.errors import GameNotOver, InvalidField
from service.folding import Loaded
from service.seating import Seating

OPEN = "open"  # the point of view with every card open (``as``)


class Forking(Seating):
    """Creating a fork of a finished game."""

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
        finished game, as seat ``view_as`` saw it (its unseen cards dealt afresh when the last
        seat is filled) or ``"open"`` (the exact position)."""
        loaded = self.load(game_id)
        if not loaded.over:
            raise GameNotOver(f"game {game_id} is not over: only a finished game is forked "
                              "(its history is public by then)")  # fmt: skip
        if len(seats) != loaded.meta.players:
            raise InvalidField("seats", f"must be {loaded.meta.players} seats, as the game forked "
                               f"has, got {len(seats)}")  # fmt: skip
        origin = self._origin(loaded, at, view_as)
        return self.create_game(
            loaded.meta.game,
            seats,
            options=loaded.meta.options,
            idempotency_key=idempotency_key,
            creator=creator,
            fork=origin,
        )

    def fork_prehistory(self, loaded: Loaded, seat: int) -> list[dict[str, Any]]:
        """What ``seat`` of a forked game knew before the fork (``domain.forks.prehistory``;
        nothing for another game, or once the source is gone from the store)."""
        origin = getattr(loaded.state, "forked", None)
        if origin is None:
            return []
        rules = loaded.game
        stored = [] if origin.seat == seat else self.store.read(origin.source, 0, origin.version)
        if origin.seat != seat and len(stored) < origin.version:
            return []
        return prehistory(rules, origin, [rules.codec.decode(e.event) for e in stored], seat)

    def _origin(self, loaded: Loaded, at: int, view_as: int | str) -> GameForked:
        """The fork's origin event at version ``at`` of the loaded (finished) game."""
        if not 1 <= at <= loaded.version:
            raise InvalidField("at", f"must be a version from 1 to {loaded.version}, got {at}")
        rules = loaded.game
        events = [rules.codec.decode(e.event) for e in self.store.read(loaded.meta.id, 0, at)]
        state = rules.initial_state()
        for event in events:
            state = rules.evolve(state, event)
        source = loaded.meta.id
        if view_as == OPEN:
            check_forkable(rules, state, None)
            return open_fork(source, at, state.inner)
        if not isinstance(view_as, int) or not 0 <= view_as < loaded.meta.players:
            raise InvalidField("as", f'must be "open" or a seat from 0 to '
                               f"{loaded.meta.players - 1}, got {view_as!r}")  # fmt: skip
        check_forkable(rules, state, view_as)
        return seat_fork(source, at, view_as, basis_at(rules, state, events, view_as), state.inner)
