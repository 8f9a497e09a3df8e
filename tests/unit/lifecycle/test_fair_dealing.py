"""Fair by construction: the deal comes from the server's committed secret and every seat's
entropy, is made when the last seat is filled, and a prearranged game says so."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import pytest

from domain.chain import GENESIS, link_hash
from domain.errors import GameOver, IllegalAction, InvalidAction, InvalidSetup, NotYourTurn
from domain.fairness import chain_salt, commitment, deal_seed
from domain.lifecycle import GameCreated, Keys, SeatAlreadyFilled, SecretRevealed, lifecycle
from domain.protocol import fold
from domain.registry import get_game

SECRET = "11" * 32
ENTROPY = ["22" * 32, "33" * 32, "44" * 32]
# The test vectors of docs/fairness.md.
VECTORS = {
    "commitment": "4112fcdb5330155d7af3409023f97f7a6890c8430db9e21954eaeffbec231071",
    "chain_salt": "ab04e2671739d5be7b7257c623d6efed4b342709595e004bddd155c27eca513d",
    "deal_seed_3": "a997af6fe36d6e97771287dfc428c37e655dc0a3137976adc000dfbb38bf6fbf",
    "deal_seed_2": "f205e430a6e42d005a02925d4716db966cfb17918c23eb243c003e53513f05d0",
    "first_link": "e7e5fa7a4b233e011a0fe20954cf68da671d7255d60c82db651ec6833ba8e720",
}
SHITHEAD = lifecycle(get_game("shithead"))


def _sha(label: bytes, *hex_parts: str) -> str:
    return hashlib.sha256(label + b"\x00" + bytes.fromhex("".join(hex_parts))).hexdigest()


def test_the_formulas_give_the_documented_vectors() -> None:
    assert commitment(SECRET) == VECTORS["commitment"]
    assert chain_salt(SECRET) == VECTORS["chain_salt"]
    assert deal_seed(SECRET, ENTROPY) == VECTORS["deal_seed_3"]
    assert deal_seed(SECRET, ENTROPY[:2]) == VECTORS["deal_seed_2"]
    seat_filled = {"type": "lifecycle.SeatFilled", "schema": 1, "seat": 0,
                   "entropy": ENTROPY[0], "source": "server"}  # fmt: skip
    assert link_hash(GENESIS, seat_filled, chain_salt(SECRET)) == VECTORS["first_link"]


def test_the_vectors_re_derive_from_the_documented_byte_strings() -> None:
    assert _sha(b"cardroom/commitment/1", SECRET) == VECTORS["commitment"]
    assert _sha(b"cardroom/chain-salt/1", SECRET) == VECTORS["chain_salt"]
    assert _sha(b"cardroom/deal-seed/1", SECRET, *ENTROPY) == VECTORS["deal_seed_3"]
    text = (
        '{"entropy":"' + ENTROPY[0] + '","schema":1,"seat":0,"source":"server",'
        '"type":"lifecycle.SeatFilled"}'
    )
    mac = hmac.new(VECTORS["chain_salt"].encode(), GENESIS.encode() + text.encode(), "sha256")
    assert mac.hexdigest() == VECTORS["first_link"]


def _deal(secret: str, entropy: list[str], seed: str | None = None) -> tuple[object, ...]:
    keys = Keys(secret=secret, seed=seed)
    state = fold(SHITHEAD, SHITHEAD.create(players=len(entropy), options={}, dealer=None,
                                           keys=keys, filled=[(0, entropy[0])]))  # fmt: skip
    for seat in range(1, len(entropy)):
        state = fold(SHITHEAD, SHITHEAD.join(state, seat, entropy[seat], keys), state)
    return tuple(SHITHEAD.reveal(state)["seats"])


def test_the_deal_is_made_from_the_derived_seed_when_the_last_seat_is_filled() -> None:
    keys = Keys(secret=SECRET)
    created = SHITHEAD.create(players=3, options={}, dealer=None, keys=keys,
                              filled=[(0, ENTROPY[0])])  # fmt: skip
    state = fold(SHITHEAD, created)
    assert not state.dealt and state.open_seats == (1, 2)
    state = fold(SHITHEAD, SHITHEAD.join(state, 1, ENTROPY[1], keys), state)
    assert not state.dealt
    last = SHITHEAD.join(state, 2, ENTROPY[2], keys)
    assert [type(e).__name__ for e in last[:3]] == ["SeatFilled", "GameStarted", "CardsDealt"]
    assert SHITHEAD.codec.encode(last[1])["seed"] == deal_seed(SECRET, ENTROPY)


def test_no_single_contribution_is_enough_to_foresee_the_deal() -> None:
    base = _deal(SECRET, ENTROPY)
    assert _deal("55" * 32, ENTROPY) != base  # the server's secret counts
    for seat in range(3):  # and so does every seat's entropy, the last joiner's included
        changed = list(ENTROPY)
        changed[seat] = "66" * 32
        assert _deal(SECRET, changed) != base


def test_a_creator_who_chooses_nothing_cannot_fix_the_deal_by_repeating_a_request() -> None:
    # Same options, same seats, same entropy sent by every client: only the secret differs.
    assert _deal("aa" * 32, ENTROPY) != _deal("bb" * 32, ENTROPY)


def test_a_chosen_seed_makes_the_game_prearranged_and_deals_from_that_seed() -> None:
    keys = Keys(secret=SECRET, seed="4711")
    created = SHITHEAD.create(players=2, options={}, dealer=None, keys=keys, filled=[])
    assert isinstance(created[0], GameCreated) and created[0].prearranged
    assert _deal(SECRET, ENTROPY[:2], "4711") == _deal("99" * 32, ENTROPY[:2], "4711")
    assert SHITHEAD.view(fold(SHITHEAD, created), None)["prearranged"] is True


def test_nobody_may_act_before_the_deal() -> None:
    keys = Keys(secret=SECRET)
    state = fold(SHITHEAD, SHITHEAD.create(players=2, options={}, dealer=None, keys=keys))
    assert SHITHEAD.legal_actions(state, 0) == [] and SHITHEAD.awaited_seats(state) == ()
    with pytest.raises(NotYourTurn):
        SHITHEAD.act(state, 0, {"type": "ready"}, keys)


def test_a_seat_is_filled_once() -> None:
    keys = Keys(secret=SECRET)
    state = fold(SHITHEAD, SHITHEAD.create(players=2, options={}, dealer=None, keys=keys,
                                           filled=[(0, ENTROPY[0])]))  # fmt: skip
    with pytest.raises(SeatAlreadyFilled):
        SHITHEAD.join(state, 0, ENTROPY[1], keys)


def test_the_deal_refuses_a_secret_other_than_the_committed_one() -> None:
    keys = Keys(secret=SECRET)
    state = fold(SHITHEAD, SHITHEAD.create(players=2, options={}, dealer=None, keys=keys,
                                           filled=[(0, ENTROPY[0])]))  # fmt: skip
    with pytest.raises(InvalidSetup, match="commitment"):
        SHITHEAD.join(state, 1, ENTROPY[1], Keys(secret="55" * 32))


def test_entropy_must_be_32_bytes_of_hex() -> None:
    keys = Keys(secret=SECRET)
    state = fold(SHITHEAD, SHITHEAD.create(players=2, options={}, dealer=None, keys=keys))
    with pytest.raises(InvalidSetup, match="64 lowercase hex"):
        SHITHEAD.join(state, 0, "not-hex", keys)


def test_the_batch_that_ends_the_game_reveals_the_secret_and_seed() -> None:
    game = lifecycle(get_game("sixty_six"))
    keys = Keys(secret=SECRET)
    state = fold(game, game.create(players=2, options={}, dealer=None, keys=keys,
                                   filled=[(0, ENTROPY[0]), (1, ENTROPY[1])]))  # fmt: skip
    last: list[object] = []
    while game.outcome(state) is None:
        seat = game.awaited_seats(state)[0]
        last = game.act(state, seat, game.legal_actions(state, seat)[0], keys)
        state = fold(game, last, state)
        assert state.revealed is None or game.outcome(state) is not None
    assert last[-1] == SecretRevealed(secret=SECRET, seed=deal_seed(SECRET, ENTROPY[:2]), deal=None)


def test_a_game_that_never_fills_expires_with_a_recorded_event_and_reveals_its_secret() -> None:
    keys = Keys(secret=SECRET)
    state = fold(SHITHEAD, SHITHEAD.create(players=3, options={}, dealer=None, keys=keys,
                                           filled=[(0, ENTROPY[0])]))  # fmt: skip
    events = SHITHEAD.expire(state, keys)
    assert [type(e).__name__ for e in events] == ["GameExpired", "SecretRevealed"]
    over = fold(SHITHEAD, events, state)
    assert SHITHEAD.outcome(over) == {"reason": "expired", "open_seats": [1, 2],
                                      "winners": [], "losers": []}  # fmt: skip


def test_a_dealt_game_cannot_expire() -> None:
    keys = Keys(secret=SECRET)
    state = fold(SHITHEAD, SHITHEAD.create(players=2, options={}, dealer=None, keys=keys,
                                           filled=[(0, ENTROPY[0]), (1, ENTROPY[1])]))  # fmt: skip
    with pytest.raises(IllegalAction):
        SHITHEAD.expire(state, keys)


def _dealt_sixty_six() -> tuple[Any, Any, Keys]:
    game = lifecycle(get_game("sixty_six"))
    keys = Keys(secret=SECRET)
    state = fold(game, game.create(players=2, options={}, dealer=None, keys=keys,
                                   filled=[(0, ENTROPY[0]), (1, ENTROPY[1])]))  # fmt: skip
    return game, state, keys


def test_any_seat_may_resign_while_playing_and_loses_the_game() -> None:
    game, state, keys = _dealt_sixty_six()
    waiting = 1 - game.awaited_seats(state)[0]  # not its turn: a resignation is always accepted
    assert {"type": "resign"} not in game.legal_actions(state, waiting)
    assert game.view(state, waiting)["may_send"] == ["resign", "abort", "leave"]
    events = game.act(state, waiting, {"type": "resign"}, keys)
    assert [type(e).__name__ for e in events] == ["SeatResigned", "SecretRevealed"]
    over = fold(game, events, state)
    assert game.outcome(over) == {"reason": "resigned", "resigned": waiting,
                                  "winners": [1 - waiting], "losers": [waiting]}  # fmt: skip
    assert game.awaited_seats(over) == () and game.view(over, 0)["may_send"] == []
    with pytest.raises(GameOver):
        game.act(over, 1 - waiting, {"type": "resign"}, keys)


def test_a_resignation_carries_nothing_else_and_needs_a_dealt_game() -> None:
    game, state, keys = _dealt_sixty_six()
    with pytest.raises(InvalidAction):
        game.act(state, 0, {"type": "resign", "card": "AS"}, keys)
    undealt = fold(game, game.create(players=2, options={}, dealer=None, keys=keys))
    with pytest.raises(NotYourTurn):
        game.act(undealt, 0, {"type": "resign"}, keys)


def test_the_operator_stops_a_game_for_its_reason_nobody_loses_the_secret_is_revealed() -> None:
    game, state, keys = _dealt_sixty_six()
    events = game.stop(state, keys, "a player reported a bug")
    assert [type(e).__name__ for e in events] == ["GameStopped", "SecretRevealed"]
    over = fold(game, events, state)
    assert game.outcome(over) == {"reason": "stopped", "note": "a player reported a bug",
                                  "winners": [], "losers": []}  # fmt: skip
    assert game.legal_actions(over, 0) == [] and game.seats_to_act(over) == ()
    with pytest.raises(GameOver):
        game.stop(over, keys, "again")
