"""Options of the search commands (`stats`, `tree`): what the agent plays for, and how deep."""

from __future__ import annotations

import argparse

from logic.objective import MODES, SCORINGS, Objective


def add_objective_options(parser: argparse.ArgumentParser) -> None:
    """`--mode` and `--scoring`, as `logic.cli.add_engine_options` has them."""
    parser.add_argument(
        "--mode",
        default="win",
        help=f"{' or '.join(MODES)}: win is the lab's unbeatable agent, lose plays for the "
        "worst outcome (default: win)",
    )
    parser.add_argument(
        "--scoring",
        default="lab",
        help=f"{' or '.join(SCORINGS)}: lab values are -1/0/1; depth makes a win in d plies "
        "worth 10-d and a loss -(10-d) (default: lab)",
    )


def objective_from(args: argparse.Namespace) -> Objective:
    """The objective the options name."""
    return Objective(args.mode, args.scoring)


def drawn_plies(text: str) -> int:
    """The value of `tree --depth`: a number of plies to draw, 0 or more."""
    return _whole_number(text, 0, "a depth is a number of plies, 0 or more")


def node_limit(text: str) -> int:
    """The value of `tree --max-nodes`: a number of nodes, 1 or more."""
    return _whole_number(text, 1, "a node limit is a number of nodes, 1 or more")


def _whole_number(text: str, least: int, meaning: str) -> int:
    try:
        number = int(text)
    except ValueError:
        number = least - 1
    if number < least:
        raise argparse.ArgumentTypeError(f"{meaning}, not {text!r}")
    return number
