"""`minimax-lab query GOAL`: answer one Prolog goal over the lab's predicates, then exit."""

from __future__ import annotations

import argparse
import sys

from minimax_lab.logic.commands.cli import add_engine_argument
from minimax_lab.logic.engines import engine_class_for
from minimax_lab.logic.toplevel.repl import Session, print_answers


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
    engine_class_for(args.engine, args.program)  # a program runs as --engine prolog only
    session = Session(args.engine, sys.stdout, program=args.program)
    try:
        return print_answers(args.goal, session, sys.stdout, sys.stderr)
    finally:
        session.close()
