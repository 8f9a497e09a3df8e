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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Generic, TypeVar

from domain import clock as clocks
from domain.errors import GameOver, IllegalAction, InvalidAction, InvalidSetup, NotYourTurn
from domain.events import Encoded, Event, EventCodec
from domain.fairness import check_hex32, commitment, deal_seed
from domain.narration import extend, last_action
from domain.options import Option, non_default, parse_options
from domain.protocol import Action, Game, Setup, action_key, check_dealer, check_players, fold
from domain.seating import (
    TABLE_NAMES,
    TABLE_OPTIONS,
    AbortAgreed,
    GameAborted,
    SeatLeft,
    SeatRetaken,
    abort,
    leave,
    left,
    seat_list,
)

S = TypeVar("S")

PREFIX = "lifecycle."
SOURCES = ("client", "server")


@dataclass(frozen=True, slots=True, kw_only=True)
class GameCreated(Event):
    """A game was created: the commitment to the server's secret, options and seats to fill."""

    TYPE: ClassVar[str] = "lifecycle.GameCreated"
    game: str
    players: int
    options: dict[str, Any]
    dealer: int | None
    commitment: str
    prearranged: bool
    # The seats a bot fills at creation (people join the others); None for a game created
    # before this was recorded (schema 1): every seat then counts as a person's.
    bots: tuple[int, ...] | None = None

    SCHEMA: ClassVar[int] = 2


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatFilled(Event):
    """A seat was filled and contributed its entropy (``source``: who drew it)."""

    TYPE: ClassVar[str] = "lifecycle.SeatFilled"
    seat: int
    entropy: str
    source: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SecretRevealed(Event):
    """The game ended and the server revealed its secret (and a prearranged seed or deal)."""

    TYPE: ClassVar[str] = "lifecycle.SecretRevealed"
    secret: str
    seed: str
    deal: dict[str, Any] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameExpired(Event):
    """The game never filled its seats in time and ended without a deal."""

    TYPE: ClassVar[str] = "lifecycle.GameExpired"
    open_seats: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatResigned(Event):
    """A seat resigned: the game ends and that seat loses (docs/rules/*.md, "Resignation")."""

    TYPE: ClassVar[str] = "lifecycle.SeatResigned"
    seat: int


EVENTS: tuple[type[Event], ...] = (
    GameCreated,
    SeatFilled,
    SecretRevealed,
    GameExpired,
    SeatResigned,
    AbortAgreed,
    GameAborted,
    SeatLeft,
    SeatRetaken,
    *clocks.EVENTS,
)
# Actions every game takes through the normal action endpoint, never listed in legal_actions
# (so a bot choosing from that list never resigns by chance); the view names those a seat may send.
LIFECYCLE_ACTIONS = ("resign", "abort", "leave")


class SeatAlreadyFilled(IllegalAction):
    """The seat was filled before (a join or a bot)."""

    code = "seat_taken"


@dataclass(frozen=True, slots=True, kw_only=True)
class Keys:
    """What only the server knows until the end: its secret, a chosen seed or explicit deal."""

    secret: str
    seed: str | None = None
    deal: Mapping[str, Any] | None = None

    @property
    def prearranged(self) -> bool:
        """A chosen seed or an explicit deal: someone could know the cards in advance."""
        return self.seed is not None or self.deal is not None


@dataclass(frozen=True, slots=True, kw_only=True)
class Table(Generic[S]):
    """The lifecycle state around the game's own state (``inner`` is None until the deal)."""

    created: GameCreated | None = None
    entropy: tuple[str | None, ...] = ()
    inner: S | None = None
    revealed: SecretRevealed | None = None
    expired: GameExpired | None = None
    resigned: SeatResigned | None = None
    agreed: tuple[int, ...] = ()  # seats whose abort agreement is pending (after the deal)
    aborted: GameAborted | None = None
    vacant: tuple[int, ...] = ()  # seats left open after the deal: the game waits on them
    taken_over: tuple[tuple[int, str], ...] = ()  # (seat, bot) for seats a bot took over
    left: tuple[int, ...] = ()  # every seat a person has left, in order (history)
    recent: tuple[Event, ...] = ()  # the last seat action's events (domain.narration)
    clock: clocks.Clock | None = None

    @property
    def dealt(self) -> bool:
        """True once every seat is filled and the game's creation events are folded."""
        return self.inner is not None

    @property
    def open_seats(self) -> tuple[int, ...]:
        """Seats not filled yet."""
        return tuple(i for i, e in enumerate(self.entropy) if e is None)

    @property
    def prearranged(self) -> bool:
        """As recorded at creation."""
        return self.created is not None and self.created.prearranged

    def is_person(self, seat: int) -> bool:
        """True for a seat a person fills (or may fill): not a bot's, at creation or later."""
        bots = self.created.bots if self.created is not None else None
        if any(s == seat for s, _ in self.taken_over):
            return False
        return bots is None or seat not in bots

    @property
    def people(self) -> tuple[int, ...]:
        """The seats people hold now."""
        return tuple(
            s for s, e in enumerate(self.entropy)
            if e is not None and s not in self.vacant and self.is_person(s)
        )  # fmt: skip

    @property
    def joinable(self) -> tuple[int, ...]:
        """Seats a person may take: open before the deal, or left open after it."""
        return tuple(sorted({*self.open_seats, *self.vacant}))

    def table_option(self, name: str) -> Any:
        """A lifecycle option of this game (its default when not recorded)."""
        recorded = self.created.options if self.created is not None else {}
        default = next(o.default for o in TABLE_OPTIONS if o.name == name)
        return recorded.get(name, default)


class LifecycleCodec(EventCodec):
    """The lifecycle events plus the game's own codec (its names, schemas and upcasters)."""

    def __init__(self, inner: EventCodec) -> None:
        super().__init__(EVENTS)
        self.inner = inner
        self.upcaster(GameCreated.TYPE, 1)(_created_before_bots)

    def encode(self, event: Event) -> Encoded:
        """The event as flat JSON-ready data."""
        if isinstance(event, EVENTS):
            return super().encode(event)
        return self.inner.encode(event)

    def decode(self, data: Mapping[str, Any]) -> Event:
        """The event for stored data, through the game's codec unless it is a lifecycle one."""
        if str(data.get("type", "")).startswith(PREFIX):
            return super().decode(data)
        return self.inner.decode(data)


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
    ) -> list[Event]:
        """The creation batch: GameCreated, the seats filled at creation, the deal if all are.

        ``bots``: the seats bots fill (recorded, so abort knows whose agreement it needs)."""
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
            prearranged=keys.prearranged,
            bots=None if bots is None else _check_bots(bots, filled),
        )
        state = self.evolve(self.initial_state(), created)
        events: list[Event] = [created]
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
        created = _created(state)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < created.players:
            raise InvalidSetup(f"seat must be from 0 to {created.players - 1}, got {seat!r}")
        if seat in state.vacant:
            return [SeatRetaken(seat=seat)]
        if state.entropy[seat] is not None:
            raise SeatAlreadyFilled(f"seat {seat} is already filled")
        if source not in SOURCES:
            raise InvalidSetup(f"entropy source must be one of {', '.join(SOURCES)}")
        filled = SeatFilled(seat=seat, entropy=check_hex32(entropy, "entropy"), source=source)
        after = self.evolve(state, filled)
        if after.open_seats:
            return [filled]
        return [filled, *self.deal(after, keys, at)]

    def deal(self, state: Table[S], keys: Keys, at: int | None = None) -> list[Event]:
        """The game's own creation events once every seat is filled (checks the commitment)."""
        created = _created(state)
        if commitment(keys.secret) != created.commitment:
            raise InvalidSetup("the secret does not match the commitment published at creation")
        own = {k: v for k, v in created.options.items() if k not in TABLE_NAMES}
        setup = self._setup(created.players, own, created.dealer, keys, self.seed(state, keys))
        events = list(self.game.start(setup))
        if self.game.outcome(fold(self.game, events)) is not None:
            events.append(self.revelation(state, keys))
        elif state.clock is not None:
            dealt = fold(self, events, state)
            events += clocks.after_batch(dealt.clock, self.awaited_seats(dealt), None, at)
        return events

    def act(
        self, state: Table[S], seat: int, action: Action, keys: Keys, at: int | None = None
    ) -> list[Event]:
        """A seat's action (stamped ``at`` on a clocked game: the batch ends with its
        ClockSet); the batch that ends the game also reveals the secret."""
        events = self.decide(state, seat, action)
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
        policy: clocks.MovePolicy,
    ) -> list[Event]:
        """A seat out of time at ``at`` (the game at ``version``): TimedOut, then the default
        move's batch (``policy``, seeded by ``clocks.move_seed``) or the forfeit's end."""
        if self.outcome(state) is not None or state.inner is None:
            raise GameOver("the game is over: no clock runs")
        timed = clocks.timed_out(state.clock, seat, at)
        after = self.evolve(state, timed)
        if timed.on_timeout == clocks.FORFEIT:
            return [timed, self.revelation(state, keys)]
        seed = clocks.move_seed(self.seed(state, keys), version, seat)
        action = self._default_move(after, seat, policy, seed)
        return [timed, *self.act(after, seat, action, keys, at)]

    def _default_move(
        self, state: Table[S], seat: int, policy: clocks.MovePolicy, seed: str
    ) -> Action:
        assert state.inner is not None
        legal = self.game.legal_actions(state.inner, seat)
        if not legal:
            raise IllegalAction(f"seat {seat} has no move to make for it", reason="no_clock")
        chosen = dict(policy(self.name, self.game.view(state.inner, seat), seed))
        return chosen if action_key(chosen) in {action_key(a) for a in legal} else legal[0]

    def expire(self, state: Table[S], keys: Keys) -> list[Event]:
        """A game whose seats never all filled ends: GameExpired, then the secret revealed."""
        _created(state)
        if (state.dealt and not state.vacant) or self.outcome(state) is not None:
            raise IllegalAction("only a game still waiting for players can expire")
        return [GameExpired(open_seats=state.joinable), self.revelation(state, keys)]

    def revelation(self, state: Table[S], keys: Keys) -> SecretRevealed:
        """The event that reveals the secret, the seed and a prearranged deal."""
        deal = None if keys.deal is None else dict(keys.deal)
        return SecretRevealed(secret=keys.secret, seed=self.seed(state, keys), deal=deal)

    def seed(self, state: Table[S], keys: Keys) -> str:
        """The game's seed: chosen (prearranged) or derived from the secret and every entropy."""
        if keys.seed is not None:
            return keys.seed
        if state.open_seats:
            return ""
        return deal_seed(keys.secret, [e for e in state.entropy if e is not None])

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
        """Fold one event: lifecycle facts here, the game's own through its evolve."""
        match event:
            case GameCreated():
                timing = clocks.from_options(event.options, event.players)
                return replace(state, created=event, entropy=(None,) * event.players, clock=timing)
            case SeatFilled(seat=seat, entropy=entropy):
                filled = list(state.entropy)
                filled[seat] = entropy
                return replace(state, entropy=tuple(filled))
            case SecretRevealed():
                return replace(state, revealed=event)
            case GameExpired():
                return replace(state, expired=event)
            case SeatResigned():
                return replace(state, resigned=event, recent=(event,))
            case AbortAgreed(seat=seat):
                return replace(state, agreed=tuple(sorted({*state.agreed, seat})))
            case GameAborted():
                return replace(state, aborted=event)
            case SeatLeft():
                return left(state, event)
            case SeatRetaken(seat=seat):
                return replace(state, vacant=tuple(s for s in state.vacant if s != seat))
            case clocks.ClockSet() | clocks.TimedOut():
                if state.clock is None:
                    return state
                return replace(state, clock=clocks.evolve(state.clock, event))
            case _:
                inner = self.game.initial_state() if state.inner is None else state.inner
                recent = state.recent
                if self._narration is not None:
                    previous = recent[-1] if recent else None
                    role = self._narration.role(event, previous, inner)
                    recent = extend(recent, event, role)
                return replace(state, inner=self.game.evolve(inner, event), recent=recent)

    def decide(self, state: Table[S], seat: int, action: Action) -> list[Event]:
        """The lifecycle's actions (resign, abort) at any time; the game's once dealt."""
        kind = action.get("type") if isinstance(action, Mapping) else None
        if kind in LIFECYCLE_ACTIONS:
            return self._lifecycle_action(state, seat, str(kind), action)
        if state.inner is None:
            raise NotYourTurn("the game starts when every seat is filled", reason="not_started")
        if self.outcome(state) is not None:
            raise GameOver("the game is over")
        if state.vacant:
            raise NotYourTurn(f"seat(s) {seat_list(state.vacant)} left open: the game waits for "
                              "someone to take them", reason="seat_open")  # fmt: skip
        return list(self.game.decide(state.inner, seat, action))

    def _lifecycle_action(
        self, state: Table[S], seat: int, kind: str, action: Action
    ) -> list[Event]:
        if set(action) != {"type"}:
            raise InvalidAction(f'{kind} is {{"type": "{kind}"}} and nothing else')
        if not isinstance(seat, int) or not 0 <= seat < max(len(state.entropy), 1):
            raise InvalidAction(f"no seat {seat!r} to {kind}")
        if self.outcome(state) is not None:
            raise GameOver(f"the game is over: nothing to {kind}")
        if kind == "abort":
            return abort(state, seat)
        if kind == "leave":
            return leave(state, seat)
        if state.inner is None:
            raise NotYourTurn("the game starts when every seat is filled", reason="not_started")
        return [SeatResigned(seat=seat)]

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

    def awaited_seats(self, state: Table[S]) -> tuple[int, ...]:
        """The game's awaited seats once dealt."""
        if state.inner is None or state.vacant or self.outcome(state) is not None:
            return ()
        return tuple(self.game.awaited_seats(state.inner))

    def holds_optional_right(self, state: Table[S], seat: int) -> bool:
        """True when the seat may make an optional move while another is awaited (the game's
        ``holds_optional_right``: a Shithead ten out of turn); bots then wait their grace."""
        found = getattr(self.game, "holds_optional_right", None)
        if found is None or state.inner is None or state.vacant or self.outcome(state) is not None:
            return False
        return bool(found(state.inner, seat))

    def upcast_action(self, action: Mapping[str, Any]) -> Mapping[str, Any]:
        """An old stored action shape read through the game's own upcaster, if it has one."""
        upcast = getattr(self.game, "upcast_action", None)
        return action if upcast is None else upcast(action)

    def may_send(self, state: Table[S], seat: int | None) -> list[str]:
        """The lifecycle actions that seat may send now: resign while the game is played,
        abort from a person's seat that has not agreed yet (before the deal too)."""
        if seat is None or state.created is None or self.outcome(state) is not None:
            return []
        out = ["resign"] if state.inner is not None else []
        if seat in state.people and seat not in state.agreed:
            out.append("abort")
        if seat in state.people:
            out.append("leave")
        return out

    def view(self, state: Table[S], seat: int | None) -> dict[str, Any]:
        """The game's view (its waiting view until the deal) with the lifecycle facts."""
        inner = self.game.initial_state() if state.inner is None else state.inner
        view = {**self.game.view(inner, seat), **self._facts(state, seat)}
        view["last_action"] = self.last_action(state, seat)
        if self.outcome(state) is not None:
            view.update(outcome=self.outcome(state), legal_actions=[], to_act=[])
        return view

    def last_action(self, state: Table[S], seat: int | None) -> dict[str, Any] | None:
        """What just happened, in game words, as that seat may see it (domain.narration)."""
        recent = state.recent
        if recent and isinstance(recent[0], SeatResigned):
            who = recent[0].seat
            return {"seat": who, "type": "resign", "text": f"seat {who} resigned", "results": []}
        if self._narration is None:
            return None
        return last_action(recent, lambda e: self.game.redact(e, seat),
                           self._narration.narrate, self._narration.ACTS)

    def reveal(self, state: Table[S]) -> dict[str, Any]:
        """The game's whole table with the lifecycle facts."""
        inner = self.game.initial_state() if state.inner is None else state.inner
        return {**self.game.reveal(inner), **self._facts(state)}

    def outcome(self, state: Table[S]) -> dict[str, Any] | None:
        """The game's outcome (None until dealt and over); an expired or resigned game's."""
        if state.resigned is not None:
            return _resigned_outcome(state)
        if state.aborted is not None:
            agreed = list(state.aborted.agreed)
            return {"reason": "aborted", "agreed": agreed, "winners": [], "losers": []}
        if state.clock is not None and state.clock.forfeited is not None:
            return clocks.forfeit_outcome(state.clock.forfeited, len(state.entropy))
        if state.expired is not None:
            open_seats = list(state.expired.open_seats)
            return {"reason": "expired", "open_seats": open_seats, "winners": [], "losers": []}
        return None if state.inner is None else self.game.outcome(state.inner)

    def redact(self, event: Event, seat: int | None) -> Encoded:
        """Lifecycle events are public; the game redacts its own."""
        if isinstance(event, EVENTS):
            return self.codec.encode(event)
        return self.game.redact(event, seat)

    def _facts(self, state: Table[S], seat: int | None = None) -> dict[str, Any]:
        created = state.created
        facts = {
            "may_send": self.may_send(state, seat),
            "prearranged": state.prearranged,
            "commitment": None if created is None else created.commitment,
            "open_seats": list(state.joinable),
            "abort_agreed": list(state.agreed),
        }
        if state.clock is not None:
            facts["clock"] = clocks.view(state.clock)
        return facts


def _resigned_outcome(state: Table[Any]) -> dict[str, Any]:
    """The same rule for every game: the resigning seat loses the game (or match), every other
    seat wins it (documented in each docs/rules file under "Resignation")."""
    assert state.resigned is not None
    seat = state.resigned.seat
    others = [s for s in range(len(state.entropy)) if s != seat]
    return {"reason": "resigned", "resigned": seat, "winners": others, "losers": [seat]}


def _check_bots(bots: Sequence[int], filled: Sequence[tuple[int, str]]) -> tuple[int, ...]:
    seats = tuple(sorted(set(bots)))
    if not set(seats) <= {seat for seat, _ in filled}:
        raise InvalidSetup("a bot's seat is filled at creation")
    return seats


def _created_before_bots(data: Encoded) -> Encoded:
    """GameCreated schema 1 did not record the bots' seats."""
    return {**data, "bots": None}


def _created(state: Table[Any]) -> GameCreated:
    if state.created is None:
        raise InvalidSetup("the game has not been created")
    return state.created


def create_command(
    *,
    players: int,
    options: Mapping[str, Any],
    dealer: int | None,
    filled: Sequence[tuple[int, str]],
    bots: Sequence[int] | None = None,
) -> dict[str, Any]:
    """The stored command of a creation batch (no secret in it: commands are public)."""
    command = {
        "kind": "create",
        "players": players,
        "options": dict(options),
        "dealer": dealer,
        "filled": [[seat, entropy] for seat, entropy in filled],
    }
    return command if bots is None else {**command, "bots": list(bots)}


def join_command(seat: int, entropy: str, source: str) -> dict[str, Any]:
    """The stored command of a join batch."""
    return {"kind": "join", "seat": seat, "entropy": entropy, "source": source}


def timeout_command(seat: int, at: int) -> dict[str, Any]:
    """The stored command of a timeout batch (the service's enforcement of a clock)."""
    return {"kind": "timeout", "seat": seat, "at": at}


_WRAPPED: dict[str, Lifecycle[Any]] = {}


def lifecycle(game: Game[Any]) -> Lifecycle[Any]:
    """The lifecycle around a game (one per game name and rules object; itself if it is one)."""
    if isinstance(game, Lifecycle):
        return game
    found = _WRAPPED.get(game.name)
    if found is None or found.game is not game:
        found = _WRAPPED[game.name] = Lifecycle(game)
    return found


def is_lifecycle_stream(first_event: Mapping[str, Any]) -> bool:
    """True when a stored stream starts with GameCreated (format 2), not a game's start."""
    return first_event.get("type") == GameCreated.TYPE


__all__ = [
    "EVENTS",
    "TABLE_OPTIONS",
    "AbortAgreed",
    "GameAborted",
    "GameCreated",
    "GameExpired",
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
    "is_lifecycle_stream",
    "join_command",
    "lifecycle",
    "timeout_command",
]
