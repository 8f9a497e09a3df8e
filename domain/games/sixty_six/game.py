"""The Sixty-Six decider: start and decide (the fold lives in fold.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from domain.deals import deal_order, parse_deal
from domain.errors import InvalidDeal, InvalidSetup
from domain.events import Encoded, Event
from domain.games.sixty_six import narration, views
from domain.games.sixty_six.events import (
    CODEC,
    CardDrawn,
    CardPlayed,
    CardsDrawn,
    DeclaredOut,
    GameAborted,
    GameStarted,
    MarriageAnnounced,
    MatchEnded,
    MatchResumed,
    Passed,
    StockClosed,
    TrumpExchanged,
    trick_won,
)
from domain.games.sixty_six.fold import evolve
from domain.games.sixty_six.match import MatchState, match_state
from domain.games.sixty_six.rules import (
    CARD_CODES,
    acting_seats,
    awaited_seat,
    declares,
    exchange_card,
    legal_actions,
    parse_action,
    partner,
    problem,
    upcast_action,
)
from domain.games.sixty_six.scoring import (
    deal_events,
    deck_for,
    end_of_deal,
    judge_declaration,
    seeded_order,
    split_deck,
)
from domain.games.sixty_six.state import (
    CARD_POINTS,
    OPTIONS,
    Deal,
    Rules,
    State,
    beats,
)
from domain.options import parse_options
from domain.protocol import Setup, check_dealer, check_players
from domain.shuffle import deck_commitment, seeded_choice

_INITIAL = State()


class SixtySix:
    """Sixty-Six (Sechsundsechzig) for two players, a match to ``game_target`` game points."""

    name = "sixty_six"
    title = "Sixty-Six"
    min_players = 2
    max_players = 2
    options = OPTIONS
    codec = CODEC
    narration = narration  # last_action: roles and words (domain.narration)
    # never made for a seat by a default move while anything else is legal (domain.default_move)
    default_move_skips = frozenset({"close", "declare_out"})

    def start(self, setup: Setup) -> list[Event]:
        """GameStarted and the first deal (seeded, or the explicit deal given)."""
        check_players(self, setup.players)
        check_dealer(setup.dealer, setup.players)
        if not isinstance(setup.seed, str):
            raise InvalidSetup(f"seed must be a string, got {setup.seed!r}")
        options = parse_options(OPTIONS, setup.options)
        rules = Rules.of(options)
        dealer = setup.dealer
        if dealer is None:
            dealer = seeded_choice(setup.seed, "dealer", 2)
        match = MatchState()
        if setup.deal is not None:
            cards, match = match_state(setup.deal, rules)
            hands, trump, stock, order = _explicit(cards, rules)
        else:
            order = seeded_order(setup.seed, 0, rules)
            hands, trump, stock = split_deck(order, dealer, rules)
        started = GameStarted(players=2, dealer=dealer, options=options, seed=setup.seed,
                              commitment=deck_commitment(setup.seed, order),
                              explicit_deal=setup.deal is not None)
        resumed: list[Event] = []
        if match != MatchState():
            resumed.append(MatchResumed(match_points=match.match_points,
                                        deals_scored=match.deal_number))
        deal = deal_events(match.deal_number, dealer, hands, trump, stock, match.carry_over)
        return [started, *resumed, *deal]

    def initial_state(self) -> State:
        """Before GameStarted."""
        return _INITIAL

    def decide(self, state: State, seat: int, action: Mapping[str, Any]) -> list[Event]:
        """The events of one action, or the most specific DomainError."""
        kind, card = parse_action(action)
        error = problem(state, seat, kind, card)
        if error is not None:
            raise error
        events = _HANDLERS[kind](state, seat, card)
        if kind == "marriage" and declares(action):
            events += _declare(_after(state, events), seat, None)
        if state.actions + 1 >= state.rules.action_limit and not isinstance(
            events[-1], MatchEnded
        ):
            events.append(GameAborted(reason="action_limit", actions=state.actions + 1))
        return events

    # Per-action queries are the functions themselves, not methods calling them (one call less).
    legal_actions = staticmethod(legal_actions)  # every action the seat may send now

    def upcast_action(self, action: Mapping[str, Any]) -> Mapping[str, Any]:
        """A stored command's action in today's shape (replays recorded before §15's)."""
        return upcast_action(action)

    def seats_to_act(self, state: State) -> tuple[int, ...]:
        """Seats that may act now (both while any-time declaring is on)."""
        return acting_seats(state)

    awaited_seats = staticmethod(awaited_seat)  # whose turn it is; the other may only declare out

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The table as that seat (None: spectator) sees it."""
        return views.view(state, seat)

    def reveal(self, state: State) -> dict[str, Any]:
        """The table with everything open."""
        return views.reveal(state)

    outcome = staticmethod(views.outcome)  # None while playing, then the match result

    def redact(self, event: Event, seat: int | None) -> Encoded:
        """The encoded event as that seat may see it during play."""
        return views.redact(event, seat)

    # Fold one event: the fold itself, not a method calling it (one call less per event);
    # it is given only Sixty-Six events.
    evolve = staticmethod(cast(Callable[[State, Event], State], evolve))


def _explicit(
    raw: Mapping[str, Any], rules: Rules
) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], str, tuple[str, ...], list[str]]:
    deck = deck_for(rules)
    deal = parse_deal(raw, players=2, deck=deck, seat_zones=("hand",),
                      extra_zones=("trump_card",))
    size = rules.hand_size
    hands = (tuple(deal["seats"][0]["hand"]), tuple(deal["seats"][1]["hand"]))
    stock, trump = tuple(deal["stock"]), tuple(deal["extra"]["trump_card"])
    if len(hands[0]) != size or len(hands[1]) != size:
        raise InvalidDeal(f"each hand must hold {size} cards")
    if len(trump) != 1 or len(stock) != len(deck) - 2 * size - 1:
        raise InvalidDeal(f"a deal needs one trump_card and {len(deck) - 2 * size - 1} stock cards")
    return hands, trump[0], stock, deal_order(deal, ("hand",), ("trump_card",))


# --- decide handlers: each returns the events of a validated action -------------------------


_POINTS = {card: CARD_POINTS[card[0]] for card in CARD_CODES}
# beats(follow, lead, trump) of every follow to a lead, looked up once per trick, not called
_BEATS = {
    (follow, lead, trump): beats(follow, lead, trump)
    for follow in CARD_CODES for lead in CARD_CODES if follow != lead for trump in "CDHS"
}

# Events are immutable values: the few distinct plays and draws are built once, not per action.
_PLAYED = {
    (seat, card, role): CardPlayed(seat=seat, card=card, role=role)
    for seat in (0, 1) for card in sorted(CARD_CODES) for role in ("lead", "follow")
}
_DRAWN = {
    (seat, card, face_up): CardDrawn(seat=seat, card=card, face_up=face_up)
    for seat in (0, 1) for card in sorted(CARD_CODES) for face_up in (False, True)
}
_SIZES = range(len(CARD_CODES) + 1)
_BOTH_DRAWN = {
    (size, taker, automatic): CardsDrawn(stock_size=size, trump_taken_by=taker,
                                         automatic=automatic)
    for size in _SIZES for taker in (None, 0, 1) for automatic in (False, True)
}
_CLOSED = {
    (seat, before, size, had): StockClosed(seat=seat, before_draw=before, stock_size=size,
                                           opponent_had_trick_at_close=had)
    for seat in (0, 1) for before in (False, True) for size in _SIZES for had in (False, True)
}
_PASSED = (Passed(seat=0), Passed(seat=1))
_DECLARED = (DeclaredOut(seat=0), DeclaredOut(seat=1))


def _play(state: State, seat: int, card: str | None) -> list[Event]:
    deal = state.deal
    assert deal is not None and card is not None
    if deal.phase == "lead":
        return [_PLAYED[seat, card, "lead"]]
    return _trick(state, deal, seat, card)


def _trick(state: State, deal: Deal, follower: int, card: str) -> list[Event]:
    """The follow that completes the trick, TrickWon and the automatic draws, if any."""
    played = _PLAYED[follower, card, "follow"]
    lead = deal.trick[0]
    winner = follower if _BEATS[card, lead, deal.trump_card[1]] else 1 - follower
    won = deal.won
    tricks = (won[0] + 1, won[1]) if winner == 0 else (won[0], won[1] + 1)
    rules = state.rules
    closed = deal.closed_by is not None
    last = not closed and len(deal.hands[follower]) == 1
    taken = trick_won(winner=winner, cards=(lead, card), points=_POINTS[lead] + _POINTS[card],
                      tricks=tricks, marriage_credited=deal.pending[winner],
                      last_trick_bonus=rules.last_trick_bonus if last else 0)
    if not closed and deal.under is not None and not rules.close_before_draw:  # stock open
        return [played, taken, *_draws(deal, winner, automatic=True)]
    return [played, taken]


def _draws(deal: Deal, winner: int, automatic: bool) -> list[Event]:
    pile = [*deal.stock, deal.under]
    taker = 1 - winner if len(pile) == 2 else None
    return [
        _DRAWN[winner, str(pile[0]), False],
        _DRAWN[1 - winner, str(pile[1]), len(pile) == 2],
        _BOTH_DRAWN[len(pile) - 2, taker, automatic],
    ]


def _marriage(state: State, seat: int, card: str | None) -> list[Event]:
    deal = state.deal
    assert deal is not None and card is not None
    value = 40 if card[1] == deal.trump else 20
    credited = not state.rules.marriage_points_need_trick or deal.won[seat] > 0
    return [
        MarriageAnnounced(seat=seat, suit=card[1], value=value, card=card, shown=partner(card),
                          credited=credited),
        _PLAYED[seat, card, "lead"],
    ]


def _after(state: State, events: list[Event]) -> State:
    for event in events:
        state = evolve(state, event)  # type: ignore[arg-type]
    return state


def _exchange(state: State, seat: int, card: str | None) -> list[Event]:
    deal = state.deal
    assert deal is not None and deal.under is not None
    return [TrumpExchanged(seat=seat, nine=exchange_card(deal, state.rules), taken=deal.under)]


def _close(state: State, seat: int, card: str | None) -> list[Event]:
    deal = state.deal
    assert deal is not None
    return [_CLOSED[seat, deal.phase == "draw", deal.stock_size, deal.won[1 - seat] > 0]]


def _draw(state: State, seat: int, card: str | None) -> list[Event]:
    assert state.deal is not None
    return _draws(state.deal, seat, automatic=False)


def _declare(state: State, seat: int, card: str | None) -> list[Event]:
    assert state.deal is not None
    winner, reason, base = judge_declaration(state.deal, state.rules, seat)
    return [_DECLARED[seat], *end_of_deal(state, winner, reason, base)]


def _pass(state: State, seat: int, card: str | None) -> list[Event]:
    deal = state.deal
    assert deal is not None
    passed: list[Event] = [_PASSED[seat]]
    if deal.passes == 0:
        return passed
    if deal.closed_by is None:
        return passed + end_of_deal(state, None, "undecided", 0)
    winner, reason, base = judge_declaration(deal, state.rules, deal.closed_by)
    return passed + end_of_deal(state, winner, reason, base, deemed=True)


_HANDLERS = {
    "play": _play,
    "marriage": _marriage,
    "exchange_trump": _exchange,
    "close": _close,
    "draw": _draw,
    "declare_out": _declare,
    "pass": _pass,
}
