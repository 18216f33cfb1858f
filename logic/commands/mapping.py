"""`minimax-lab mapping guess FILE...`: a Prolog program's mapping guessed by asking it,
contained, a few probe positions under the common encodings (`compare.grader.interfaces.
mapping_guess`), proposed as TOML for `compare --mapped` and `grade --interface predicate`
(docs/compare.md, "A mapping guessed for you")."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from minimax_lab.compare.grader.interfaces.mapping_guess import (
    EXIT_NOTHING_FITS,
    NothingFits,
    guess,
    report,
)
from minimax_lab.logic.errors import EXIT_OK, PROG
from minimax_lab.logic.quote import say


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "mapping",
        help="guess a Prolog program's mapping by asking it a few positions, contained",
        description="Mappings of programs of their own (docs/compare.md).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    guessed = actions.add_parser(
        "guess", help="propose the mapping of a Prolog program, as TOML on standard output",
        description="Ask a Prolog program, contained as grade runs it, a few probe positions "
        "(where one move does not lose) under the common encodings, and print the mapping "
        "that explains the most, with how sure and the probes, as TOML for compare --mapped "
        "and grade --interface predicate. Exit status 0 with a proposal, 1 when nothing "
        "fits, 2 for usage errors, a file that is no Prolog, or a program that cannot be "
        "loaded.",
    )
    guessed.add_argument("files", nargs="+", metavar="FILE", type=Path,
                         help="the program's Prolog files (.pl, .p, .pro) or its folder; the "
                         "main file is the one that defines the predicate guessed")
    guessed.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    found = guess(args.files)
    if isinstance(found, NothingFits):
        say(f"{PROG}: error: {found.said}")
        return EXIT_NOTHING_FITS
    sys.stdout.write(report(found))
    return EXIT_OK
