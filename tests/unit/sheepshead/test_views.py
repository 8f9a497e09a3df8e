"""Hidden information (R10)."""

from __future__ import annotations

import json
from typing import Any

from domain.games.sheepshead import GAME
from domain.games.sheepshead.events import GameStarted, HandDealt, PreparationFinished
from domain.protocol import Setup, fold

from .helpers import (
    STRONG,
    STRONG_BLIND,
    act,
    make_deal,
    of_type,
    pick_and_bury,
    play,
    refused,
    start,
)

JD_PICKER = {
    0: ["JD", "QC", "QS", "QH", "QD", "JC"],
    1: ["AC", "TC", "KC", "9C", "8C", "7C"],
    2: ["JH", "AS", "TS", "KS", "9S", "8S"],
}
NO_JD_PICKER = {
    0: ["QC", "QS", "QH", "QD", "JC", "AH"],
    1: ["AC", "TC", "KC", "9C", "8C", "7C"],
    2: ["JD", "AS", "TS", "KS", "9S", "8S"],
}


def _public(view: dict[str, Any]) -> dict[str, Any]:
    """A view without the viewer's own cards (which differ between the compared deals)."""
    return {k: v for k, v in view.items() if k not in ("hand", "legal_actions")}


def test_R10_1_each_seat_sees_only_its_own_hand() -> None:
    state = start(STRONG, STRONG_BLIND)
    view = GAME.view(state, 2)
    assert view["hand"] == ["AC", "TC", "KC", "9C", "8C", "7C"]
    text = json.dumps(view)
    assert "QC" not in text and "JD" not in text and "AD" not in text
    assert "hand" not in GAME.view(state, None) and "hands" not in GAME.view(state, None)


def test_R10_2_the_blind_is_seen_only_by_the_picker_after_picking() -> None:
    state = start(STRONG, STRONG_BLIND)
    assert all(GAME.view(state, s)["blind"] is None for s in (0, 1, None))
    state, _ = act(state, 0, {"type": "pick"})
    assert GAME.view(state, 0)["blind"] == ["AD", "TD"]
    assert GAME.view(state, 1)["blind"] is None and GAME.view(state, None)["blind"] is None
    events = GAME.start(Setup(players=5, seed="b"))
    dealt = events[1]
    assert isinstance(dealt, HandDealt) and GAME.redact(dealt, 1)["blind"] == 2
    assert GAME.redact(dealt, 1)["hands"][2] == 6 and len(GAME.redact(dealt, 1)["hands"][1]) == 6


def test_R10_3_buried_cards_are_known_only_to_the_picker() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, events = pick_and_bury(state, 0, ["AD", "TD"])
    assert GAME.view(state, 0)["buried"] == ["AD", "TD"]
    assert GAME.view(state, 3)["buried"] is None
    assert GAME.redact(events[-2], 3)["cards"] == 2


def test_R10_4_only_the_jd_holder_knows_it_is_the_partner() -> None:
    state = start(NO_JD_PICKER)
    state, _ = pick_and_bury(state, 0, ["AH", "JC"])
    assert GAME.view(state, 2)["role"] == "partner"
    assert GAME.view(state, 1)["role"] == "defender"
    assert GAME.view(state, 0)["role"] == "picker"
    for seat in (0, 1, 3, 4, None):
        assert not any(s["partner"] for s in GAME.view(state, seat)["seats"])


def test_R10_5_the_call_is_public_and_its_holder_knows_privately() -> None:
    state = start(JD_PICKER)
    state, _ = pick_and_bury(state, 0, ["JC", "QD"])
    state, _ = act(state, 0, {"type": "call", "cards": ["JH"]})
    assert GAME.view(state, None)["called"] == "JH" and GAME.view(state, 3)["called"] == "JH"
    assert GAME.view(state, 2)["role"] == "partner" and GAME.view(state, 1)["role"] == "defender"


def test_R10_6_alone_looks_like_a_jd_partner_hand_to_everybody_else() -> None:
    alone = start(JD_PICKER)
    alone, _ = act(alone, 0, {"type": "pick"})
    partner = start(NO_JD_PICKER)
    partner, _ = act(partner, 0, {"type": "pick"})
    alone, first = act(alone, 0, {"type": "bury", "cards": list(alone.hand.blind)})  # type: ignore[union-attr]
    assert GAME.view(alone, 1)["phase"] == "picker_preparing"
    assert GAME.view(alone, 1)["seats"][0]["cards"] == 8
    assert (
        GAME.view(alone, 0)["phase"] == "calling" and GAME.view(alone, 0)["seats"][0]["cards"] == 6
    )
    alone, second = act(alone, 0, {"type": "alone"})
    partner, both = act(partner, 0, {"type": "bury", "cards": list(partner.hand.blind)})  # type: ignore[union-attr]
    redacted_alone = [GAME.redact(e, 3) for e in first + second]
    redacted_partner = [GAME.redact(e, 3) for e in both]
    assert redacted_alone == redacted_partner
    assert of_type(second, PreparationFinished)[0].alone is True
    for seat in (3, 4, None):
        assert _public(GAME.view(alone, seat)) == _public(GAME.view(partner, seat))


def test_R10_7_passes_calls_plays_and_tricks_are_public() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, _ = act(state, 0, {"type": "pass"})
    state, _ = act(state, 1, {"type": "pick"})
    state, _ = act(state, 1, {"type": "bury", "cards": ["7D", "8D"]})
    state, _ = act(state, 1, {"type": "call", "cards": ["JS"]})
    assert GAME.view(state, None)["called"] == "JS"
    state, _ = play(state, "QC", "JD", "AC", "AS", "AH")
    view = GAME.view(state, None)
    assert view["seats"][0]["passed"] and view["picker"] == 1
    assert view["tricks"][0]["cards"] == ["QC", "JD", "AC", "AS", "AH"]
    assert view["seats"][0]["points"] == 3 + 2 + 33


def test_R10_8_everything_is_public_at_hand_end() -> None:
    state = start(STRONG, STRONG_BLIND, options={"rounds": 2})
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    while state.hand is not None and state.hand.number == 0:
        seat = GAME.seats_to_act(state)[0]
        state, _ = act(state, seat, GAME.legal_actions(state, seat)[0])
    last = GAME.view(state, 4)["last_hand"]
    assert last["picker"] == 0 and last["partner"] == 1 and last["alone"] is False
    assert last["buried"] == ["AD", "TD"] and last["row"] == "win_all_tricks"
    assert last["scores"] == [6, 3, -3, -3, -3] and last["team_points"] == 120
    assert last["labels"] == ["defenders_schneidered", "defenders_schwarz"]


def test_R10_9_views_only_add_information_and_refusals_change_nothing() -> None:
    state = start(STRONG, STRONG_BLIND)
    state, _ = pick_and_bury(state, 0, ["AD", "TD"])
    before = GAME.view(state, 3)
    refused(state, 1, {"type": "play", "cards": ["JD"]})
    assert GAME.view(state, 3) == before
    state, _ = play(state, "QC")
    after = GAME.view(state, 3)
    assert after["trick"] == [{"seat": 0, "card": "QC"}] and after["picker"] == before["picker"]


def test_game_started_is_redacted_without_the_seed() -> None:
    event = GAME.start(Setup(players=5, seed="secret"))[0]
    assert isinstance(event, GameStarted)
    assert "seed" not in GAME.redact(event, 0) and "seed" not in GAME.redact(event, None)


def _partner_table(jd_seat: int) -> tuple[Any, list[Any]]:
    base = {0: ["QC", "QS", "QH", "QD", "JC", "JS"], 3: ["AC", "TC", "KC", "9C", "8C", "7C"],
            4: ["AS", "TS", "KS", "9S", "8S", "7S"]}  # fmt: skip
    with_jd = ["JD", "AH", "TH", "KH", "9H", "8H"]
    without = ["7H", "JH", "KD", "9D", "8D", "7D"]
    hands = {**base, jd_seat: with_jd, 3 - jd_seat: without}
    deal = make_deal(hands, ["AD", "TD"])
    log = list(GAME.start(Setup(players=5, seed="p", dealer=4, deal=deal)))
    state = fold(GAME, log)
    for action in ({"type": "pick"}, {"type": "bury", "cards": ["AD", "TD"]}):
        state, events = act(state, 0, action)
        log += events
    state, events = play(state, "QC")
    return state, log + events


def test_nothing_tells_a_defender_who_the_partner_is_before_the_partner_card() -> None:
    """The same table seen by the picker, seats 3 and 4 and a spectator, JD in seat 1 or 2."""
    a, log_a = _partner_table(1)
    b, log_b = _partner_table(2)
    assert a.hand is not None and b.hand is not None
    assert (a.hand.partner, b.hand.partner) == (1, 2)
    for seat in (0, 3, 4, None):
        assert GAME.view(a, seat) == GAME.view(b, seat)
        redacted_a = [GAME.redact(e, seat) for e in log_a[2:]]
        assert redacted_a == [GAME.redact(e, seat) for e in log_b[2:]]
    assert GAME.view(a, 1)["role"] == "partner" and GAME.view(b, 1)["role"] == "defender"
