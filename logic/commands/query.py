"""`minimax-lab query GOAL`: answer one Prolog goal over the lab's predicates, then exit."""

from __future__ import annotations

import argparse
import sys

from minimax_lab.logic.commands.cli import (
    EXIT_FALSE,
    EXIT_OK,
    EXIT_USAGE,
    PROG,
    add_engine_argument,
)
from minimax_lab.logic.engines import engine_class_for
from minimax_lab.logic.quote import escaped
from minimax_lab.logic.toplevel.answers import FALSE, MAX_SHOWN, MORE, ask
from minimax_lab.logic.toplevel.errors import ANSWER_ERRORS, Halt, report
from minimax_lab.logic.toplevel.repl import Session


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
    answered = said_false = False
    shown = 0
    try:
        for answer in ask(args.goal, session.engine, session.program, session):
            if answer.output:
                print(escaped(answer.output.removesuffix("\n")), flush=True)
            if answer.kind == "answer":
                if shown == MAX_SHOWN:
                    print(MORE, flush=True)
                    break
                shown += 1
                answered = True
                print(answer.line, flush=True)
            elif answer.kind == "false":
                said_false = True
                print(FALSE, flush=True)
    except Halt:
        return EXIT_OK
    except ANSWER_ERRORS as error:
        print(f"{PROG}: error: {report(error)}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        session.close()
    if not answered:
        if not said_false:
            print(FALSE)
        return EXIT_FALSE
    return EXIT_OK
