"""The Sixty-Six decider: start, decide and the exhaustive evolve."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, assert_never

from domain.deals import deal_order, parse_deal
from domain.errors import InvalidDeal, InvalidSetup
from domain.events import Encoded, Event
from domain.games.sixty_six import views
from domain.games.sixty_six.events import (
    CODEC,
    CardDrawn,
    CardPlayed,
    CardsDrawn,
    DealScored,
    DealStarted,
    DeclaredOut,
    GameAborted,
    GameStarted,
    HandDealt,
    MarriageAnnounced,
    MatchEnded,
    Passed,
    SixtySixEvent,
    StockClosed,
    StockLaid,
    TrickWon,
    TrumpExchanged,
)
from domain.games.sixty_six.rules import (
    acting_seats,
    exchange_card,
    legal_actions,
    parse_action,
    partner,
    problem,
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
    copy_deal,
    copy_state,
    with_seat,
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
        if setup.deal is not None:
            hands, trump, stock, order = _explicit(setup.deal, rules)
        else:
            order = seeded_order(setup.seed, 0, rules)
            hands, trump, stock = split_deck(order, dealer, rules)
        started = GameStarted(players=2, dealer=dealer, options=options, seed=setup.seed,
                              commitment=deck_commitment(setup.seed, order),
                              explicit_deal=setup.deal is not None)
        return [started, *deal_events(0, dealer, hands, trump, stock, 0)]

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
        if state.actions + 1 >= state.rules.action_limit and not isinstance(
            events[-1], MatchEnded
        ):
            events.append(GameAborted(reason="action_limit", actions=state.actions + 1))
        return events

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Every action the seat may send now."""
        return legal_actions(state, seat)

    def seats_to_act(self, state: State) -> tuple[int, ...]:
        """Seats that may act now (both while any-time declaring is on)."""
        return acting_seats(state)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The table as that seat (None: spectator) sees it."""
        return views.view(state, seat)

    def reveal(self, state: State) -> dict[str, Any]:
        """The table with everything open."""
        return views.reveal(state)

    def outcome(self, state: State) -> dict[str, Any] | None:
        """None while playing, then the match result."""
        return views.outcome(state)

    def redact(self, event: Event, seat: int | None) -> Encoded:
        """The encoded event as that seat may see it during play."""
        return views.redact(event, seat)

    def evolve(self, state: State, event: Event) -> State:
        """Fold one event."""
        return evolve(state, event)  # type: ignore[arg-type]


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


def _play(state: State, seat: int, card: str | None) -> list[Event]:
    deal = state.deal
    assert deal is not None and card is not None
    if deal.phase == "lead":
        return [CardPlayed(seat=seat, card=card, role="lead")]
    played: list[Event] = [CardPlayed(seat=seat, card=card, role="follow")]
    return played + _trick(state, deal, seat, card)


def _trick(state: State, deal: Deal, follower: int, card: str) -> list[Event]:
    lead = deal.trick[0]
    winner = follower if beats(card, lead, deal.trump) else 1 - follower
    tricks = with_seat(deal.won, winner, deal.won[winner] + 1)
    last = len(deal.hands[follower]) == 1 and deal.closed_by is None
    won = TrickWon(winner=winner, cards=(lead, card), points=CARD_POINTS[lead[0]]
                   + CARD_POINTS[card[0]], tricks=tricks, marriage_credited=deal.pending[winner],
                   last_trick_bonus=state.rules.last_trick_bonus if last else 0)
    if deal.stock_open and not state.rules.close_before_draw:
        return [won, *_draws(deal, winner, automatic=True)]
    return [won]


def _draws(deal: Deal, winner: int, automatic: bool) -> list[Event]:
    pile = [*deal.stock, deal.under]
    taker = 1 - winner if len(pile) == 2 else None
    return [
        CardDrawn(seat=winner, card=str(pile[0]), face_up=False),
        CardDrawn(seat=1 - winner, card=str(pile[1]), face_up=len(pile) == 2),
        CardsDrawn(stock_size=len(pile) - 2, trump_taken_by=taker, automatic=automatic),
    ]


def _marriage(state: State, seat: int, card: str | None) -> list[Event]:
    deal = state.deal
    assert deal is not None and card is not None
    value = 40 if card[1] == deal.trump else 20
    credited = not state.rules.marriage_points_need_trick or deal.won[seat] > 0
    return [
        MarriageAnnounced(seat=seat, suit=card[1], value=value, card=card, shown=partner(card),
                          credited=credited),
        CardPlayed(seat=seat, card=card, role="lead"),
    ]


def _exchange(state: State, seat: int, card: str | None) -> list[Event]:
    deal = state.deal
    assert deal is not None and deal.under is not None
    return [TrumpExchanged(seat=seat, nine=exchange_card(deal, state.rules), taken=deal.under)]


def _close(state: State, seat: int, card: str | None) -> list[Event]:
    deal = state.deal
    assert deal is not None
    return [StockClosed(seat=seat, before_draw=deal.phase == "draw", stock_size=deal.stock_size,
                        opponent_had_trick_at_close=deal.won[1 - seat] > 0)]


def _draw(state: State, seat: int, card: str | None) -> list[Event]:
    assert state.deal is not None
    return _draws(state.deal, seat, automatic=False)


def _declare(state: State, seat: int, card: str | None) -> list[Event]:
    assert state.deal is not None
    winner, reason, base = judge_declaration(state.deal, state.rules, seat)
    return [DeclaredOut(seat=seat), *end_of_deal(state, winner, reason, base)]


def _pass(state: State, seat: int, card: str | None) -> list[Event]:
    deal = state.deal
    assert deal is not None
    passed: list[Event] = [Passed(seat=seat)]
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


# --- evolve ----------------------------------------------------------------------------------


def evolve(state: State, event: SixtySixEvent) -> State:
    """Fold one Sixty-Six event onto the state."""
    match event:
        case GameStarted(options=options, seed=seed, dealer=dealer):
            return State(started=True, options=dict(options), rules=Rules.of(dict(options)),
                         seed=seed, first_dealer=dealer)
        case DealStarted(number=number, dealer=dealer, trump_card=trump, carry_over=carry):
            deal = Deal(number=number, dealer=dealer, trump_card=trump, under=trump,
                        turn=1 - dealer)
            return copy_state(state, deal=deal, carry_over=carry)
        case HandDealt(seat=seat, cards=cards):
            return _with_deal(state, hands=_set_hand(_deal(state).hands, seat, cards))
        case StockLaid(cards=cards):
            return _with_deal(state, stock=cards)
        case CardPlayed():
            return copy_state(state, deal=_played(_deal(state), event), actions=state.actions + 1)
        case MarriageAnnounced():
            return _with(state, _married(_deal(state), event))
        case TrumpExchanged(seat=seat, nine=nine, taken=taken):
            return copy_state(state, deal=_exchanged(_deal(state), seat, nine, taken),
                           actions=state.actions + 1)
        case TrickWon():
            return _with(state, _trick_won(_deal(state), event))
        case CardDrawn(seat=seat, card=card, face_up=face_up):
            return _with(state, _drawn(_deal(state), seat, card, face_up))
        case CardsDrawn(automatic=automatic):
            deal = copy_deal(_deal(state), phase="lead")
            return copy_state(state, deal=deal, actions=state.actions + (not automatic))
        case StockClosed(seat=seat, before_draw=before, opponent_had_trick_at_close=had):
            deal = copy_deal(_deal(state), closed_by=seat, closed_before_draw=before,
                           opponent_had_trick_at_close=had, phase="lead")
            return copy_state(state, deal=deal, actions=state.actions + 1)
        case DeclaredOut():
            return copy_state(state, deal=copy_deal(_deal(state), phase="over"),
                           actions=state.actions + 1)
        case Passed():
            deal = _deal(state)
            deal = copy_deal(deal, passes=deal.passes + 1, turn=1 - deal.turn)
            return copy_state(state, deal=deal, actions=state.actions + 1)
        case DealScored():
            return _scored(state, event)
        case MatchEnded(winner=winner):
            return copy_state(state, ended="finished", winner=winner)
        case GameAborted():
            return copy_state(state, ended="action_limit")
        case _:
            assert_never(event)


def _deal(state: State) -> Deal:
    assert state.deal is not None
    return state.deal


def _with(state: State, deal: Deal) -> State:
    return copy_state(state, deal=deal)


def _with_deal(state: State, **changes: Any) -> State:
    return copy_state(state, deal=copy_deal(_deal(state), **changes))


Hands = tuple[tuple[str, ...], tuple[str, ...]]


def _set_hand(hands: Hands, seat: int, cards: tuple[str, ...]) -> Hands:
    return (cards, hands[1]) if seat == 0 else (hands[0], cards)


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    return tuple(c for c in cards if c != card)


def _played(deal: Deal, event: CardPlayed) -> Deal:
    seat, card = event.seat, event.card
    hands = _set_hand(deal.hands, seat, _without(deal.hands[seat], card))
    known = _set_hand(deal.known, seat, _without(deal.known[seat], card))
    if event.role == "lead":
        return copy_deal(deal, hands=hands, known=known, trick=(card,), phase="follow",
                       turn=1 - seat)
    return copy_deal(deal, hands=hands, known=known, trick=(*deal.trick, card))


def _married(deal: Deal, event: MarriageAnnounced) -> Deal:
    seat = event.seat
    entry = (seat, event.suit, event.value, event.card, event.shown, event.credited)
    known = deal.known
    if event.shown not in known[seat]:
        known = _set_hand(known, seat, (*known[seat], event.shown))
    if event.credited:
        points = with_seat(deal.marriage_points, seat, deal.marriage_points[seat] + event.value)
        return copy_deal(deal, marriages=(*deal.marriages, entry), known=known,
                       marriage_points=points)
    pending = with_seat(deal.pending, seat, deal.pending[seat] + event.value)
    return copy_deal(deal, marriages=(*deal.marriages, entry), known=known, pending=pending)


def _exchanged(deal: Deal, seat: int, nine: str, taken: str) -> Deal:
    hands = _set_hand(deal.hands, seat, (*_without(deal.hands[seat], nine), taken))
    known = _set_hand(deal.known, seat, (*deal.known[seat], taken))
    return copy_deal(deal, hands=hands, known=known, under=nine, exchanged=(seat, nine, taken))


def _trick_won(deal: Deal, event: TrickWon) -> Deal:
    w = event.winner
    lead, follow = event.cards
    if deal.stock_open:
        phase = "draw"
    elif len(deal.hands[0]) + len(deal.hands[1]) == 0:
        phase = "end_window"
    else:
        phase = "lead"
    return copy_deal(
        deal, trick=(), tricks=(*deal.tricks, (w, lead, follow)), won=event.tricks,
        card_points=with_seat(deal.card_points, w, deal.card_points[w] + event.points),
        marriage_points=with_seat(deal.marriage_points, w,
                                  deal.marriage_points[w] + event.marriage_credited),
        pending=with_seat(deal.pending, w, 0),
        bonus=with_seat(deal.bonus, w, deal.bonus[w] + event.last_trick_bonus), turn=w,
        phase=phase, passes=0,
    )


def _drawn(deal: Deal, seat: int, card: str, face_up: bool) -> Deal:
    hands = _set_hand(deal.hands, seat, (*deal.hands[seat], card))
    if face_up:
        known = _set_hand(deal.known, seat, (*deal.known[seat], card))
        return copy_deal(deal, hands=hands, under=None, known=known)
    return copy_deal(deal, hands=hands, stock=deal.stock[1:])


def _scored(state: State, event: DealScored) -> State:
    deal = copy_deal(_deal(state), phase="over")
    carry = state.carry_over
    if event.winner is not None:
        carry = 0
    elif state.rules.carry_over_undecided:
        carry += 1
    result = {k: v for k, v in CODEC.encode(event).items() if k not in ("type", "schema")}
    return copy_state(state, deal=deal, game_points=event.match_points, carry_over=carry,
                   deals_scored=state.deals_scored + 1, last_result=result)
