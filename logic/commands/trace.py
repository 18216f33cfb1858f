"""`minimax-lab trace STATE PLAYER`: the lab's recursion below a position, call by call, as
SWI-Prolog's tracer prints it: the reference's (`logic/tools/trace.py`), a pyDatalog
program's proof reconstructed from its answers, or SWI-Prolog's own tracer on the lab's
Prolog or a student's program (`logic/tools/prolog_trace.py`)."""

from __future__ import annotations

import argparse

from minimax_lab.logic import api
from minimax_lab.logic.commands.cli import (
    EXIT_FALSE,
    EXIT_OK,
    UsageError,
    add_objective_options,
    add_position_arguments,
    add_program_argument,
    objective_from,
)
from minimax_lab.logic.commands.options import call_levels, call_limit
from minimax_lab.logic.engines import engine_class_for
from minimax_lab.logic.predicates import recursion_top_down
from minimax_lab.logic.state import parse_player, parse_state
from minimax_lab.logic.tools.trace import MAX_CALLS

GOALS = recursion_top_down()
"""The goals `--goal` offers: the lab's recursion, from the top (`logic/predicates.py`)."""


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "trace",
        help="trace the lab's recursion: each call of max_value, min_value and terminal_state",
        description="Trace minimax_decision (or max_value, min_value) for STATE and PLAYER as "
        "SWI-Prolog's tracer prints it: Call, Exit and Fail ports with the call depth, "
        "indented, bounded by --levels (levels shown) and --max-calls. --engine says whose "
        "recursion: the reference's (default), a pyDatalog program's proof, or SWI-Prolog's "
        "own tracer. Exit status 0, or 1 when the goal fails (a finished game has no "
        "decision).",
    )
    add_position_arguments(parser)
    parser.add_argument("--goal", choices=GOALS, default="minimax_decision",
                        help="the goal traced (default: minimax_decision)")
    parser.add_argument("--levels", type=call_levels, metavar="N",
                        help="show calls at most N levels deep (default: all)")
    parser.add_argument("--depth", type=call_levels, metavar="N", help=argparse.SUPPRESS)
    parser.add_argument("--max-calls", type=call_limit, default=MAX_CALLS, metavar="N",
                        help=f"show at most N calls, then only count them (default: {MAX_CALLS})")
    parser.add_argument("--engine", default="reference",
                        help="whose recursion: reference (default), logic or logic-plain (the "
                        "engine's own answers, each justified by the calls below it), prolog or "
                        "prolog-tabled (SWI-Prolog's own tracer)")
    add_program_argument(parser)
    add_objective_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The trace, then the answer as the top level prints it."""
    if args.depth is not None:
        raise UsageError(f"--depth {args.depth}: the trace follows the lab's search to the end "
                         f"of the game (--depth is a search depth, as in decide and tree); "
                         f"--levels {args.depth} shows {args.depth} levels of calls")
    state, player = parse_state(args.state), parse_player(args.player)
    named = engine_class_for(args.engine, args.program)
    if named.tracing == "prolog" and args.levels is not None:
        raise UsageError("--levels: SWI-Prolog's tracer is bounded by --max-calls only")
    traced = api.trace(state, player, args.goal, args.levels, args.max_calls,
                       args.engine, args.program, objective_from(args),
                       more="--levels N and --max-calls N show more")
    print(traced.text())
    return EXIT_OK if traced.found else EXIT_FALSE
