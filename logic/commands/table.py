"""`minimax-lab table`: the decision table of all 9040 positions, as CSV."""

from __future__ import annotations

import argparse
import sys

from minimax_lab.compare.sources.table import write_table
from minimax_lab.logic.commands.cli import EXIT_OK, add_engine_options, engine_from
from minimax_lab.logic.positions import all_positions


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "table",
        help="the decision table of all 9040 positions, as CSV",
        description="Write state,player,position,value for every non-terminal position.",
    )
    add_engine_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Every position's decision, to standard output."""
    write_table(engine_from(args).decisions(all_positions()), sys.stdout)
    return EXIT_OK
