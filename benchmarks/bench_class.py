"""Wall-clock time of a class graded on 2 cores: every Prolog file of the tests' corpus
(`tests/submissions/*.pl`, each one student's submission: the solution in the lab's style, the
typical bugs, a program that loops, one that never loads, ...) graded by `minimax-lab grade`
with its defaults (judged on their own clauses, the end-to-end sample) and `--jobs 2`, the
grader and every program pinned to two cores.

    .venv/bin/python benchmarks/bench_class.py [--runs 3] [--cores 0,1]

with the Python minimax-lab is installed in; the median is printed as a Markdown row for
docs/benchmarks.md, with the machine's load before it and the CPU time the run took: the
grader's (its process and the processes it waited for: the sandboxes' launchers, not the
programs, which are killed, never waited for) and the programs' (the sandboxes' cgroups,
counted in the group they are made in, which keeps a removed group's time; every grader's
sandboxes on the machine meanwhile, so a run that saw another grader's says so).
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

from minimax_lab.logic.contain import cgroups

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted((ROOT / "tests" / "submissions").glob("*.pl"))


def other_graders(own: int | None = None) -> bool:
    """True when a grader other than process `own` has sandboxes on this machine now (looked
    at once a second during a run: a sandbox briefer than that can be missed)."""
    kind = cgroups.version()
    return kind is not None and any(creator != str(own)
                                    for _, creator in cgroups.sandboxes(kind))


def one_run(cores: str, folder: Path) -> tuple[float, float, float | None, bool]:
    """The wall-clock seconds of one grade of the class, the CPU seconds of the grader (with
    the processes it waited for) and of its programs (None without cgroups), and whether
    another grader's sandboxes ran meanwhile (then counted in the programs' too)."""
    others = other_graders()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    sandboxes = cgroups.sandboxes_cpu_seconds()
    start = time.perf_counter()
    grader = subprocess.Popen(
        ["taskset", "-c", cores, sys.executable, "-m", "minimax_lab", "grade",
         *map(str, CORPUS), "--jobs", "2", "--json", str(folder / "class.json")],
        cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while grader.poll() is None:
        others = others or other_graders(grader.pid)
        time.sleep(1)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    used = cgroups.sandboxes_cpu_seconds()
    programs = None if used is None or sandboxes is None else used - sandboxes
    if not (folder / "class.json").exists():
        raise SystemExit("grade wrote no report")
    return seconds, cpu, programs, others


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
            wall, cpu, programs, others = runs[-1]
            print(f"run {run + 1}: {wall:.1f} s, {cpu:.1f} s of CPU (grader), "
                  f"{_seconds(programs)} (programs)"
                  + (" (another grader ran meanwhile)" if others else ""), file=sys.stderr)
    wall = statistics.median(run[0] for run in runs)
    cpu = statistics.median(run[1] for run in runs)
    found = [run[2] for run in runs if run[2] is not None]
    programs = statistics.median(found) if found else None
    print(f"{date.today()}, {platform.python_implementation()} {platform.python_version()}, "
          f"medians of {args.runs} runs, load {load:.1f} before"
          + ("; another grader's sandboxes ran meanwhile, counted in the programs' CPU"
             if any(run[3] for run in runs) else "") + "\n")
    print("| workload | submissions | cores | median wall s | min s | max s "
          "| grader CPU s | programs' CPU s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(f"| `grade tests/submissions/*.pl --jobs 2` | {len(CORPUS)} | "
          f"{len(args.cores.split(','))} | {wall:.1f} | {min(run[0] for run in runs):.1f} | "
          f"{max(run[0] for run in runs):.1f} | {cpu:.1f} | {_seconds(programs)} |")


def _seconds(value: float | None) -> str:
    return "n/a (no cgroups)" if value is None else f"{value:.1f}"


if __name__ == "__main__":
    main()
