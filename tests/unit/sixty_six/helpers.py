"""Sixty-Six test helpers: explicit deals, moves written as words, and exact rejections."""

from __future__ import annotations

from typing import Any

import pytest

from domain.cards import deck_20, deck_24
from domain.errors import DomainError
from domain.events import Event
from domain.games.sixty_six import GAME
from domain.games.sixty_six.events import DealScored
from domain.games.sixty_six.state import State
from domain.protocol import Setup, fold

DECK24: list[str] = list(deck_24())
DECK20: list[str] = list(deck_20())
# The hands most tests deal, the TH turned up; the stock then holds the rest of the pack in
# canonical order, top first: 9C JC QC KC JD QD KD JH AH TS AS.
HAND0 = "TC TD 9H QS KS 9D"
HAND1 = "AC AD KH QH 9S JS"


def explicit_deal(
    hand0: str, hand1: str, trump: str, stock: str = "", deck20: bool = False
) -> dict[str, Any]:
    """An explicit deal; the stock starts with ``stock`` (top first) and the rest follows."""
    h0, h1, top = hand0.split(), hand1.split(), stock.split()
    used = {*h0, *h1, trump, *top}
    rest = [c for c in (DECK20 if deck20 else DECK24) if c not in used]
    return {"seats": [{"hand": h0}, {"hand": h1}], "stock": top + rest,
            "extra": {"trump_card": trump}}


def start(
    hand0: str, hand1: str, trump: str, stock: str = "", dealer: int = 0, **options: Any
) -> tuple[State, list[Event]]:
    """The state and creation events of a match whose first deal is given (seat 1 leads)."""
    deal = explicit_deal(hand0, hand1, trump, stock, deck20=bool(options.get("deck20")))
    events = GAME.start(Setup(players=2, seed="test", dealer=dealer, options=options, deal=deal))
    return fold(GAME, events), events


def dealt(stock: str = "", dealer: int = 0, **options: Any) -> tuple[State, list[Event]]:
    """``start`` of the match dealt HAND0 and HAND1 with the TH turned up."""
    return start(HAND0, HAND1, "TH", stock, dealer, **options)


def table(stock: str = "", dealer: int = 0, **options: Any) -> State:
    """The state of the match dealt HAND0 and HAND1 with the TH turned up."""
    return dealt(stock, dealer, **options)[0]


def action(text: str) -> dict[str, Any]:
    """``"play AC"`` -> {"type": "play", "cards": ["AC"]}; ``"exchange"``/``"declare"`` too."""
    words = text.split()
    kind = {"exchange": "exchange_trump", "declare": "declare_out"}.get(words[0], words[0])
    return {"type": kind, "cards": [words[1]]} if len(words) > 1 else {"type": kind}


def act(state: State, seat: int, text: str) -> tuple[State, list[Event]]:
    """Decide one move and fold its events."""
    events = GAME.decide(state, seat, action(text))
    return fold(GAME, events, state), events


def moves(state: State, *steps: tuple[int, str]) -> State:
    """Apply several (seat, move) steps."""
    for seat, text in steps:
        state, _ = act(state, seat, text)
    return state


def rejected(state: State, seat: int, text: str | dict[str, Any], reason: str) -> DomainError:
    """Assert that the move is refused with that reason and return the error."""
    move = action(text) if isinstance(text, str) else text
    with pytest.raises(DomainError) as caught:
        GAME.decide(state, seat, move)
    assert caught.value.reason == reason, caught.value.message
    return caught.value


def legal(state: State, seat: int) -> list[str]:
    """The seat's legal actions written as words."""
    out = []
    for a in GAME.legal_actions(state, seat):
        out.append(f"{a['type']} {a['cards'][0]}" if "cards" in a else a["type"])
    return out


def deal(state: State) -> Any:
    """The current deal (never None in these tests)."""
    assert state.deal is not None
    return state.deal


def of_type(events: list[Event], cls: type[Event]) -> list[Any]:
    """Events of one class."""
    return [e for e in events if isinstance(e, cls)]


def plain_chooser(state: State, seat_actions: list[tuple[int, dict[str, Any]]]) -> Any:
    """Never declares, closes, exchanges or marries: draws, plays the first legal card, passes."""
    for wanted in ("draw", "play", "pass"):
        for seat, a in seat_actions:
            if a["type"] == wanted:
                return seat, a
    raise AssertionError("no plain action available")


def play_plainly(state: State) -> State:
    """Play the current deal to the end-of-play window without any optional action."""
    while deal(state).phase not in ("end_window", "over"):
        choices = [(s, a) for s in GAME.seats_to_act(state) for a in GAME.legal_actions(state, s)]
        seat, a = plain_chooser(state, choices)
        state = fold(GAME, GAME.decide(state, seat, a), state)
    return state


def plain(seed: str, **options: Any) -> State:
    """A seeded match (dealer 0) whose first deal is played plainly to the end window."""
    state = fold(GAME, GAME.start(Setup(players=2, seed=seed, dealer=0, options=options)))
    return play_plainly(state)


def scored(events: list[Event]) -> DealScored:
    """The DealScored event of a batch."""
    found: DealScored = of_type(events, DealScored)[0]
    return found


def closed_by_weak_seat(**options: Any) -> list[Event]:
    """Seat 1 closes after one cheap trick; seat 0 then declares out with 68."""
    state, _ = start("AH TH KH QH AC JD", "9C JC QC KC 9S KD", "9H", **options)
    state = moves(state, (1, "play KD"), (0, "play JD"), (1, "close"), (1, "play 9C"),
                  (0, "play AC"), (0, "marriage KH"), (1, "play 9S"), (0, "play AH"),
                  (1, "play JC"))
    return act(state, 0, "declare")[1]


def closed_to_the_last_card() -> State:
    """Seat 1 closes at once on ``table()`` and both play on until seat 0's last card (9D)."""
    return moves(table(), (1, "close"), (1, "play 9S"), (0, "play QS"), (0, "play KS"),
                 (1, "play JS"), (0, "play TC"), (1, "play AC"), (1, "play AD"),
                 (0, "play TD"), (1, "play KH"), (0, "play 9H"), (1, "play QH"))  # fmt: skip


def at_two_cards(**options: Any) -> State:
    """Seat 0 (holding the trump nine, one trick won) leads with two stock cards left."""
    state, _ = start("TC TD QS KS 9D 9H", "AC AD KH QH 9S JS", "TH", **options)
    return moves(
        state,
        (1, "play 9S"), (0, "play QS"), (0, "draw"),
        (0, "play 9C"), (1, "play JC"), (1, "draw"),
        (1, "play JS"), (0, "play KS"), (0, "draw"),
        (0, "play 9D"), (1, "play QD"), (1, "draw"),
        (1, "play QC"), (0, "play KC"), (0, "draw"),
    )
