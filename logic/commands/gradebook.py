"""`minimax-lab gradebook merge PART.json...`: one class's gradebook from the JSON reports of
its shards (`grade --shard K/N --json`), as one run would have written it
(`compare.grader.merge`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from minimax_lab.compare.grader.merge import merge
from minimax_lab.compare.grader.text import merged_summary
from minimax_lab.compare.grader.writer import Reach, Writer
from minimax_lab.compare.grader.writers import WRITERS
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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Join the parts, write what was asked; print the count of submissions right everywhere
    and the class's bugs."""
    outputs = {writer.name: Path(getattr(args, writer.name)) for writer in merged_writers()
               if getattr(args, writer.name) is not None}
    graded = merge(args.parts, outputs, args.roster)
    sys.stdout.write(merged_summary(graded, len(args.parts)))
    return graded.status
