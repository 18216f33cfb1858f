"""The interactive top level: `?- ` goals, answers one at a time, and the `:` commands.

A session holds one engine object per engine name for its whole life, so whatever an engine
keeps between queries stays warm. On a terminal the answers come one at a time (`;` for the
next, Enter to stop); from a pipe every answer is printed, each goal echoed after `?- `, so a
piped session reads as a transcript. Errors are printed after `ERROR: ` and the session goes
on; only `:quit` (or `halt.`), end of file, SIGTERM and SIGHUP end it.
"""

from __future__ import annotations

import sys
import time
from contextlib import AbstractContextManager, closing, nullcontext
from typing import Protocol, TextIO

from logic import interrupts
from logic.commands.toplevel.answers import FALSE, Solution, ask
from logic.commands.toplevel.errors import ANSWER_ERRORS, ToplevelError, report
from logic.commands.toplevel.grammar import needs_more, parse_query, without_comment
from logic.commands.toplevel.listing import listing
from logic.commands.toplevel.predicates import PREDICATES, read_player, read_state
from logic.commands.toplevel.prolog_terms import Var, is_ground
from logic.commands.toplevel.solve import LIST_PREDICATES
from logic.commands.toplevel.terminal import (
    NEXT_KEYS,
    TerminalKeys,
    enable_line_editing,
    remember,
)
from logic.engines import Engine, EngineError, engine_names, make_engine, program_for
from logic.interrupts import Terminated
from logic.quote import escaped, quoted
from logic.state import (
    StateError,
    check_legal,
    draw_board,
    is_terminal,
    parse_position,
    parse_state,
)
from logic.tools.explain import draw_move_values
from logic.tools.trace import Tracer

TRACED = ("max_value", "min_value", "minimax_decision")
PROMPT = "?- "
CONTINUATION = "|    "
"""The prompt of a goal's next line, as SWI-Prolog shows it."""
COMMANDS = {
    ":help": "the predicates, the commands, the keys",
    ":board STATE": "draw any board, blanks showing their cell numbers",
    ":explain STATE PLAYER": "every legal move's value for PLAYER, the decision in [brackets]",
    ":engine [NAME]": f"show or switch the engine ({', '.join(engine_names())})",
    ":listing PRED": "the lab's predicate PRED in Prolog, in pyDatalog and in Python",
    ":time [GOAL]": "show how long each answer takes (again: stop showing it); with a goal, "
                    "time that goal alone",
    ":trace [N|off]": "trace the next goal's calls of max_value, min_value and terminal_state "
                      "(N levels deep; off: do not)",
    ":quit": "leave; so do end of file (Ctrl-D) and halt.",
}
COMPLETIONS = sorted([*(f"{name}(" for name in [*PREDICATES, *LIST_PREDICATES, "findall"]),
                      *(command.split()[0] + " " for command in COMMANDS)])
"""What Tab completes: a predicate with its parenthesis, a command with its space."""


def help_text() -> str:
    """What `:help` prints: each predicate with its arguments and an example, the commands."""
    lines = ["The lab's predicates; a state is [o,-,x,-,-,-,-,-,-] or o-x------ (cell 1 first):"]
    for predicate in PREDICATES.values():
        lines += [f"  {predicate.signature}", f"      {predicate.meaning}",
                  f"      ?- {predicate.example}"]
    lines += [
        "Variables start with a capital or _ (each _ is new); ',' joins goals; '.' is optional.",
        "Commands:",
        *(f"  {command:<22} {meaning}" for command, meaning in COMMANDS.items()),
        "On a terminal: ; (or space) for the next answer, Enter to stop; Ctrl-C stops a query.",
    ]
    return "\n".join(lines)


class Keys(Protocol):
    """Where the key typed after an answer comes from (`terminal.TerminalKeys` on a terminal)."""

    def answering(self) -> AbstractContextManager[None]:
        """The span over which answers are shown and keys read."""
        ...

    def read(self) -> str:
        """The next key typed."""
        ...


class Session:
    """One top-level session: its engines, the current one, whether answers are timed.
    With `keys`, it waits for a key after each answer but the last; without, it prints all."""

    def __init__(self, engine_name: str, out: TextIO, keys: Keys | None = None,
                 program: str | None = None) -> None:
        self.program = program
        self.engines: dict[str, Engine] = {engine_name: self._make(engine_name)}
        self.engine_name = engine_name
        self.out = out
        self.keys = keys
        self.timing = False
        self.line_open = False
        self.trace_next = False
        self.trace_levels: int | None = None

    def _make(self, name: str) -> Engine:
        """The engine `name`; the one that takes a program runs the session's, if it has one."""
        return make_engine(name, program=program_for(name, self.program))

    @property
    def engine(self) -> Engine:
        """The engine that answers now."""
        return self.engines[self.engine_name]

    def write(self, text: str) -> None:
        """Print a line, first ending the line an answer left open, if any."""
        if self.line_open and not text.startswith((";", ".")):
            self.out.write("\n")
        self.line_open = False
        self.out.write(text + "\n")
        self.out.flush()

    def handle(self, line: str) -> bool:
        """Answer one line (a goal or a command); False when the session should end."""
        text = line.strip()
        if not text or text.startswith("%"):
            return True
        try:
            if text.startswith(":"):
                return self.command(text)
            if text.rstrip(".").strip() == "halt":
                return False
            if self.trace_next:
                self.trace_next = False
                self.trace(text)
            self.answer(text)
        except (*ANSWER_ERRORS, EngineError) as error:
            self.write(f"ERROR: {report(error)}")
        except Terminated:
            raise
        except KeyboardInterrupt:
            self.engine.reset()
            self.write("% interrupted")
        return True

    def answer(self, text: str) -> None:
        """Print the answers to the goal `text`, waiting for a key after each if asked to."""
        if self.keys is None:
            self.show_answers(text, None)
            return
        with self.keys.answering():
            self.show_answers(text, self.keys)

    def show_answers(self, text: str, keys: Keys | None) -> None:
        """Each answer as Prolog prints it, `false.` if none; with `keys`, one at a time."""
        started = time.perf_counter()
        answered = False
        with closing(ask(text, self.engine)) as answers:
            for answer in answers:
                answered = True
                self.answered(answer)
                if self.timing:
                    self.write(f"% {answer.seconds:.3f} s")
                if answer.last or keys is None:
                    self.write(answer.line)
                    continue
                self.out.write(answer.text + " ")
                self.out.flush()
                self.line_open = True
                if keys.read() not in NEXT_KEYS:
                    self.write(".")
                    return
                self.write(";")
        if not answered:
            if self.timing:
                self.write(f"% {time.perf_counter() - started:.3f} s")
            self.write(FALSE)

    def answered(self, answer: Solution) -> None:
        """Hears of each answer before it is shown (a notebook's session tabulates them)."""

    def command(self, text: str) -> bool:
        """Run a `:` command; False for `:quit`."""
        name, _, rest = text.partition(" ")
        rest = rest.strip()
        if name == ":quit":
            return False
        if name == ":help":
            self.write(help_text())
        elif name == ":board":
            state = parse_state(self.needs(rest, ":board STATE, e.g. :board o-x------"))
            self.write(draw_board(state))
            try:
                check_legal(state)
            except StateError as error:
                self.write(f"% no game reaches this board: {str(error).split(': ', 1)[-1]}")
        elif name == ":explain":
            self.explain(rest)
        elif name == ":engine":
            if rest and rest not in self.engines:
                self.engines[rest] = self._make(rest)
            self.engine_name = rest or self.engine_name
            self.write(f"% engine: {self.engine_name}")
        elif name == ":listing":
            self.write(listing(self.needs(rest, ":listing PRED, e.g. :listing max_value")))
        elif name == ":trace":
            self.set_trace(rest)
        elif name == ":time" and rest:  # `:time GOAL`: that goal alone, timed
            timing, self.timing = self.timing, True
            try:
                self.handle(rest)
            finally:
                self.timing = timing
        elif name == ":time":
            self.timing = not self.timing
            self.write(f"% timing {'on' if self.timing else 'off'}")
        else:
            raise ToplevelError(
                f"unknown command {name}; the commands are "
                + ", ".join(command.split()[0] for command in COMMANDS)
            )
        return True

    def explain(self, rest: str) -> None:
        """`:explain STATE PLAYER`: the value of each legal move on the board, and the decision."""
        usage = ":explain STATE PLAYER, e.g. :explain o-x------ o"
        state_text, _, player_text = self.needs(rest, usage).rpartition(" ")
        state, player = parse_position(self.needs(state_text, usage), player_text)
        if is_terminal(state):
            self.write(draw_board(state))
            self.write(f"% {state} is over: there is no move to explain")
            return
        values = self.engine.move_values(state, player)
        decision = self.engine.minimax_decision(state, player)
        assert decision is not None
        self.write(draw_move_values(state, values, decision.action.cell))
        self.write(str(decision))

    def set_trace(self, rest: str) -> None:
        """`:trace` (the next goal), `:trace N` (N levels of calls), `:trace off`."""
        if rest == "off":
            self.trace_next = False
            self.write("% the next goal is not traced")
            return
        if rest and not (rest.isdigit() and 0 < len(rest) <= 3 and int(rest) > 0):
            raise ToplevelError(f"usage: :trace, :trace N (levels of calls shown, 1 to 999) "
                                f"or :trace off, not {quoted(rest)}")
        self.trace_next = True
        self.trace_levels = int(rest) if rest else None
        levels = f", {rest} level{'s' * (rest != '1')} of calls" if rest else ""
        self.write(f"% the next goal is traced{levels}")

    def trace(self, text: str) -> None:
        """The lab's recursion for a goal of `max_value`, `min_value` or `minimax_decision`
        on a given state and player (`logic/tools/trace.py`), before its answers."""
        query = parse_query(text)
        goal = query.goals[0]
        if len(query.goals) != 1 or goal.name not in TRACED or len(goal.args) < 2 or isinstance(
                goal.args[1], Var) or not is_ground(goal.args[0]):
            self.write("% :trace follows max_value, min_value or minimax_decision alone, its "
                       "state and player given; this goal is answered untraced")
            return
        state = read_state(goal.args[0], goal.name, "State")
        player = read_player(goal.args[1])
        own = self.engine.tracing == "proof"
        tracer = Tracer(self.engine.objective, self.trace_levels,
                        engine=self.engine if own else None)
        getattr(tracer, goal.name)(state, player)
        for line in tracer.text(":trace N shows N levels; minimax-lab trace STATE PLAYER "
                                "--max-calls N shows more calls"):
            self.write(line)
        if self.engine.tracing == "prolog":
            self.write(f"% the trace follows the lab's recursion in the reference; the "
                       f"answers below are the {self.engine_name} engine's (minimax-lab trace "
                       "--engine prolog shows SWI-Prolog's own tracer)")

    @staticmethod
    def needs(argument: str, usage: str) -> str:
        """`argument`, or an error showing the command's usage if it is missing."""
        if not argument:
            raise ToplevelError(f"usage: {usage}")
        return argument


def run(engine_name: str, stdin: TextIO | None = None, stdout: TextIO | None = None,
        program: str | None = None) -> None:
    """The top level over `stdin` (a terminal or not) until `:quit`, `halt.` or end of file."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    interactive = stdin.isatty()
    session = Session(engine_name, stdout, TerminalKeys() if interactive else None, program)
    if interactive:
        enable_line_editing(COMPLETIONS, {":engine": [f"{name} " for name in engine_names()],
                                          ":listing": [*PREDICATES]})
        session.write(
            f"minimax-lab: the lab's predicates in Prolog, answered by the {engine_name} "
            "engine. :help for help, :quit to leave."
        )
    converse(session, stdin, interactive)


def converse(session: Session, stdin: TextIO, interactive: bool, wake: bool = True) -> None:
    """Answer the goals and commands read from `stdin` until `:quit`, `halt.` or end of file;
    a goal may span lines. Off a terminal each goal is echoed after the prompt. With `wake`,
    a blocked read is woken now and then so that a signal is acted on."""
    pending: list[str] = []
    typed: list[str] = []  # the lines of the goal being typed, kept in the history as one
    while True:
        try:
            with interrupts.waking_reads() if wake else nullcontext():
                if interactive:
                    line = input(CONTINUATION if pending else PROMPT)
                    typed.append(line.strip())
                else:
                    line = stdin.readline()
                    if not line:
                        if pending:
                            session.handle(" ".join(pending))
                        return
            text = without_comment(line).strip()
            if pending and text.startswith(":"):  # a command ends an unfinished goal
                session.handle(" ".join(pending))
                pending = []
            if not interactive and line.strip() and (pending or text):
                shown = line.strip()
                if not pending and shown.startswith("?-"):
                    shown = shown[2:].lstrip()
                session.write((CONTINUATION if pending else PROMPT) + escaped(shown))
            if text.startswith(":") or not (pending or text):
                remember(" ".join(typed))
                typed = []
                if not session.handle(text):
                    return
                continue
            pending.append(text)
            if needs_more(" ".join(pending)):
                continue
            remember(" ".join(typed))
            typed = []
            goal, pending = " ".join(pending), []
            if not session.handle(goal):
                return
        except EOFError:
            if pending:
                session.write("")
                session.handle(" ".join(pending))
            session.write("")
            return
        except Terminated:
            raise
        except KeyboardInterrupt:
            pending, typed = [], []
            session.write("")
