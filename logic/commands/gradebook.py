"""`minimax-lab gradebook merge PART.json...`: one class's gradebook from the JSON reports of
its shards (`grade --shard K/N --json`), as one run would have written it."""

from __future__ import annotations

import argparse
import json
import sys

from compare.grader.gradebook import gradebook_csv, json_report, merge_reports, text_of
from compare.grader.groups import group_class, groups_report
from compare.grader.platforms.junit import junit_xml
from logic.commands.cli import EXIT_OK, UsageError
from logic.commands.files import check_writable, write_whole
from logic.quote import quoted

EXIT_FAULTS = 1


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "gradebook",
        help="join the parts of a class graded on several machines (grade --shard)",
        description="Join the JSON reports of grade --shard K/N runs, every part once, into "
        "the class's gradebook: CSV, JSON and JUnit XML as one run would have written them. "
        "Exit status 0 when every submission is right everywhere, 1 otherwise, 2 for usage "
        "errors.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    merge = actions.add_parser("merge", help="join the parts' --json reports",
                               description="Join the parts' --json reports into one gradebook.")
    merge.add_argument("parts", nargs="+", metavar="PART.json",
                       help="the --json report of each part, in any order")
    merge.add_argument("--csv", metavar="FILE", help="write the gradebook to FILE as CSV")
    merge.add_argument("--json", metavar="FILE", help="write the whole report to FILE as JSON")
    merge.add_argument("--junit", metavar="FILE", help="write the class to FILE as JUnit XML")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read every part, check that they make one class, write what was asked; print the
    count of submissions right everywhere."""
    for path in (args.csv, args.json, args.junit):
        check_writable(path)
    parts = [_read(path) for path in args.parts]
    try:
        grades, policy = merge_reports(parts, args.parts)
    except ValueError as error:
        raise UsageError(str(error)) from None
    except (KeyError, TypeError, AttributeError) as error:
        raise UsageError(f"not a report grade --shard --json writes ({type(error).__name__}: "
                         f"{error})") from None
    status = EXIT_OK if all(grade.clean for grade in grades) else EXIT_FAULTS
    checks = list(dict.fromkeys(check for grade in grades for check in grade.checks))
    if args.csv is not None:
        write_whole(args.csv, gradebook_csv(grades, checks))
    if args.json is not None:
        report = json_report(grades, status, policy)
        write_whole(args.json, json.dumps(report, indent=1, allow_nan=False) + "\n")
    if args.junit is not None:
        write_whole(args.junit, junit_xml(grades))
    clean = sum(grade.clean for grade in grades)
    print(f"{len(parts)} parts, {len(grades)} submissions; {clean} of {len(grades)} "
          "submissions right everywhere")
    sys.stdout.write(text_of(groups_report(group_class(
        grades, {grade.bug: grade.feedback for grade in grades if grade.bug}))))
    return status


def _read(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as file:
            report = json.load(file)
    except OSError as error:
        raise UsageError(f"cannot read {quoted(path)}: {error.strerror or error}") from None
    except (ValueError, RecursionError):
        raise UsageError(f"{quoted(path)} is not JSON: give the --json of grade --shard "
                         "runs") from None
    if not isinstance(report, dict):
        raise UsageError(f"{quoted(path)} is not a report grade --json writes")
    return report
