"""A prearranged game hides its cards from the table too: its deck commitment is salted with
the server's secret (revealed at the end), so a spectator cannot test candidate seeds against
it. The attack of issue 30: a chosen seed of four digits, found from the public deck
commitment in seconds, told every hand."""

from __future__ import annotations

from typing import Any

from domain.cards import deck_52
from domain.default_move import default_move, move_seed
from domain.fairness import deal_seed, salted_deck
from domain.lifecycle import Keys, lifecycle
from domain.protocol import fold
from domain.registry import get_game
from domain.shuffle import deal_label, deck_commitment, seeded_choice, shuffled
from replays.format import build_replay
from replays.verify import check
from service.games import GameService
from service.store.memory import InMemoryEventStore

SEED = "4711"


def _spectators_record(service: GameService, game_id: str) -> list[dict[str, Any]]:
    """Everything a spectator is shown of the game: its events, its summary, its view."""
    events = [e["event"] for e in service.events_after(game_id, 0, None)["events"]]
    return [*events, service.summary(game_id), service.view(game_id, None)["view"]]


def _candidates(public: list[dict[str, Any]]) -> list[str]:
    """Every four-digit seed whose deal matches the deck commitment and dealer shown."""
    started = next(e for e in public if e.get("type") == "shithead.GameStarted")
    deck = deck_52()
    return [
        seed for seed in (f"{n:04d}" for n in range(10_000))
        if seeded_choice(seed, "dealer", 2) == started["dealer"]
        and deck_commitment(seed, shuffled(deck, seed, deal_label(0))) == started["commitment"]
    ]  # fmt: skip


def _game() -> tuple[GameService, str]:
    service = GameService(InMemoryEventStore())
    created = service.create_game("shithead", [{"type": "open"}, {"type": "open"}], seed=SEED)
    game_id = str(created["id"])
    for seat in (0, 1):
        service.join_seat(game_id, seat, f"p{seat}", entropy=f"{seat + 1}" * 64)
    return service, game_id


def test_a_spectator_cannot_find_a_four_digit_chosen_seed_from_everything_public() -> None:
    service, game_id = _game()
    public = _spectators_record(service, game_id)
    assert service.summary(game_id)["prearranged"] is True
    assert _candidates(public) == []


def test_the_revealed_secret_proves_the_salted_deck_commitment() -> None:
    service, game_id = _game()
    service.submit_action(game_id, 0, {"type": "resign"}, service.load(game_id).version)
    revealed = [e["event"] for e in service.events_after(game_id, 0, None)["events"]]
    secret = next(e["secret"] for e in revealed if e["type"] == "lifecycle.SecretRevealed")
    started = next(e for e in revealed if e["type"] == "shithead.GameStarted")
    order = shuffled(deck_52(), SEED, deal_label(0))
    assert started["commitment"] == salted_deck(secret, deck_commitment(SEED, order))
    loaded = service.load(game_id)
    seats = [s.public(i) for i, s in enumerate(loaded.meta.seats)]
    replay = build_replay(game_id, service.store.entries(game_id), game="shithead", seats=seats,
                          outcome=loaded.game.outcome(loaded.state))  # fmt: skip
    assert check(replay).ok  # the audit re-derives it


def test_a_prearranged_games_default_moves_do_not_follow_from_its_chosen_seed() -> None:
    """A spectator who guessed the seed must not be able to test the guess against the moves
    made for a seat out of time: they are drawn from the secret and every seat's entropy."""
    game = lifecycle(get_game("shithead"))
    keys = Keys(secret="5a" * 32, seed=SEED)
    entropy = ["1" * 64, "2" * 64]
    events = game.create(players=2, options={}, dealer=None, keys=keys,
                         filled=list(enumerate(entropy)), salted_deck=True)  # fmt: skip
    state = fold(game, events)
    while True:  # on to a seat with a real choice to make (not the pre-play's ready)
        seat = game.awaited_seats(state)[0]
        legal = game.legal_actions(state, seat)
        if len([a for a in legal if a["type"] == "play"]) > 2:
            break
        state = fold(game, game.act(state, seat, legal[-1], keys), state)
    hidden, chosen = deal_seed(keys.secret, entropy), SEED
    made = [game.default_move(state, seat, keys, v) for v in range(40)]
    assert made == [default_move(game.game, legal, move_seed(hidden, v, seat)) for v in range(40)]
    assert made != [default_move(game.game, legal, move_seed(chosen, v, seat)) for v in range(40)]
