"""The lifecycle layer around every game's decider: creation, seats filled, the deal, the reveal.

A game's stream begins with ``lifecycle.GameCreated`` (the commitment to the server's secret,
whether the game is prearranged) and one ``lifecycle.SeatFilled`` per seat filled at creation
(bots). Every join appends a ``SeatFilled`` with that seat's entropy; the join that fills the
last seat also appends the game's own creation events (``<game>.GameStarted`` and the deal),
made from ``domain.fairness.deal_seed(secret, entropy...)`` (or the chosen seed or explicit deal
of a *prearranged* game). The batch that ends the game ends with ``lifecycle.SecretRevealed``.

Resign, abort and leave are actions of every game, never among its legal actions (the view's
``may_send`` lists them); abort and leave, their events and the lifecycle's own options live
in ``domain.seating``.

The server's secret never enters the state: the commands that need it take ``Keys`` (the
service holds them; an auditor reads them from the revealed event). Pure: no clock, no
randomness (the service draws the secret and the server-side entropy; it stamps the commands of
a game with a clock with the time ``at``, which ``domain.clock`` records in events).

Here: ``Lifecycle`` and ``lifecycle()``; the events and codec are in ``domain.lifecycle_events``,
``Table`` and ``Keys`` in ``domain.table``, the stored commands in ``domain.lifecycle_commands``
(all re-exported here).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Generic, TypeVar

from domain import clock as clocks
from domain.default_move import RULE, default_move, move_seed
from domain.errors import GameOver, IllegalAction, InvalidAction, InvalidSetup, NotYourTurn
from domain.events import Encoded, Event, EventCodec
from domain.fairness import check_hex32, commitment, deal_seed, salted_deck
from domain.fallback import FALLBACK, BotFellBack, checked_reason, is_fallback
from domain.forks import GameForked, PositionDealt, origin_for, position_of, redacted, state_of
from domain.idle import SeatIdled, check_awaited
from domain.lifecycle_commands import (
    create_command,
    entropy_command,
    join_command,
    timeout_command,
)
from domain.lifecycle_events import (
    EVENTS,
    EntropyAwaited,
    GameCreated,
    GameExpired,
    GameStopped,
    LifecycleCodec,
    SeatFilled,
    SeatResigned,
    SecretRevealed,
    is_lifecycle_stream,
)
from domain.narration import extend, last_action, tell
from domain.options import Option, non_default, parse_options
from domain.protocol import Action, Game, Setup, check_dealer, check_players, fold
from domain.seating import (
    TABLE_NAMES,
    TABLE_OPTIONS,
    AbortAgreed,
    GameAborted,
    SeatLeft,
    SeatRetaken,
    seat_list,
)
from domain.table import (
    FACTS,
    Keys,
    Table,
    check_bots,
    created_of,
    fold_all,
    fold_fact,
    game_seed,
    lapsed,
    leave,
    moved_on,
    role_after,
    seat_action,
    seat_may_send,
    table_facts,
    table_outcome,
)

S = TypeVar("S")

SOURCES = ("client", "server")

# Actions every game takes through the normal action endpoint, never listed in legal_actions
# (so a bot choosing from that list never resigns by chance); the view names those a seat may send.
LIFECYCLE_ACTIONS = ("resign", "abort", "withdraw_abort", "leave", FALLBACK)
LIFECYCLE_ACTION_FIELDS = {FALLBACK: {"reason": "str"}}  # their fields (typed in the API)


class SeatAlreadyFilled(IllegalAction):
    """The seat was filled before (a join or a bot)."""

    code = "seat_taken"


class EntropyNotAwaited(IllegalAction):
    """The seat does not await its bot's entropy (a person's, a bot the server plays, or one
    filled already: by its bot, or with its fallback)."""

    code = "entropy_not_awaited"


class EntropyPosted(IllegalAction):
    """The seat's bot sent its entropy already, and another value now."""

    code = "entropy_posted"


class Lifecycle(Generic[S]):
    """A game with its lifecycle: the Game protocol over ``Table`` states, plus the commands."""

    def __init__(self, game: Game[S]) -> None:
        self.game = game
        self.name = game.name
        self.title = game.title
        self.min_players = game.min_players
        self.max_players = game.max_players
        self.options: tuple[Option, ...] = (*game.options, *clocks.OPTIONS, *TABLE_OPTIONS)
        self._narration: Any = getattr(game, "narration", None)
        self.codec: EventCodec = LifecycleCodec(game.codec)

    # -- commands ------------------------------------------------------------------------
    def create(
        self,
        *,
        players: int,
        options: Mapping[str, Any],
        dealer: int | None,
        keys: Keys,
        filled: Sequence[tuple[int, str]] = (),
        bots: Sequence[int] | None = None,
        at: int | None = None,
        salted_deck: bool = False,
        abort_lapses: bool = False,
        fork: GameForked | None = None,
        awaiting: Sequence[tuple[int, str]] = (),
    ) -> list[Event]:
        """The creation batch: GameCreated, the seats filled at creation, the deal if all are.

        ``bots``: the seats bots fill (recorded, so abort knows whose agreement it needs);
        ``awaiting``: ``(seat, fallback)`` of bot seats whose bot sends its own entropy
        (``contribute``; an ``EntropyAwaited`` each, with the fallback fixed now);
        ``salted_deck``: a prearranged game publishes its deck commitment salted with the
        secret (``domain.fairness.salted_deck``; every game the service creates now);
        ``abort_lapses``: pending agreements to abort lapse when another person moves;
        ``fork``: the origin of a game that starts at a moment of another (``domain.forks``)."""
        check_players(self.game, players)
        check_dealer(dealer, players)
        check_hex32(keys.secret, "the server's secret")
        promise = commitment(keys.secret)
        rest, timing = clocks.split(options)
        timing = clocks.parse(timing)
        own = {k: v for k, v in rest.items() if k not in TABLE_NAMES}
        table = parse_options(TABLE_OPTIONS, {k: rest[k] for k in rest if k in TABLE_NAMES})
        trial = self.game.start(self._setup(players, own, dealer, keys, promise))
        full = self.game.codec.encode(trial[0]).get("options", dict(own))
        full = {**full, **non_default(TABLE_OPTIONS, table)}
        created = GameCreated(
            game=self.name,
            players=players,
            options={**full, **timing},
            dealer=dealer,
            commitment=promise,
            prearranged=keys.prearranged or (fork is not None and fork.seat is None),
            bots=None if bots is None else check_bots(bots, filled, awaiting),
            salted_deck=salted_deck and keys.prearranged,
            abort_lapses=abort_lapses,
        )
        if fork is not None:
            position_of(self.name, fork, "0" * 64)  # a moment that cannot be forked: said now
        events: list[Event] = [created] if fork is None else [created, fork]
        if awaiting and bots is None:
            raise InvalidSetup("a seat awaiting its bot's entropy is a bot's seat (bots)")
        for seat, fallback in awaiting:
            check_hex32(fallback, "a fallback entropy")
            events.append(EntropyAwaited(seat=seat, fallback=fallback))
        state = fold(self, events)
        for seat, entropy in filled:
            more = self.join(state, seat, entropy, keys, source="server", at=at)
            state = fold(self, more, state)
            events += more
        return events

    def join(
        self,
        state: Table[S],
        seat: int,
        entropy: str,
        keys: Keys,
        source: str = "client",
        at: int | None = None,
    ) -> list[Event]:
        """A seat filled with its entropy; the last one also deals (the game's start events)."""
        created = created_of(state)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < created.players:
            raise InvalidSetup(f"seat must be from 0 to {created.players - 1}, got {seat!r}")
        if seat in state.vacant:
            return [SeatRetaken(seat=seat)]
        if state.entropy[seat] is not None:
            raise SeatAlreadyFilled(f"seat {seat} is already filled")
        if seat in state.awaiting_entropy:
            raise SeatAlreadyFilled(f"seat {seat} is a bot's: it awaits that bot's own entropy")
        if source not in SOURCES:
            raise InvalidSetup(f"entropy source must be one of {', '.join(SOURCES)}")
        return self._filled(state, seat, entropy, source, keys, at)

    def _filled(
        self, state: Table[S], seat: int, entropy: str, source: str, keys: Keys, at: int | None
    ) -> list[Event]:
        filled = SeatFilled(seat=seat, entropy=check_hex32(entropy, "entropy"), source=source)
        after = self.evolve(state, filled)
        if after.open_seats:
            return [filled]
        return [filled, *self.deal(after, keys, at)]

    def contribute(
        self, state: Table[S], seat: int, entropy: str, keys: Keys, at: int | None = None
    ) -> list[Event]:
        """A bot's own entropy for the seat the game awaits it for (``EntropyAwaited``):
        ``SeatFilled`` with ``source: "client"``, and the deal when no seat is left to fill."""
        created_of(state)
        if seat in state.posted and state.entropy[seat] != entropy:
            raise EntropyPosted(f"seat {seat}'s bot sent its entropy already (another value)")
        if seat not in state.awaiting_entropy:
            raise EntropyNotAwaited(f"seat {seat!r} does not await its bot's entropy")
        return self._filled(state, seat, entropy, "client", keys, at)

    def deal(self, state: Table[S], keys: Keys, at: int | None = None) -> list[Event]:
        """The game's own creation events once every seat is filled (checks the commitment)."""
        created = created_of(state)
        if commitment(keys.secret) != created.commitment:
            raise InvalidSetup("the secret does not match the commitment published at creation")
        own = {k: v for k, v in created.options.items() if k not in TABLE_NAMES}
        if state.forked is not None:
            events: list[Event] = [position_of(self.name, state.forked, self.seed(state, keys))]
            return events + self._after_deal(state, events, keys, at)
        setup = self._setup(created.players, own, created.dealer, keys, self.seed(state, keys))
        events = self._salted(created, keys, list(self.game.start(setup)))
        return events + self._after_deal(state, events, keys, at)

    def _after_deal(
        self, state: Table[S], events: list[Event], keys: Keys, at: int | None
    ) -> list[Event]:
        """What the deal's batch ends with: the reveal if it ended the game, else the clock."""
        dealt = fold(self, events, state)
        if self.outcome(dealt) is not None:
            return [self.revelation(state, keys)]
        if state.clock is not None:
            return clocks.after_batch(dealt.clock, self.awaited_seats(dealt), None, at)
        return []

    @staticmethod
    def _salted(created: GameCreated, keys: Keys, events: list[Event]) -> list[Event]:
        """The game's start events, its deck commitment salted when the game says so: a chosen
        seed short enough to guess cannot be tested against it (docs/fairness.md)."""
        start: Any = events[0]  # every game's start event has a deck commitment
        if not created.salted_deck or not isinstance(getattr(start, "commitment", None), str):
            return events
        return [replace(start, commitment=salted_deck(keys.secret, start.commitment)), *events[1:]]

    def act(
        self,
        state: Table[S],
        seat: int,
        action: Action,
        keys: Keys,
        at: int | None = None,
        version: int | None = None,
    ) -> list[Event]:
        """A seat's action (stamped ``at`` on a clocked game: the batch ends with its
        ClockSet); the batch that ends the game also reveals the secret. A bot's fallback
        (``domain.fallback``) needs the ``version`` the game is at: its default move's seed."""
        if is_fallback(action):
            return self.fall_back(state, seat, action, keys, at, version)
        events = [*lapsed(state, seat, action), *self.decide(state, seat, action)]
        after = fold(self, events, state)
        if self.outcome(after) is not None:
            events.append(self.revelation(state, keys))
        elif after.clock is not None:
            events += clocks.after_batch(after.clock, self.awaited_seats(after), seat, at)
        return events

    def timeout(
        self,
        state: Table[S],
        seat: int,
        at: int,
        keys: Keys,
        version: int,
        move: Action | None = None,
    ) -> list[Event]:
        """A seat out of time at ``at`` (the game at ``version``): TimedOut, then the default
        move's batch (``domain.default_move``) or the forfeit's end. ``move``: the move a
        timeout recorded before the default move was a rule made instead (any legal one)."""
        if self.outcome(state) is not None or state.inner is None:
            raise GameOver("the game is over: no clock runs")
        timed = clocks.timed_out(state.clock, seat, at)
        after = self.evolve(state, timed)
        if timed.on_timeout == clocks.FORFEIT:
            return [timed, self.revelation(state, keys)]
        action = self.default_move(after, seat, keys, version) if move is None else move
        return [timed, *self.act(after, seat, action, keys, at)]

    def idle(
        self,
        state: Table[S],
        seat: int,
        keys: Keys,
        version: int,
        at: int | None = None,
        gone: bool = False,
    ) -> list[Event]:
        """A seat the game awaited for its ``idle_seconds`` (``domain.idle``): SeatIdled, then
        a person's leave (as ``on_leave`` says), ``leave_bot`` taking over the seat of a bot
        that is ``gone``, or a bot's default move after ``version``. Before the deal, a seat
        whose bot never sent its entropy is filled with the fallback fixed at creation
        (``SeatFilled``, ``source: "server"``), and the game deals once no seat is left."""
        if state.inner is None and state.awaiting and self.outcome(state) is None:
            seat = check_awaited(seat, state.awaiting_entropy)
            fallback = state.fallback_entropy(seat)
            assert fallback is not None
            after = self.evolve(state, SeatIdled(seat=seat))
            return [SeatIdled(seat=seat), *self._filled(after, seat, fallback, "server", keys, at)]
        self._check_playing(state)
        seat = check_awaited(seat, self.awaited_seats(state))
        after = self.evolve(state, SeatIdled(seat=seat))
        if state.is_person(seat):
            return [SeatIdled(seat=seat), *leave(after, seat)]
        if gone:
            return [SeatIdled(seat=seat), SeatLeft(seat=seat, bot=state.table_option("leave_bot"))]
        move = self.default_move(after, seat, keys, version)
        return [SeatIdled(seat=seat), *self.act(after, seat, move, keys, at)]

    def fall_back(
        self,
        state: Table[S],
        seat: int,
        action: Action,
        keys: Keys,
        at: int | None,
        version: int | None,
    ) -> list[Event]:
        """A bot seat's fallback: BotFellBack, then the default move's batch."""
        self._check_playing(state)
        seats = range(len(state.entropy))
        is_bot = isinstance(seat, int) and seat in seats and not state.is_person(seat)
        reason = checked_reason(action, is_bot, seat in self.awaited_seats(state), seat)
        if version is None:
            raise InvalidAction("a fallback is made at a known version (the service's)")
        fell = BotFellBack(seat=seat, reason=reason, rule=RULE)
        after = self.evolve(state, fell)
        move = self.default_move(after, seat, keys, version)
        return [fell, *self.act(after, seat, move, keys, at)]

    def default_move(self, state: Table[S], seat: int, keys: Keys, version: int) -> Action:
        """The default move made for ``seat`` after ``version`` (``domain.default_move``)."""
        assert state.inner is not None
        legal = self.game.legal_actions(state.inner, seat)
        if not legal:
            raise IllegalAction(f"seat {seat} has no move to make for it", reason="no_move")
        return default_move(self.game, legal, move_seed(self.move_base(state, keys), version, seat))

    def move_base(self, state: Table[S], keys: Keys) -> str:
        """The seed default moves are drawn from: the game's, except in a prearranged game with
        a salted deck (``GameCreated.salted_deck``), whose chosen seed may be guessable: there
        the seed derived from the secret and every seat's entropy (revealed at the end too)."""
        created = created_of(state)
        if not created.salted_deck:
            return self.seed(state, keys)
        return deal_seed(keys.secret, [e for e in state.entropy if e is not None])

    def expire(self, state: Table[S], keys: Keys) -> list[Event]:
        """A game whose seats never all filled ends: GameExpired, then the secret revealed."""
        created_of(state)
        if (state.dealt and not state.vacant) or self.outcome(state) is not None:
            raise IllegalAction("only a game still waiting for players can expire")
        return [GameExpired(open_seats=state.joinable), self.revelation(state, keys)]

    def stop(self, state: Table[S], keys: Keys, reason: str) -> list[Event]:
        """The operator ends a game not over yet (waiting or playing): GameStopped with its
        reason, then the secret revealed. Nobody wins or loses."""
        created_of(state)
        if self.outcome(state) is not None:
            raise GameOver("the game is over: nothing to stop")
        return [GameStopped(reason=reason), self.revelation(state, keys)]

    def revelation(self, state: Table[S], keys: Keys) -> SecretRevealed:
        """The event that reveals the secret, the seed and a prearranged deal."""
        deal = None if keys.deal is None else dict(keys.deal)
        return SecretRevealed(secret=keys.secret, seed=self.seed(state, keys), deal=deal)

    def seed(self, state: Table[S], keys: Keys) -> str:
        """The game's seed: chosen (prearranged) or derived from the secret and every entropy."""
        return game_seed(state, keys)

    def _setup(
        self, players: int, options: Mapping[str, Any], dealer: int | None, keys: Keys, seed: str
    ) -> Setup:
        deal = None if keys.deal is None else dict(keys.deal)
        own = clocks.split(options)[0]
        return Setup(players=players, seed=seed, options=own, dealer=dealer, deal=deal)

    # -- the Game protocol -----------------------------------------------------------------
    def start(self, setup: Setup) -> list[Event]:
        """Not used: a lifecycle game starts with ``create`` (kept for the protocol)."""
        raise InvalidSetup("a game with a lifecycle is created with create(), not start()")

    def initial_state(self) -> Table[S]:
        """Before GameCreated."""
        return Table()

    def evolve(self, state: Table[S], event: Event) -> Table[S]:
        """Fold one event: lifecycle facts by ``fold_fact``, the game's own through its evolve."""
        if type(event) in FACTS:
            folded = fold_fact(state, event)
            if folded is not None:
                return folded
        inner = self.game.initial_state() if state.inner is None else state.inner
        recent = state.recent
        if self._narration is not None:
            previous = recent[-1] if recent else None
            role = role_after(recent, self._narration.role(event, previous, inner))
            recent = extend(recent, event, role)
        return moved_on(state, self.game.evolve(inner, event), recent)

    def evolve_all(self, state: Table[S], events: Iterable[Event]) -> Table[S]:
        """``evolve`` over events in turn (``fold_all``: one table copy per run of game events)."""
        role = None if self._narration is None else self._narration.role
        return fold_all(state, events, self.game.evolve, self.game.initial_state, role)

    def decide(self, state: Table[S], seat: int, action: Action) -> list[Event]:
        """The lifecycle's actions (resign, abort) at any time; the game's once dealt."""
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind == FALLBACK:
            raise InvalidAction("a fallback is made with the server's keys and the version (act)")
        if kind in LIFECYCLE_ACTIONS:
            return seat_action(state, seat, str(kind), action, self.outcome)
        self._check_playing(state)
        assert state.inner is not None
        return list(self.game.decide(state.inner, seat, action))

    def _check_playing(self, state: Table[S]) -> None:
        """The error for a game that is not being played now (not dealt, over, a seat open)."""
        if state.inner is None:
            raise NotYourTurn("the game starts when every seat is filled", reason="not_started")
        if self.outcome(state) is not None:
            raise GameOver("the game is over")
        if state.vacant:
            raise NotYourTurn(f"seat(s) {seat_list(state.vacant)} left open: the game waits for "
                              "someone to take them", reason="seat_open")  # fmt: skip

    def legal_actions(self, state: Table[S], seat: int) -> list[dict[str, Any]]:
        """The game's legal actions once dealt (never the lifecycle's: see ``may_send``)."""
        if state.inner is None or state.vacant or self.outcome(state) is not None:
            return []
        return self.game.legal_actions(state.inner, seat)

    def seats_to_act(self, state: Table[S]) -> tuple[int, ...]:
        """The game's seats to act once dealt."""
        if state.inner is None or state.vacant or self.outcome(state) is not None:
            return ()
        return tuple(self.game.seats_to_act(state.inner))

    def idle_seats(self, state: Table[S]) -> tuple[int, ...]:
        """The seats an idle game moves on (``idle``): before the deal the bot seats whose
        entropy it awaits, after it the seats it awaits."""
        if state.inner is None and self.outcome(state) is None:
            return state.awaiting_entropy
        return self.awaited_seats(state)

    def awaited_seats(self, state: Table[S]) -> tuple[int, ...]:
        """The game's awaited seats once dealt."""
        if state.inner is None or state.vacant or self.outcome(state) is not None:
            return ()
        return tuple(self.game.awaited_seats(state.inner))

    def upcast_action(self, action: Mapping[str, Any]) -> Mapping[str, Any]:
        """An old stored action shape read through the game's own upcaster, if it has one."""
        upcast = getattr(self.game, "upcast_action", None)
        return action if upcast is None else upcast(action)

    def may_send(self, state: Table[S], seat: int | None) -> list[str]:
        """The lifecycle actions that seat may send now: resign while the game is played,
        abort from a person's seat that has not agreed yet (before the deal too)."""
        return seat_may_send(state, seat, self.outcome(state) is not None)

    def view(self, state: Table[S], seat: int | None) -> dict[str, Any]:
        """The game's view (its waiting view until the deal) with the lifecycle facts."""
        inner = self.game.initial_state() if state.inner is None else state.inner
        ended = self.outcome(state)
        facts = table_facts(state, seat_may_send(state, seat, ended is not None))
        view = {**self.game.view(inner, seat), **facts}
        view["last_action"] = self.last_action(state, seat)
        if ended is not None:
            view.update(outcome=ended, legal_actions=[], to_act=[])
        return view

    def last_action(self, state: Table[S], seat: int | None) -> dict[str, Any] | None:
        """What just happened, in game words, as that seat may see it (domain.narration)."""
        recent = state.recent
        if recent and isinstance(recent[0], SeatResigned):
            who = recent[0].seat
            return {"seat": who, "type": "resign", "text": f"seat {who} resigned", "results": []}
        if recent and isinstance(recent[0], BotFellBack):
            fell = recent[0]
            said = f"seat {fell.seat} fell back ({fell.reason}) to the default move"
            told = self._moved_for(fell.seat, "fallback", said, self._told(recent[1:], seat))
            return {**told, "fallback": fell.reason}
        if recent and isinstance(recent[0], SeatIdled):
            idler = recent[0].seat
            return self._moved_for(idler, "idle", f"seat {idler} was idle too long",
                                   self._told(recent[1:], seat), ": the default move")
        if recent and isinstance(recent[0], clocks.TimedOut):
            late = recent[0].seat
            return self._moved_for(late, "timeout", f"seat {late} ran out of time",
                                   self._told(recent[1:], seat), ": the default move")
        return self._told(recent, seat)

    def _told(self, recent: Sequence[Event], seat: int | None) -> dict[str, Any] | None:
        if self._narration is None:
            return None
        return last_action(recent, lambda e: self.game.redact(e, seat),
                           self._narration.narrate, self._narration.ACTS)

    @staticmethod
    def _moved_for(
        seat: int, kind: str, said: str, move: dict[str, Any] | None, moved: str = ""
    ) -> dict[str, Any]:
        """The last action when the service moved for a seat (a bot's fallback, a timeout, an
        idle seat): what it did, said to be that (``moved`` names the move before its words)."""
        told = dict(move or {"seat": seat, "type": kind, "results": []})
        told["text"] = f"{said}{moved}: {told['text']}" if told.get("text") else said
        return told

    def reveal(self, state: Table[S]) -> dict[str, Any]:
        """The game's whole table with the lifecycle facts."""
        inner = self.game.initial_state() if state.inner is None else state.inner
        return {**self.game.reveal(inner), **self._facts(state)}

    def outcome(self, state: Table[S]) -> dict[str, Any] | None:
        """The game's outcome (None until dealt and over); an expired or resigned game's."""
        ended = table_outcome(state)
        if ended is not None:
            return ended
        return None if state.inner is None else self.game.outcome(state.inner)

    def tell(self, data: Encoded) -> str | None:
        """One event (as redacted for its viewer) in game words; None: nothing worth saying."""
        return tell(data, None if self._narration is None else self._narration.narrate)

    def redact(self, event: Event, seat: int | None) -> Encoded:
        """Lifecycle events are public (a fork's position: as the seat's view of it; a seat's
        fork's origin without its basis for anyone but that seat); the game redacts its own."""
        if isinstance(event, PositionDealt):
            return redacted(event, self.game.view(state_of(event), seat))
        if isinstance(event, GameForked):
            return self.codec.encode(origin_for(event, seat))
        if isinstance(event, EVENTS):
            return self.codec.encode(event)
        return self.game.redact(event, seat)

    def _facts(self, state: Table[S], seat: int | None = None) -> dict[str, Any]:
        return table_facts(state, self.may_send(state, seat))


_WRAPPED: dict[str, Lifecycle[Any]] = {}


def lifecycle(game: Game[Any]) -> Lifecycle[Any]:
    """The lifecycle around a game (one per game name and rules object; itself if it is one)."""
    if isinstance(game, Lifecycle):
        return game
    found = _WRAPPED.get(game.name)
    if found is None or found.game is not game:
        found = _WRAPPED[game.name] = Lifecycle(game)
    return found


__all__ = [
    "EVENTS",
    "TABLE_OPTIONS",
    "AbortAgreed",
    "EntropyAwaited",
    "EntropyNotAwaited",
    "EntropyPosted",
    "GameAborted",
    "GameCreated",
    "GameExpired",
    "GameStopped",
    "Keys",
    "Lifecycle",
    "LifecycleCodec",
    "SeatAlreadyFilled",
    "SeatFilled",
    "SeatLeft",
    "SeatResigned",
    "SeatRetaken",
    "SecretRevealed",
    "Table",
    "create_command",
    "entropy_command",
    "is_lifecycle_stream",
    "join_command",
    "lifecycle",
    "timeout_command",
]
