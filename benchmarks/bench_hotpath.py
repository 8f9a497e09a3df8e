"""The action hot path in process: CPU per plain action of its WSGI call, on the code of this
checkout against another's (``--against DIR``: a checkout of the commit before a change).

Run: ``.venv/bin/python -m benchmarks.bench_hotpath --against DIR [--samples 6] [--actions 2500]``.

No Redis, no network, no server: what is measured is the code of the request's path. Each
sample is a new process on the code of one checkout (its directory first on ``sys.path``): the
app (``service.app.create_app``, rate limits on, the action limit counted by the in-memory
store's append as Redis's append script counts it) on the in-memory store. Shithead games of two
joined seats are played in advance (random legal actions decided in that process, not timed,
games taken round-robin, an ended game replaced by a new one) into ``--actions`` plain action
requests (WSGI environs); then the app's WSGI call (the bot accounts' limit, then the hot path)
is made for each, its body read and closed as a server does, and the process's CPU time over
all of them is the sample (after ``--warm-up`` actions played the same way, not timed). The
samples alternate (A B, B A, ...); the report is this / DIR per pair: median and range.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.bench_api import new_game, one_round
from benchmarks.stats import load_note, ratio_line, spread

HERE = Path(__file__).resolve().parents[1]
LIMIT = "1000000 per minute"  # counted on every action, never refused


def requests(app: Any, game: str, count: int, live: int, seed: int) -> list[dict[str, Any]]:
    """``count`` plain action requests of ``live`` games played round-robin (ended games
    replaced by new ones), as WSGI environs."""
    from werkzeug.test import EnvironBuilder

    from domain.events import canonical_json
    from service.api.deps import EXTENSION

    service, rnd = app.extensions[EXTENSION], random.Random(seed)
    games: list[dict[str, Any]] = []
    out: list[dict[str, Any]] = []
    while len(out) < count:
        games += [new_game(service, game) for _ in range(live - len(games))]
        for g, seat, body in one_round(games, rnd):
            out.append(EnvironBuilder(
                path=f"/games/{g['id']}/actions", method="POST",
                headers={"Authorization": f"Bearer {g['tokens'][seat]}"},
                data=canonical_json(body), content_type="application/json",
            ).get_environ())  # fmt: skip
    return out[:count]


def sample(code: str, game: str, actions: int, warm_up: int, seed: int) -> None:
    """One sample on the code of ``code``: prints ``RESULT {...}``."""
    sys.path.insert(0, code)
    import service
    from service.app import create_app
    from service.store import InMemoryEventStore

    app = create_app({"CARDROOM_RATE_LIMITS": 1, "RATELIMIT_STORAGE_URI": "memory://",
                      "CARDROOM_LIMIT_ACTIONS": LIMIT}, store=InMemoryEventStore())  # fmt: skip
    environs = requests(app, game, warm_up + actions, 32, seed)
    statuses: Counter[str] = Counter()

    def start_response(status: str, headers: Any) -> None:
        statuses[status[:3]] += 1

    def play(batch: list[dict[str, Any]]) -> None:
        for environ in batch:
            body = app.wsgi_app(environ, start_response)
            b"".join(body)
            close = getattr(body, "close", None)
            if close is not None:
                close()

    play(environs[:warm_up])
    statuses.clear()  # the timed ones' only
    began = time.process_time()
    play(environs[warm_up:])
    cpu = time.process_time() - began
    _all_from(code)
    result = {"cpu_per_action": cpu / actions, "statuses": statuses, "code": service.__file__}
    print("RESULT " + json.dumps(result))


def _all_from(code: str) -> None:
    """Fail unless every module of the project a sample ran is the code of ``code``: a module
    the other checkout does not have (another commit's names) is otherwise found by the
    editable install's finder in this checkout, and the sample would time a mix of both."""
    root = Path(code).resolve()
    files = {name: getattr(module, "__file__", None) for name, module in list(sys.modules.items())
             if name.split(".")[0] in ("domain", "replays", "service", "workers")}  # fmt: skip
    mixed = sorted(name for name, file in files.items()
                   if file and root not in Path(file).resolve().parents)  # fmt: skip
    if mixed:
        raise SystemExit(f"not the code of {code}: {', '.join(mixed[:5])} came from elsewhere "
                         "(its checkout lacks them: the benchmark's helpers need their names)")


def run(code: Path, args: argparse.Namespace, seed: int) -> dict[str, Any]:
    command = [sys.executable, "-m", "benchmarks.bench_hotpath", "--sample", str(code),
               "--game", args.game, "--actions", str(args.actions),
               "--warm-up", str(args.warm_up), "--seed", str(seed)]  # fmt: skip
    out = subprocess.run(command, cwd=HERE, check=True, capture_output=True, text=True).stdout
    line = next(x for x in out.splitlines() if x.startswith("RESULT "))
    result: dict[str, Any] = json.loads(line[len("RESULT ") :])
    return result


def main(argv: list[str] | None = None) -> None:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--against", type=Path, help="the other checkout's directory")
    parser.add_argument("--samples", type=int, default=6)
    parser.add_argument("--actions", type=int, default=2500)
    parser.add_argument("--warm-up", type=int, default=200)
    parser.add_argument("--game", default="shithead")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sample", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.sample:
        sample(args.sample, args.game, args.actions, args.warm_up, args.seed)
        return
    if args.against is None:
        parser.error("--against DIR is needed (the checkout to compare with)")
    print(f"bench_hotpath: {load_note()}; {args.samples} alternated pairs of {args.actions} "
          f"{args.game} actions; this checkout against {args.against}")  # fmt: skip
    ours: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    for i in range(args.samples):  # the same games for both of a pair; the order flips
        pair = [(HERE, ours), (args.against.resolve(), theirs)]
        for code, results in pair if i % 2 == 0 else pair[::-1]:
            results.append(run(code, args, args.seed + i))
    for name, results in (("this checkout", ours), (str(args.against), theirs)):
        cpu = [1e6 * r["cpu_per_action"] for r in results]
        statuses = sum((Counter(r["statuses"]) for r in results), Counter())
        print(f"  {name}: CPU per action, us {spread(cpu, '{:.1f}')}; answers {dict(statuses)}"
              f"; code {results[0]['code']}")  # fmt: skip
    ratios = [a["cpu_per_action"] / b["cpu_per_action"] for a, b in zip(ours, theirs, strict=True)]
    print("  " + ratio_line("CPU per action, this / against", ratios))
    print("  pairs: " + ", ".join(f"{r:.3f}" for r in ratios))


if __name__ == "__main__":
    main()
