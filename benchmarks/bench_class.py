"""Wall-clock time of a class graded on 2 cores: every Prolog file of the tests' corpus
(`tests/submissions/*.pl`, each one student's submission: the solution in the lab's style, the
typical bugs, a program that loops, one that never loads, ...) graded by `minimax-lab grade`
with its defaults (judged on their own clauses, the end-to-end sample) and `--jobs 2`, the
grader and every program pinned to two cores.

    .venv/bin/python benchmarks/bench_class.py [--runs 3] [--cores 0,1]

with the Python minimax-lab is installed in; the median is printed as a Markdown row for
docs/benchmarks.md, with the CPU time the run took (the grader's and its programs', as its
children) and the machine's load before it.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted((ROOT / "tests" / "submissions").glob("*.pl"))


def one_run(cores: str, folder: Path) -> tuple[float, float]:
    """The wall-clock seconds and CPU seconds (the grader's and its children's) of one
    grade of the class."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(["taskset", "-c", cores, sys.executable, "-m", "minimax_lab", "grade",
                    *map(str, CORPUS), "--jobs", "2", "--json", str(folder / "class.json")],
                   cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if not (folder / "class.json").exists():
        raise SystemExit("grade wrote no report")
    return seconds, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cores", default="0,1", help="the CPUs to pin the run to (taskset)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    runs = []
    with tempfile.TemporaryDirectory() as name:
        for run in range(args.runs):
            runs.append(one_run(args.cores, Path(name)))
            print(f"run {run + 1}: {runs[-1][0]:.1f} s, {runs[-1][1]:.1f} s of CPU",
                  file=sys.stderr)
    wall = statistics.median(run[0] for run in runs)
    cpu = statistics.median(run[1] for run in runs)
    print(f"{date.today()}, {platform.python_implementation()} {platform.python_version()}, "
          f"medians of {args.runs} runs, load {load:.1f} before\n")
    print("| workload | submissions | cores | median wall s | min s | max s | CPU s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(f"| `grade tests/submissions/*.pl --jobs 2` | {len(CORPUS)} | "
          f"{len(args.cores.split(','))} | {wall:.1f} | {min(run[0] for run in runs):.1f} | "
          f"{max(run[0] for run in runs):.1f} | {cpu:.1f} |")


if __name__ == "__main__":
    main()
