"""Time each engine on the lab's workloads; report medians, spread, and ratios to yardsticks.

Workloads, each a fresh process so start-up is included:
  decide-empty   `minimax-lab decide --------- x`   (the lab: "a move for an empty board")
  decide-corner  `minimax-lab decide x-------- o`   (a further move)
  table          `minimax-lab table`                 (all 9040 decisions)
and, in one process, a session of the logic engine: its first `minimax_decision`, on the empty
board (which solves the symmetry classes below it) and the median of the decisions after it
below that board; and the reference engine's
whole table computed from a cold memo, and its warm decisions.

Before timing, the project's modules are compiled to bytecode, as `pip install` does: each run
then starts as an installed minimax-lab does, not compiling every module again (which a
checkout pays when PYTHONDONTWRITEBYTECODE is set, about 50 ms a process).

Each run takes every engine in turn, so that the machine's drift over the session falls on all
engines alike. The yardsticks run in the same session: the lab's untabled Prolog program
(`prolog`) and the same program tabled (`prolog-tabled`) when `swipl` is installed, else the
reference engine.

    .venv/bin/python benchmarks/bench_engines.py [--runs 5] [--engines logic,reference,...]

with the Python minimax-lab is installed in (the README's test command makes `.venv`);
`--engines` chooses the engines to time, and the yardsticks are always added to them.
"""

from __future__ import annotations

import argparse
import compileall
import platform
import random
import shutil
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

WORKLOADS = {
    "decide-empty": ["decide", "---------", "x"],
    "decide-corner": ["decide", "x--------", "o"],
    "table": ["table"],
}
ROOT = Path(__file__).resolve().parent.parent
"""The checkout whose `logic` package is timed."""
HAS_SWIPL = shutil.which("swipl") is not None
YARDSTICKS = ["prolog", "prolog-tabled"] if HAS_SWIPL else ["reference"]
DEFAULT_ENGINES = "logic,reference" + (",prolog,prolog-tabled" if HAS_SWIPL else "")


def compile_project() -> None:
    """Compile the project's packages to bytecode in place, as an installation would."""
    for package in ("facts", "logic", "compare"):
        compileall.compile_dir(ROOT / package, quiet=1)


def time_command(argv: list[str]) -> float:
    """Wall-clock seconds of one run of `python -m minimax_lab ARGV`, output discarded."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "minimax_lab", *argv], check=True, stdout=subprocess.DEVNULL,
        cwd=ROOT,
    )
    return time.perf_counter() - start


WARM_DECISIONS = (
    "for state, player in random.Random(int(sys.argv[1])).sample(all_positions(), 50):\n"
    "    start = time.perf_counter(); engine.minimax_decision(state, player)\n"
    "    print(time.perf_counter() - start)\n"
)
"""The end of a timing script: 50 positions drawn by the run's seed, each decision's time."""


def time_session(runs: int) -> tuple[list[float], list[float]]:
    """Seconds of the logic engine's first decision in a fresh process, and of later ones."""
    script = (
        "import random, sys, time\n"
        "from minimax_lab.logic.positions import all_positions as every_position\n"
        "from minimax_lab.logic.engines import make_engine\n"
        "from minimax_lab.logic.state import canonical\n"
        "engine = make_engine('logic')\n"
        "start = time.perf_counter(); engine.minimax_decision('---------', 'x')\n"
        "print(time.perf_counter() - start)\n"
        "solved = engine.program.solved\n"
        "def all_positions():\n"
        "    return [(s, p) for s, p in every_position() if (canonical(s), p) in solved]\n"
    )
    return _first_and_later(script + WARM_DECISIONS, runs)


def _first_and_later(script: str, runs: int) -> tuple[list[float], list[float]]:
    """Run `script` `runs` times in fresh processes; its first printed time, and the others."""
    first, later = [], []
    for run in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", script, str(run)], check=True, capture_output=True, text=True,
            cwd=ROOT,
        ).stdout.split()
        first.append(float(out[0]))
        later.extend(float(value) for value in out[1:])
    return first, later


def time_reference(runs: int) -> tuple[list[float], list[float]]:
    """Seconds of the reference engine's whole table from a cold memo, and of warm decisions."""
    script = (
        "import random, sys, time\n"
        "from minimax_lab.logic.positions import all_positions\n"
        "from minimax_lab.logic.engines import forget_reference_values, make_engine\n"
        "positions = all_positions()\n"
        "engine = make_engine('reference')\n"
        "forget_reference_values()\n"
        "start = time.perf_counter(); engine.decisions(positions)\n"
        "print(time.perf_counter() - start)\n"
    )
    return _first_and_later(script + WARM_DECISIONS, runs)


def cpu_name() -> str:
    """The processor's model name, as /proc/cpuinfo gives it where it exists."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--engines", default=DEFAULT_ENGINES)
    args = parser.parse_args()
    engines = args.engines.split(",")
    engines += [yardstick for yardstick in YARDSTICKS if yardstick not in engines]
    compile_project()

    print(f"# {date.today()} · {cpu_name()} · {platform.python_version()} · "
          f"{args.runs} runs each, medians")
    header = " | ".join(f"x {yardstick}" for yardstick in YARDSTICKS)
    print(f"| workload | engine | median s | min s | max s | {header} |")
    print("| --- | --- | ---: | ---: | ---: |" + " ---: |" * len(YARDSTICKS))
    for argv in WORKLOADS.values():
        samples: dict[str, list[float]] = {engine: [] for engine in engines}
        for _ in range(args.runs):
            for engine in engines:
                samples[engine].append(time_command([*argv, "--engine", engine]))
        medians = {engine: statistics.median(runs) for engine, runs in samples.items()}
        for engine, runs in samples.items():
            ratios = " | ".join(
                f"{medians[engine] / medians[yardstick]:.2f}" for yardstick in YARDSTICKS
            )
            print(f"| `{' '.join(argv)}` | {engine} | {medians[engine]:.2f} | {min(runs):.2f} | "
                  f"{max(runs):.2f} | {ratios} |")

    first, later = time_session(args.runs)
    print()
    print("logic session: first decision (solves the classes below the empty board) median "
          f"{statistics.median(first):.2f} s "
          f"(min {min(first):.2f}, max {max(first):.2f}); "
          f"{len(later)} later decisions median {statistics.median(later) * 1000:.1f} ms, "
          f"max {max(later) * 1000:.1f} ms")
    table, warm = time_reference(args.runs)
    print("reference, one process: whole table from a cold memo median "
          f"{statistics.median(table):.3f} s (min {min(table):.3f}, max {max(table):.3f}); "
          f"{len(warm)} warm decisions median {statistics.median(warm) * 1e6:.1f} us, "
          f"max {max(warm) * 1e6:.1f} us")


if __name__ == "__main__":
    random.seed(0)
    main()
