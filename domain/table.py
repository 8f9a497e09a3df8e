"""The lifecycle's state around a game's own (``Table``) and the server's ``Keys``, with the
pure functions over them: folding the lifecycle's events, the seat actions (resign, abort,
leave), the outcome the lifecycle ends a game with, the seed, the view's lifecycle facts.

``domain.lifecycle`` calls these and folds the game's own events into ``Table.inner`` itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from domain import clock as clocks
from domain.errors import GameOver, IllegalAction, InvalidAction, InvalidSetup, NotYourTurn
from domain.events import Event
from domain.fairness import deal_seed
from domain.fallback import BotFellBack
from domain.forks import GameForked, PositionDealt, origin_summary, state_of
from domain.frozen import copy_with
from domain.idle import SeatIdled
from domain.lifecycle_events import (
    EVENTS,
    EntropyAwaited,
    GameCreated,
    GameExpired,
    GameStopped,
    SeatFilled,
    SeatResigned,
    SecretRevealed,
)
from domain.narration import Role, extend
from domain.protocol import Action
from domain.seating import (
    TABLE_OPTIONS,
    AbortAgreed,
    AbortLapsed,
    AbortWithdrawn,
    GameAborted,
    SeatLeft,
    SeatRetaken,
)

S = TypeVar("S")


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


@dataclass(frozen=True, kw_only=True)
class Table(Generic[S]):
    """The lifecycle state around the game's own state (``inner`` is None until the deal).

    Without slots, as the games' states: the fold copies it for every event (``copy_with``)."""

    created: GameCreated | None = None
    entropy: tuple[str | None, ...] = ()
    inner: S | None = None
    revealed: SecretRevealed | None = None
    expired: GameExpired | None = None
    resigned: SeatResigned | None = None
    agreed: tuple[int, ...] = ()  # seats whose abort agreement is pending (after the deal)
    aborted: GameAborted | None = None
    stopped: GameStopped | None = None  # by the operator
    vacant: tuple[int, ...] = ()  # seats left open after the deal: the game waits on them
    taken_over: tuple[tuple[int, str], ...] = ()  # (seat, bot) for seats a bot took over
    left: tuple[int, ...] = ()  # every seat a person has left, in order (history)
    recent: tuple[Event, ...] = ()  # the last seat action's events (domain.narration)
    clock: clocks.Clock | None = None
    forked: GameForked | None = None  # a fork's origin (domain.forks)
    # (seat, fallback) of bot seats whose bot has not sent its own entropy yet (EntropyAwaited)
    awaiting: tuple[tuple[int, str], ...] = ()
    posted: tuple[int, ...] = ()  # awaited seats whose bot sent its entropy (source "client")

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
        """As recorded at creation (an open fork's position was chosen: prearranged)."""
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
        """Seats a person may take: open before the deal (not a bot's whose entropy the game
        awaits), or left open after it."""
        return tuple(sorted({*self.open_seats, *self.vacant} - set(self.awaiting_entropy)))

    @property
    def awaiting_entropy(self) -> tuple[int, ...]:
        """Bot seats whose bot has not sent its own entropy yet: the deal waits for them."""
        return tuple(seat for seat, _ in self.awaiting)

    def fallback_entropy(self, seat: int) -> str | None:
        """The entropy fixed at creation for an awaited seat whose bot never sends its own."""
        return next((e for s, e in self.awaiting if s == seat), None)

    def bot_pace_ms(self) -> int:
        """Milliseconds a bot's turn waits before the bot moves: the game's pace while a person
        holds a seat, 0 in a game of bots only. Public facts only (the seats, the options),
        never a card: a pause that depended on one would tell it (docs/fairness.md, "Timing")."""
        if not self.people:
            return 0
        recorded = self.created.options if self.created is not None else {}
        return int(recorded.get("bot_pace_ms", recorded.get("rights_grace_ms", 0)))

    def table_option(self, name: str) -> Any:
        """A lifecycle option of this game (its default when not recorded)."""
        recorded = self.created.options if self.created is not None else {}
        default = next(o.default for o in TABLE_OPTIONS if o.name == name)
        return recorded.get(name, default)


def fold_all(
    state: Table[S],
    events: Iterable[Event],
    evolve: Callable[[S, Event], S],
    initial: Callable[[], S],
    role: Role | None,
) -> Table[S]:
    """The table after events in turn, as ``Lifecycle.evolve`` leaves it after each (the game's
    ``evolve`` and ``initial`` state, its narration's ``role``), but copied once for each run
    of the game's own events rather than after each of them: no table in between is seen."""
    inner, recent, moved = state.inner, state.recent, False
    for event in events:
        if type(event) in FACTS:
            if moved:
                state, moved = moved_on(state, inner, recent), False
            folded = fold_fact(state, event)
            if folded is not None:
                state, inner, recent = folded, folded.inner, folded.recent
                continue
        if inner is None:
            inner = initial()
        if role is not None:
            said = role(event, recent[-1] if recent else None, inner)
            recent = extend(recent, event, role_after(recent, said))
        inner, moved = evolve(inner, event), True
    return moved_on(state, inner, recent) if moved else state


def role_after(recent: tuple[Event, ...], role: str) -> str:
    """An event's narration role, where the move a fallback, an idle seat or a timeout gets
    continues its story."""
    told_with = BotFellBack | SeatIdled | clocks.TimedOut  # the move is told with these
    if role == "act" and recent and isinstance(recent[-1], told_with):
        return "follow"
    return role


def moved_on(state: Table[S], inner: S | None, recent: tuple[Event, ...]) -> Table[S]:
    """The table after one of the game's own events: its state and recent run replaced."""
    return copy_with(state, inner=inner, recent=recent)


FACTS = frozenset(EVENTS)  # the lifecycle's own event classes (final: never subclassed)


def fold_fact(state: Table[S], event: Event) -> Table[S] | None:
    """The table after one lifecycle event; None for an event of the game's own."""
    match event:
        case GameCreated():
            timing = clocks.from_options(event.options, event.players)
            return copy_with(state, created=event, entropy=(None,) * event.players, clock=timing)
        case SeatFilled(seat=seat, entropy=entropy, source=source):
            filled = list(state.entropy)
            filled[seat] = entropy
            if seat not in state.awaiting_entropy:
                return copy_with(state, entropy=tuple(filled))
            awaiting = tuple(a for a in state.awaiting if a[0] != seat)
            posted = (*state.posted, seat) if source == "client" else state.posted
            return copy_with(state, entropy=tuple(filled), awaiting=awaiting, posted=posted)
        case EntropyAwaited(seat=seat, fallback=fallback):
            return copy_with(state, awaiting=(*state.awaiting, (seat, fallback)))
        case SecretRevealed():
            return copy_with(state, revealed=event)
        case GameForked():
            return copy_with(state, forked=event)
        case PositionDealt():
            return copy_with(state, inner=state_of(event), recent=())
        case GameExpired():
            return copy_with(state, expired=event)
        case SeatResigned():
            return copy_with(state, resigned=event, recent=(event,))
        case AbortAgreed(seat=seat):
            return copy_with(state, agreed=tuple(sorted({*state.agreed, seat})))
        case AbortWithdrawn(seat=seat):
            return copy_with(state, agreed=tuple(s for s in state.agreed if s != seat))
        case AbortLapsed(seats=seats):
            return copy_with(state, agreed=tuple(s for s in state.agreed if s not in seats))
        case GameAborted():
            return copy_with(state, aborted=event)
        case GameStopped():
            return copy_with(state, stopped=event)
        case SeatLeft():
            return left(state, event)
        case SeatRetaken(seat=seat):
            return copy_with(state, vacant=tuple(s for s in state.vacant if s != seat))
        case BotFellBack() | SeatIdled():  # what follows (a move, a leave) is told with it
            return copy_with(state, recent=(event,))
        case clocks.TimedOut():  # the default move that follows is told with it
            if state.clock is None:
                return copy_with(state, recent=(event,))
            return copy_with(state, clock=clocks.evolve(state.clock, event), recent=(event,))
        case clocks.ClockSet():
            if state.clock is None:
                return state
            return copy_with(state, clock=clocks.evolve(state.clock, event))
        case _:
            return None


def table_outcome(state: Table[Any]) -> dict[str, Any] | None:
    """How the lifecycle itself ended the game (resigned, aborted, out of time, expired);
    None when it did not (the game's own outcome then decides)."""
    if state.resigned is not None:
        return _resigned_outcome(state)
    if state.stopped is not None:
        return {"reason": "stopped", "note": state.stopped.reason, "winners": [], "losers": []}
    if state.aborted is not None:
        agreed = list(state.aborted.agreed)
        return {"reason": "aborted", "agreed": agreed, "winners": [], "losers": []}
    if state.clock is not None and state.clock.forfeited is not None:
        return clocks.forfeit_outcome(state.clock.forfeited, len(state.entropy))
    if state.expired is not None:
        open_seats = list(state.expired.open_seats)
        return {"reason": "expired", "open_seats": open_seats, "winners": [], "losers": []}
    return None


def table_facts(state: Table[Any], may_send: list[str]) -> dict[str, Any]:
    """The lifecycle facts every view and reveal carries (``may_send``: the seat's)."""
    created = state.created
    facts = {
        "may_send": may_send,
        "prearranged": state.prearranged,
        "commitment": None if created is None else created.commitment,
        "open_seats": list(state.joinable),
        "abort_agreed": list(state.agreed),
    }
    if state.awaiting:
        facts["awaiting_entropy"] = list(state.awaiting_entropy)
    if state.clock is not None:
        facts["clock"] = clocks.view(state.clock)
    if state.forked is not None:
        facts["forked"] = origin_summary(state.forked)
    return facts


def _resigned_outcome(state: Table[Any]) -> dict[str, Any]:
    """The same rule for every game: the resigning seat loses the game (or match), every other
    seat wins it (documented in each docs/rules file under "Resignation")."""
    assert state.resigned is not None
    seat = state.resigned.seat
    others = [s for s in range(len(state.entropy)) if s != seat]
    return {"reason": "resigned", "resigned": seat, "winners": others, "losers": [seat]}


def created_of(state: Table[Any]) -> GameCreated:
    """The table's GameCreated (InvalidSetup before it)."""
    if state.created is None:
        raise InvalidSetup("the game has not been created")
    return state.created


def game_seed(state: Table[Any], keys: Keys) -> str:
    """The game's seed: chosen (prearranged) or derived from the secret and every entropy."""
    if keys.seed is not None:
        return keys.seed
    if state.open_seats:
        return ""
    return deal_seed(keys.secret, [e for e in state.entropy if e is not None])


def seat_may_send(state: Table[Any], seat: int | None, over: bool) -> list[str]:
    """The lifecycle actions that seat may send now (``over``: the game has an outcome)."""
    if seat is None or state.created is None or over:
        return []
    out = ["resign"] if state.inner is not None else []
    if seat in state.people and seat not in state.agreed:
        out.append("abort")
    if seat in state.agreed:
        out.append("withdraw_abort")
    if seat in state.people:
        out.append("leave")
    return out


def check_bots(
    bots: Sequence[int],
    filled: Sequence[tuple[int, str]],
    awaiting: Sequence[tuple[int, str]] = (),
) -> tuple[int, ...]:
    """The bots' seats, sorted (InvalidSetup unless each is filled at creation or awaits its
    bot's entropy, and no seat is both)."""
    seats = tuple(sorted(set(bots)))
    given, awaited = {seat for seat, _ in filled}, [seat for seat, _ in awaiting]
    if given & set(awaited) or len(set(awaited)) != len(awaited):
        raise InvalidSetup("a seat awaiting its bot's entropy is filled once, by that bot")
    if not set(seats) <= given | set(awaited) or not set(awaited) <= set(seats):
        raise InvalidSetup("a bot's seat is filled at creation or awaits its bot's entropy")
    return seats


def seat_action(
    state: Table[S],
    seat: int,
    kind: str,
    action: Action,
    outcome: Callable[[Table[S]], dict[str, Any] | None],
) -> list[Event]:
    """A lifecycle action (resign, abort, leave: ``kind``) of a seat; ``outcome``: the game's."""
    if set(action) != {"type"}:
        raise InvalidAction(f'{kind} is {{"type": "{kind}"}} and nothing else')
    if not isinstance(seat, int) or not 0 <= seat < max(len(state.entropy), 1):
        raise InvalidAction(f"no seat {seat!r} to {kind}")
    if outcome(state) is not None:
        raise GameOver(f"the game is over: nothing to {kind}")
    if kind == "abort":
        return abort(state, seat)
    if kind == "withdraw_abort":
        return withdraw_abort(state, seat)
    if kind == "leave":
        return leave(state, seat)
    if state.inner is None:
        raise NotYourTurn("the game starts when every seat is filled", reason="not_started")
    return [SeatResigned(seat=seat)]


def abort(state: Table[Any], seat: int) -> list[Event]:
    """Before the deal one seated person aborts; after it every person must agree (bots are
    never asked). An agreement stands until the game ends (docs/decisions.md, "Abort")."""
    if seat not in state.people:
        raise IllegalAction(f"seat {seat} is not held by a person: only people abort",
                            reason="abort_not_a_person")  # fmt: skip
    if state.inner is None:
        return [GameAborted(agreed=(seat,))]
    if seat in state.agreed:
        raise IllegalAction(f"seat {seat} has already agreed to abort",
                            reason="abort_already_agreed")  # fmt: skip
    agreed = tuple(sorted({*state.agreed, seat}))
    events: list[Event] = [AbortAgreed(seat=seat)]
    if set(state.people) <= set(agreed):
        events.append(GameAborted(agreed=agreed))
    return events


def withdraw_abort(state: Table[Any], seat: int) -> list[Event]:
    """A person takes back their pending agreement to abort."""
    if seat not in state.agreed:
        raise IllegalAction(f"seat {seat} has no agreement to abort to withdraw",
                            reason="abort_not_agreed")  # fmt: skip
    return [AbortWithdrawn(seat=seat)]


def lapsed(state: Table[Any], seat: int, action: Action) -> list[Event]:
    """``AbortLapsed`` when a person who has not agreed makes a move of the game while others'
    agreements are pending (a game created with ``abort_lapses``): like a draw offer in chess,
    an agreement is accepted by agreeing, declined by playing on, and never held over."""
    kind = action.get("type") if isinstance(action, Mapping) else None
    created = state.created
    if created is None or not created.abort_lapses or not state.agreed or kind in SEAT_ACTIONS:
        return []
    if seat not in state.people or seat in state.agreed:
        return []
    return [AbortLapsed(seats=state.agreed)]


SEAT_ACTIONS = ("resign", "abort", "withdraw_abort", "leave")


def leave(state: Table[Any], seat: int) -> list[Event]:
    """A person leaves: before the deal the seat opens (its entropy withdrawn); after it the seat
    opens (the game waits) or ``leave_bot`` takes it over, as ``on_leave`` says. If every person
    left at the table had agreed to abort, the game is aborted now."""
    if seat not in state.people:
        raise IllegalAction(f"seat {seat} is not held by a person: nobody to leave it",
                            reason="leave_not_a_person")  # fmt: skip
    by_bot = state.inner is not None and state.table_option("on_leave") == "bot"
    events: list[Event] = [SeatLeft(seat=seat, bot=state.table_option("leave_bot") if by_bot
                                    else None)]  # fmt: skip
    rest = set(state.people) - {seat}
    if state.inner is not None and rest and rest <= set(state.agreed):
        events.append(GameAborted(agreed=tuple(sorted(rest))))
    return events


def left(state: Table[Any], event: SeatLeft) -> Table[Any]:
    seat = event.seat
    agreed = tuple(s for s in state.agreed if s != seat)
    state = copy_with(state, left=(*state.left, seat))
    if state.inner is None:
        entropy = tuple(None if i == seat else e for i, e in enumerate(state.entropy))
        return copy_with(state, entropy=entropy, agreed=agreed)
    if event.bot is None:
        return copy_with(state, vacant=tuple(sorted({*state.vacant, seat})), agreed=agreed)
    return copy_with(state, taken_over=(*state.taken_over, (seat, event.bot)), agreed=agreed)
