"""`minimax-lab play`: a game against the agent in the terminal, or through a pipe.

Exit status: 0 when the game ends (the last line is `Result: x wins`, `Result: o wins` or
`Result: draw`), 1 when input ends first, 2 for bad options, 130 on Ctrl-C (143 on SIGTERM,
129 on SIGHUP).
"""

from __future__ import annotations

import argparse
import sys

from minimax_lab.logic import interrupts
from minimax_lab.logic.commands.cli import EXIT_OK, PROG, add_engine_options, engine_from
from minimax_lab.logic.engines import Engine, engine_class_for
from minimax_lab.logic.objective import Objective
from minimax_lab.logic.quote import escaped, say
from minimax_lab.logic.state import GAME, PLAYERS, State, draw_board, result
from minimax_lab.logic.tools.play import Move, MoveError, announcement, parse_move, play_game

EXIT_END_OF_INPUT = 1


class EndOfInput(Exception):
    """Standard input ended before the game did."""


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "play",
        help="play a game against the agent",
        description="Play tic-tac-toe against the agent: type a cell 1-9, or a row and a column "
        "0-2. The agent plays to win (the lab's unbeatable agent) or, with --mode lose, to lose.",
    )
    parser.add_argument("--human", choices=PLAYERS, default="x", help="your mark (default: x)")
    parser.add_argument(
        "--first",
        choices=("human", "computer"),
        default="human",
        help="who moves first (default: human)",
    )
    add_engine_options(parser, scoring="depth")
    parser.set_defaults(run=run, scoring=None)


def run(args: argparse.Namespace) -> int:
    """Play one game; the exit status says how it ended."""
    engine = _engine_for_play(args)
    human = args.human
    computer = GAME.other_player(human)
    first = human if args.first == "human" else computer
    aim = "to win" if args.mode == "win" else f"to lose, assuming you try to make {computer} win"
    print(
        f"You play {human}; the computer plays {computer}, {aim} "
        f"({args.scoring} scoring, {args.engine} engine). {first} moves first."
    )
    print("Type a cell 1-9, or a row and a column 0-2.")
    echo = not sys.stdin.isatty()

    def human_move(state: State) -> int:
        print(f"\n{draw_board(state)}")
        while True:
            line = _read_line(f"Your move ({human}): ", echo)
            try:
                return parse_move(line, state)
            except MoveError as error:
                print(error)

    def announce(state: State, move: Move) -> None:
        if move.player == computer:
            print(f"\n{draw_board(state)}")
            print(announcement(move, args.mode, args.scoring))

    try:
        final = play_game(engine, human, first, human_move, announce)
    except EndOfInput:
        print(f"\n{PROG}: end of input; the game is abandoned", file=sys.stderr)
        return EXIT_END_OF_INPUT
    except KeyboardInterrupt as interrupt:
        say(f"\n{PROG}: {interrupts.interrupted(interrupt)}; the game is abandoned")
        return interrupts.exit_status(interrupt)
    print(f"\n{draw_board(final)}")
    print(f"Result: {result(final)}")
    return EXIT_OK


def _engine_for_play(args: argparse.Namespace) -> Engine:
    """The engine to play against: depth scoring unless `--scoring` says otherwise, or lab
    scoring for an engine that plays the lab's objective only (the Prolog engines)."""
    if args.scoring is None:
        named = engine_class_for(args.engine, args.program)
        args.scoring = "depth" if named.plays(Objective(args.mode, "depth")) else "lab"
    return engine_from(args)


def _read_line(prompt: str, echo: bool) -> str:
    """One line of input after `prompt`; echoed when input is not a terminal, for transcripts."""
    try:
        with interrupts.waking_reads():
            line = input(prompt)
    except EOFError:
        raise EndOfInput from None
    if echo:
        print(escaped(line))
    return line
