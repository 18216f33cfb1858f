"""The `minimax-lab` command line (also `python -m logic`).

Exit status: 0 on success, 1 when the answer is `false.` (no decision at a terminal state),
2 on bad input (a usage error, a state or player that cannot be read, an illegal position,
an unknown engine), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence

from compare.positions import all_positions
from compare.table import write_table
from logic.engines import Engine, EngineError, engine_names, make_engine
from logic.objective import Objective, ObjectiveError
from logic.state import StateError, check_legal, check_turn, is_terminal, parse_player, parse_state

PROG = "minimax-lab"
EXIT_OK, EXIT_FALSE, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
_STATE_LIKE = re.compile(r"[-xoXO]{3,}")


class UsageError(Exception):
    """Bad input on the command line: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, with one-line errors and compact states such as `---------` read as arguments."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def _parse_optional(self, arg_string: str):  # type: ignore[override]
        if _STATE_LIKE.fullmatch(arg_string) and arg_string != "--":
            return None
        return super()._parse_optional(arg_string)


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand."""
    parser = _Parser(prog=PROG, description="The Prolog minimax lab for tic-tac-toe, in pyDatalog.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    decide = commands.add_parser(
        "decide",
        help="the lab's minimax_decision for one position",
        description="Print minimax_decision(STATE, PLAYER, Action, Value) as Prolog prints it.",
    )
    decide.add_argument("state", metavar="STATE", help="e.g. o-x------ or '[o,-,x,-,-,-,-,-,-]'")
    decide.add_argument("player", metavar="PLAYER", help="the player to move: x or o")
    _add_engine_options(decide)
    decide.set_defaults(run=run_decide)

    table = commands.add_parser(
        "table",
        help="the decision table of all 9040 positions, as CSV",
        description="Write state,player,position,value for every non-terminal position.",
    )
    _add_engine_options(table)
    table.set_defaults(run=run_table)
    return parser


def _add_engine_options(parser: argparse.ArgumentParser, scoring: str = "lab") -> None:
    parser.add_argument(
        "--engine",
        default="logic",
        help=f"which program answers: {', '.join(engine_names())} (default: logic)",
    )
    parser.add_argument(
        "--mode",
        default="win",
        help="win: the lab's unbeatable agent; lose: play for the worst outcome (default: win)",
    )
    parser.add_argument(
        "--scoring",
        default=scoring,
        help="lab: values -1/0/1; depth: a win in d plies is worth 10-d, a loss -(10-d) "
        f"(default: {scoring})",
    )


def engine_from(args: argparse.Namespace) -> Engine:
    """The engine the options name, playing for the objective they name."""
    return make_engine(args.engine, Objective(args.mode, args.scoring))


def run_decide(args: argparse.Namespace) -> int:
    """`minimax-lab decide STATE PLAYER`: the decision, or `false.` at a terminal state."""
    engine = engine_from(args)
    state = parse_state(args.state)
    player = parse_player(args.player)
    check_legal(state)
    if not is_terminal(state):
        check_turn(state, player)
    decision = engine.minimax_decision(state, player)
    if decision is None:
        print("false.")
        return EXIT_FALSE
    print(decision)
    return EXIT_OK


def run_table(args: argparse.Namespace) -> int:
    """`minimax-lab table`: the decision table of every position, to standard output."""
    engine = engine_from(args)
    write_table(engine.decisions(all_positions()), sys.stdout)
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    try:
        args = build_parser().parse_args(argv)
        return args.run(args)
    except (UsageError, StateError, EngineError, ObjectiveError) as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_OK
