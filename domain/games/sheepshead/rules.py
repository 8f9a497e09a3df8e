"""Who may do what: every rule is one function that legal_actions and decide both use."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any

from domain.errors import IllegalAction
from domain.games.sheepshead.cards import (
    FAIL_ACES,
    FAIL_TENS,
    JACK_CALL_ORDER,
    SUIT_OF,
    effective_suit,
    sort_hand,
)
from domain.games.sheepshead.config import layout
from domain.games.sheepshead.state import (
    BURYING,
    CALLING,
    CRACKING,
    PICKING,
    PLAYING,
    RECRACKING,
    Hand,
    State,
)

ActionDict = dict[str, Any]
ACTION_TYPES = (
    "pick", "pass", "bury", "call", "alone", "partner",
    "crack", "no_crack", "recrack", "no_recrack", "play",
)  # fmt: skip
PHASE_ACTIONS: dict[str, frozenset[str]] = {
    PICKING: frozenset({"pick", "pass"}),
    BURYING: frozenset({"bury"}),
    CALLING: frozenset({"call", "alone", "partner"}),
    CRACKING: frozenset({"crack", "no_crack"}),
    RECRACKING: frozenset({"recrack", "no_recrack"}),
    PLAYING: frozenset({"play"}),
}
_PAIRS = (("black", ("QC", "QS")), ("red", ("QH", "QD")))


@dataclass(frozen=True, slots=True, kw_only=True)
class Calling:
    """The picker's choices after burying: cards to call, and whether alone/partner are open."""

    cards: tuple[str, ...]
    alone: bool
    partner: bool
    alone_public: bool


# --- picking -------------------------------------------------------------------------------


def blitz_pairs(cards: tuple[str, ...]) -> tuple[str, ...]:
    """The queen pairs ("black", "red") a dealt hand holds."""
    return tuple(name for name, pair in _PAIRS if all(c in cards for c in pair))


def pass_error(state: State, hand: Hand, seat: int) -> IllegalAction | None:
    """Why ``pass`` is refused: the last seat must pick under ``forced_pick``."""
    if state.options["no_pick"] == "forced_pick" and seat == hand.active[-1]:
        return IllegalAction("the dealer must pick when everybody else passed",
            reason="dealer_must_pick")
    return None


def blitz_error(state: State, hand: Hand, seat: int) -> IllegalAction | None:
    """Why ``pick`` with ``blitz`` is refused."""
    if not state.options["blitzing"]:
        return IllegalAction("blitzing is not played in this match", reason="wrong_phase")
    if not blitz_pairs(hand.hands[seat]):
        return IllegalAction("a blitz needs both black or both red queens", reason="invalid_blitz")
    return None


def picking_actions(state: State, hand: Hand, seat: int) -> list[ActionDict]:
    """pick, pick with blitz, pass."""
    out: list[ActionDict] = [{"type": "pick"}]
    if blitz_error(state, hand, seat) is None:
        out.append({"type": "pick", "blitz": True})
    if pass_error(state, hand, seat) is None:
        out.append({"type": "pass"})
    return out


# --- burying -------------------------------------------------------------------------------


def bury_size(state: State) -> int:
    """How many cards the picker buries: as many as the blind holds."""
    return layout(state.players, state.options).blind_size


def bury_error(state: State, hand: Hand, seat: int, cards: tuple[str, ...]) -> IllegalAction | None:
    """Why burying these cards is refused."""
    size = bury_size(state)
    if len(cards) != size or len(set(cards)) != size:
        return IllegalAction(
            f"bury exactly {size} different cards, not {list(cards)}", reason="invalid_bury"
        )
    missing = [c for c in cards if c not in hand.hands[seat]]
    if missing:
        return IllegalAction(f"you do not hold {missing[0]}", reason="card_not_in_hand")
    return None


def burying_actions(state: State, hand: Hand, seat: int) -> list[ActionDict]:
    """Every set of cards the picker may bury."""
    cards = sort_hand(hand.hands[seat])
    return [{"type": "bury", "cards": list(c)} for c in combinations(cards, bury_size(state))]


# --- calling -------------------------------------------------------------------------------


def called_ace_cards(hand: Hand, picker: int) -> tuple[str, ...]:
    """CA2/CA3: fail aces (tens when P8 has all three aces) missing from P8, with a hold card."""
    kept = hand.hands[picker]
    candidates = FAIL_TENS if all(a in hand.p8 for a in FAIL_ACES) else FAIL_ACES
    return tuple(
        c for c in candidates if c not in hand.p8 and any(effective_suit(k) == c[1] for k in kept)
    )


def callable_jack(p8: tuple[str, ...]) -> str | None:
    """R7.3: the lowest of JH, JS, JC that is not in P8."""
    return next((j for j in JACK_CALL_ORDER if j not in p8), None)


def calling(state: State, hand: Hand) -> Calling | None:
    """The picker's choices after burying, or None when the rules settle the teams."""
    options = state.options
    if layout(state.players, options).always_alone:
        return None
    picker = hand.picker
    assert picker is not None
    if options["partner_rule"] == "called_ace":
        cards = called_ace_cards(hand, picker)
        return Calling(cards=cards, alone=True, partner=False, alone_public=True) if cards else None
    if "JD" in hand.p8:
        jack = callable_jack(hand.p8)
        if jack is None or options["jd_call_up"] == "never":
            return None
        alone = options["jd_call_up"] != "required"
        return Calling(cards=(jack,), alone=alone, partner=False, alone_public=False)
    if options["allow_voluntary_alone"]:
        return Calling(cards=(), alone=True, partner=True, alone_public=True)
    return None


def automatic_alone(state: State, hand: Hand) -> tuple[bool, bool]:
    """(alone, announced) when the rules settle the teams without a calling phase."""
    if layout(state.players, state.options).always_alone:
        return True, True
    if state.options["partner_rule"] == "called_ace":
        return True, True
    return "JD" in hand.p8, False


def call_error(state: State, hand: Hand, kind: str, cards: tuple[str, ...]) -> IllegalAction | None:
    """Why a ``call``, ``alone`` or ``partner`` is refused in the calling phase."""
    choices = calling(state, hand)
    assert choices is not None
    if kind == "call":
        if len(cards) != 1 or cards[0] not in choices.cards:
            allowed = ", ".join(choices.cards) or "nothing"
            message = f"cannot call {list(cards)}; you may call {allowed}"
            return IllegalAction(message, reason="invalid_call")
    elif kind == "alone" and not choices.alone:
        return IllegalAction("you must call the jack; alone is not allowed",
            reason="alone_not_allowed")
    elif kind == "partner" and not choices.partner:
        return IllegalAction("partner is only for a picker without JD", reason="invalid_call")
    return None


def calling_actions(state: State, hand: Hand) -> list[ActionDict]:
    """call X for every callable card, then alone and partner where open; nothing when the
    rules settle the teams (between the bury and its PreparationFinished in the same batch)."""
    choices = calling(state, hand)
    if choices is None:
        return []
    out: list[ActionDict] = [{"type": "call", "cards": [c]} for c in choices.cards]
    if choices.alone:
        out.append({"type": "alone"})
    if choices.partner:
        out.append({"type": "partner"})
    return out


def crackers(state: State, hand: Hand) -> tuple[int, ...]:
    """The seats after the picker in picking order, who may crack (none without cracking)."""
    if not state.options["cracking"] or hand.picker is None:
        return ()
    return hand.active[hand.active.index(hand.picker) + 1 :]


def crack_actions(hand: Hand, seat: int) -> list[ActionDict]:
    """crack / no_crack; the partner may only decline (so the window shows nobody's team)."""
    if seat == hand.partner:
        return [{"type": "no_crack"}]
    return [{"type": "crack"}, {"type": "no_crack"}]


# --- playing -------------------------------------------------------------------------------


def tricks_per_hand(state: State) -> int:
    """The trick count equals the hand size."""
    return layout(state.players, state.options).hand_size


def play_error(state: State, hand: Hand, seat: int, card: str) -> IllegalAction | None:
    """Why playing ``card`` is refused: not held, R8.4's follow rule, CA6's called-card rules."""
    cards = hand.hands[seat]
    if card not in cards:
        return IllegalAction(f"you do not hold {card}", reason="card_not_in_hand")
    led = must_follow(hand, cards)
    if led is not None and SUIT_OF[card] != led:
        return IllegalAction(
            f"cannot play {card}: you must follow {_suit_name(led)}", reason="must_follow_suit"
        )
    return _called_card_error(state, hand, seat, card)


def must_follow(hand: Hand, cards: tuple[str, ...]) -> str | None:
    """The suit (``T``: trump) a seat holding ``cards`` must follow now (R8.4), else None."""
    if hand.trick_cards:
        led = SUIT_OF[hand.trick_cards[0]]
        if led in map(SUIT_OF.__getitem__, cards):
            return led
    return None


_SUIT_NAMES = {"T": "trump", "C": "clubs", "S": "spades", "H": "hearts"}


def _suit_name(suit: str) -> str:
    return _SUIT_NAMES[suit]


def _called_in_force(state: State, hand: Hand) -> str | None:
    """The called card while CA6's rules bind its holders, else None."""
    called = hand.partner_card if state.options["partner_rule"] == "called_ace" else None
    if called is None or hand.revealed or len(hand.tricks) == tricks_per_hand(state) - 1:
        return None
    return called


def _called_card_error(state: State, hand: Hand, seat: int, card: str) -> IllegalAction | None:
    called = _called_in_force(state, hand)
    if called is None:
        return None
    suit = called[1]
    earlier = any(effective_suit(t.cards[0]) == suit for t in hand.tricks)
    lead = effective_suit(hand.trick_cards[0]) if hand.trick_cards else None
    if seat == hand.partner:
        return _partner_called_error(card, called, lead, earlier)
    if seat == hand.picker and not earlier and lead is not None and lead != suit:
        held = [c for c in hand.hands[seat] if effective_suit(c) == suit]
        if held == [card]:
            return IllegalAction(
                f"cannot play {card}: keep a {_suit_name(suit)} card until that suit is led",
                reason="called_suit_rule",
            )
    return None


def _partner_called_error(
    card: str, called: str, lead: str | None, earlier: bool
) -> IllegalAction | None:
    suit = called[1]
    if lead == suit and not earlier and card != called:
        return IllegalAction(
            f"cannot play {card}: the called {called} must be played", reason="called_suit_rule"
        )
    if lead is not None and lead != suit and card == called and not earlier:
        return IllegalAction(
            f"cannot discard {card} before its suit has been led", reason="called_suit_rule"
        )
    if lead is None and card != called and effective_suit(card) == suit:
        return IllegalAction(
            f"cannot lead {card}: lead {_suit_name(suit)} only with {called}",
                reason="called_suit_rule"
        )
    return None


def playing_actions(state: State, hand: Hand, seat: int) -> list[ActionDict]:
    """Every card the seat may play now: play_error's checks, each asked once for all cards."""
    cards = hand.hands[seat]
    led = must_follow(hand, cards)
    playable = sort_hand(cards if led is None else [c for c in cards if SUIT_OF[c] == led])
    if _called_in_force(state, hand) is not None:
        playable = tuple(c for c in playable if _called_card_error(state, hand, seat, c) is None)
    return [{"type": "play", "cards": [c]} for c in playable]


def legal_actions(state: State, seat: int) -> list[ActionDict]:
    """Every action ``seat`` may send now (empty when it may not act)."""
    hand = state.hand
    if state.finished or state.aborted or hand is None or seat != hand.to_act:  # or over
        return []
    phase = hand.phase
    if phase == PICKING:
        return picking_actions(state, hand, seat)
    if phase == BURYING:
        return burying_actions(state, hand, seat)
    if phase == CALLING:
        return calling_actions(state, hand)
    if phase == CRACKING:
        return crack_actions(hand, seat)
    if phase == RECRACKING:
        return [{"type": "recrack"}, {"type": "no_recrack"}]
    if phase == PLAYING:
        return playing_actions(state, hand, seat)
    return []
