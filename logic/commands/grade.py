"""`minimax-lab grade PATH...`: a class's submissions, each checked in its own program,
contained (see docs/grading.md): Prolog on every predicate of the lab, Python in its own
interface (CS50 AI's `tictactoe.py`, or a function declared by a mapping).

Exit status: 0 when every submission is right everywhere, 1 otherwise, 2 for usage errors
(and when `swipl` is missing for Prolog).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from collections.abc import Callable, Mapping
from pathlib import Path

from minimax_lab.compare.grader.assignments.configure import UnknownCheck
from minimax_lab.compare.grader.interfaces.interface import Interface
from minimax_lab.compare.grader.interfaces.registry import INTERFACES, interface_options
from minimax_lab.compare.grader.options.config import Own, Settings, flag
from minimax_lab.compare.grader.options.options import Kind, Option, Where, options_at
from minimax_lab.compare.grader.outputs.graded import Graded
from minimax_lab.compare.grader.outputs.text import progress_line, summary
from minimax_lab.compare.grader.outputs.writers import WRITERS
from minimax_lab.compare.grader.pipeline import GradingRun, grade_run
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.logic.commands.cli import PROG, UsageError
from minimax_lab.logic.commands.options import jobs
from minimax_lab.logic.commands.progress import Progress
from minimax_lab.logic.quote import quoted, say

ROSTER_HELP = ("a CSV file with the columns folder,id,name[,email]: each submission's "
               "student, for the gradebooks (--csv, --canvas, --moodle); default: a "
               "submission's name is its id")
"""`--roster`'s help, for grade and gradebook merge."""


def _interfaces_own(chosen: Callable[[type[Interface]], str]) -> str:
    """Each interface's own default, as help words: "lowest for prolog, any for cs50 and
    function; or the assignment's"."""
    by_value: dict[str, list[str]] = {}
    for name, kind in INTERFACES.items():
        by_value.setdefault(str(chosen(kind)), []).append(name)
    if len(by_value) == 1:
        return f"{next(iter(by_value))}, or the assignment's"
    words = [f"{value} for {' and '.join(names)}" for value, names in by_value.items()]
    return f"the interface's own: {', '.join(words)}; or the assignment's"


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "grade",
        help="grade students' submissions: Prolog on every predicate of the lab, Python in "
        "its own interface",
        description="Grade each PATH (a file, or a folder of one student's files) in its own "
        "contained process: a Prolog program on terminal_state, max_value, min_value, "
        "minimax_decision and successor; a Python program through CS50 AI's functions "
        "(--interface cs50) or a declared function (--interface function); each asked on every "
        "state it applies to. Exit status 0 when every submission is right everywhere, 1 "
        "otherwise, 2 for usage errors.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="a submission: a .pl or .py file, or a folder")
    for option in options_at(Where.LINE):
        add_option(parser, option)
    for name, how in interface_options().items():
        add_own_option(parser, name, how)
    parser.add_argument("--jobs", type=jobs, default=os.cpu_count() or 1, metavar="N",
                        help="submissions graded at once (default: the machine's cores)")
    parser.add_argument("--shard", type=shard, metavar="K/N",
                        help="grade the K-th of N equal parts of the submissions (in the order "
                        "of their paths); minimax-lab gradebook merge joins the parts' --json. "
                        "slurm: this task's part of a Slurm job array (sbatch --array); "
                        "kubernetes/N: this pod's of a Kubernetes Indexed Job of N "
                        "completions (JOB_COMPLETION_INDEX + 1 of N)")
    parser.add_argument("--feedback", metavar="FILE",
                        help="a TOML file of explanations, one per bug (bug-XXXXXXXX = "
                        "\"...\"), added to the report of every submission with that bug")
    parser.add_argument("--assignment", metavar="FILE",
                        help="the TOML file that gives each check its points, its partial "
                        "credit and when students see it, and any grading option (the "
                        "interface, ties, main, python, limits...; an option given here wins) "
                        "(default: the interface's own; see docs/grading-reference.md, \"Scores\")")
    for writer in WRITERS.values():
        parser.add_argument(writer.option, metavar=writer.metavar, help=writer.help,
                            dest=writer.name)
    parser.add_argument("--roster", metavar="FILE", help=ROSTER_HELP)
    parser.add_argument("--student-view", action="store_true",
                        help="print and write only what students may see now (a check whose "
                        "visibility is not visible is left out, with its points), as in a CI "
                        "log a student reads; the platforms' files always are")
    parser.set_defaults(run=run)


SAID_DEFAULTS: dict[str, str] = {
    "checks": f"all: {','.join(INTERFACES['prolog'].checks)}; "
              f"{','.join(INTERFACES['cs50'].checks)}",
    "ties": _interfaces_own(lambda kind: kind.policy.ties),
    "values": _interfaces_own(lambda kind: kind.policy.values),
    "hints": "the assignment's",
}
"""The default of an option, as the help says it, where it is not a number's."""


def add_option(parser: argparse.ArgumentParser, option: Option) -> None:
    """One of `grade`'s options (`compare.grader.options.options`) on the command line, read and
    checked by the option itself."""
    help = option.help
    if option.default is not None:
        help += f" (default: the assignment's, else {option.default:g})"
    elif option.name in SAID_DEFAULTS:
        help += f" (default: {SAID_DEFAULTS[option.name]})"
    if option.kind is Kind.SWITCH:
        parser.add_argument(option.option, action="store_true", default=None,
                            dest=option.name, help=help)
        return
    if option.kind in (Kind.CHOICE, Kind.INTERFACE):
        words = option.words or tuple(INTERFACES)
        parser.add_argument(option.option, choices=words, default=None, dest=option.name,
                            metavar=option.metavar, help=help)
        return

    def read(text: str) -> object:
        try:
            return option.read(text)
        except ValueError as why:
            raise argparse.ArgumentTypeError(f"expected {why}, not {text!r}") from None

    parser.add_argument(option.option, type=read, default=None, dest=option.name,
                        metavar=option.metavar, help=help)


def add_own_option(parser: argparse.ArgumentParser, name: str, how: Own) -> None:
    """An option of an interface's own (`compare.grader.options.config.Own`), as it says it is
    given on the command line."""
    if not how.line:
        return
    if how.metavar is None:
        parser.add_argument(flag(name, how), action="store_true", default=None, dest=name,
                            help=how.help)
        return

    def read(text: str) -> object:
        try:
            return how.check((text,) if how.many else how.parse(text))
        except ValueError as why:
            raise argparse.ArgumentTypeError(f"expected {why}, not {quoted(text)}") from None

    parser.add_argument(flag(name, how), action="append" if how.many else "store",
                        type=str if how.many else read, default=None, metavar=how.metavar,
                        dest=name, help=how.help)


def shard(text: str, environ: Mapping[str, str] = os.environ) -> tuple[int, int]:
    """`--shard K/N`: the K-th of N parts, 1 <= K <= N; `slurm`: this task's part of a Slurm
    job array (its index counted from the array's first, in its steps); `kubernetes/N`: this
    pod's of a Kubernetes Indexed Job of N completions (JOB_COMPLETION_INDEX, from 0)."""
    if text == "slurm":
        return _slurm_shard(environ)
    part, _, parts = text.partition("/")
    if part == "kubernetes" and _whole(parts) and int(parts) >= 1:
        return _indexed_shard(int(parts), environ)
    if not (_whole(part) and _whole(parts) and 1 <= int(part) <= int(parts)):
        raise argparse.ArgumentTypeError(
            f"expected K/N with 1 <= K <= N (the K-th of N parts), slurm or kubernetes/N, "
            f"not {text!r}")
    return int(part), int(parts)


def _whole(text: str) -> bool:
    """`text` is a whole number in ASCII digits (not '²', which int() refuses)."""
    return text.isascii() and text.isdigit()


SLURM_ARRAY = ("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX",
               "SLURM_ARRAY_TASK_STEP", "SLURM_ARRAY_TASK_COUNT")
"""What Slurm tells each task of a job array: its index, the array's first and last, their
step and how many there are."""


def _slurm_shard(environ: Mapping[str, str]) -> tuple[int, int]:
    """This Slurm array task's part: its index's place among the array's, of their count."""
    if "SLURM_ARRAY_TASK_ID" not in environ:
        raise argparse.ArgumentTypeError(
            "slurm: not a task of a Slurm job array (no SLURM_ARRAY_TASK_ID): submit it with "
            "sbatch --array=1-N")
    told = {name: environ.get(name, "1" if name == "SLURM_ARRAY_TASK_STEP" else "")
            for name in SLURM_ARRAY}
    shown = ", ".join(f"{name}={value!r}" for name, value in told.items())
    if not all(_whole(value) for value in told.values()):
        raise argparse.ArgumentTypeError(f"slurm: expected whole numbers from Slurm, not {shown}")
    index, first, last, step, count = (int(value) for value in told.values())
    if not (step >= 1 and first <= index <= last and (index - first) % step == 0
            and (last - first) // step + 1 == count and (last - first) % step == 0):
        raise argparse.ArgumentTypeError(
            f"slurm: the array's indices are not evenly spaced ({shown}): give sbatch "
            "--array=1-N (or 0-M, or with a step, A-B:S)")
    return (index - first) // step + 1, count


def _indexed_shard(parts: int, environ: Mapping[str, str]) -> tuple[int, int]:
    """This pod's part of a Kubernetes Indexed Job of `parts` completions."""
    index = environ.get("JOB_COMPLETION_INDEX")
    if index is None:
        raise argparse.ArgumentTypeError(
            f"kubernetes/{parts}: not a pod of a Kubernetes Indexed Job (no "
            "JOB_COMPLETION_INDEX): give the Job completionMode: Indexed")
    if not (_whole(index) and int(index) < parts):
        raise argparse.ArgumentTypeError(
            f"kubernetes/{parts}: expected JOB_COMPLETION_INDEX from 0 to {parts - 1} (the "
            f"Job's completions: {parts}), not {index!r}")
    return int(index) + 1, parts


def run(args: argparse.Namespace) -> int:
    """Grade every submission (`compare.grader.pipeline`); print the summary (a lone
    submission's whole report); write the outputs asked for. 0 if all are right everywhere,
    else 1."""
    outputs = {name: Path(getattr(args, name)) for name in WRITERS
               if getattr(args, name) is not None}
    request = GradingRun(tuple(Path(path) for path in args.paths), settings_from(args),
                         args.assignment, args.jobs, args.shard, args.feedback,
                         args.student_view, outputs, args.roster)
    try:
        return grade_run(request, Told()).status
    except UnknownCheck as error:
        raise UsageError(f"argument --predicates: {error} (see '{PROG} grade --help')") from None


class Told:
    """What the command line shows of a run: notes and warnings on standard error, a progress
    bar on a terminal, else a line per submission as it is graded (its name, verdict and
    score), the summary on standard output."""

    def __init__(self) -> None:
        self.progress: Progress | None = None
        self.lock = threading.Lock()

    def say(self, line: str) -> None:
        say(f"grade: {line}")

    def started(self, total: int) -> None:
        self.progress = Progress("grading", total)

    def graded(self, grade: SubmissionGrade) -> None:
        if self.progress is not None:
            with self.lock:  # submissions graded at once end in threads of their own
                self.progress.advance()
                self.progress.told(f"grading {self.progress.done}/{self.progress.total}: "
                                   f"{progress_line(grade)}")

    def stopped(self) -> None:
        if self.progress is not None:
            self.progress.close()

    def show(self, graded: Graded) -> None:
        sys.stdout.write(summary(graded))


def settings_from(args: argparse.Namespace) -> Settings:
    """The grading options the command line gives (None where not given), each as its
    option holds it."""
    own = {name: getattr(args, name) for name, how in interface_options().items()
           if how.line and getattr(args, name) is not None}
    given = {option.name: getattr(args, option.name) for option in options_at(Where.LINE)
             if getattr(args, option.name) is not None}
    return Settings(**given, own={name: tuple(value) if isinstance(value, list) else value
                         for name, value in own.items()})
