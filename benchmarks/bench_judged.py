"""CPU time of a whole check of the solution in the lab's style, every predicate on every
position, judged on its own clauses (`grade --judged clauses`) against the whole program
answering (`--judged whole`), run in the same session: the grader's CPU time and the
program's (its sandbox's, measured outside it), and how the cost grows with the questions.

    .venv/bin/python benchmarks/bench_judged.py [--runs 3] [--whole-runs 1]

with the Python minimax-lab is installed in. Each configuration is graded `--runs` times (the
whole program `--whole-runs` times: it takes minutes); medians are printed as Markdown rows
for docs/benchmarks.md. The end-to-end sample is timed apart: its cost is the program's own
recursion on the boards it holds (the empty board's alone is most of it); so is the play
check's, which stands for it by default. Every figure is also given against a yardstick run
in the same session: the lab's solution answering the empty board's `minimax_decision`.
"""

from __future__ import annotations

import argparse
import platform
import resource
import statistics
import sys
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = ROOT / "tests" / "submissions" / "lab_style.pl"
sys.path.insert(0, str(ROOT))

from minimax_lab.compare.grader import prolog  # noqa: E402
from minimax_lab.compare.grader.interfaces.interface import Options  # noqa: E402
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface  # noqa: E402
from minimax_lab.compare.grader.running.run import grade_submission  # noqa: E402
from minimax_lab.logic.contain.harness import StudentProgram  # noqa: E402

CHECKS = ("terminal_state", "max_value", "min_value", "minimax_decision")
PROGRAM_CPU: list[float] = []
_release = StudentProgram._release


def _measured_release(self: StudentProgram) -> None:
    """Keep each process's CPU time, measured outside it, before it goes: a grade starts the
    program afresh between the play check and the questions given the lab's answers."""
    if self.process is not None:
        PROGRAM_CPU.append(self.cpu_seconds())
    _release(self)


StudentProgram._release = _measured_release  # type: ignore[method-assign]


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def one_run(judged: str, checks: tuple[str, ...], sample: bool) -> tuple[int, float, float]:
    """Questions asked, the grader's CPU seconds and the program's, for one grade."""
    saved = prolog.LAB_CASES
    if not sample:
        prolog.LAB_CASES = ()
    try:
        options = Options(PrologInterface(judged=judged, end_to_end=1 if sample else 0),
                          checks, budget=100_000)
        PROGRAM_CPU.clear()
        before = cpu()
        grade = grade_submission("lab_style", SOLUTION, options)
        grader = cpu() - before
    finally:
        prolog.LAB_CASES = saved
    if not grade.clean:
        raise SystemExit(f"the solution in the lab's style was not right everywhere ({judged})")
    return sum(result.checked for result in grade.checks.values()), grader, sum(PROGRAM_CPU)


def yardstick() -> float:
    """The program's CPU seconds for the lab's own solution answering one question: the
    empty board's `minimax_decision`, its whole search, in a fresh `swipl`."""
    with StudentProgram([SOLUTION]) as program:
        program.load()
        before = program.cpu_seconds()
        program.ask("minimax_decision([-,-,-,-,-,-,-,-,-], x, A, V)", "A-V", 1, 600.0)
        return program.cpu_seconds() - before


def row(label: str, judged: str, checks: tuple[str, ...], sample: bool, runs: int,
        unit: float) -> str:
    results = [one_run(judged, checks, sample) for _ in range(runs)]
    asked = results[0][0]
    grader = statistics.median(result[1] for result in results)
    program = statistics.median(result[2] for result in results)
    total = statistics.median(result[1] + result[2] for result in results)
    return (f"| {label} | {asked} | {grader:.1f} s ({grader / unit:.2f}x) | {program:.1f} s "
            f"| {total:.1f} s ({total / unit:.2f}x) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--whole-runs", type=int, default=1)
    args = parser.parse_args()
    one_run("clauses", ("terminal_state",), False)  # warm the reference's caches, as a class
    unit = statistics.median(yardstick() for _ in range(args.runs))
    print(f"{date.today()}, {platform.python_implementation()} {platform.python_version()}, "
          f"medians of {args.runs} runs (the whole program: {args.whole_runs}); the "
          f"yardstick, the lab's solution's empty-board minimax_decision in swipl: "
          f"{unit:.2f} s of CPU\n")
    print("| grade | questions | grader CPU | program CPU | total |")
    print("| --- | --- | --- | --- | --- |")
    for count in range(1, len(CHECKS) + 1):
        print(row(f"clauses: {', '.join(CHECKS[:count])}", "clauses", CHECKS[:count], False,
                  args.runs, unit), flush=True)
    print(row("clauses, with the end-to-end sample", "clauses", CHECKS, True, args.runs,
              unit), flush=True)
    print(row("clauses, with the play check (the default)", "clauses", (*CHECKS, "play"),
              False, args.runs, unit), flush=True)
    print(row("the play check alone", "clauses", ("play",), False, args.runs, unit),
          flush=True)
    if args.whole_runs > 0:  # 0: the whole program's row left out (it takes minutes)
        print(row("whole (every call answered by the program)", "whole", CHECKS, False,
                  args.whole_runs, unit), flush=True)


if __name__ == "__main__":
    main()
