"""`minimax-lab decide STATE PLAYER`: the lab's `minimax_decision` for one position."""

from __future__ import annotations

import argparse

from minimax_lab.logic.commands.cli import (
    EXIT_FALSE,
    EXIT_OK,
    add_engine_options,
    add_position_arguments,
    engine_from,
)
from minimax_lab.logic.state import parse_position


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "decide",
        help="the lab's minimax_decision for one position",
        description="Print minimax_decision(STATE, PLAYER, Action, Value) as Prolog prints it.",
    )
    add_position_arguments(parser)
    add_engine_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The decision, or `false.` at a terminal state: one batch query, as a single question
    needs no session (see `LogicEngine`)."""
    engine = engine_from(args)
    state, player = parse_position(args.state, args.player)
    decision = engine.decisions([(state, player)]).get((state, player))
    if decision is None:
        print("false.")
        return EXIT_FALSE
    print(decision)
    return EXIT_OK
