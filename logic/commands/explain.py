"""`minimax-lab explain STATE PLAYER`: each move's value, and the principal variation."""

from __future__ import annotations

import argparse

from logic.cli import EXIT_FALSE, EXIT_OK, add_engine_options, engine_from
from logic.explain import draw_move_values, explanation, outcome
from logic.state import check_legal, check_turn, is_terminal, parse_player, parse_state


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "explain",
        help="each move's value on the board, the decision, and the line of best play",
        description="Draw the board with the value of every legal move, mark the decision, "
        "and print the principal variation in both notations.",
    )
    parser.add_argument("state", metavar="STATE", help="e.g. o-x------ or '[o,-,x,-,-,-,-,-,-]'")
    parser.add_argument("player", metavar="PLAYER", help="the player to move: x or o")
    add_engine_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The explanation; at a terminal state the board, how the game ended, and `false.`."""
    engine = engine_from(args)
    state = parse_state(args.state)
    player = parse_player(args.player)
    check_legal(state)
    if is_terminal(state):
        print(draw_move_values(state, {}, None))
        print(outcome(state))
        print("false.")
        return EXIT_FALSE
    check_turn(state, player)
    decision = engine.minimax_decision(state, player)
    print(explanation(engine, state, player, decision))
    return EXIT_OK
