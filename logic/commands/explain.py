"""`minimax-lab explain STATE PLAYER`: each move's value, and the principal variation."""

from __future__ import annotations

import argparse

from minimax_lab.logic import api
from minimax_lab.logic.commands.cli import (
    EXIT_FALSE,
    EXIT_OK,
    add_engine_options,
    add_position_arguments,
    engine_from,
)
from minimax_lab.logic.state import is_terminal, parse_position
from minimax_lab.logic.tools.explain import draw_move_values, ending


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "explain",
        help="each move's value on the board, the decision, and the line of best play",
        description="Draw the board with the value of every legal move, mark the decision, "
        "and print the principal variation in both notations.",
    )
    add_position_arguments(parser)
    add_engine_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The explanation; at a terminal state the board, how the game ended, and `false.`."""
    engine = engine_from(args)
    state, player = parse_position(args.state, args.player)
    if is_terminal(state):
        print(draw_move_values(state, {}, None))
        print(ending(state))
        print("false.")
        return EXIT_FALSE
    print(api.explain(state, player, engine))
    return EXIT_OK
