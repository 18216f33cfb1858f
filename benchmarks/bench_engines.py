"""Time each engine on the lab's workloads; report medians, spread, and ratios to a yardstick.

Workloads, each a fresh process so start-up is included:
  decide-empty  `minimax-lab decide --------- x`   (the lab: "a move for an empty board")
  decide-corner `minimax-lab decide x-------- o`   (a further move)
  table         `minimax-lab table`                 (all 9040 decisions)
The yardstick is the reference engine, run in the same session; `--runs` sets the repeats.
The Prolog engines (`prolog`, the lab's untabled program, and `prolog-tabled`) are timed too
when `swipl` is installed.

    python benchmarks/bench_engines.py [--runs 5] [--engines logic,reference,prolog]
"""

from __future__ import annotations

import argparse
import platform
import shutil
import statistics
import subprocess
import sys
import time
from datetime import date

WORKLOADS = {
    "decide-empty": ["decide", "---------", "x"],
    "decide-corner": ["decide", "x--------", "o"],
    "table": ["table"],
}
YARDSTICK = "reference"
DEFAULT_ENGINES = "logic,reference" + (",prolog,prolog-tabled" if shutil.which("swipl") else "")


def time_command(argv: list[str]) -> float:
    """Wall-clock seconds of one run of `python -m logic ARGV`, output discarded."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "logic", *argv], check=True, stdout=subprocess.DEVNULL
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--engines", default=DEFAULT_ENGINES)
    args = parser.parse_args()
    engines = args.engines.split(",")
    if YARDSTICK not in engines:
        engines.append(YARDSTICK)

    print(f"# {date.today()} · {platform.processor() or platform.machine()} · "
          f"Python {platform.python_version()} · {args.runs} runs each")
    print("| workload | engine | median s | min s | max s | x yardstick |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for workload, argv in WORKLOADS.items():
        medians = {}
        samples = {}
        for engine in engines:
            samples[engine] = [time_command([*argv, "--engine", engine]) for _ in range(args.runs)]
            medians[engine] = statistics.median(samples[engine])
        for engine in engines:
            runs = samples[engine]
            ratio = medians[engine] / medians[YARDSTICK]
            print(f"| {workload} | {engine} | {medians[engine]:.2f} | {min(runs):.2f} | "
                  f"{max(runs):.2f} | {ratio:.1f} |")


if __name__ == "__main__":
    main()
