"""Time `minimax-lab grade` on a solution in the lab's style against `swipl` alone asking the
same questions of the same program in one process: the grader's overhead, as a ratio.

The yardstick is `swipl` loading the solution and, for every question `grade` asks (the same
goals, in the same order, up to the same number of answers, its printing discarded), finding
the answers in one process with no sandbox, no harness and no judging. The grader's run is the
whole `minimax-lab grade` command, from a fresh process: sandbox, harness, judging, reports.

    .venv/bin/python benchmarks/bench_grade.py [--runs 3] [--predicates P,Q] [--answers N]

with the Python minimax-lab is installed in. Both run in the same session, interleaved run by
run; the medians and their ratio are printed as a Markdown row for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = ROOT / "tests" / "submissions" / "lab_style.pl"
sys.path.insert(0, str(ROOT))

from minimax_lab.compare.grader.interfaces.prolog import PREDICATES, questions  # noqa: E402

YARDSTICK = """
:- initialization(main, main).
main :-
    current_prolog_flag(argv, [Questions]),
    open(Questions, read, In),
    repeat,
    read_term(In, Goal, []),
    (   Goal == end_of_file
    ->  !
    ;   ask(Goal),
        fail
    ).
ask(Goal) :-
    (   with_output_to(string(_), findnsols(ANSWERS, _, Goal, _)) -> true ; true ).
"""


def yardstick_files(folder: Path, predicates: tuple[str, ...], answers: int) -> list[str]:
    """The yardstick's program and questions in `folder`; the command that runs it."""
    shutil.copy(SOLUTION, folder / SOLUTION.name)
    shutil.copy(ROOT / "logic" / "prolog" / "minimax_helper.pl", folder)
    (folder / "yardstick.pl").write_text(YARDSTICK.replace("ANSWERS", str(answers)))
    goals = [f"({question.goal})." for question in questions(predicates)]
    (folder / "questions.pl").write_text("\n".join(goals) + "\n")
    return ["swipl", "-q", "-f", "none", str(folder / SOLUTION.name),
            str(folder / "yardstick.pl"), "--", str(folder / "questions.pl")]


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   cwd=ROOT)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--predicates", default="terminal_state,max_value,min_value,"
                        "minimax_decision")
    parser.add_argument("--answers", type=int, default=3)
    args = parser.parse_args()
    predicates = tuple(name for name in PREDICATES if name in args.predicates.split(","))
    grade = [sys.executable, "-m", "minimax_lab", "grade", str(SOLUTION), "--jobs", "1",
             "--predicates", ",".join(predicates), "--answers", str(args.answers),
             "--budget", "100000"]
    with tempfile.TemporaryDirectory() as folder:
        alone = yardstick_files(Path(folder), predicates, args.answers)
        times: dict[str, list[float]] = {"swipl alone": [], "minimax-lab grade": []}
        for run in range(args.runs):
            times["swipl alone"].append(timed(alone))
            times["minimax-lab grade"].append(timed(grade))
            print(f"run {run + 1}: " + ", ".join(f"{name} {seconds[-1]:.1f} s"
                                                 for name, seconds in times.items()),
                  file=sys.stderr)
    medians = {name: statistics.median(seconds) for name, seconds in times.items()}
    ratio = medians["minimax-lab grade"] / medians["swipl alone"]
    print(f"{date.today()}, {platform.machine()}, {platform.processor() or 'cpu'}, "
          f"{len(questions(predicates))} questions ({', '.join(predicates)}), "
          f"{args.runs} runs")
    print("| workload | swipl alone | minimax-lab grade | ratio |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| {SOLUTION.name}, {args.answers} answers a question | "
          f"{medians['swipl alone']:.1f} s | {medians['minimax-lab grade']:.1f} s | "
          f"{ratio:.2f}x |")


if __name__ == "__main__":
    main()
