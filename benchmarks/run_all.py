"""Run every benchmark in turn (``make bench``); each prints its own figures against a baseline
measured in the same run (ratios, median and range of alternated samples).

``--smoke``: every script at a tiny size (it runs, it prints; the figures mean nothing).
"""

from __future__ import annotations

import subprocess
import sys

# module, its full-size arguments, its smoke-size arguments
SCRIPTS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    # the action server as configured by default, and without action slots (docs/decisions.md)
    ("benchmarks.bench_api", ("--alternative", "CARDROOM_ACTION_SLOTS=0"),
     ("--alternative", "CARDROOM_ACTION_SLOTS=0", "--samples", "1", "--seconds", "1",
      "--concurrency", "8", "--games", "300", "--max-rps", "3000")),
    ("benchmarks.bench_api", ("--route-by-game",),  # needs nginx (docs/operations.md)
     ("--route-by-game", "--samples", "1", "--seconds", "1", "--concurrency", "8", "--games",
      "300", "--max-rps", "3000")),
    ("benchmarks.bench_fold", (), ("--samples", "1", "--version", "60")),
    ("benchmarks.bench_memory", (), ("--games", "1")),
    ("benchmarks.bench_shithead", (), ("--quick",)),
    ("benchmarks.bench_sixty_six", (), ("--quick",)),
    ("benchmarks.bench_sheepshead", (), ("--quick",)),
    ("benchmarks.bench_stack", (), ("--seconds", "3", "--replies", "10")),
    ("benchmarks.bench_engines", (), ("--quick", "--samples", "1")),
    ("benchmarks.bench_search_sixty_six", (), ("--matches", "1")),
    ("benchmarks.bench_search_time", (), ("--games", "1")),
    ("benchmarks.bench_cluster", (), ("--seconds", "2", "--rounds", "1", "--wrk-seconds", "1")),
    ("benchmarks.bench_clocks", (),
     ("--timeouts", "2", "--parallel", "2", "--games", "3", "--per-game", "2")),
    # built-in bots' games per minute beside a hostile HTTP bot (docs/bots.md, "Isolation")
    ("benchmarks.bench_bot_isolation", ("--seconds", "45", "--rounds", "3"),
     ("--seconds", "3", "--rounds", "1", "--games", "2", "--hostile-games", "4")),
    ("benchmarks.bench_sweeper", (), ("--games", "40", "--sweeps", "3", "--rounds", "2")),
    # bot turns per second of one worker with people's games: the pace held or on a timer
    ("benchmarks.bench_pace", (), ("--games", "2", "--seconds", "2", "--rounds", "1")),
    # what one core of each tier does (docs/operations.md, "Sizing")
    ("benchmarks.bench_capacity", ("--seconds", "30", "--rounds", "3"),
     ("--seconds", "3", "--rounds", "1", "--games", "2", "--people", "2", "--idle", "1")),
)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    smoke = "--smoke" in args
    only = [a for a in args if not a.startswith("--")]
    failed = []
    for module, full, tiny in SCRIPTS:
        if only and not any(name in module for name in only):
            continue
        print(f"\n=== {module} ===", flush=True)
        command = [sys.executable, "-m", module, *(tiny if smoke else full)]
        if subprocess.run(command, check=False).returncode:
            failed.append(module)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
