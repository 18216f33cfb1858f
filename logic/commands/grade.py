"""`minimax-lab grade PATH...`: a class's submissions, each checked in its own program,
contained (see docs/grading.md): Prolog on every predicate of the lab, Python in its own
interface (CS50 AI's `tictactoe.py`, or a function declared by a mapping).

Exit status: 0 when every submission is right everywhere, 1 otherwise, 2 for usage errors
(and when `swipl` is missing for Prolog).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from compare.grader.gradebook import (
    class_summary,
    gradebook_csv,
    json_report,
    output_log,
    report_stem,
    submission_report,
)
from compare.grader.interface import Interface, Options
from compare.grader.mappings import MAPPING_FILE
from compare.grader.registry import INTERFACES
from compare.grader.run import grade_class
from compare.judge.results import SubmissionGrade
from logic.commands.cli import EXIT_OK, PROG, UsageError
from logic.commands.files import check_writable, write_whole
from logic.commands.options import answers, jobs, seconds
from logic.commands.policy import add_policy_options, policy_from
from logic.commands.progress import Progress
from logic.contain import sandbox
from logic.quote import quoted, say

EXIT_FAULTS = 1


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
    parser.add_argument("--interface", choices=INTERFACES, default="prolog",
                        help="prolog: the lab's predicates (default); cs50: CS50 AI's "
                        "tictactoe.py; function: a function declared by --mapping or --set")
    parser.add_argument("--main", metavar="NAME",
                        help="the file to load in each submission (default: Prolog, the one "
                        "that defines minimax_decision/4; cs50, tictactoe.py; else the only one)")
    parser.add_argument("--predicates", metavar="P,Q,...",
                        help=f"the predicates (Prolog) or functions (cs50) to check (default: "
                        f"all: {','.join(INTERFACES['prolog'].checks)}; "
                        f"{','.join(INTERFACES['cs50'].checks)})")
    parser.add_argument("--mapping", metavar="FILE",
                        help="--interface function: the TOML file that declares the function "
                        f"(default: the submission's own {MAPPING_FILE})")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        dest="settings",
                        help="--interface function: one key of the mapping, over the file's; "
                        "repeatable")
    parser.add_argument("--python", metavar="PATH",
                        help="Python submissions: the Python that runs them, with its installed "
                        "packages (a course's virtual environment; default: the grader's own, "
                        "without packages)")
    parser.add_argument("--definitions-only", action="store_true",
                        help="Python submissions: import only the module's definitions "
                        "(imports, functions, classes, constants), not a demo its top level runs")
    add_policy_options(parser)
    parser.add_argument("--jobs", type=jobs, default=os.cpu_count() or 1, metavar="N",
                        help="submissions graded at once (default: the machine's cores)")
    parser.add_argument("--query-timeout", type=seconds, default=60.0, metavar="SECONDS",
                        help="time limit for one question (default: 60)")
    parser.add_argument("--budget", type=seconds, default=900.0, metavar="SECONDS",
                        help="time limit for one submission; what is left is reported as not "
                        "asked (default: 900)")
    parser.add_argument("--load-timeout", type=seconds, default=30.0, metavar="SECONDS",
                        help="time limit for loading a submission (default: 30)")
    parser.add_argument("--answers", type=answers, default=3, metavar="N",
                        help="answers asked of each question, the first and N-1 on "
                        "backtracking (default: 3)")
    parser.add_argument("--reports", metavar="DIR",
                        help="write each submission's report (NAME.txt) and output (NAME.log) "
                        "into DIR")
    parser.add_argument("--csv", metavar="FILE", help="write the gradebook to FILE as CSV")
    parser.add_argument("--json", metavar="FILE", help="write the whole report to FILE as JSON")
    parser.set_defaults(run=run)


def predicate_list(text: str | None, interface: type[Interface]) -> tuple[str, ...]:
    """The names of `--predicates`, each a check of `interface`, in its order (all if None)."""
    known, noun = interface.checks, interface.check_noun
    if text is None:
        return known
    names = {name.strip() for name in text.split(",")}
    unknown = sorted(names - set(known))
    if unknown or not names:
        raise UsageError(
            f"argument --predicates: unknown {noun} "
            f"{quoted(unknown[0]) if unknown else quoted(text)}; the {noun}s are "
            f"{', '.join(known)} (see '{PROG} grade --help')")
    return tuple(name for name in known if name in names)


def run(args: argparse.Namespace) -> int:
    """Grade every submission; print the summary (a lone submission's whole report); write
    the reports asked for. 0 if all are right everywhere, else 1."""
    paths = [Path(path) for path in args.paths]
    missing = [path for path in paths if not path.exists()]
    if missing:
        raise UsageError(f"no file or folder {quoted(str(missing[0]))}")
    check_writable(args.csv)
    check_writable(args.json)
    if args.reports is not None:
        _make_folder(args.reports)
    kind = INTERFACES[args.interface]
    interface = kind.from_args(args)
    checked = predicate_list(args.predicates, kind)
    options = Options(interface, checked, args.main, args.query_timeout, args.budget,
                      args.load_timeout, policy=policy_from(args))
    if not sandbox.bwrap_works():
        say("grade: warning: no working bwrap (Debian package bubblewrap): submissions run "
            "with process limits alone and can read every file any user may read, the "
            "grader's own solution included")
    with Progress("grading", len(paths)) as progress:

        def done(grade: SubmissionGrade) -> None:
            progress.advance()
            if args.reports is not None:
                _write_reports(Path(args.reports), grade)

        grades = grade_class(paths, options, args.jobs, done)
    status = EXIT_OK if all(grade.clean for grade in grades) else EXIT_FAULTS
    if len(grades) == 1:
        sys.stdout.write(submission_report(grades[0]) + "\n")
    sys.stdout.write(class_summary(grades))
    if args.csv is not None:
        columns = checked or list(dict.fromkeys(
            check for grade in grades for check in grade.checks))
        write_whole(args.csv, gradebook_csv(grades, columns))
    if args.json is not None:
        report = json_report(grades, status, options.policy)
        write_whole(args.json, json.dumps(report, indent=1) + "\n")
    return status


def _make_folder(path: str) -> None:
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot make the folder {quoted(path)}: "
                         f"{error.strerror or error}") from None
    check_writable(os.path.join(path, "report.txt"))


def _write_reports(folder: Path, grade: SubmissionGrade) -> None:
    write_whole(str(folder / f"{report_stem(grade)}.txt"), submission_report(grade))
    write_whole(str(folder / f"{report_stem(grade)}.log"), output_log(grade))
