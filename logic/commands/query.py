"""`minimax-lab query GOAL`: answer one Prolog goal over the lab's predicates, then exit."""

from __future__ import annotations

import argparse
import sys

from logic.commands.cli import EXIT_FALSE, EXIT_OK, EXIT_USAGE, PROG, add_engine_argument
from logic.commands.toplevel.answers import FALSE, ask
from logic.commands.toplevel.errors import ANSWER_ERRORS, report
from logic.engines import make_engine


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "query",
        help="answer one Prolog goal over the lab's predicates",
        description="Print every answer to GOAL as SWI-Prolog prints them, one per line, "
        "' ;' between answers and '.' after the last; 'true.' or 'false.'. See docs/query.md.",
    )
    parser.add_argument(
        "goal", metavar="GOAL", help="e.g. 'minimax_decision(o-x------, o, Action, Value).'"
    )
    add_engine_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Exit status 0 with answers, 1 with `false.`, 2 on an error (after any answers before it)."""
    engine = make_engine(args.engine, program=args.program)
    answered = False
    try:
        for answer in ask(args.goal, engine):
            answered = True
            print(answer.line, flush=True)
    except ANSWER_ERRORS as error:
        print(f"{PROG}: error: {report(error)}", file=sys.stderr)
        return EXIT_USAGE
    if not answered:
        print(FALSE)
        return EXIT_FALSE
    return EXIT_OK
