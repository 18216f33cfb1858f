"""`minimax-lab grade PATH...`: a class's Prolog submissions, every predicate of the lab checked
in each student's own program, contained (see docs/grading.md).

Exit status: 0 when every submission is right everywhere, 1 otherwise, 2 for usage errors
(and when `swipl` is missing).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path

from compare.class_grading import Options, SubmissionGrade, grade_class
from compare.gradebook import (
    class_summary,
    gradebook_csv,
    json_report,
    submission_report,
)
from compare.lab_checks import PREDICATES
from compare.progress import Progress
from logic.commands.cli import EXIT_OK, UsageError
from logic.commands.files import check_writable, write_whole
from logic.commands.options import answers, jobs, seconds
from logic.engines.harness import SWIPL
from logic.quote import escaped, quoted

EXIT_FAULTS = 1


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "grade",
        help="grade students' Prolog submissions on every predicate of the lab",
        description="Grade each PATH (a .pl file, or a folder of one student's files) in its "
        "own contained swipl: terminal_state, max_value, min_value, minimax_decision and "
        "successor asked on every state they apply to. Exit status 0 when every submission "
        "is right everywhere, 1 otherwise, 2 for usage errors.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="a submission: FILE.pl or a folder")
    parser.add_argument("--main", metavar="NAME",
                        help="the file to load in each submission (default: the one that "
                        "defines minimax_decision/4)")
    parser.add_argument("--predicates", type=predicate_list, default=PREDICATES,
                        metavar="P,Q,...",
                        help=f"the predicates to check (default: all: {','.join(PREDICATES)})")
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


def predicate_list(text: str) -> tuple[str, ...]:
    """The predicates of `--predicates`, known and in the lab's order."""
    names = {name.strip() for name in text.split(",")}
    unknown = sorted(names - set(PREDICATES))
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown predicate {quoted(unknown[0]) if unknown else quoted(text)}; "
            f"the predicates are {', '.join(PREDICATES)}")
    return tuple(name for name in PREDICATES if name in names)






def run(args: argparse.Namespace) -> int:
    """Grade every submission; print the summary (a lone submission's whole report); write
    the reports asked for. 0 if all are right everywhere, else 1."""
    if shutil.which(SWIPL) is None:
        raise UsageError(f"grade needs SWI-Prolog, and {SWIPL} is not on the PATH; install "
                         "swi-prolog-nox (Debian, Ubuntu)")
    paths = [Path(path) for path in args.paths]
    missing = [path for path in paths if not path.exists()]
    if missing:
        raise UsageError(f"no file or folder {quoted(str(missing[0]))}")
    check_writable(args.csv)
    check_writable(args.json)
    if args.reports is not None:
        _make_folder(args.reports)
    options = Options(args.predicates, args.main, args.query_timeout, args.budget,
                      args.load_timeout, args.answers)
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
        write_whole(args.csv, gradebook_csv(grades, args.predicates))
    if args.json is not None:
        write_whole(args.json, json.dumps(json_report(grades, status), indent=1) + "\n")
    return status


def _make_folder(path: str) -> None:
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot make the folder {quoted(path)}: "
                         f"{error.strerror or error}") from None
    check_writable(os.path.join(path, "report.txt"))


def _write_reports(folder: Path, grade: SubmissionGrade) -> None:
    write_whole(str(folder / f"{grade.name}.txt"), submission_report(grade))
    write_whole(str(folder / f"{grade.name}.log"), escaped("\n".join(grade.log)) + "\n")
