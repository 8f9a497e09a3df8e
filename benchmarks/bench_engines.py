"""Engine speed per action against an outside anchor: VU Amsterdam's ``schnapsen`` package.

Run: ``.venv/bin/python -m benchmarks.bench_engines [--samples N] [--quick]`` (``make bench``).

What is timed (CPU time of this process, ``time.process_time``), per action:

- ours: random self-play of whole matches through the game's public protocol, exactly the
  engine's share of what the service does per action: ``legal_actions`` of the awaited seat,
  a random pick, ``decide`` and the fold of the produced events (``evolve`` per event). Each
  match's ``start`` and the fold of its creation events are timed too (the anchor deals inside
  its timed loop as well). Sixty-Six plays matches to 7 and declares out exactly at 66 (the
  anchor declares automatically); Shithead 4 players; Sheepshead 5 players, 5 hands a match.
- anchor: the ``schnapsen`` package (Schnapsen, the 20-card Sixty-Six), ``RandBot`` self-play,
  matches to 7 game points, one action per ``get_move`` call (each asks the engine for the
  valid moves, as ours asks ``legal_actions``). It is installed by this script in its own
  virtual environment (``benchmarks/.anchor-venv``, git-ignored) from the package index and
  run in a subprocess of it, on the same Python.

Samples alternate anchor, ours (all three games), anchor, ours ... Each side first plays a fifth
of its matches untimed (on this VM a process runs slower for a while after another ran or
after an idle spell). Each sample's ratio is anchor's time per action / ours: above 1 means
ours is faster. Prints median and range, and the ratio of each side's fastest sample (noise on
a shared machine only ever adds time).

``--against DIR`` measures a change instead: the same self-play, run alternately by the
checkout at DIR (the code before, e.g. a ``git worktree`` of main) and by this one, each in a
process of its own; the ratio is this checkout's time per action / DIR's (below 1: faster).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from domain.games.sheepshead import GAME as SHEEPSHEAD
from domain.games.shithead import GAME as SHITHEAD
from domain.games.sixty_six import GAME as SIXTY_SIX
from domain.protocol import Game, Setup, fold

ANCHOR_VENV = Path(__file__).resolve().parent / ".anchor-venv"
ANCHOR_PACKAGE = "schnapsen"

ANCHOR_SCRIPT = r"""
import json, random, sys, time
from schnapsen.game import SchnapsenGamePlayEngine
from schnapsen.bots import RandBot

class Counting(RandBot):
    moves = 0
    def get_move(self, perspective, leader_move):
        Counting.moves += 1
        return super().get_move(perspective, leader_move)

matches, seed = int(sys.argv[1]), int(sys.argv[2])
engine = SchnapsenGamePlayEngine()
rng = random.Random(seed)
bots = [Counting(random.Random(seed + 10), "a"), Counting(random.Random(seed + 11), "b")]

def play(count):
    for m in range(count):
        points = {"a": 0, "b": 0}
        leader = m % 2
        while max(points.values()) < 7:
            winner, gained, _ = engine.play_game(bots[leader], bots[1 - leader], rng)
            points[str(winner)] += gained
            leader = 1 - leader

play(max(1, matches // 5))  # warm-up, not timed
Counting.moves = 0
start = time.process_time()
play(matches)
print(json.dumps({"actions": Counting.moves, "seconds": time.process_time() - start}))
"""


def anchor_python() -> Path:
    """The anchor venv's python, creating the venv and installing the package when missing."""
    python = ANCHOR_VENV / "bin" / "python"
    if not (python.exists() and _imports(python)):
        subprocess.run([sys.executable, "-m", "venv", str(ANCHOR_VENV)], check=True,
                       capture_output=True, timeout=300)
        (ANCHOR_VENV / ".gitignore").write_text("*\n")
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", ANCHOR_PACKAGE],
                       check=True, capture_output=True, timeout=900)
        if not _imports(python):
            raise SystemExit(f"the anchor venv at {ANCHOR_VENV} cannot import {ANCHOR_PACKAGE}")
    return python


def _imports(python: Path) -> bool:
    return subprocess.run([str(python), "-c", "import schnapsen.game"],
                          capture_output=True).returncode == 0


def anchor_sample(python: Path, matches: int, seed: int) -> float:
    """Seconds per action of the anchor's RandBot self-play."""
    done = subprocess.run([str(python), "-c", ANCHOR_SCRIPT, str(matches), str(seed)],
                          capture_output=True, text=True, timeout=900, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return float(result["seconds"]) / int(result["actions"])


Chooser = Callable[[Any, int, list[dict[str, Any]], random.Random], dict[str, Any]]


def pick(state: Any, seat: int, legal: list[dict[str, Any]], rnd: random.Random) -> dict[str, Any]:
    """Any legal action."""
    return rnd.choice(legal)


def pick_sixty_six(
    state: Any, seat: int, legal: list[dict[str, Any]], rnd: random.Random
) -> dict[str, Any]:
    """Random play that declares out exactly at 66, like the anchor's automatic check."""
    if state.deal.points(seat) >= 66:
        return {"type": "declare_out"}
    calm = [a for a in legal if a["type"] != "declare_out"]
    return rnd.choice(calm or legal)


def play_matches(
    game: Game[Any], players: int, matches: int, seed: int, choose: Chooser
) -> tuple[int, float]:
    """Random self-play of whole matches: (actions, CPU seconds)."""
    rnd = random.Random(seed)
    actions = 0
    legal_actions, decide, outcome = game.legal_actions, game.decide, game.outcome
    awaited = game.awaited_seats
    began = time.process_time()
    for m in range(matches):
        state = fold(game, game.start(Setup(players=players, seed=f"engines-{seed}-{m}")))
        while outcome(state) is None:
            seat = awaited(state)[0]
            action = choose(state, seat, legal_actions(state, seat), rnd)
            state = fold(game, decide(state, seat, action), state)
            actions += 1
    return actions, time.process_time() - began


# name, game, players, matches per sample (full, quick), chooser, the target ratio
GAMES: tuple[tuple[str, Game[Any], int, tuple[int, int], Chooser, float], ...] = (
    ("Sixty-Six", SIXTY_SIX, 2, (200, 40), pick_sixty_six, 1.5),
    ("Shithead", SHITHEAD, 4, (12, 3), pick, 1.0),  # random games run ~2,000 actions
    ("Sheepshead", SHEEPSHEAD, 5, (100, 20), pick, 1.0),
)


CHECKOUT_SCRIPT = r"""
import json, sys
from benchmarks.bench_engines import GAMES, play_matches
quick, sample = sys.argv[1] == "1", int(sys.argv[2])
per_action = {}
for name, game, players, (full, small), choose, _ in GAMES:
    matches = small if quick else full
    play_matches(game, players, max(1, matches // 5), 1000 + sample, choose)  # warm-up
    actions, seconds = play_matches(game, players, matches, sample, choose)
    per_action[name] = seconds / actions
print(json.dumps(per_action))
"""


def checkout_sample(root: Path, quick: bool, sample: int) -> dict[str, float]:
    """Seconds per action of each game's self-play, played by the code of the checkout at root."""
    done = subprocess.run([sys.executable, "-c", CHECKOUT_SCRIPT, str(int(quick)), str(sample)],
                          cwd=root, env={**os.environ, "PYTHONPATH": str(root)},
                          capture_output=True, text=True, timeout=1800, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def against(before: Path, samples: int, quick: bool) -> None:
    """Alternate the checkout ``before`` and this one; print each game's ratio this / before."""
    here = Path(__file__).resolve().parent.parent
    ratios: dict[str, list[float]] = {name: [] for name, *_ in GAMES}
    for sample in range(samples):
        order = (before, here) if sample % 2 == 0 else (here, before)
        got = {root: checkout_sample(root, quick, sample) for root in order}
        for name, values in ratios.items():
            values.append(got[here][name] / got[before][name])
    print(f"engines per action, random self-play, this checkout / {before}, {samples} "
          f"alternating samples (below 1: this one is faster)")
    for name, values in ratios.items():
        print(f"  {name:<10} x{statistics.median(values):.3f} "
              f"(range {min(values):.3f}-{max(values):.3f})")


def main(argv: list[str] | None = None) -> int:
    """Alternate anchor and ours; print each game's ratio (median and range over samples)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    parser.add_argument("--against", type=Path, metavar="DIR",
                        help="compare with the checkout at DIR instead of the anchor")
    args = parser.parse_args(argv)
    if args.against is not None:
        against(args.against.resolve(), args.samples, args.quick)
        return 0
    python = anchor_python()
    anchor_matches = 50 if args.quick else 250
    anchor: list[float] = []
    ours: dict[str, list[float]] = {name: [] for name, *_ in GAMES}
    for sample in range(args.samples):
        anchor.append(anchor_sample(python, anchor_matches, sample))
        for name, game, players, (full, quick), choose, _ in GAMES:
            matches = quick if args.quick else full
            play_matches(game, players, max(1, matches // 5), 1000 + sample, choose)  # warm-up
            actions, seconds = play_matches(game, players, matches, sample, choose)
            ours[name].append(seconds / actions)
    print(f"engines per action, random self-play, {args.samples} alternating samples "
          f"(anchor: {ANCHOR_PACKAGE} RandBot, matches to 7, median "
          f"{statistics.median(anchor) * 1e6:.1f} us/action)")
    print("  ratio = anchor time per action / ours (above 1: ours faster)")
    for name, *_, target in GAMES:
        ratios = [a / o for a, o in zip(anchor, ours[name], strict=True)]
        print(f"  {name:<10} {statistics.median(ours[name]) * 1e6:7.1f} us/action  "
              f"x{statistics.median(ratios):.2f} (range {min(ratios):.2f}-{max(ratios):.2f}, "
              f"target >= {target:.1f}); fastest samples x{min(anchor) / min(ours[name]):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
