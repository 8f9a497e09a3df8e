"""Reads: views, events, summaries, listings, the catalogue and who watches a game."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.lifecycle import lifecycle
from service import clocks, digests, narration, public, receipts
from service.access import BotSeats, Reader, SeatAccess
from service.errors import NotFound
from service.folding import Loaded
from service.json_ready import json_ready
from service.loading import GameLoader, Rulebook
from service.receipts import Signer
from service.sealing import Seals
from service.shared_reads import SharedReads
from service.store.port import EventLog, Listing, Spectators, StoredEvent, Waits


class Reading:
    """What a seat, a spectator or a listing sees."""

    def __init__(
        self,
        rules: Rulebook,
        loader: GameLoader,
        log: EventLog,
        waits: Waits,
        listing: Listing,
        spectators: Spectators,
        access: SeatAccess,
        bot_seats: BotSeats,
        clock: Callable[[], float],
        seals: Seals,
        signer: Signer | None = None,
    ) -> None:
        self.seals = seals
        self.rules = rules
        self.loader = loader
        self.log = log
        self.waits = waits
        self.listing = listing
        self.watchers = spectators
        self.access = access
        self.bot_seats = bot_seats
        self.clock = clock
        self.signer = signer  # signs the receipts it gives (service.receipts); None: unsigned
        self.shared_reads = SharedReads()  # the streams of a game share their reads

    def view(self, game_id: str, seat: int | None) -> dict[str, Any]:
        """What that seat (None: a spectator) sees now, with its legal actions."""
        return self._view(self.loader.load(game_id), seat)

    def view_for(self, game_id: str, reader: Reader) -> dict[str, Any]:
        """What the reader's seat sees now: the seat its token holds in the game as read, in
        the same round trip, from the store (``SeatAccess.reader_seat``)."""
        loaded = self.loader.load(game_id)
        seat = self.access.reader_seat(loaded, reader)
        self.seals.check_unsealed(loaded.meta.forked, seat)
        return self._view(loaded, seat)

    def _view(self, loaded: Loaded, seat: int | None) -> dict[str, Any]:
        game_id = loaded.meta.id
        if seat is not None and not 0 <= seat < loaded.meta.players:
            raise NotFound(f"game {game_id} has no seat {seat}")
        return {
            "id": game_id,
            "version": loaded.version,
            **public.receipt(loaded.meta, loaded.head_hash),
            **receipts.signed(self.signer, loaded.meta, loaded.version, loaded.head_hash),
            "seat": seat,
            "view": clocks.add_remaining(
                json_ready(
                    narration.for_people(loaded.game.view(loaded.state, seat), loaded.meta)
                ),
                clocks.now_ms(self.clock),
            ),
            "bots_missing": self.bot_seats.missing(loaded.meta),
            "spectators": self.spectators(game_id),
        }

    def events_after(
        self, game_id: str, after: int, seat: int | None, limit: int | None = None
    ) -> dict[str, Any]:
        """The seat's redacted events after ``after``; every stored field once the game is over.

        With ``limit``, at most that many events (read as one bounded range) and ``next_after``:
        the ``after`` of the next page, None once this page reaches the game's version.
        """
        return self._events_page(game_id, after, lambda _: seat, limit)

    def events_for(
        self,
        game_id: str,
        after: int,
        reader: Reader,
        limit: int | None = None,
        *,
        shared: bool = False,
    ) -> dict[str, Any]:
        """``events_after`` for the reader's seat: the seat its token or stream ticket holds in
        the game as read, in the same round trip, from the store (``SeatAccess.reader_seat``).

        ``shared`` (a stream's reads, its first included; no ``limit``): callers of this
        process asking for the same game after the same version at the same time share one
        store read (``service.shared_reads``); each still gets its own seat's events, checked
        against it, and those of the same seat get the same page, made once (not to be changed).
        """

        def seat_in(loaded: Loaded) -> int | None:
            seat = self.access.reader_seat(loaded, reader)
            self.seals.check_unsealed(loaded.meta.forked, seat)
            return seat

        return self._events_page(game_id, after, seat_in, limit, shared)

    def _events_page(
        self,
        game_id: str,
        after: int,
        seat_in: Callable[[Loaded], int | None],
        limit: int | None,
        shared: bool = False,
    ) -> dict[str, Any]:
        after = max(0, after)
        if limit is None:

            def read() -> tuple[Loaded, list[StoredEvent], dict[int | None, dict[str, Any]]]:
                loaded, stored, _ = self.loader.load_with(game_id, read_from=after)
                return loaded, stored, {}  # its page for each seat, made once for its sharers

            loaded, stored, pages = (
                self.shared_reads.run((game_id, after), read) if shared else read()
            )
            seat = seat_in(loaded)  # each caller's own seat, checked against the read
            if seat not in pages:
                newer = [s for s in stored if s.version > after]
                pages[seat] = self._events_out(game_id, loaded, newer, seat)
            return pages[seat]
        loaded = self.loader.load(game_id)
        seat = seat_in(loaded)
        upto = min(after + max(1, limit), loaded.version)
        newer = self.log.read(game_id, after, upto) if upto > after else []
        out = self._events_out(game_id, loaded, newer, seat)
        out["next_after"] = upto if upto < loaded.version else None
        return out

    def _events_out(
        self, game_id: str, loaded: Loaded, newer: Sequence[StoredEvent], seat: int | None
    ) -> dict[str, Any]:
        if loaded.over:
            items = [public.full_event(s) for s in newer]
        else:
            redact, decode = loaded.game.redact, loaded.game.codec.decode
            items = [
                {"version": s.version, "event": redact(decode(s.event), seat),
                 **public.receipt(loaded.meta, s.hash, "hash")}
                for s in newer
            ]  # fmt: skip
        narration.tell_items(items, loaded.game, narration.seat_names(loaded.meta))
        return {
            "id": game_id,
            "version": loaded.version,
            **public.receipt(loaded.meta, loaded.head_hash),
            "over": loaded.over,
            "events": json_ready(items),
        }

    def summary(self, game_id: str, reader: Reader | None = None) -> dict[str, Any]:
        """The public facts of a game (the seed only once it is over); a sealed fork's to its
        seat's ``reader`` alone (``Seals.check_unsealed``)."""
        loaded = self.loader.load(game_id)
        meta, rules, state = loaded.meta, loaded.game, loaded.state
        if self.seals.sealed(meta.forked):  # only then is the reader's token looked at
            seat = None if reader is None else self.access.reader_seat(loaded, reader)
            self.seals.check_unsealed(meta.forked, seat)
        outcome = rules.outcome(state)
        out = {
            "id": meta.id,
            "game": meta.game,
            "title": rules.title,
            "players": meta.players,
            "options": meta.options,
            "status": "over" if outcome is not None else meta.status,
            "seats": public.public_seats(meta),
            "to_act": list(rules.awaited_seats(state)),
            "version": loaded.version,
            "commitment": meta.commitment,
            "prearranged": meta.prearranged,
            **public.forked(meta),
            "created": meta.created,
            "outcome": json_ready(outcome),
            "bots_missing": [] if outcome is not None else self.bot_seats.missing(meta),
            "spectators": self.spectators(game_id),
            "awaiting_entropy": list(getattr(state, "awaiting_entropy", ())),
            **public.receipt(meta, loaded.head_hash),
            **receipts.signed(self.signer, meta, loaded.version, loaded.head_hash),
        }
        if clocks.clocked(state) and outcome is None:
            out["clock"] = clocks.shown(state, clocks.now_ms(self.clock))
        if outcome is not None:
            # A format 1 game's head hash only once over: with two consecutive unsalted head
            # hashes a player could brute-force the few hidden cards of the newest event.
            out.update(public.revealed(meta, state))
            out["head_hash"] = loaded.head_hash
            out["rematch"] = self.rematch_made(game_id)
        return out

    def rematch_made(self, game_id: str) -> str | None:
        """The id of the finished game's rematch once a seat proposed it, else None."""
        rematch = digests.rematch_of(game_id)
        return rematch if self.loader.seats.meta(rematch) is not None else None

    def list_games(
        self, game: str | None = None, status: str | None = None, limit: int = 50, offset: int = 0
    ) -> list[dict[str, Any]]:
        """Games newest first, filtered by game name and status; sealed forks are not listed
        (a page may hold fewer games for them)."""
        metas = self.listing.list_games(game=game, status=status, limit=limit, offset=offset)
        metas = [m for m in metas if not self.seals.sealed(m.forked)]
        return [
            {
                "id": m.id,
                "game": m.game,
                "status": m.status,
                "players": m.players,
                "seats": public.public_seats(m),
                "prearranged": m.prearranged,
                **public.forked(m),
                "created": m.created,
            }
            for m in metas
        ]

    def watch(self, game_id: str, watcher: str, seconds: float) -> None:
        """Count the spectator stream ``watcher`` as watching the game for ``seconds`` more
        (docs/service.md, "Spectators")."""
        now = clocks.now_ms(self.clock)
        self.watchers.watch(game_id, watcher, now, now + int(seconds * 1000))

    def unwatch(self, game_id: str, watcher: str) -> None:
        """The spectator stream ``watcher`` closed."""
        self.watchers.unwatch(game_id, watcher)

    def spectators(self, game_id: str) -> int:
        """How many spectator streams of any process watch the game now."""
        return self.watchers.watchers(game_id, clocks.now_ms(self.clock))

    def wait(self, game_id: str, after: int, timeout: float) -> bool:
        """Block until the game passes version ``after`` or ``timeout`` seconds pass."""
        return self.waits.wait(game_id, after, timeout)

    def wait_any(self, afters: Mapping[str, int], timeout: float) -> bool:
        """Block until one of the games passes its version or ``timeout`` seconds pass."""
        return self.waits.wait_any(afters, timeout)

    def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        """Each game's version now (0: not in the store), in one read."""
        return self.log.versions(game_ids)

    def catalogue(self) -> list[dict[str, Any]]:
        """Every game with its player range and options."""
        return [
            {
                "name": g.name,
                "title": g.title,
                "min_players": g.min_players,
                "max_players": g.max_players,
                "options": [o.describe() for o in lifecycle(g).options],
                "bots": self.bot_seats.known(g.name),
            }
            for g in self.rules.every()
        ]
