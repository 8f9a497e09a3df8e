"""Forks (docs/analysis.md): a fork as a seat tells that seat nothing it had not seen, a fork
with every card open is the exact position, forks verify offline (against their source's
replay too), a forked game plays to its end with bots, an archived game is forked from its
archived replay as it was before, and a seat's fork of a game still played (sealed) is that
seat's alone until the game ends, then published and verified like any."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from domain.errors import InvalidSetup
from domain.events import canonical_json
from domain.fairness import chain_salt
from domain.forks import basis_at, check_moment, seat_fork, thawed
from domain.lifecycle import Keys, lifecycle
from domain.registry import get_game
from domain.state_codec import from_data, to_data
from replays import forks
from replays.checks import Discrepancy
from replays.format import loads
from replays.verify import check, verify
from service.archive import MemoryArchive
from service.cli import main
from service.errors import GameNotOver, InvalidField, Unauthorized
from service.games import GameService
from service.retention import Retention
from service.store import InMemoryEventStore
from tests.support.api import CARD, bearer, cards_in, make_app
from tests.support.moments import moments
from tests.support.visibility import may_see
from tests.unit.lifecycle.test_receipts import rechain
from tests.unit.service.test_api_no_leak import Witness
from workers.jobs import play_one_turn

GAMES = {"shithead": 3, "sixty_six": 2, "sheepshead": 3}
BOT = {"type": "bot", "bot": "heuristic"}
VOLATILE = {"names", "last_action", "may_send", "forked", "prearranged", "commitment", "open_seats"}


def play_out(svc: GameService, game_id: str, limit: int = 3000) -> None:
    """Every bot seat plays its turns in process until the game ends."""
    for _ in range(limit):
        loaded = svc.load(game_id)
        if loaded.over:
            return
        seat = loaded.game.awaited_seats(loaded.state)[0]
        play_one_turn(svc, game_id, seat, loaded.version)
    raise AssertionError(f"game {game_id} did not end in {limit} turns")


@pytest.fixture(scope="module")
def svc() -> GameService:
    return GameService(InMemoryEventStore())


@pytest.fixture(scope="module")
def sources(svc: GameService) -> dict[str, str]:
    """A finished bot game of each game, the same each run: seeded, and its id from an
    idempotency key (the bots' draws follow the game's id)."""
    out = {}
    for name, players in GAMES.items():
        game_id = svc.create_game(name, [BOT] * players, seed=f"fork-source-{name}",
                                  idempotency_key=f"fork-source-{name}")["id"]  # fmt: skip
        play_out(svc, game_id)
        out[name] = game_id
    return out


def decisions(svc: GameService, game_id: str) -> list[tuple[int, int, Any, list[Any]]]:
    """(version, seat awaited, state, events so far) at every moment a fork as a seat may
    start from: where an action ends (``moments``)."""
    rules = svc.load(game_id).game
    out = []
    for version, state, events in moments(svc, game_id):
        if state.inner is None or rules.outcome(state) is not None:
            continue
        for seat in rules.awaited_seats(state):
            out.append((version, seat, state, events))
    return out


def forkable(svc: GameService, game_id: str, count: int) -> list[tuple[int, int, Any, list[Any]]]:
    """``count`` decisions spread over the game that a seat fork can start from (the play
    phase: Shithead's pre-play is not sampled)."""
    found = [d for d in decisions(svc, game_id)
             if getattr(d[2].inner, "phase", "play") not in ("preplay", "new")]  # fmt: skip
    step = max(1, len(found) // count)
    return found[::step][:count]


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what differs between any two games (ids, the lifecycle's facts) and with
    the legal actions as a set (their order follows the hand's order in the state)."""
    out = {k: v for k, v in thawed(view).items() if k not in VOLATILE}
    out["legal_actions"] = sorted(canonical_json(a) for a in out.get("legal_actions", []))
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_fork_as_a_seat_shows_that_seat_the_table_it_saw(
    svc: GameService, sources: dict[str, str], name: str
) -> None:
    for version, seat, state, _ in forkable(svc, sources[name], 4):
        fork = svc.fork_game(sources[name], at=version, view_as=seat, seats=[BOT] * GAMES[name])
        assert fork["forked"] == {"source": sources[name], "version": version, "as": seat}
        assert fork["prearranged"] is False
        forked = svc.view(fork["id"], seat)["view"]
        source_view = lifecycle(get_game(name)).view(state, seat)
        assert comparable(forked) == comparable(source_view)
        assert forked["forked"] == fork["forked"]


def scrambled(state: Any, rules: Any, seat: int, rnd: random.Random) -> Any:
    """The table with two cards the seat cannot see now swapped wherever they are: another
    table that seat cannot tell from this one (its view and history are the same)."""
    data = to_data(state.inner)
    hidden = sorted(c for c in _strings(data) - may_see(rules.name, state, seat) if CARD.match(c))
    for _ in range(20 if len(hidden) > 1 else 0):
        first, second = rnd.sample(hidden, 2)
        table = replace(state, inner=from_data(_swapped(data, {first: second, second: first})))
        # (the rules' visibility zones miss a few public places, e.g. a scored hand's tricks)
        if thawed(rules.view(table, seat)) == thawed(rules.view(state, seat)):
            assert table.inner != state.inner
            return table
    return state  # nothing hidden from the seat to scramble


def _strings(data: Any) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return set().union(*map(_strings, data.values())) if data else set()
    if isinstance(data, list | tuple):
        return set().union(*map(_strings, data)) if data else set()
    return set()


def _swapped(data: Any, swap: dict[str, str]) -> Any:
    if isinstance(data, str):
        return swap.get(data, data)
    if isinstance(data, dict):
        return {k: _swapped(v, swap) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_swapped(v, swap) for v in data]
    return data


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_fork_as_a_seat_never_depends_on_a_card_that_seat_had_not_seen(
    svc: GameService, sources: dict[str, str], name: str
) -> None:
    rules = lifecycle(get_game(name))
    rnd = random.Random(name)
    keys = Keys(secret="11" * 32)
    scrambles = 0
    for version, seat, state, events in forkable(svc, sources[name], 6):
        positions = set()
        for table in (state, scrambled(state, rules, seat, rnd), scrambled(state, rules, seat,
                                                                           rnd)):
            scrambles += table is not state
            origin = seat_fork(sources[name], version, seat,
                               basis_at(rules, table, events, seat), table.inner)
            created = rules.create(
                players=GAMES[name], options=dict(state.created.options), dealer=None,
                keys=keys, filled=[(s, f"{s + 2:02d}" * 32) for s in range(GAMES[name])],
                fork=origin,
            )  # fmt: skip
            positions.add(canonical_json(rules.codec.encode(created[-1])))
        assert len(positions) == 1, f"the fork at {version} as seat {seat} told a hidden card"
    assert scrambles >= 3  # some tables did hide cards to scramble


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_fork_with_every_card_open_is_the_exact_position(
    svc: GameService, sources: dict[str, str], name: str
) -> None:
    for version, _, state, _ in forkable(svc, sources[name], 3):
        fork = svc.fork_game(sources[name], at=version, view_as="open", seats=[BOT] * GAMES[name])
        assert fork["prearranged"] is True
        assert fork["forked"]["as"] is None
        loaded = svc.load(fork["id"])
        assert loaded.state.inner == state.inner
        listed = {g["id"]: g for g in svc.list_games(game=name, limit=500)}
        assert listed[fork["id"]]["forked"] == fork["forked"]
        assert listed[fork["id"]]["prearranged"] is True


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_forked_game_plays_to_its_end_with_bots_and_verifies_offline(
    svc: GameService, sources: dict[str, str], name: str
) -> None:
    source = loads(svc.replay_file(sources[name]))
    (version, seat, _, _), = forkable(svc, sources[name], 1)[1:2] or forkable(
        svc, sources[name], 1)  # fmt: skip
    for view_as in (seat, "open"):
        fork = svc.fork_game(sources[name], at=version, view_as=view_as,
                             seats=[BOT] * GAMES[name])  # fmt: skip
        play_out(svc, fork["id"])
        replay = loads(svc.replay_file(fork["id"]))
        assert replay.header.forked == fork["forked"]
        report = verify(replay, source=source)
        assert report.ok, report.summary()
        other = loads(svc.replay_file(sources[sorted(set(GAMES) - {name})[0]]))
        refused = check(replay, source=other)
        assert not refused.ok and "source" in refused.reason


def test_the_cli_verifies_a_fork_against_its_source(
    svc: GameService, sources: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    version, seat, _, _ = forkable(svc, sources["sixty_six"], 2)[1]
    fork = svc.fork_game(sources["sixty_six"], at=version, view_as=seat, seats=[BOT, BOT])
    play_out(svc, fork["id"])
    files = {}
    for name, game_id in (("fork", fork["id"]), ("source", sources["sixty_six"]),
                          ("other", sources["shithead"])):  # fmt: skip
        files[name] = tmp_path / f"{name}.replay.json"
        files[name].write_text(svc.replay_file(game_id))
    assert main(["replay", "verify", str(files["fork"]), "--source", str(files["source"])]) == 0
    assert capsys.readouterr().out.startswith("OK sixty_six")
    assert main(["replay", "verify", str(files["fork"]), "--source", str(files["other"])]) == 1
    assert "source" in capsys.readouterr().err


def test_the_fixed_cards_must_agree_with_the_source(
    svc: GameService, sources: dict[str, str]
) -> None:
    rules = lifecycle(get_game("sixty_six"))
    source = loads(svc.replay_file(sources["sixty_six"]))
    version, seat, state, _ = forkable(svc, sources["sixty_six"], 2)[1]
    fork = svc.fork_game(sources["sixty_six"], at=version, view_as=seat, seats=[BOT, BOT])
    play_out(svc, fork["id"])
    replay = loads(svc.replay_file(fork["id"]))
    forks.check_source(rules, replay, source)
    # the same basis claimed for the next version: not that seat's view and history then
    origin = forks._origin(rules, replay)
    moved = seat_fork(origin.source, version + 1, seat, origin.basis, state.inner)
    first = replay.batches[0]
    events = tuple(replace(e, event=rules.codec.encode(moved)) if e.event["type"] ==
                   "lifecycle.GameForked" else e for e in first.events)  # fmt: skip
    claimed = replace(replay, batches=(replace(first, events=events), *replay.batches[1:]))
    with pytest.raises(Discrepancy, match="basis is not the source's view and history"):
        forks.check_source(rules, claimed, source)


def test_a_fork_whose_fresh_cards_were_chosen_fails_the_audit(
    svc: GameService, sources: dict[str, str]
) -> None:
    version, seat, _, _ = forkable(svc, sources["sixty_six"], 2)[1]
    fork = svc.fork_game(sources["sixty_six"], at=version, view_as=seat, seats=[BOT, BOT])
    play_out(svc, fork["id"])
    replay = loads(svc.replay_file(fork["id"]))
    dealt = next(e for e in replay.events if e.event["type"] == "lifecycle.PositionDealt")
    stock = dealt.event["position"]["="]["deal"]["="]["stock"]["()"]
    stock[0], stock[-1] = stock[-1], stock[0]  # the server picks the order of the stock
    forged = rechain(replay, chain_salt(str(replay.header.secret)))
    report = check(forged)
    assert not report.ok and report.bad_version == dealt.version, report.summary()


def test_search_bots_play_a_fork_on_from_what_they_knew_before_it(
    svc: GameService, sources: dict[str, str]
) -> None:
    # a Shithead search bot samples from every card it has seen: with the fork's own history
    # only, its knowledge did not add up to the table and it fell back at every move
    version, seat, _, _ = forkable(svc, sources["shithead"], 3)[2]
    search = {"type": "bot", "bot": "search"}
    fork = svc.fork_game(sources["shithead"], at=version, view_as=seat, seats=[search] * 3)
    play_out(svc, fork["id"])
    fell_back = [e for e in svc.store.read(fork["id"], 0)
                 if e.event["type"] == "lifecycle.BotFellBack"]  # fmt: skip
    assert fell_back == []


def test_a_fork_starts_where_an_action_ends_never_inside_one(
    svc: GameService, sources: dict[str, str]
) -> None:
    # Shithead's first seat out: its play, PlayerOut, the turn passed on, all one action.
    # Between the last two the seat is out and still the seat to move, with no move to make:
    # a fork there was made, and its bots' fallback found no move for that seat
    game_id = sources["shithead"]
    rules = svc.load(game_id).game
    batch, out = next((b, e) for b in svc.store.batches(game_id) for e in b.events
                      if e.event["type"] == "shithead.PlayerOut")  # fmt: skip
    seat = out.event["seat"]
    state = rules.initial_state()
    for stored in svc.store.read(game_id, 0, out.version):
        state = rules.evolve(state, rules.codec.decode(stored.event))
    assert rules.awaited_seats(state) == (seat,) and rules.legal_actions(state, seat) == []
    for view_as in (seat, "open"):
        with pytest.raises(InvalidSetup, match=f"version {out.version} is inside one action "
                           rf"\(its events are versions {batch.first} to {batch.last}\)"):
            svc.fork_game(game_id, at=out.version, view_as=view_as, seats=[BOT] * 3)
    # where the action ends, the next seat is to move, and a fork as it plays on
    _, after, _, _ = next(d for d in decisions(svc, game_id) if d[0] == batch.last)
    fork = svc.fork_game(game_id, at=batch.last, view_as=after, seats=[BOT] * 3)
    play_out(svc, fork["id"])


def test_a_moment_no_action_holds_is_refused_not_an_index_error() -> None:
    # the source's events read back fewer than the version asked (purged meanwhile)
    check_moment(7, range(5, 8))
    with pytest.raises(InvalidSetup, match="version 7 is in no action of the source"):
        check_moment(7, range(0))


def test_a_game_still_played_is_forked_by_a_seat_only_and_the_moment_must_exist(
    svc: GameService, sources: dict[str, str]
) -> None:
    live = svc.create_game("sixty_six", [{"type": "open"}, BOT])["id"]
    with pytest.raises(GameNotOver):
        svc.fork_game(live, at=1, view_as="open", seats=[BOT, BOT])
    with pytest.raises(Unauthorized):
        svc.fork_game(live, at=1, view_as=0, seats=[{"type": "open"}, BOT])
    game_id = sources["sixty_six"]
    head = svc.load(game_id).version
    with pytest.raises(InvalidField, match="at"):
        svc.fork_game(game_id, at=head + 1, view_as=0, seats=[BOT, BOT])
    with pytest.raises(InvalidSetup, match="nothing is dealt"):
        svc.fork_game(game_id, at=1, view_as="open", seats=[BOT, BOT])
    with pytest.raises(InvalidField, match="as"):
        svc.fork_game(game_id, at=head - 1, view_as=5, seats=[BOT, BOT])
    version, seat, _, _ = forkable(svc, game_id, 1)[0]
    with pytest.raises(InvalidSetup, match="not to move"):
        svc.fork_game(game_id, at=version, view_as=1 - seat, seats=[BOT, BOT])


def test_the_api_forks_a_finished_game() -> None:
    app = make_app()
    client = app.test_client()
    created = client.post("/games", json={"game": "sixty_six", "seats": [BOT, BOT],
                                          "seed": "api-fork"})  # fmt: skip
    game_id = created.json["id"]
    svc = app.extensions["cardroom"]
    play_out(svc, game_id)
    version, seat, _, _ = forkable(svc, game_id, 1)[0]
    body = {"at": version, "as": seat, "seats": [{"type": "open"}, BOT]}
    response = client.post(f"/games/{game_id}/forks", json=body)
    assert response.status_code == 201, response.json
    fork_id = response.json["id"]
    assert response.json["forked"] == {"source": game_id, "version": version, "as": seat}
    assert client.get(f"/games/{fork_id}").json["forked"]["source"] == game_id
    listed = client.get("/games?game=sixty_six").json["games"]
    assert next(g for g in listed if g["id"] == fork_id)["forked"]["version"] == version
    for wrong in ({"at": 10**6}, {"seats": [BOT]}, {"as": "everyone"}):
        bad = client.post(f"/games/{game_id}/forks", json={**body, **wrong})
        assert bad.status_code == 422 and bad.json["code"] == "invalid_field", bad.json
        assert bad.headers["Content-Type"] == "application/problem+json"
    assert len(client.get("/games?game=sixty_six").json["games"]) == 2  # nothing more created
    key = {"Idempotency-Key": "fork-once"}
    once = client.post(f"/games/{game_id}/forks", json=body, headers=key)
    again = client.post(f"/games/{game_id}/forks", json=body, headers=key)
    assert once.status_code == again.status_code == 201
    assert once.json["id"] == again.json["id"]
    other = client.post(f"/games/{game_id}/forks", json={**body, "as": "open"}, headers=key)
    assert other.status_code == 422 and other.json["code"] == "idempotency_key_reused"


def origin_of(svc: GameService, game_id: str) -> dict[str, Any]:
    """A fork's stored origin event (its creation batch's lifecycle.GameForked)."""
    return next(e.event for e in svc.store.read(game_id, 0, 3)
                if e.event["type"] == "lifecycle.GameForked")  # fmt: skip


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_archived_game_is_forked_from_its_archived_replay_as_before(name: str) -> None:
    archive = MemoryArchive()
    app = make_app(archive=archive)
    svc = app.extensions["cardroom"]
    # (ids from idempotency keys: the bots' draws follow the game's id, so the source is the
    # same game each run; a fork's fresh cards come from its own commit-reveal seed)
    game_id = svc.create_game(name, [BOT] * GAMES[name], seed=f"fork-archived-{name}",
                              idempotency_key=f"fork-archived-{name}")["id"]  # fmt: skip
    play_out(svc, game_id)
    version, seat, _, _ = forkable(svc, game_id, 2)[1]
    other = (seat + 1) % GAMES[name]
    inside = next(b.first for b in svc.store.batches(game_id)
                  if b.first > version and len(b.events) > 1)  # fmt: skip
    before = {}
    for view_as in (seat, "open"):
        fork = svc.fork_game(game_id, at=version, view_as=view_as, seats=[BOT] * GAMES[name],
                             idempotency_key=f"before-{view_as}")  # fmt: skip
        before[view_as] = (origin_of(svc, fork["id"]),
                           svc.fork_prehistory(svc.load(fork["id"]), other))  # fmt: skip
    moved = Retention(svc, archive, 0, retention=svc.store).archive_game(game_id)
    assert moved.outcome == "archived"
    assert svc.store.meta(game_id) is None  # the source is in the archive only
    source = loads(archive.get(game_id).replay)
    # the archived replay's batches tell where its actions end, as the store's did
    body = {"at": inside, "as": "open", "seats": [BOT] * GAMES[name]}
    problem(app.test_client().post(f"/games/{game_id}/forks", json=body), 422, "invalid_setup")
    for view_as in (seat, "open"):
        body = {"at": version, "as": view_as, "seats": [BOT] * GAMES[name]}
        response = app.test_client().post(f"/games/{game_id}/forks", json=body,
                                          headers={"Idempotency-Key": f"after-{view_as}"})
        assert response.status_code == 201, response.json
        fork_id = response.json["id"]
        # the same origin as a fork made before the source was archived, and its bots read
        # what they knew before the fork from the archived replay
        assert origin_of(svc, fork_id) == before[view_as][0]
        assert before[view_as][1]
        assert svc.fork_prehistory(svc.load(fork_id), other) == before[view_as][1]
        play_out(svc, fork_id)
        report = verify(loads(svc.replay_file(fork_id)), source=source)
        assert report.ok, report.summary()


OPEN_SEAT = {"type": "open"}


def problem(response: Any, status: int, code: str) -> None:
    """The response is that problem+json."""
    assert response.status_code == status, (response.status_code, response.json)
    assert response.headers["Content-Type"] == "application/problem+json"
    assert response.json["code"] == code, response.json


def play_seat(svc: GameService, game_id: str, rnd: random.Random) -> None:
    """Seat 0 (a person) makes a random legal move."""
    loaded = svc.load(game_id)
    legal = loaded.game.legal_actions(loaded.state, 0)
    svc.submit_action(game_id, 0, rnd.choice(legal), loaded.version)


def live_source(svc: GameService, client: Any, name: str) -> tuple[str, str]:
    """A game with a person at seat 0 (its token) and bots elsewhere, played until seat 0
    is to move in the play (Shithead: after its pre-play) after two decisions of its own."""
    seats = [OPEN_SEAT] + [BOT] * (GAMES[name] - 1)
    created = client.post("/games", json={"game": name, "seats": seats, "seed": f"live-{name}"},
                          headers={"Idempotency-Key": f"live-{name}"})  # the same game each run
    game_id = created.json["id"]
    token = client.post(f"/games/{game_id}/seats/0", json={"name": "alice"}).json["token"]
    rnd, made = random.Random(name), 0
    for _ in range(500):
        loaded = svc.load(game_id)
        assert not loaded.over
        awaited = loaded.game.awaited_seats(loaded.state)
        if 0 not in awaited:
            play_one_turn(svc, game_id, awaited[0], loaded.version)
            continue
        playing = getattr(loaded.state.inner, "phase", "play") not in ("preplay", "new")
        if playing and made >= 2:
            return game_id, token
        play_seat(svc, game_id, rnd)
        made += playing
    raise AssertionError("seat 0 was never to move in the play")


def only_seen_by(svc: GameService, game_id: str, seat: int) -> set[str]:
    """The cards that seat sees now and a spectator does not (its hand)."""
    return cards_in(svc.view(game_id, seat)["view"]) - cards_in(svc.view(game_id, None)["view"])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_seat_forks_its_game_still_played_and_the_fork_is_its_alone_until_that_game_ends(
    name: str,
) -> None:
    archive = MemoryArchive()
    app = make_app(archive=archive)
    client, svc = app.test_client(), app.extensions["cardroom"]
    source_id, token = live_source(svc, client, name)
    at = svc.load(source_id).version
    source_view = svc.view(source_id, 0)["view"]
    bots = [BOT] * (GAMES[name] - 1)
    body = {"at": at, "as": 0, "seats": [OPEN_SEAT, *bots]}
    created = client.post(f"/games/{source_id}/forks", json=body,
                          headers={**bearer(token), "Idempotency-Key": f"fork-{name}"})
    assert created.status_code == 201, created.json
    fork_id = created.json["id"]
    assert created.json["forked"] == {"source": source_id, "version": at, "as": 0, "sealed": True}
    assert created.json["prearranged"] is False

    def sealed_to_spectators() -> None:
        for path in ("", "/view", "/events", "/stream"):
            problem(client.get(f"/games/{fork_id}{path}"), 403, "fork_sealed")
        problem(client.post(f"/games/{fork_id}/forks", json={**body, "at": 3}), 403,
                "fork_sealed")  # fmt: skip
        assert fork_id not in {g["id"] for g in client.get("/games?limit=200").json["games"]}

    sealed_to_spectators()
    # its seat is that seat's holder's: taken with the source's token only
    problem(client.post(f"/games/{fork_id}/seats/0", json={"name": "eve"}), 401, "unauthorized")
    joined = client.post(f"/games/{fork_id}/seats/0", json={"name": "alice"},
                         headers=bearer(token))  # fmt: skip
    assert joined.status_code == 201, joined.json
    mine = bearer(joined.json["token"])
    assert client.get(f"/games/{fork_id}", headers=mine).json["forked"]["sealed"] is True
    view = client.get(f"/games/{fork_id}/view", headers=mine).json["view"]
    assert comparable(view) == comparable(source_view)
    # the fork's bots never read the seat's cards (its basis is in the origin event): at the
    # deal, and after every move the no-leak witness (the rules' visibility) checks them
    hand = only_seen_by(svc, fork_id, 0)
    assert hand
    for seat in range(1, GAMES[name]):
        assert not cards_in(svc.events_after(fork_id, 0, seat)) & hand, seat
    witness = Witness(svc.store, fork_id, GAMES[name])
    rnd = random.Random(f"{name}-fork")
    for _ in range(3000):
        loaded = svc.load(fork_id)
        for seat in range(1, GAMES[name]):
            witness.check(seat, svc.events_after(fork_id, 0, seat), "the fork's events")
            witness.check(seat, svc.view(fork_id, seat), "the fork's view")
        if loaded.over:
            break
        awaited = loaded.game.awaited_seats(loaded.state)
        if 0 in awaited:
            play_seat(svc, fork_id, rnd)
        else:
            play_one_turn(svc, fork_id, awaited[0], loaded.version)
    assert svc.load(fork_id).over
    sealed_to_spectators()
    for path in ("/replay", "/replay/verification", "/review?seat=1"):
        problem(client.get(f"/games/{fork_id}{path}"), 403, "fork_sealed")
    assert Retention(svc, archive, 0, retention=svc.store).archive_game(fork_id).outcome == "sealed"
    # the source ends: the fork is published and verifies against the source's replay
    version = svc.load(source_id).version
    ended = client.post(f"/games/{source_id}/actions", headers=bearer(token),
                        json={"type": "resign", "expected_version": version})  # fmt: skip
    assert ended.status_code == 200, ended.json
    assert client.get(f"/games/{fork_id}").json["forked"]["sealed"] is True
    assert fork_id in {g["id"] for g in client.get("/games?limit=200").json["games"]}
    replay = loads(client.get(f"/games/{fork_id}/replay").text)
    assert replay.header.forked == created.json["forked"]
    report = verify(replay, source=loads(client.get(f"/games/{source_id}/replay").text))
    assert report.ok, report.summary()
    assert client.get(f"/games/{fork_id}/replay/verification").json["ok"] is True


def test_a_game_still_played_is_forked_by_one_of_its_seats_as_itself_against_bots() -> None:
    app = make_app()
    client, svc = app.test_client(), app.extensions["cardroom"]
    source_id, token = live_source(svc, client, "sixty_six")
    at = svc.load(source_id).version
    body = {"at": at, "as": 0, "seats": [OPEN_SEAT, BOT]}
    url = f"/games/{source_id}/forks"
    problem(client.post(url, json=body), 401, "unauthorized")
    problem(client.post(url, json=body, headers=bearer("not-a-token")), 401, "unauthorized")
    problem(client.post(url, json={**body, "as": 1}, headers=bearer(token)), 403, "forbidden")
    problem(client.post(url, json={**body, "as": "open"}, headers=bearer(token)), 409,
            "game_not_over")  # fmt: skip
    for seats in ([OPEN_SEAT, OPEN_SEAT], [BOT, BOT], [OPEN_SEAT, {"type": "bot", "bot": "x"}]):
        problem(client.post(url, json={**body, "seats": seats}, headers=bearer(token)), 422,
                "invalid_field")  # fmt: skip
    assert [g["id"] for g in client.get("/games").json["games"]] == [source_id]  # none made
    # a summary is public: an Authorization header that holds no bearer token is no token
    assert client.get(f"/games/{source_id}", headers={"Authorization": "Basic eDp5"}).json[
        "id"] == source_id  # fmt: skip
    # another game's seat holder cannot take the fork's seat
    fork_id = client.post(url, json=body, headers=bearer(token)).json["id"]
    other = client.post("/games", json={"game": "sixty_six", "seats": [OPEN_SEAT, BOT]}).json
    stranger = client.post(f"/games/{other['id']}/seats/0", json={"name": "eve"}).json["token"]
    problem(client.post(f"/games/{fork_id}/seats/0", json={"name": "eve"},
                        headers=bearer(stranger)), 401, "unauthorized")  # fmt: skip


def test_sealed_forks_kept_from_the_archive_do_not_hold_back_the_games_due_after_them() -> None:
    archive = MemoryArchive()
    app = make_app(archive=archive)
    client, svc = app.test_client(), app.extensions["cardroom"]
    source_id, token = live_source(svc, client, "sixty_six")
    body = {"at": svc.load(source_id).version, "as": 0, "seats": [OPEN_SEAT, BOT]}
    fork_id = client.post(f"/games/{source_id}/forks", json=body, headers=bearer(token)).json["id"]
    mine = client.post(f"/games/{fork_id}/seats/0", json={"name": "alice"},
                       headers=bearer(token)).json["token"]  # fmt: skip
    version = svc.load(fork_id).version
    resigned = client.post(f"/games/{fork_id}/actions", headers=bearer(mine),
                           json={"type": "resign", "expected_version": version})  # fmt: skip
    assert resigned.status_code == 200 and svc.load(fork_id).over  # the fork ended first
    later = svc.create_game("sixty_six", [BOT, BOT], seed="due-after-the-fork")["id"]
    play_out(svc, later)
    retention = Retention(svc, archive, 0, retention=svc.store)
    assert [(m.game_id, m.outcome) for m in retention.run(limit=1)] == [
        (fork_id, "sealed"), (later, "archived")]  # fmt: skip
    assert svc.store.meta(fork_id) is not None and archive.get(later) is not None
