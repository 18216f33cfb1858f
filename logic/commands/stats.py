"""`minimax-lab stats STATE PLAYER`: the nodes minimax, alpha-beta and memoised search visit."""

from __future__ import annotations

import argparse

from minimax_lab.logic import api
from minimax_lab.logic.commands.cli import (
    EXIT_OK,
    add_objective_options,
    add_position_arguments,
    objective_from,
)
from minimax_lab.logic.commands.options import plies
from minimax_lab.logic.state import parse_position


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "stats",
        help="nodes visited by minimax, alpha-beta and memoised search, and alpha-beta's cuts",
        description="Count the nodes each search visits below STATE with PLAYER to move (the "
        "position itself included; memo counts distinct states) and the cuts alpha-beta makes.",
    )
    add_position_arguments(parser)
    add_objective_options(parser)
    parser.add_argument(
        "--depth", type=plies, metavar="N",
        help="stop N plies below the position (default: search to the end of the game)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """One line per count."""
    objective = objective_from(args)
    state, player = parse_position(args.state, args.player)
    print(api.stats(state, player, args.depth, objective))
    return EXIT_OK
