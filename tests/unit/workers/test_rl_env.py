"""The training environment: PettingZoo's API test passes for every game and table size, a
seed deals the same game, every legal action of every option set the space covers has its
index, observations show only cards the seat may see (the rules' visibility, as for the API),
rewards follow the outcome, and a policy over the encoding plays whole games as a bot."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from domain.errors import DomainError
from domain.events import canonical_json
from domain.protocol import Setup
from domain.registry import get_game
from tests.support.visibility import may_see
from workers.arena import play_game
from workers.bots.base import register_bot
from workers.examples.policy import TinyPolicyBot
from workers.rl.env import CardroomEnv, env
from workers.rl.spaces import OutsideTheSpace

TABLES = [("shithead", 2), ("shithead", 6), ("sixty_six", 2), ("sheepshead", 3),
          ("sheepshead", 4), ("sheepshead", 5), ("sheepshead", 7)]  # fmt: skip


@pytest.mark.parametrize(("game", "players"), TABLES, ids=[f"{g}-{p}p" for g, p in TABLES])
def test_pettingzoos_api_test_passes(game: str, players: int) -> None:
    api_test(env(game, players=players), num_cycles=400)


@pytest.mark.parametrize("game", ["shithead", "sixty_six", "sheepshead"])
def test_the_same_seed_deals_the_same_game(game: str) -> None:
    seed_test(lambda: env(game), num_cycles=200)
    first, second = env(game), env(game)
    first.reset(seed=7), second.reset(seed=7)
    assert first.view("player_0") == second.view("player_0")


def random_options(game: str, rng: random.Random) -> dict[str, Any]:
    skip = {"action_limit", "rounds", "first_dealer", "game_target", "last_trick_bonus",
            "exchange_min_stock", "hand_size", "deal_6_choose_3"}  # fmt: skip
    options: dict[str, Any] = {}
    for option in get_game(game).options:
        if option.name in skip:
            continue
        if option.kind == "bool":
            options[option.name] = rng.random() < 0.5
        elif option.kind == "choice" or option.choices:
            options[option.name] = rng.choice(option.choices)
    return options


def tables_with_options(game: str, count: int) -> list[tuple[int, dict[str, Any]]]:
    rng, rules, found = random.Random(game), get_game(game), []
    while len(found) < count:
        players = rng.randint(rules.min_players, rules.max_players)
        options = random_options(game, rng)
        try:
            rules.start(Setup(players=players, seed="probe", options=options))
        except DomainError:
            continue  # a combination the rules refuse
        found.append((players, options))
    return found


def play_randomly(environment: CardroomEnv, seed: int, steps: int) -> None:
    """Random legal indices; calls ``environment.checked`` after every step, if set."""
    rng = np.random.default_rng(seed)
    environment.reset(seed=seed)
    for _, agent in zip(range(steps), environment.agent_iter(), strict=False):
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        check = getattr(environment, "checked", None)
        if check is not None:
            check(agent)


@pytest.mark.slow  # random tables played out
@pytest.mark.parametrize("game", ["shithead", "sixty_six", "sheepshead"])
def test_every_legal_action_under_random_options_has_an_index(game: str) -> None:
    for number, (players, options) in enumerate(tables_with_options(game, 25)):
        environment = env(game, players=players, options=options)
        play_randomly(environment, number, 300)  # each step maps every legal action


def test_a_table_the_space_does_not_cover_is_refused_by_name() -> None:
    with pytest.raises(OutsideTheSpace, match="deal_6_choose_3"):
        env("shithead", options={"deal_6_choose_3": True})


def test_observations_of_the_domains_view_equal_those_of_the_apis_json_view() -> None:
    environment = env("shithead", players=3)
    environment.reset(seed=3)
    for _ in range(60):
        agent = environment.agent_selection
        from_json = environment.encoder.encode(environment.view(agent))
        assert np.array_equal(environment.observe(agent)["observation"], from_json)
        mask = environment.observe(agent)["action_mask"]
        environment.step(int(np.flatnonzero(mask)[0]))


class Witness:
    """The cards each seat may have seen so far, by the rules (tests.support.visibility)."""

    def __init__(self, environment: CardroomEnv) -> None:
        self.environment = environment
        self.seen: dict[int, set[str]] = {s: set() for s in range(environment.players)}

    def leaked(self) -> dict[int, set[str]]:
        env_, out = self.environment, {}
        for seat, seen in self.seen.items():
            seen |= may_see(env_.game.name, env_.state, seat)
            shown = env_.encoder.cards_of(env_.observe(env_.possible_agents[seat])["observation"])
            if shown - seen and env_.game.outcome(env_.state) is None:
                out[seat] = shown - seen
        return out


@pytest.mark.parametrize(("game", "players"), [("shithead", 4), ("sixty_six", 2),
                                               ("sheepshead", 5), ("sheepshead", 3)])  # fmt: skip
def test_an_observation_shows_only_cards_its_seat_may_see(game: str, players: int) -> None:
    for seed in range(3):
        environment = env(game, players=players)
        environment.checked = NoLeak(Witness(environment))  # type: ignore[attr-defined]
        play_randomly(environment, seed, 400)


class NoLeak:
    def __init__(self, witness: Witness) -> None:
        self.witness = witness

    def __call__(self, agent: str) -> None:
        leaked = self.witness.leaked()
        assert not leaked, f"observations show cards their seats never saw: {leaked}"


class Peeking(CardroomEnv):
    """An environment whose observations are built from the whole table, not the view."""

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        shown = super().observe(agent)
        table = json.loads(canonical_json(self.game.reveal(self.state)))
        return {**shown, "observation": self.encoder.encode({"hand": _all_cards(table)})}


def _all_cards(value: Any) -> list[str]:
    from workers.rl.observe import cards_in

    return cards_in(value)


def test_the_leak_check_catches_observations_made_from_the_whole_table() -> None:
    environment = Peeking("sixty_six")
    witness = Witness(environment)
    environment.reset(seed=1)
    assert witness.leaked()


class Totals(dict[str, float]):
    """Each agent's rewards added up, step by step."""

    def __init__(self, environment: CardroomEnv) -> None:
        super().__init__(dict.fromkeys(environment.possible_agents, 0.0))
        self.environment = environment

    def __call__(self, agent: str) -> None:
        for name, reward in self.environment.rewards.items():
            self[name] += reward


@pytest.mark.parametrize(("game", "players", "options"), [
    ("sixty_six", 2, {"game_target": 2}), ("shithead", 3, {}), ("sheepshead", 3, {})])
def test_rewards_follow_the_outcome(game: str, players: int, options: dict[str, Any]) -> None:
    environment = env(game, players=players, options=options)
    totals = environment.checked = Totals(environment)  # type: ignore[attr-defined]
    play_randomly(environment, 5, 100_000)
    outcome = environment.game.outcome(environment.state)
    assert outcome is not None and outcome.get("reason") != "action_limit"
    assert sum(totals.values()) == pytest.approx(0.0, abs=1e-9)  # zero-sum
    if game == "sheepshead":  # every hand's score as it is scored: the totals
        assert [totals[a] for a in environment.possible_agents] == list(outcome["totals"])
    else:
        assert all(totals[f"player_{s}"] < 0 for s in outcome["losers"])
        assert all(totals[f"player_{s}"] > 0 for s in outcome["winners"])


def test_a_policy_over_the_encoding_plays_whole_games_in_the_env_and_as_a_bot() -> None:
    bot = TinyPolicyBot()
    for game in ("shithead", "sixty_six", "sheepshead"):
        environment = env(game)
        environment.reset(seed=11)
        rng = random.Random(0)
        bot.space, bot.encoder = environment.space, environment.encoder
        for _agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            shown, mask = observation["observation"], observation["action_mask"]
            environment.step(bot.policy(shown, mask, rng))
        assert environment.game.outcome(environment.state)["reason"] != "action_limit"
        register_bot("tiny_policy")(TinyPolicyBot)
        record = play_game(game, ["tiny_policy", "heuristic"] if game != "sheepshead" else
                           ["tiny_policy"] + ["heuristic"] * 4, "policy", bot_seed="p")  # fmt: skip
        assert record.ended_by == "rules", record.note
