"""CPU time of a whole check of Python solutions in the lab's style (`grade --interface
function`, the mapping naming max_value and min_value), judged on its own functions
(`--judged clauses`) against the whole program answering (`--judged whole`), run in the same
session: the grader's CPU time and the program's (its sandbox's, measured outside it); for
the corpus's solution, which keeps its values in `functools.lru_cache`, and the same without
the cache, whose every question repeats the whole subtree below it.

    .venv/bin/python benchmarks/bench_judged_python.py [--runs 3] [--whole-runs 1]

with the Python minimax-lab is installed in. Medians are printed as Markdown rows for
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import platform
import resource
import statistics
import sys
import tempfile
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = ROOT / "tests" / "submissions" / "python" / "recursive" / "lab_style"
sys.path.insert(0, str(ROOT))

from minimax_lab.compare.grader.interfaces.interface import Options  # noqa: E402
from minimax_lab.compare.grader.interfaces.python_interfaces import FunctionInterface  # noqa: E402
from minimax_lab.compare.grader.options.config import WorkLimits  # noqa: E402
from minimax_lab.compare.grader.running.run import grade_submission  # noqa: E402
from minimax_lab.logic.contain.python_program import PythonProgram  # noqa: E402

PROGRAM_CPU: list[float] = []
_close = PythonProgram.close
_stop = PythonProgram.stop


def _measured_stop(self: PythonProgram) -> None:
    """Keep the program's CPU time, measured outside it, before a process goes."""
    PROGRAM_CPU.append(self.cpu_seconds())
    _stop(self)


def _measured_close(self: PythonProgram) -> None:
    if self.process is not None and self.process.poll() is None:
        PROGRAM_CPU.append(self.cpu_seconds())
    _close(self)


PythonProgram.stop = _measured_stop  # type: ignore[method-assign]
PythonProgram.close = _measured_close  # type: ignore[method-assign]


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def uncached(folder: Path) -> Path:
    """The lab's style without its cache, in `folder`."""
    target = folder / "no_cache"
    target.mkdir()
    source = (SOLUTION / "lab_style.py").read_text()
    (target / "lab_style.py").write_text(source.replace("@lru_cache(maxsize=None)\n", ""))
    (target / "minimax-lab.toml").write_text((SOLUTION / "minimax-lab.toml").read_text())
    return target


def one_run(path: Path, judged: str) -> tuple[int, float, float]:
    """Questions asked, the grader's CPU seconds and the program's, for one grade."""
    options = Options(FunctionInterface(judged=judged), budget=100_000,
                      work=WorkLimits(cpu_seconds=600, cpu_budget=100_000))
    PROGRAM_CPU.clear()
    before = cpu()
    grade = grade_submission(path.name, path, options)
    grader = cpu() - before
    if not grade.clean:
        raise SystemExit(f"{path.name} was not right everywhere ({judged})")
    return sum(result.checked for result in grade.checks.values()), grader, sum(PROGRAM_CPU)


def row(label: str, path: Path, judged: str, runs: int) -> str:
    results = [one_run(path, judged) for _ in range(runs)]
    grader = statistics.median(result[1] for result in results)
    program = statistics.median(result[2] for result in results)
    return (f"| {label} | {results[0][0]} | {grader:.1f} s | {program:.1f} s | "
            f"{grader + program:.1f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--whole-runs", type=int, default=1)
    args = parser.parse_args()
    print(f"{date.today()}, {platform.python_implementation()} {platform.python_version()}, "
          f"medians of {args.runs} runs (the whole program without a cache: "
          f"{args.whole_runs})\n")
    print("| grade | questions | grader CPU | program CPU | total |")
    print("| --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as folder:
        plain = uncached(Path(folder))
        for label, path, judged, runs in (
                ("cached, on its own functions", SOLUTION, "clauses", args.runs),
                ("cached, whole", SOLUTION, "whole", args.runs),
                ("no cache, on its own functions", plain, "clauses", args.runs),
                ("no cache, whole", plain, "whole", args.whole_runs)):
            print(row(label, path, judged, runs), flush=True)


if __name__ == "__main__":
    main()
