"""`minimax-lab gradebook merge PART.json...`: one class's gradebook from the JSON reports of
its shards (`grade --shard K/N --json`), as one run would have written it
(`compare.grader.outputs.merge`); `minimax-lab gradebook release CLASS.json --hints LEVEL`: the
students' outputs written again from a class's JSON at a fuller hint level
(`compare.grader.outputs.release`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from minimax_lab.compare.grader.options.options import HINTS_HELP
from minimax_lab.compare.grader.outputs.merge import merge
from minimax_lab.compare.grader.outputs.release import release
from minimax_lab.compare.grader.outputs.text import class_summary, merged_summary
from minimax_lab.compare.grader.outputs.writer import Reach, Writer
from minimax_lab.compare.grader.outputs.writers import WRITERS
from minimax_lab.compare.judge.scores import Hints
from minimax_lab.logic.commands.grade import ROSTER_HELP


def merged_writers() -> list[Writer]:
    """The outputs of a class merged from its parts."""
    return [writer for writer in WRITERS.values()
            if writer.merged and writer.reach is Reach.CLASS]


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "gradebook",
        help="join the parts of a class graded on several machines (grade --shard)",
        description="Join the JSON reports of grade --shard K/N runs, every part once, into "
        "the class's gradebook ("
        + ", ".join(writer.option for writer in merged_writers())
        + ") as one run would have written it. Exit status 0 when every submission is right "
        "everywhere, 1 otherwise, 2 for usage errors.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    merged = actions.add_parser("merge", help="join the parts' --json reports",
                                description="Join the parts' --json reports into one "
                                "gradebook.")
    merged.add_argument("parts", nargs="+", metavar="PART.json",
                        help="the --json report of each part, in any order")
    for writer in merged_writers():
        merged.add_argument(writer.option, metavar=writer.metavar, help=writer.help,
                            dest=writer.name)
    merged.add_argument("--roster", metavar="FILE", help=ROSTER_HELP)
    released = actions.add_parser(
        "release", help="write the students' outputs again from a class's --json, telling "
        "more", description="Write the students' outputs (the platforms' files, JUnit XML, "
        "the reports, the CSV, the JSON) again from the --json of grade, without grading "
        "again, every check's wrong answers told at the hint level given.")
    released.add_argument("report", metavar="CLASS.json", help="the --json report of grade")
    released.add_argument("--hints", choices=list(Hints), required=True, metavar="LEVEL",
                          help=HINTS_HELP)
    for writer in WRITERS.values():
        released.add_argument(writer.option, metavar=writer.metavar, help=writer.help,
                              dest=writer.name)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Join the parts (or release a class), write what was asked; print the count of
    submissions right everywhere and the class's bugs."""
    if args.action == "release":
        chosen = {writer.name: Path(getattr(args, writer.name)) for writer in WRITERS.values()
                  if getattr(args, writer.name) is not None}
        graded = release(args.report, Hints(args.hints), chosen)
        sys.stdout.write(class_summary(graded.shown))
        return graded.status
    outputs = {writer.name: Path(getattr(args, writer.name)) for writer in merged_writers()
               if getattr(args, writer.name) is not None}
    graded = merge(args.parts, outputs, args.roster)
    sys.stdout.write(merged_summary(graded, len(args.parts)))
    return graded.status
