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
from dataclasses import replace
from pathlib import Path

from compare.grader.config import DEFAULT_GUARDS, DEFAULT_WORK, Settings
from compare.grader.configure import UnknownCheck, configure
from compare.grader.gradebook import (
    Shard,
    class_summary,
    fresh_reports,
    gradebook_csv,
    json_report,
    note_reports,
    output_log,
    report_stem,
    submission_report,
    text_of,
)
from compare.grader.groups import group_class, groups_report, read_feedback
from compare.grader.interface import Options
from compare.grader.mappings import MAPPING_FILE
from compare.grader.platforms import github_classroom, gradescope, prairielearn
from compare.grader.platforms.junit import junit_xml
from compare.grader.registry import INTERFACES
from compare.grader.run import grade_class, submission_names, submissions
from compare.grader.students import student_view
from compare.judge.results import SubmissionGrade
from compare.judge.scores import Score
from compare.judge.truth import Ties, Values
from logic.commands.cli import EXIT_OK, PROG, UsageError
from logic.commands.files import check_writable, write_whole
from logic.commands.options import answers, jobs, ratio, seconds
from logic.commands.policy import add_policy_options
from logic.commands.progress import Progress
from logic.contain import sandbox
from logic.contain.harness import LoadReport
from logic.errors import LabError
from logic.interrupts import interrupted
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
    parser.add_argument("--interface", choices=INTERFACES, default=None,
                        help="prolog: the lab's predicates (default, unless --assignment names "
                        "another); cs50: CS50 AI's tictactoe.py; function: a function declared "
                        "by --mapping or --set")
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
    parser.add_argument("--definitions-only", action="store_true", default=None,
                        help="Python submissions: import only the module's definitions "
                        "(imports, functions, classes, constants), not a demo its top level runs")
    add_policy_options(parser, "the interface's own: lowest for prolog, any for cs50 and "
                       "function; or the assignment's")
    parser.add_argument("--jobs", type=jobs, default=os.cpu_count() or 1, metavar="N",
                        help="submissions graded at once (default: the machine's cores)")
    parser.add_argument("--inference-ratio", type=ratio, default=None,
                        metavar="R",
                        help="Prolog: the inferences one question may take, as a multiple of "
                        f"the lab's own solution's (default: the assignment's, else "
                        f"{DEFAULT_WORK.ratio:g})")
    parser.add_argument("--inference-budget", type=ratio, default=None,
                        metavar="R",
                        help="Prolog: the inferences one submission may take, as a multiple "
                        "of the lab's own solution's for the same questions; what is left is "
                        "reported as not asked (default: the assignment's, else "
                        f"{DEFAULT_WORK.budget_ratio:g})")
    parser.add_argument("--cpu-seconds", type=seconds, default=None,
                        metavar="SECONDS",
                        help="Python: the CPU time one call may take (default: the "
                        f"assignment's, else {DEFAULT_WORK.cpu_seconds:g})")
    parser.add_argument("--cpu-budget", type=seconds, default=None,
                        metavar="SECONDS",
                        help="Python: the CPU time one submission may take; what is left is "
                        "reported as not asked (default: the assignment's, else "
                        f"{DEFAULT_WORK.cpu_budget:g})")
    parser.add_argument("--query-timeout", type=seconds, default=None, metavar="SECONDS",
                        help="wall-clock limit for one question, a guard against a program "
                        f"that waits (default: the assignment's, else "
                        f"{DEFAULT_GUARDS.query_seconds:g})")
    parser.add_argument("--budget", type=seconds, default=None, metavar="SECONDS",
                        help="wall-clock limit for one submission, a guard; what is left is "
                        f"reported as not asked (default: the assignment's, else "
                        f"{DEFAULT_GUARDS.budget_seconds:g})")
    parser.add_argument("--load-timeout", type=seconds, default=None, metavar="SECONDS",
                        help="CPU time for loading a submission, all its processes together; "
                        f"the wall clock guards it at ten times that (default: the "
                        f"assignment's, else {DEFAULT_GUARDS.load_seconds:g})")
    parser.add_argument("--answers", type=answers, default=None, metavar="N",
                        help="answers asked of each question, the first and N-1 on "
                        "backtracking (default: the assignment's, else 3)")
    parser.add_argument("--reports", metavar="DIR",
                        help="write each submission's report (NAME.txt) and output (NAME.log) "
                        "into DIR")
    parser.add_argument("--csv", metavar="FILE", help="write the gradebook to FILE as CSV")
    parser.add_argument("--json", metavar="FILE", help="write the whole report to FILE as JSON")
    parser.add_argument("--shard", type=shard, metavar="K/N",
                        help="grade the K-th of N equal parts of the submissions (in the order "
                        "of their paths); minimax-lab gradebook merge joins the parts' --json")
    parser.add_argument("--feedback", metavar="FILE",
                        help="a TOML file of explanations, one per bug (bug-XXXXXXXX = "
                        "\"...\"), added to the report of every submission with that bug")
    parser.add_argument("--assignment", metavar="FILE",
                        help="the TOML file that gives each check its points, its partial "
                        "credit and when students see it, and any grading option (the "
                        "interface, ties, main, python, limits...; an option given here wins) "
                        "(default: the interface's own; see docs/grading.md, Scores)")
    parser.add_argument("--gradescope", metavar="DIR",
                        help="one submission: write Gradescope's results.json into DIR "
                        "(/autograder/results on Gradescope)")
    parser.add_argument("--prairielearn", metavar="DIR",
                        help="one submission: write PrairieLearn's results.json into DIR "
                        "(/grade/results on PrairieLearn)")
    parser.add_argument("--github-classroom", metavar="FILE",
                        help="one submission: write the JSON result GitHub Classroom's "
                        "grading reporter reads to FILE")
    parser.add_argument("--junit", metavar="FILE",
                        help="write the class to FILE as JUnit XML: a test case per check")
    parser.add_argument("--student-view", action="store_true",
                        help="print and write only what students may see now (a check whose "
                        "visibility is not visible is left out, with its points), as in a CI "
                        "log a student reads; the platforms' files always are")
    parser.set_defaults(run=run)


def shard(text: str) -> tuple[int, int]:
    """`--shard K/N`: the K-th of N parts, 1 <= K <= N."""
    part, _, parts = text.partition("/")
    if not (part.isdigit() and parts.isdigit() and 1 <= int(part) <= int(parts)):
        raise argparse.ArgumentTypeError(
            f"expected K/N with 1 <= K <= N (the K-th of N parts), not {text!r}")
    return int(part), int(parts)


def predicate_names(text: str | None) -> tuple[str, ...] | None:
    """The names `--predicates` gives, comma-separated."""
    return None if text is None else tuple(name.strip() for name in text.split(","))


def run(args: argparse.Namespace) -> int:
    """Grade every submission; print the summary (a lone submission's whole report); write
    the reports asked for. 0 if all are right everywhere, else 1."""
    paths = [Path(path) for path in args.paths]
    _check_outputs(args, paths)
    feedback = read_feedback(args.feedback) if args.feedback is not None else {}
    try:
        options = options_from(args)
    except LabError as error:
        _write_platforms(args, [SubmissionGrade(args.paths[0], LoadReport(
            problem=f"the grader could not start: {error}"))])
        raise
    paths, notes = submissions(paths, getattr(options.interface, "suffixes", None))
    for note in notes:
        say(f"grade: note: {note}")
    if not paths:
        why = f"nothing to grade: no {options.interface.name} submission among the paths given"
        _write_platforms(args, [SubmissionGrade(args.paths[0], LoadReport(problem=why))])
        raise UsageError(why)
    if not sandbox.bwrap_works():
        say("grade: warning: no working bwrap (Debian package bubblewrap): submissions run "
            "with process limits alone and can read every file any user may read, the "
            "grader's own solution included")
    names = submission_names(paths)
    part = None
    if args.shard is not None:
        order = sorted(range(len(paths)), key=lambda index: str(paths[index]))
        chosen = order[args.shard[0] - 1::args.shard[1]]
        place = {index: number for number, index in enumerate(order)}
        part = Shard(*args.shard, tuple(place[index] for index in chosen))
        paths, names = [paths[index] for index in chosen], [names[index] for index in chosen]
    if args.reports is not None:
        try:
            fresh_reports(Path(args.reports), part)
        except (ValueError, OSError) as error:
            raise UsageError(str(error)) from None
    finished: list[SubmissionGrade] = []
    with Progress("grading", len(paths)) as progress:

        def done(grade: SubmissionGrade) -> None:
            finished.append(grade)
            progress.advance()
            if args.reports is not None:
                _write_reports(Path(args.reports), _shown(args, grade), part)

        try:
            grades = grade_class(paths, options, args.jobs, done, names=names)
        except KeyboardInterrupt as interrupt:  # keep what was graded, then end as asked
            _keep_graded(args, finished, options, part, interrupt)
            raise
    groups = group_class(grades, feedback)
    unused = sorted(set(feedback) - {group.fingerprint for group in groups})
    if unused and args.shard is None:
        say(f"grade: note: no submission has {', '.join(unused)} (--feedback)")
    if args.reports is not None:  # again, now with each one's bug
        for grade in grades:
            _write_reports(Path(args.reports), _shown(args, grade), part)
    status = EXIT_OK if all(grade.clean for grade in grades) else EXIT_FAULTS
    _write_outputs(args, grades, groups, options, status, part)
    return status


def _keep_graded(args: argparse.Namespace, grades: list[SubmissionGrade], options: Options,
                 part: Shard | None, interrupt: KeyboardInterrupt) -> None:
    """On an interrupt: the summary, CSV and JSON of the submissions graded so far."""
    say(f"grade: {interrupted(interrupt)}: {len(grades)} submissions graded; their results "
        "are kept")
    if grades:
        status = EXIT_OK if all(grade.clean for grade in grades) else EXIT_FAULTS
        _write_outputs(args, grades, group_class(grades, {}), options, status, part)


def _shown(args: argparse.Namespace, grade: SubmissionGrade) -> SubmissionGrade:
    """The grade as the summary, the reports, the CSV and the JSON show it."""
    return student_view(grade) if args.student_view else grade


def _write_outputs(args: argparse.Namespace, graded: list[SubmissionGrade],
                   groups: list, options: Options, status: int, part: Shard | None) -> None:
    """The summary on standard output, then the files asked for (the platforms' from the
    whole grades: each shows what its students may see)."""
    grades = [_shown(args, grade) for grade in graded]
    if args.student_view:
        groups = [group for group in groups
                  if any(grade.bug == group.fingerprint for grade in grades)]
    if len(grades) == 1:
        sys.stdout.write(submission_report(grades[0]) + "\n")
    sys.stdout.write(class_summary(grades))
    if len(grades) > 1:
        sys.stdout.write(text_of(groups_report(groups)))
    if args.csv is not None:
        columns = options.checks or list(dict.fromkeys(
            check for grade in grades for check in grade.checks))
        write_whole(args.csv, gradebook_csv(grades, columns))
    if args.json is not None:
        report = json_report(grades, status, options.policy, part)
        write_whole(args.json, json.dumps(report, indent=1, allow_nan=False) + "\n")
    _write_platforms(args, graded)


def _check_outputs(args: argparse.Namespace, paths: list[Path]) -> None:
    """Usage errors, before any work, for a missing submission or an output not writable (a
    link is the submission's own to answer for: it is refused when taken)."""
    missing = [path for path in paths if not os.path.lexists(path)]
    if missing:
        raise UsageError(f"no file or folder {quoted(str(missing[0]))}")
    single = [f"--{name.replace('_', '-')}" for name in ONE_SUBMISSION
              if getattr(args, name) is not None]
    if single and len(paths) > 1:
        raise UsageError(f"{single[0]} writes one submission's results (a platform grades "
                         f"each in its own container), not {len(paths)}")
    for path in (args.csv, args.json, args.junit, args.github_classroom):
        check_writable(path)
    for folder in (args.gradescope, args.prairielearn):
        if folder is not None:
            _make_folder(folder)


def settings_from(args: argparse.Namespace) -> Settings:
    """The grading options the command line gives (None where not given)."""
    return Settings(
        interface=args.interface, checks=predicate_names(args.predicates), main=args.main,
        ties=None if args.ties is None else Ties(args.ties),
        values=None if args.values is None else Values(args.values), answers=args.answers,
        python=args.python,
        definitions_only=args.definitions_only, mapping=args.mapping,
        mapping_set=tuple(args.settings) or None, load_timeout=args.load_timeout,
        query_timeout=args.query_timeout, budget=args.budget,
        inference_ratio=args.inference_ratio, inference_budget=args.inference_budget,
        cpu_seconds=args.cpu_seconds, cpu_budget=args.cpu_budget)


def options_from(args: argparse.Namespace) -> Options:
    """How the class is graded (`compare.grader.configure`): each option given, else the
    assignment's, else its default."""
    try:
        return configure(settings_from(args), args.assignment,
                         [Path(path) for path in args.paths])
    except UnknownCheck as error:
        raise UsageError(f"argument --predicates: {error} (see '{PROG} grade --help')") from None


ONE_SUBMISSION = ("gradescope", "prairielearn", "github_classroom")
"""The outputs of a platform that grades one submission a run."""


def _write_platforms(args: argparse.Namespace, grades: list[SubmissionGrade]) -> None:
    """The course platforms' files asked for; a grade with no score (the grader could not
    start) scores nothing of nothing."""
    scored = [grade if grade.score is not None else replace(grade, score=Score(()))
              for grade in grades]
    if args.gradescope is not None:
        _write_json(Path(args.gradescope) / gradescope.RESULTS,
                    gradescope.results(scored[0], scored[0].score))
    if args.prairielearn is not None:
        _write_json(Path(args.prairielearn) / prairielearn.RESULTS,
                    prairielearn.results(scored[0], scored[0].score))
    if args.github_classroom is not None:
        _write_json(Path(args.github_classroom),
                    github_classroom.results(scored[0], scored[0].score))
    if args.junit is not None:
        write_whole(args.junit, junit_xml(scored))


def _write_json(path: Path, value: dict) -> None:
    write_whole(str(path), json.dumps(value, indent=1, allow_nan=False) + "\n")


def _make_folder(path: str) -> None:
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot make the folder {quoted(path)}: "
                         f"{error.strerror or error}") from None
    check_writable(os.path.join(path, "report.txt"))


def _write_reports(folder: Path, grade: SubmissionGrade, part: Shard | None) -> None:
    """A submission's report and log; one that cannot be written is said, and the class
    goes on."""
    stem = report_stem(grade)
    try:
        note_reports(folder, part, [f"{stem}.txt", f"{stem}.log"])
        write_whole(str(folder / f"{stem}.txt"), submission_report(grade))
        write_whole(str(folder / f"{stem}.log"), output_log(grade))
    except OSError as error:
        say(f"grade: warning: cannot write the report of {quoted(grade.name)} in "
            f"{quoted(str(folder))}: {error.strerror or error}")
