"""`minimax-lab query GOAL`: answer one Prolog goal over the lab's predicates, then exit."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from logic.commands.cli import EXIT_FALSE, EXIT_OK, EXIT_USAGE, PROG, add_engine_argument
from logic.commands.toplevel.answers import FALSE, MAX_SHOWN, MORE, ask
from logic.commands.toplevel.errors import ANSWER_ERRORS, Halt, report
from logic.commands.toplevel.repl import Session
from logic.engines import engine_class_for
from logic.quote import escaped


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
        return answer_goal(args.goal, session, sys.stdout, sys.stderr)
    finally:
        session.close()


def answer_goal(goal: str, session: Session, out: TextIO, err: TextIO) -> int:
    """Write every answer to `goal` to `out` as `query` prints them, an error to `err`; the
    exit status `query` gives. The site's top level answers this way too."""
    answered = said_false = False
    shown = 0
    try:
        for answer in ask(goal, session.engine, session.program, session):
            if answer.output:
                print(escaped(answer.output.removesuffix("\n")), file=out, flush=True)
            if answer.kind == "answer":
                if shown == MAX_SHOWN:
                    print(MORE, file=out, flush=True)
                    break
                shown += 1
                answered = True
                print(answer.line, file=out, flush=True)
            elif answer.kind == "false":
                said_false = True
                print(FALSE, file=out, flush=True)
    except Halt:
        return EXIT_OK
    except ANSWER_ERRORS as error:
        print(f"{PROG}: error: {report(error)}", file=err)
        return EXIT_USAGE
    if not answered:
        if not said_false:
            print(FALSE, file=out)
        return EXIT_FALSE
    return EXIT_OK
