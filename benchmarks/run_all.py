"""Run every benchmark in turn (``make bench``); each prints its own figures and baselines."""

from __future__ import annotations

import subprocess
import sys

SCRIPTS = (
    "benchmarks.bench_shithead",
    "benchmarks.bench_sixty_six",
    "benchmarks.bench_sheepshead",
    "benchmarks.bench_engines",
    "benchmarks.bench_api",
    "benchmarks.bench_stack",
    "benchmarks.bench_cluster",
    "benchmarks.bench_clocks",
)


def main() -> int:
    failed = []
    for module in SCRIPTS:
        print(f"\n=== {module} ===", flush=True)
        if subprocess.run([sys.executable, "-m", module, *sys.argv[1:]], check=False).returncode:
            failed.append(module)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
