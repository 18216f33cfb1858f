"""`minimax-lab repl`: the interactive top level `?- ` over the lab's predicates."""

from __future__ import annotations

import argparse

from minimax_lab.logic.commands.cli import EXIT_OK, add_engine_argument
from minimax_lab.logic.engines import engine_class_for
from minimax_lab.logic.toplevel import repl


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "repl",
        help="the interactive ?- top level over the lab's predicates",
        description="Ask the lab's predicates as at SWI-Prolog's ?- prompt; :help inside for "
        "the predicates and commands. From a pipe, every goal's answers are printed.",
    )
    add_engine_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run the top level until `:quit` or end of file."""
    engine_class_for(args.engine, args.program)  # a program runs as --engine prolog only
    repl.run(args.engine, program=args.program)
    return EXIT_OK
