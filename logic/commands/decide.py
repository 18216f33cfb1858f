"""`minimax-lab decide STATE PLAYER`: the lab's `minimax_decision` for one position."""

from __future__ import annotations

import argparse

from logic.cli import EXIT_FALSE, EXIT_OK, add_engine_options, engine_from
from logic.state import check_legal, check_turn, is_terminal, parse_player, parse_state


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "decide",
        help="the lab's minimax_decision for one position",
        description="Print minimax_decision(STATE, PLAYER, Action, Value) as Prolog prints it.",
    )
    parser.add_argument("state", metavar="STATE", help="e.g. o-x------ or '[o,-,x,-,-,-,-,-,-]'")
    parser.add_argument("player", metavar="PLAYER", help="the player to move: x or o")
    add_engine_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The decision, or `false.` at a terminal state: one batch query, as a single question
    needs no session (see `LogicEngine`)."""
    engine = engine_from(args)
    state = parse_state(args.state)
    player = parse_player(args.player)
    check_legal(state)
    if not is_terminal(state):
        check_turn(state, player)
    decision = engine.decisions([(state, player)]).get((state, player))
    if decision is None:
        print("false.")
        return EXIT_FALSE
    print(decision)
    return EXIT_OK
