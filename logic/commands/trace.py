"""`minimax-lab trace STATE PLAYER`: the lab's recursion below a position, call by call, as
SWI-Prolog's tracer prints it: the reference's (`logic/tools/trace.py`), a pyDatalog
program's proof reconstructed from its answers, or SWI-Prolog's own tracer on the lab's
Prolog or a student's program (`logic/tools/prolog_trace.py`)."""

from __future__ import annotations

import argparse

from logic.commands.cli import (
    EXIT_FALSE,
    EXIT_OK,
    UsageError,
    add_objective_options,
    add_position_arguments,
    add_program_argument,
    objective_from,
)
from logic.commands.options import call_levels, call_limit
from logic.engines import Engine, engine_class_for, make_engine
from logic.objective import Objective
from logic.quote import escaped
from logic.state import (
    GAME,
    Player,
    State,
    check_legal,
    check_turn,
    is_terminal,
    parse_player,
    parse_state,
)
from logic.tools.prolog_trace import trace_lab, trace_program
from logic.tools.trace import MAX_CALLS, Tracer

GOALS = ("minimax_decision", "max_value", "min_value")


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
    check_legal(state)
    if not is_terminal(state):  # in min_value it is the agent's adversary who moves
        check_turn(state, player if args.goal != "min_value" else GAME.other_player(player))
    objective = objective_from(args)
    named = engine_class_for(args.engine, args.program)
    if not named.plays(objective):
        raise UsageError(f"the {args.engine} engine plays the lab's objective only (mode win, "
                         f"scoring lab), not {objective}")
    if named.tracing == "prolog":
        answer = _prolog(args, state, player, objective, named)
    else:
        engine = make_engine(args.engine, objective) if named.tracing == "proof" else None
        tracer = Tracer(objective, args.levels, args.max_calls, engine)
        answer = getattr(tracer, args.goal)(state, player)
        for line in tracer.text():
            print(line)
    if answer is None:
        print("false.")
        return EXIT_FALSE
    print(answer if args.goal == "minimax_decision" else f"SV = {answer}.")
    return EXIT_OK


def _prolog(args: argparse.Namespace, state: State, player: Player, objective: Objective,
            named: type[Engine]):
    """SWI-Prolog's tracer on the lab's program or the student's, then the engine's answer."""
    if args.levels is not None:
        raise UsageError("--levels: SWI-Prolog's tracer is bounded by --max-calls only")
    if args.program is not None:
        traced = trace_program(args.program, args.goal, state, player, args.max_calls)
    else:
        traced = trace_lab(args.goal, state, player, named.lab_file, args.max_calls)
    for line in traced.lines:
        print(escaped(line))
    if traced.stopped:
        print(f"% the trace stopped {traced.stopped}")
    with make_engine(args.engine, objective, args.program) as engine:
        return getattr(engine, args.goal)(state, player)
