"""The `minimax-lab` command line (also `python -m minimax_lab`): the parser and the exit statuses.

Each command NAME lives in the module `logic.commands.NAME`, whose `register(commands)` adds
its subparser and sets `run`; `COMMANDS` lists them in help order.

Exit status: 0 on success, 1 when the answer is `false.` (no decision at a terminal state),
2 on bad input (a usage error, a state or player that cannot be read, an illegal position,
an unknown engine, mode or scoring) or output that cannot be written, 130 when interrupted
(Ctrl-C), 143 on SIGTERM, 129 on SIGHUP.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Sequence

from minimax_lab.logic import interrupts
from minimax_lab.logic.commands.options import plies
from minimax_lab.logic.engines import Engine, engine_names, make_engine
from minimax_lab.logic.engines.search import SEARCHES, SearchEngine
from minimax_lab.logic.errors import EXIT_FALSE as EXIT_FALSE  # the exit statuses, for the commands
from minimax_lab.logic.errors import EXIT_OK as EXIT_OK
from minimax_lab.logic.errors import EXIT_USAGE, PROG, LabError
from minimax_lab.logic.objective import MODES, SCORINGS, Objective
from minimax_lab.logic.quote import say

COMMANDS = (
    "decide", "table", "compare", "mapping", "grade", "gradebook", "autograder", "play", "explain",
    "trace", "stats", "tree", "query", "repl", "site",
)
"""The subcommands, in help order; command NAME lives in the module `logic.commands.NAME`."""
_STATE_LIKE = re.compile(r"[-xoXO]{2,}")


class UsageError(LabError):
    """Bad input on the command line: reported in one line, exit status 2 (`LabError`)."""


class _Parser(argparse.ArgumentParser):
    """argparse, with one-line errors and compact states such as `---------` read as arguments:
    such a state is marked before parsing (`_ARGUMENT`, which no command line can hold), so
    that argparse reads it as an argument, not an option, and unmarked in what it gives back."""

    commands: argparse._SubParsersAction | None = None

    def parse_args(self, args=None, namespace=None):
        """As argparse's, but an argument no command takes is reported with that command's
        help to see, not the top level's."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            choices = self.commands.choices if self.commands else {}
            command = choices.get(getattr(parsed, "command", None), self)
            command.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed

    def parse_known_args(self, args=None, namespace=None):
        """As argparse's, a state that starts with `-` read as an argument."""
        given = sys.argv[1:] if args is None else list(args)
        parsed, extras = super().parse_known_args([_marked(arg) for arg in given], namespace)
        for name, value in vars(parsed).items():
            setattr(parsed, name, _unmarked(value))
        return parsed, _unmarked(extras)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message.replace(_ARGUMENT, '')} (see '{self.prog} --help')")


_ARGUMENT = "\0"
"""The mark of a state that starts with `-`: a NUL, which no argument of a process can hold."""


def _marked(arg: str) -> str:
    """`arg`, marked as an argument when it is a state (or looks like one) starting with `-`."""
    if arg != "--" and arg.startswith("-") and (_STATE_LIKE.fullmatch(arg)
                                                or _looks_like_a_board(arg)):
        return _ARGUMENT + arg
    return arg


def _unmarked(value: object) -> object:
    """A parsed value (a text, or a list of them) with its marks taken off."""
    if isinstance(value, str):
        return value.removeprefix(_ARGUMENT)
    if isinstance(value, list):
        return [_unmarked(item) for item in value]
    return value


def _looks_like_a_board(text: str) -> bool:
    """True for a compact state with a stray mark (`---q-----`): read as the state it means to
    be, so that its error names it, not as an unknown option."""
    return "=" not in text and (len(text) == 9 or text.startswith("---")) and sum(
        cell in "-xoXO" for cell in text) >= 5


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or only of `command`: a command line that names its
    command first need not import the others, which would slow every start."""
    parser = _Parser(prog=PROG, description="The Prolog minimax lab for tic-tac-toe, in pyDatalog.")
    parser.add_argument("--version", action=_Version, nargs=0, help="print the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    parser.commands = commands
    for name in COMMANDS if command is None else (command,):
        importlib.import_module(f"minimax_lab.logic.commands.{name}").register(commands)
    return parser


class _Version(argparse.Action):
    """`--version`, looked up only when asked (importlib.metadata is slow to import)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from importlib import metadata

        try:
            version = metadata.version("minimax-lab")
        except metadata.PackageNotFoundError:
            version = "(not installed)"
        print(f"{PROG} {version}")
        parser.exit()


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    """The positional STATE and PLAYER of the commands that look at one position."""
    parser.add_argument("state", metavar="STATE", help="e.g. o-x------ or '[o,-,x,-,-,-,-,-,-]'")
    parser.add_argument("player", metavar="PLAYER", help="the player to move: x or o")


def add_engine_argument(parser: argparse.ArgumentParser) -> None:
    """`--engine NAME`: which program answers (default: the pyDatalog one)."""
    parser.add_argument(
        "--engine",
        default="logic",
        help=f"which program answers: {', '.join(engine_names())} (default: logic)",
    )
    add_program_argument(parser)


def add_program_argument(parser: argparse.ArgumentParser) -> None:
    """`--program FILE`: a student's Prolog program as the `prolog` engine, contained."""
    parser.add_argument(
        "--program", metavar="FILE",
        help="with --engine prolog: a student's Prolog program (the lab's predicates), run "
        "contained as grade runs it",
    )


def add_objective_options(parser: argparse.ArgumentParser, scoring: str = "lab") -> None:
    """`--mode` and `--scoring`: what the agent plays for (logic/objective.py)."""
    parser.add_argument(
        "--mode",
        default="win",
        help=f"{' or '.join(MODES)}: win is the lab's unbeatable agent, lose plays for the "
        "worst outcome (default: win)",
    )
    parser.add_argument(
        "--scoring",
        default=scoring,
        help=f"{' or '.join(SCORINGS)}: lab values are -1/0/1; depth makes a win in d plies "
        f"worth 10-d and a loss -(10-d) (default: {scoring})",
    )


def objective_from(args: argparse.Namespace) -> Objective:
    """The objective the options name."""
    return Objective(args.mode, args.scoring)


def add_engine_options(parser: argparse.ArgumentParser, scoring: str = "lab") -> None:
    """`--engine`, the objective's options, `--search` and `--depth`: the options of every
    command that asks an engine."""
    add_engine_argument(parser)
    add_objective_options(parser, scoring)
    parser.add_argument(
        "--search",
        choices=SEARCHES,
        help="answer by a search of the reference engine: minimax (plain, every node each "
        "time), memo (minimax that remembers each state's value) or alphabeta (prunes); all "
        "decide as the lab does (default: the engine's own answers)",
    )
    parser.add_argument(
        "--depth",
        type=plies,
        metavar="N",
        help="search N plies below the position, scoring the states there by open lines "
        "(reference engine; default: to the end of the game)",
    )


def engine_from(args: argparse.Namespace) -> Engine:
    """The engine the options name, playing for the objective they name.
    `--search` or `--depth` ask for a search of the reference engine (`logic.engines.search`)."""
    objective = objective_from(args)
    search, depth = getattr(args, "search", None), getattr(args, "depth", None)
    if search is None and depth is None:
        return make_engine(args.engine, objective, getattr(args, "program", None))
    if args.engine != "reference":
        asked = [f"--search {search}"] * bool(search) + [f"--depth {depth}"] * bool(depth)
        raise UsageError(f"{' '.join(asked)}: only the reference engine searches that way; "
                         "add --engine reference")
    return SearchEngine(objective, search or "memo", depth)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status. Alone on a terminal, the `repl`."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv and sys.stdin.isatty():
        argv = ["repl"]
    try:
        named = argv[0] if argv and argv[0] in COMMANDS else None
        args = build_parser(named).parse_args(argv)
        status = args.run(args)
        sys.stdout.flush()
        return status
    except LabError as error:
        say(f"{PROG}: error: {error}")
        return error.exit_status
    except KeyboardInterrupt as interrupt:
        say(f"{PROG}: {interrupts.interrupted(interrupt)}")
        return interrupts.exit_status(interrupt)
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_OK
    except OSError as error:
        say(f"{PROG}: error: cannot write the output: {error.strerror or error}")
        return EXIT_USAGE

