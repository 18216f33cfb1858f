"""Time Gradescope's run of one submission on half a CPU: the autograder zip built, laid out as
Gradescope lays it out (`/autograder/source`, `/autograder/submission`) in a scratch folder, and
its `run_autograder` run on the solution in the lab's style, every check of the default
assignment, under a CPU quota of half a CPU (a cgroup's `cpu.max` or `cpu.cfs_quota_us`;
root), against Gradescope's default limit of 10 minutes.

    .venv/bin/python benchmarks/bench_autograder.py [--runs 1] [--quota 0.5]

with the Python minimax-lab is installed in; the medians are printed as a Markdown row for
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = ROOT / "tests" / "submissions" / "lab_style.pl"
LIMIT = 600.0
"""Gradescope's default time limit for an autograder run, in seconds."""


def quota_group(share: float) -> Path:
    """A cgroup whose processes together get `share` of one CPU (v2 or v1)."""
    period = 100_000
    v2 = Path("/sys/fs/cgroup/cgroup.controllers")
    if v2.exists() and "cpu" in v2.read_text().split():
        group = Path("/sys/fs/cgroup/minimax-lab-bench")
        group.mkdir(exist_ok=True)
        (group / "cpu.max").write_text(f"{int(share * period)} {period}")
        return group
    group = Path("/sys/fs/cgroup/cpu/minimax-lab-bench")
    group.mkdir(exist_ok=True)
    (group / "cpu.cfs_period_us").write_text(str(period))
    (group / "cpu.cfs_quota_us").write_text(str(int(share * period)))
    return group


def one_run(folder: Path, group: Path) -> tuple[float, float]:
    """The seconds `run_autograder` took in `group`, and the score it wrote."""
    root = folder / "autograder"
    shutil.rmtree(root, ignore_errors=True)
    with zipfile.ZipFile(folder / "autograder.zip") as archive:
        archive.extractall(root / "source")
    (root / "submission").mkdir()
    shutil.copy(SOLUTION, root / "submission" / "lab3.pl")
    tasks = group / ("cgroup.procs" if (group / "cgroup.procs").exists() else "tasks")
    script = f'echo $$ > {tasks} && exec bash {root / "source" / "run_autograder"}'
    environment = {**os.environ, "AUTOGRADER_ROOT": str(root), "MINIMAX_LAB_PYTHON": sys.executable}
    start = time.perf_counter()
    subprocess.run(["sh", "-c", script], env=environment, cwd=folder, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    results = json.loads((root / "results" / "results.json").read_text())
    return seconds, results["score"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--quota", type=float, default=0.5, help="share of one CPU")
    args = parser.parse_args()
    group = quota_group(args.quota)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        subprocess.run([sys.executable, "-m", "minimax_lab", "autograder", "gradescope", "--out",
                        str(folder / "autograder.zip")], check=True, cwd=ROOT,
                       stdout=subprocess.DEVNULL)
        runs = []
        for run in range(args.runs):
            runs.append(one_run(folder, group))
            print(f"run {run + 1}: {runs[-1][0]:.0f} s, score {runs[-1][1]}", file=sys.stderr)
    seconds = statistics.median(run[0] for run in runs)
    print(f"{date.today()}, {platform.machine()}, {args.runs} runs, {args.quota:g} CPU")
    print("| workload | CPU | median s | Gradescope's limit | score |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(f"| run_autograder, {SOLUTION.name}, every check of the default assignment | "
          f"{args.quota:g} | {seconds:.0f} | {LIMIT:.0f} | {runs[0][1]:g} |")


if __name__ == "__main__":
    main()
