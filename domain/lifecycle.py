"""The lifecycle layer around every game's decider: creation, seats filled, the deal, the reveal.

A game's stream begins with ``lifecycle.GameCreated`` (the commitment to the server's secret,
whether the game is prearranged) and one ``lifecycle.SeatFilled`` per seat filled at creation
(bots). Every join appends a ``SeatFilled`` with that seat's entropy; the join that fills the
last seat also appends the game's own creation events (``<game>.GameStarted`` and the deal),
made from ``domain.fairness.deal_seed(secret, entropy...)`` (or the chosen seed or explicit deal
of a *prearranged* game). The batch that ends the game ends with ``lifecycle.SecretRevealed``.

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
from domain.options import Option
from domain.protocol import Action, Game, Setup, action_key, check_dealer, check_players, fold

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
    *clocks.EVENTS,
)
# Actions every game takes through the normal action endpoint, never listed in legal_actions
# (so a bot choosing from that list never resigns by chance); the view names those a seat may send.
LIFECYCLE_ACTIONS = ("resign",)


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


class LifecycleCodec(EventCodec):
    """The lifecycle events plus the game's own codec (its names, schemas and upcasters)."""

    def __init__(self, inner: EventCodec) -> None:
        super().__init__(EVENTS)
        self.inner = inner

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
        self.options: tuple[Option, ...] = (*game.options, *clocks.OPTIONS)
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
        at: int | None = None,
    ) -> list[Event]:
        """The creation batch: GameCreated, the seats filled at creation, the deal if all are."""
        check_players(self.game, players)
        check_dealer(dealer, players)
        check_hex32(keys.secret, "the server's secret")
        promise = commitment(keys.secret)
        own, timing = clocks.split(options)
        timing = clocks.parse(timing)
        trial = self.game.start(self._setup(players, own, dealer, keys, promise))
        full = self.game.codec.encode(trial[0]).get("options", dict(own))
        created = GameCreated(
            game=self.name,
            players=players,
            options={**full, **timing},
            dealer=dealer,
            commitment=promise,
            prearranged=keys.prearranged,
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
        setup = self._setup(
            created.players, created.options, created.dealer, keys, self.seed(state, keys)
        )
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
        if state.dealt or state.expired is not None:
            raise IllegalAction("only a game still waiting for players can expire")
        return [GameExpired(open_seats=state.open_seats), self.revelation(state, keys)]

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
                return replace(state, resigned=event)
            case clocks.ClockSet() | clocks.TimedOut():
                if state.clock is None:
                    return state
                return replace(state, clock=clocks.evolve(state.clock, event))
            case _:
                inner = self.game.initial_state() if state.inner is None else state.inner
                return replace(state, inner=self.game.evolve(inner, event))

    def decide(self, state: Table[S], seat: int, action: Action) -> list[Event]:
        """The game's decide once dealt; before that nobody may act."""
        if state.inner is None:
            raise NotYourTurn("the game starts when every seat is filled", reason="not_started")
        if isinstance(action, Mapping) and action.get("type") in LIFECYCLE_ACTIONS:
            return self._resign(state, seat, action)
        if self.outcome(state) is not None:
            raise GameOver("the game is over")
        return list(self.game.decide(state.inner, seat, action))

    def _resign(self, state: Table[S], seat: int, action: Action) -> list[Event]:
        players = _created(state).players if state.created else len(state.entropy)
        if set(action) != {"type"}:
            raise InvalidAction("a resignation is {\"type\": \"resign\"} and nothing else")
        if not isinstance(seat, int) or not 0 <= seat < max(players, 1):
            raise InvalidAction(f"no seat {seat!r} to resign")
        if self.outcome(state) is not None:
            raise GameOver("the game is over: nothing to resign")
        return [SeatResigned(seat=seat)]

    def legal_actions(self, state: Table[S], seat: int) -> list[dict[str, Any]]:
        """The game's legal actions once dealt (never the lifecycle's: see ``may_send``)."""
        if state.inner is None or self.outcome(state) is not None:
            return []
        return self.game.legal_actions(state.inner, seat)

    def seats_to_act(self, state: Table[S]) -> tuple[int, ...]:
        """The game's seats to act once dealt."""
        if state.inner is None or self.outcome(state) is not None:
            return ()
        return tuple(self.game.seats_to_act(state.inner))

    def awaited_seats(self, state: Table[S]) -> tuple[int, ...]:
        """The game's awaited seats once dealt."""
        if state.inner is None or self.outcome(state) is not None:
            return ()
        return tuple(self.game.awaited_seats(state.inner))

    def upcast_action(self, action: Mapping[str, Any]) -> Mapping[str, Any]:
        """An old stored action shape read through the game's own upcaster, if it has one."""
        upcast = getattr(self.game, "upcast_action", None)
        return action if upcast is None else upcast(action)

    def may_send(self, state: Table[S], seat: int | None) -> list[str]:
        """The lifecycle actions that seat may send now (resign while the game is played)."""
        playing = state.inner is not None and self.outcome(state) is None
        return ["resign"] if playing and seat is not None else []

    def view(self, state: Table[S], seat: int | None) -> dict[str, Any]:
        """The game's view (its waiting view until the deal) with the lifecycle facts."""
        inner = self.game.initial_state() if state.inner is None else state.inner
        view = {**self.game.view(inner, seat), **self._facts(state, seat)}
        if self.outcome(state) is not None:
            view.update(outcome=self.outcome(state), legal_actions=[], to_act=[])
        return view

    def reveal(self, state: Table[S]) -> dict[str, Any]:
        """The game's whole table with the lifecycle facts."""
        inner = self.game.initial_state() if state.inner is None else state.inner
        return {**self.game.reveal(inner), **self._facts(state)}

    def outcome(self, state: Table[S]) -> dict[str, Any] | None:
        """The game's outcome (None until dealt and over); an expired or resigned game's."""
        if state.resigned is not None:
            return _resigned_outcome(state)
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
            "open_seats": list(state.open_seats),
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
) -> dict[str, Any]:
    """The stored command of a creation batch (no secret in it: commands are public)."""
    return {
        "kind": "create",
        "players": players,
        "options": dict(options),
        "dealer": dealer,
        "filled": [[seat, entropy] for seat, entropy in filled],
    }


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
    "GameCreated",
    "GameExpired",
    "Keys",
    "Lifecycle",
    "LifecycleCodec",
    "SeatAlreadyFilled",
    "SeatFilled",
    "SeatResigned",
    "SecretRevealed",
    "Table",
    "create_command",
    "is_lifecycle_stream",
    "join_command",
    "lifecycle",
    "timeout_command",
]
