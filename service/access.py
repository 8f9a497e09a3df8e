"""Seat access: tokens, stream tickets and HTTP bot accounts (a mixin of ``GameService``)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from typing import Any

from service import shapes, tickets
from service.base import ServiceBase
from service.bots import BUILTIN_BOTS
from service.errors import BotExists, InvalidRequest, NotFound, SeatLeft, Unauthorized, UnknownBot
from service.shapes import token_hash
from service.store.port import GameMeta


class Access(ServiceBase):
    """Who holds which seat: tokens, stream tickets and HTTP bot accounts."""

    def _check_bots(self, game: str, records: Sequence[Any]) -> None:
        if self.bots is None:
            return
        names = {str(r.bot) for r in records if r.type == "bot"}
        known = self.bots.known(game) if names else []
        unknown = sorted(names - set(known))
        if unknown:
            raise UnknownBot(
                f"no bot named {', '.join(map(repr, unknown))} plays {game}; "
                f"known: {', '.join(known)}",
                known=known,
            )

    def _index_bot_accounts(self, meta: GameMeta) -> None:
        if self.bots is None:
            return
        for name in {str(s.bot) for s in meta.seats if s.type == "bot"} - set(BUILTIN_BOTS):
            if self.bots.registry.is_account(name):
                self.bots.registry.add_game(name, meta.id)

    def bots_missing(self, meta: GameMeta) -> list[dict[str, Any]]:
        """The bot seats whose (user) bot has no live worker, while the game is not over."""
        if self.bots is None or meta.status == "over":
            return []
        return self.bots.missing(
            (i, str(s.bot)) for i, s in enumerate(meta.seats) if s.type == "bot"
        )

    def seat_for_token(self, game_id: str, token: str, wanted: object = None) -> int:
        """The seat a token holds in that game (Unauthorized when none; SeatLeft when its
        holder left the seat).

        An HTTP bot account's token holds the seats that name its bot: ``wanted`` picks one
        of them, else the one the game waits on, else the first.
        """
        digest = token_hash(token)
        cached = self.cache.get(game_id)
        if cached is None:  # one read warms it: the caller acts on it next (NotFound: no game)
            self.load(game_id)
            cached = self.cache.get(game_id)
        seat = cached.meta.seat_of_token_hash(digest) if cached else None
        if seat is None:
            meta = self._meta(game_id)
            if digest in meta.left:
                raise SeatLeft(f"this token's holder left their seat in game {game_id}")
            seat = meta.seat_of_token_hash(digest)
        if seat is None:
            seat = self._bot_account_seat(game_id, digest, wanted)
            if seat is None:
                raise Unauthorized("the token does not hold a seat in this game")
            return seat
        return self._still_held(game_id, seat, digest)

    def _still_held(self, game_id: str, seat: int, digest: str) -> int:
        """The seat, unless its holder left it (checked only in games where someone left)."""
        cached = self.cache.get(game_id)
        state = cached.state if cached is not None else self.load(game_id).state
        if not getattr(state, "left", ()):
            return seat
        if digest in self._meta(game_id).left or seat not in state.people:
            raise SeatLeft(f"this token's holder left seat {seat} of game {game_id}")
        return seat

    def stream_ticket(self, game_id: str, seat: int, seconds: int) -> dict[str, Any]:
        """A ticket to follow ``seat``'s private stream without its token (``service.tickets``)."""
        ticket = tickets.issue(self._meta(game_id), seat, time.time(), seconds)
        return {"ticket": ticket, "expires_in": seconds}

    def seat_for_ticket(self, game_id: str, ticket: str) -> int:
        """The seat a stream ticket is for (Unauthorized if unknown or expired)."""
        return tickets.check(self._meta(game_id), ticket, time.time())

    def _bot_account_seat(self, game_id: str, digest: str, wanted: object) -> int | None:
        name = self.bots.registry.account_of(digest) if self.bots is not None else None
        if name is None:
            return None
        loaded = self.load(game_id)
        seats = [i for i, s in enumerate(loaded.meta.seats) if s.type == "bot" and s.bot == name]
        if not seats:
            return None
        if wanted in seats:
            return int(wanted)
        awaited = [s for s in loaded.game.awaited_seats(loaded.state) if s in seats]
        return (awaited or seats)[0]

    def create_bot_account(self, name: str) -> dict[str, Any]:
        """An HTTP bot account: its name may then be seated; the token is shown this once."""
        if self.bots is None:
            raise NotFound("this service keeps no bot accounts")
        if not shapes.BOT_NAME.match(name):
            raise InvalidRequest(f"a bot name is a simple name, got {name!r}")
        if name in BUILTIN_BOTS or name in self.bots.registry.registered():
            raise BotExists(f"the bot name {name!r} is taken")
        token = secrets.token_urlsafe(32)
        if not self.bots.registry.create_account(name, token_hash(token)):
            raise BotExists(f"the bot name {name!r} is taken")
        self.bots.registry.heartbeat(name, (), self._clock())
        return {"name": name, "token": token}
