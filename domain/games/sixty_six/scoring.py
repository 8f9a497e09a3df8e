"""Dealing and deal scoring: the events that end one deal and start the next (R3, R12-R14)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.cards import deck_20, deck_24
from domain.events import Event
from domain.games.sixty_six.events import (
    DealScored,
    DealStarted,
    HandDealt,
    MatchEnded,
    StockLaid,
)
from domain.games.sixty_six.state import TARGET, Deal, Rules, State
from domain.shuffle import deal_label, shuffled

Hands = tuple[tuple[str, ...], tuple[str, ...]]


_DECK20, _DECK24 = tuple(deck_20()), tuple(deck_24())


def deck_for(rules: Rules) -> tuple[str, ...]:
    """The canonical pack: 24 cards, or 20 with deck20."""
    return _DECK20 if rules.deck20 else _DECK24


def split_deck(
    pack: Sequence[str], dealer: int, rules: Rules
) -> tuple[Hands, str, tuple[str, ...]]:
    """Hands (by seat), trump card and stock from a shuffled pack (R3.1-R3.3, deck20)."""
    order = tuple(pack)
    if rules.deck20:
        first, second, trump = order[0:3] + order[6:8], order[3:6] + order[8:10], 10
    else:
        first, second, trump = order[0:3] + order[6:9], order[3:6] + order[9:12], 12
    non_dealer, dealer_hand = tuple(first), tuple(second)
    hands = (dealer_hand, non_dealer) if dealer == 0 else (non_dealer, dealer_hand)
    return hands, order[trump], tuple(order[trump + 1 :])


def seeded_order(seed: str, number: int, rules: Rules) -> list[str]:
    """Deal number k's pack order: shuffled(deck, seed, deal_label(k))."""
    return shuffled(deck_for(rules), seed, deal_label(number))


def deal_events(
    number: int, dealer: int, hands: Hands, trump_card: str, stock: tuple[str, ...], carry: int
) -> list[Event]:
    """The events that lay out one deal."""
    return [
        DealStarted(number=number, dealer=dealer, trump_card=trump_card,
                    stock_size=len(stock) + 1, carry_over=carry),
        HandDealt(seat=0, cards=hands[0]),
        HandDealt(seat=1, cards=hands[1]),
        StockLaid(cards=stock),
    ]


def failed_close_value(deal: Deal) -> int:
    """R12.5: 3 if the closer's opponent had no trick at closing, else 2.

    (Had the opponent a trick then, the closer, on lead, had just won one: nobody has none.)
    """
    if not deal.opponent_had_trick_at_close:
        return 3
    return 2


def correct_value(deal: Deal, declarer: int) -> int:
    """R12.3: 3 if the opponent has no trick, 2 under 33 points, else 1."""
    other = 1 - declarer
    if deal.won[other] == 0:
        return 3
    return 2 if deal.points(other) < 33 else 1


def judge_declaration(deal: Deal, rules: Rules, declarer: int) -> tuple[int, str, int]:
    """Winner, reason and base value of a declaration (R12.3-R12.6, options)."""
    other = 1 - declarer
    if deal.points(declarer) >= TARGET:
        if deal.closed_by == other and rules.closed_opponent_declare == "failed_close_value":
            return declarer, "declared_out", failed_close_value(deal)
        return declarer, "declared_out", correct_value(deal, declarer)
    if deal.closed_by == declarer:
        return other, "closer_failed", failed_close_value(deal)
    if rules.false_declaration_points == "flat2" or min(deal.won) > 0:
        return other, "false_declaration", 2
    return other, "false_declaration", 3


def end_of_deal(state: State, winner: int | None, reason: str, base: int,
                deemed: bool = False) -> list[Event]:
    """DealScored, then MatchEnded or the next deal's events."""
    deal, rules = state.deal, state.rules
    assert deal is not None
    carry = state.carry_over
    gained = base + carry if winner is not None else 0
    totals = list(state.game_points)
    if winner is not None:
        totals[winner] += gained
    match_points = (totals[0], totals[1])
    scored = DealScored(
        winner=winner, reason=reason, deemed=deemed, base=base if winner is not None else 0,
        carry_over_applied=carry if winner is not None else 0, game_points=gained,
        match_points=match_points, points=(deal.points(0), deal.points(1)), tricks=deal.won,
        opponent_had_trick_at_close=deal.opponent_had_trick_at_close,
        hands=deal.hands if rules.reveal_at_deal_end else None,
        stock=_undrawn(deal) if rules.reveal_at_deal_end else None,
    )
    if winner is not None and totals[winner] >= rules.game_target:
        return [scored, MatchEnded(winner=winner, match_points=match_points)]
    next_carry = 0 if winner is not None else carry + (1 if rules.carry_over_undecided else 0)
    return [scored, *next_deal(state, winner, next_carry)]


def _undrawn(deal: Deal) -> tuple[str, ...]:
    return deal.stock + ((deal.under,) if deal.under is not None else ())


def next_deal(state: State, winner: int | None, carry: int) -> list[Event]:
    """The following deal, shuffled from the kept seed with the rotated dealer (R2.5, R14.4)."""
    deal, rules = state.deal, state.rules
    assert deal is not None
    dealer = 1 - deal.dealer
    if rules.dealer_rotation == "winner_deals" and winner is not None:
        dealer = winner
    number = deal.number + 1
    hands, trump, stock = split_deck(seeded_order(state.seed, number, rules), dealer, rules)
    return deal_events(number, dealer, hands, trump, stock, carry)
