"""Seat access: who holds which seat (tokens, stream tickets) and the bots a game seats (HTTP
bot accounts, user bots served or not)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from service import request_checks, tickets
from service.bots import BUILTIN_BOTS, BotDirectory, builtin_bots
from service.cache import StateCache
from service.digests import token_hash
from service.errors import (
    BotAccountsFull,
    BotExists,
    BotUnavailable,
    Forbidden,
    InvalidRequest,
    NotFound,
    SeatLeft,
    Unauthorized,
    UnknownBot,
)
from service.folding import Loaded
from service.loading import GameLoader
from service.store.port import GameMeta, Holder


@dataclass(frozen=True, slots=True)
class Reader:
    """Who asks to read a game: a seat token, a stream ticket, or neither (a spectator).
    ``wanted``: which of its seats a bot account's token reads as."""

    token: str | None = None
    ticket: str | None = None
    wanted: object = None


def check_holds(loaded: Loaded, holder: Holder) -> None:
    """Unless the holder's token holds its seat in a game just read from the store (its seats
    read with its events): SeatLeft when its holder left a seat of the game, else Unauthorized.
    A bot account's seat (no token hash) never changes hands."""
    digest, meta, state = holder.token_hash, loaded.meta, loaded.state
    if digest is None:
        return
    # a seat its person left by the events though a join record still names them (one that
    # a crash kept before the store vacated a seat in the leave's own append) is left
    left_by_events = holder.seat in getattr(state, "left", ()) and holder.seat not in getattr(
        state, "people", (holder.seat,))  # fmt: skip
    if meta.seat_of_token_hash(digest) != holder.seat or left_by_events:
        raise not_held(meta.id, left=left_by_events or digest in meta.left)


def not_held(game_id: str, *, left: bool) -> SeatLeft | Unauthorized:
    """The refusal of a token that does not hold the seat it asks for."""
    if left:
        return SeatLeft(f"this token's holder left their seat in game {game_id}")
    return Unauthorized("the token does not hold a seat in this game")


class BotSeats:
    """The bots a game seats: known names, user bots served by a live worker or client, HTTP bot
    accounts (``bots`` None: any bot name is accepted, trusted callers and tests)."""

    def __init__(self, bots: BotDirectory | None, clock: Callable[[], float]) -> None:
        self.bots = bots
        self.clock = clock

    def known(self, game: str) -> list[str]:
        """The names of the bots that play ``game``."""
        return builtin_bots(game) if self.bots is None else self.bots.known(game)

    def check_bots(self, game: str, records: Sequence[Any]) -> None:
        if self.bots is None:
            return
        names = {str(r.bot) for r in records if r.type == "bot"}
        unknown = self.bots.unknown(game, names) if names else []
        if unknown:
            known = self.bots.known(game)
            raise UnknownBot(
                f"no bot named {', '.join(map(repr, unknown))} plays {game}; the service's "
                f"own bots: {', '.join(known)} (or a bot account's name)",
                known=known,
            )

    def check_served(self, records: Sequence[Any]) -> None:
        """BotUnavailable when a bot seat names a user bot nobody serves now."""
        if self.bots is None:
            return
        missing = self.bots.missing((i, str(r.bot)) for i, r in enumerate(records)
                                    if r.type == "bot")  # fmt: skip
        if missing:
            named = ", ".join(f"{m['bot']!r} (seat {m['seat']})" for m in missing)
            raise BotUnavailable(
                f"no live worker or connected client serves {named}: start it first, or "
                "create the game with wait_for_bots true to wait for it",
                missing=missing,
            )

    def sends_entropy(self, records: Sequence[Any]) -> list[int]:
        """The bot seats whose bot sends its own entropy: an HTTP bot account's (the server
        plays the built-in bots and the operator's, and draws theirs)."""
        if self.bots is None:
            return []
        names = {str(r.bot) for r in records if r.type == "bot"} - set(BUILTIN_BOTS)
        accounts = {n for n in names if self.bots.registry.is_account(n)}
        return [i for i, r in enumerate(records) if r.type == "bot" and r.bot in accounts]

    def index_accounts(self, meta: GameMeta) -> None:
        if self.bots is None:
            return
        for name in {str(s.bot) for s in meta.seats if s.type == "bot"} - set(BUILTIN_BOTS):
            if self.bots.registry.is_account(name):
                self.bots.registry.add_game(name, meta.id)

    def missing(self, meta: GameMeta) -> list[dict[str, Any]]:
        """The bot seats whose (user) bot has no live worker, while the game is not over."""
        if self.bots is None or meta.status == "over":
            return []
        return self.bots.missing(
            (i, str(s.bot)) for i, s in enumerate(meta.seats) if s.type == "bot"
        )

    def account_seat(self, loaded: Loaded, digest: str, wanted: object) -> int | None:
        name = self.bots.registry.account_of(digest) if self.bots is not None else None
        if name is None:
            return None
        seats = [i for i, s in enumerate(loaded.meta.seats) if s.type == "bot" and s.bot == name]
        if not seats:
            return None
        if wanted in seats:
            return int(wanted)
        awaited = [s for s in loaded.game.awaited_seats(loaded.state) if s in seats]
        return (awaited or seats)[0]

    def create_account(self, name: str) -> dict[str, Any]:
        """An HTTP bot account: its name may then be seated; the token is shown this once."""
        if self.bots is None:
            raise NotFound("this service keeps no bot accounts")
        if not request_checks.BOT_NAME.match(name):
            raise InvalidRequest(f"a bot name is a simple name, got {name!r}")
        registry, most = self.bots.registry, self.bots.accounts_max
        if name in BUILTIN_BOTS:
            raise BotExists(f"the bot name {name!r} is taken")
        if most and registry.account_count() >= most:
            raise BotAccountsFull(f"this service holds its most bot accounts ({most}): ask its "
                                  "operator")  # fmt: skip
        token = secrets.token_urlsafe(32)
        if not registry.create_account(name, token_hash(token)):
            raise BotExists(f"the bot name {name!r} is taken")
        self.bots.registry.heartbeat(name, (), self.clock())
        return {"name": name, "token": token}


class SeatAccess:
    """Who a token or a stream ticket acts or reads as, by this process's cached fold or by the
    store."""

    def __init__(self, loader: GameLoader, cache: StateCache, bot_seats: BotSeats) -> None:
        self.loader = loader
        self.cache = cache
        self.bot_seats = bot_seats

    def claim(self, game_id: str, token: str, wanted: object = None) -> Holder:
        """Who a token acts as: the seat this process's cached fold names it holder of, else
        the seat it holds by the store (``holder_in``). Either way the action's append checks,
        in the store and at that moment, that the token still holds the seat (``Holder``)."""
        digest = token_hash(token)
        cached = self.cache.get(game_id)
        seat = cached.meta.seat_of_token_hash(digest) if cached is not None else None
        if seat is not None:
            return Holder(seat, digest)
        return self.holder_in(self.loader.load(game_id), token, wanted)

    def holder_in(self, loaded: Loaded, token: str, wanted: object = None) -> Holder:
        """Who a token is in a game just read from the store (its seats read with its events):
        the seat it holds; SeatLeft when its holder left it; Unauthorized when it holds none.

        An HTTP bot account's token holds the seats that name its bot: ``wanted`` picks one
        of them, else the one the game waits on, else the first.
        """
        digest, meta = token_hash(token), loaded.meta
        seat = meta.seat_of_token_hash(digest)
        if seat is not None:
            check_holds(loaded, Holder(seat, digest))
            return Holder(seat, digest)
        if digest in meta.left:
            raise not_held(meta.id, left=True)
        seat = self.bot_seats.account_seat(loaded, digest, wanted)
        if seat is None:
            raise Unauthorized("the token does not hold a seat in this game")
        return Holder(seat, None)

    def seat_for_token(self, game_id: str, token: str, wanted: object = None) -> int:
        """The seat a token holds in that game now, by the store (``holder_in``)."""
        return self.holder_in(self.loader.load(game_id), token, wanted).seat

    def reader_seat(self, loaded: Loaded, reader: Reader) -> int | None:
        """The seat a read is for, by a game just read from the store: the seat its token or
        stream ticket holds now (Unauthorized, SeatLeft), None for a spectator."""
        if reader.ticket is not None:
            return tickets.check(loaded.meta, reader.ticket, time.time())
        if reader.token is None:
            return None
        return self.holder_in(loaded, reader.token, reader.wanted).seat

    def stream_ticket(self, game_id: str, token: str, seconds: int) -> dict[str, Any]:
        """A ticket to follow the token's seat's private stream without the token
        (``service.tickets``): for a person's seat (a bot account streams with its token)."""
        loaded = self.loader.load(game_id)
        holder = self.holder_in(loaded, token)
        if holder.token_hash is None:
            raise Forbidden("stream tickets are for people's seats: a bot account's stream "
                            "takes its token (Authorization)")  # fmt: skip
        ticket = tickets.issue(loaded.meta, holder.seat, time.time(), seconds)
        return {"ticket": ticket, "expires_in": seconds}
