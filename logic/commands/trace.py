"""`minimax-lab trace STATE PLAYER`: the lab's recursion below a position, call by call, as
SWI-Prolog's tracer prints it (`logic/tools/trace.py`)."""

from __future__ import annotations

import argparse

from logic.commands.cli import (
    EXIT_FALSE,
    EXIT_OK,
    add_objective_options,
    add_position_arguments,
    objective_from,
)
from logic.commands.options import drawn_plies, node_limit
from logic.state import (
    GAME,
    check_legal,
    check_turn,
    is_terminal,
    parse_player,
    parse_state,
)
from logic.tools.trace import MAX_CALLS, Tracer

GOALS = ("minimax_decision", "max_value", "min_value")


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "trace",
        help="trace the lab's recursion: each call of max_value, min_value and terminal_state",
        description="Trace minimax_decision (or max_value, min_value) for STATE and PLAYER as "
        "SWI-Prolog's tracer prints it: Call, Exit and Fail ports with the call depth, "
        "indented. The answers are the reference engine's. Exit status 0, or 1 when the goal "
        "fails (a finished game has no decision).",
    )
    add_position_arguments(parser)
    parser.add_argument("--goal", choices=GOALS, default="minimax_decision",
                        help="the goal traced (default: minimax_decision)")
    parser.add_argument("--plies", type=drawn_plies, metavar="N",
                        help="show calls at most N levels deep (default: all)")
    parser.add_argument("--max-calls", type=node_limit, default=MAX_CALLS, metavar="N",
                        help=f"show at most N calls, then only count them (default: {MAX_CALLS})")
    add_objective_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The trace, then the answer as the top level prints it."""
    state, player = parse_state(args.state), parse_player(args.player)
    check_legal(state)
    if not is_terminal(state):  # in min_value it is the agent's adversary who moves
        check_turn(state, player if args.goal != "min_value" else GAME.other_player(player))
    tracer = Tracer(objective_from(args), args.plies, args.max_calls)
    if args.goal == "minimax_decision":
        answer = tracer.minimax_decision(state, player)
    else:
        answer = getattr(tracer, args.goal)(state, player)
    for line in tracer.text():
        print(line)
    if answer is None:
        print("false.")
        return EXIT_FALSE
    print(answer if args.goal == "minimax_decision" else f"SV = {answer}.")
    return EXIT_OK
