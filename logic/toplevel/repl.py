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
from pathlib import Path
from typing import Protocol, TextIO

from minimax_lab.logic import interrupts, reference
from minimax_lab.logic.engines import Engine, EngineError, engine_names, make_engine
from minimax_lab.logic.errors import EXIT_FALSE, EXIT_OK, EXIT_USAGE, PROG
from minimax_lab.logic.interrupts import Terminated
from minimax_lab.logic.predicates import lab_predicates
from minimax_lab.logic.quote import escaped, quoted
from minimax_lab.logic.state import (
    StateError,
    check_legal,
    draw_board,
    is_terminal,
    parse_position,
    parse_state,
)
from minimax_lab.logic.tools.explain import draw_move_values
from minimax_lab.logic.tools.prolog_trace import trace_program
from minimax_lab.logic.tools.trace import MAX_CALLS, Tracer
from minimax_lab.logic.toplevel.answers import FALSE, MAX_SHOWN, MORE, Solution, ask
from minimax_lab.logic.toplevel.builtins import ENTRIES
from minimax_lab.logic.toplevel.builtins.session import session_words_only
from minimax_lab.logic.toplevel.consulted import Consulted
from minimax_lab.logic.toplevel.errors import ANSWER_ERRORS, Halt, ToplevelError, report
from minimax_lab.logic.toplevel.grammar import needs_more, parse_query, without_comment
from minimax_lab.logic.toplevel.help import (
    argument_completions,
    completions,
    help_on_builtin,
    wrapped,
)
from minimax_lab.logic.toplevel.help import help_text as _help_text
from minimax_lab.logic.toplevel.listing import LAB_PROGRAM, lab_listing, listing
from minimax_lab.logic.toplevel.predicates import PREDICATES, board_of, player_of
from minimax_lab.logic.toplevel.prolog_terms import (
    Atom,
    Int,
    ListTerm,
    String,
    Struct,
    Term,
    format_term,
)
from minimax_lab.logic.toplevel.session_commands import CommandTable
from minimax_lab.logic.toplevel.solve import ARITIES, is_known
from minimax_lab.logic.toplevel.stepper import (
    Aborted,
    SpyPoints,
    Stepper,
    indicator,
    parse_spec,
)
from minimax_lab.logic.toplevel.terminal import (
    NEXT_KEYS,
    TerminalKeys,
    enable_line_editing,
    remember,
)

TRACED = lab_predicates(traced=True)
BOTH_LINES_NOTE = ("% both players hold a line: terminal_state answers 1, then -1, as the lab's\n"
                   "% published solution does; max_value and min_value answer once, with 1,\n"
                   "% lab.pl's cut keeping the first (docs/lab.md says why)")
"""What `:board` says of a board where both players hold a line."""
PROMPT = "?- "
CONTINUATION = "|    "
"""The prompt of a goal's next line, as SWI-Prolog shows it."""
COMMANDS: CommandTable[Session] = CommandTable()
"""The `:` commands, each registered above its handler in `Session`."""


def help_text() -> str:
    """What `:help` prints (`help.help_text`)."""
    return _help_text(COMMANDS)


class Keys(Protocol):
    """Where the key typed after an answer comes from (`terminal.TerminalKeys` on a terminal)."""

    def answering(self) -> AbstractContextManager[None]:
        """The span over which answers are shown and keys read."""
        ...

    def read(self) -> str:
        """The next key typed."""
        ...


class Session:
    """One top-level session: its engines, the current one, a student's program if one is
    loaded, whether answers are timed. With `keys`, it waits for a key after each answer but
    the last; without, it prints all. It does what SWI-Prolog's `help.`, `listing/1`,
    `trace.`, `[file].` and `make.` ask (`logic.toplevel.context.Commands`)."""

    trace_more = ":trace N shows N levels; minimax-lab trace STATE PLAYER --max-calls N shows " \
                 "more calls"
    """How to see more of a trace, in the words of the place it is asked from."""

    def __init__(self, engine_name: str, out: TextIO, keys: Keys | None = None,
                 program: str | None = None) -> None:
        self.engines: dict[str, Engine] = {engine_name: make_engine(engine_name)}
        self.engine_name = engine_name
        self.out = out
        self.keys = keys
        self.timing = False
        self.line_open = False
        self.trace_next = False
        self.trace_levels: int | None = None
        self.spies = SpyPoints()
        self.program: Consulted | None = None
        if program is not None:
            self.program = Consulted(program)

    @property
    def engine(self) -> Engine:
        """The engine that answers now."""
        return self.engines[self.engine_name]

    def close(self) -> None:
        """Stop the loaded program, if any, and let go of the engines."""
        if self.program is not None:
            self.program.close()
            self.program = None
        for engine in self.engines.values():
            engine.close()

    def write(self, text: str) -> None:
        """Print a line, first ending the line an answer left open, if any."""
        if self.line_open and not text.startswith((";", ".")):
            self.out.write("\n")
        self.line_open = False
        self.out.write(text + "\n")
        self.out.flush()

    def write_output(self, text: str) -> None:
        """What a goal wrote (write/1, format/2), escaped, its last line ended."""
        if text:
            self.write(escaped(text[:-1] if text.endswith("\n") else text))

    def handle(self, line: str) -> bool:
        """Answer one line (a goal or a command); False when the session should end."""
        text = line.strip()
        if not text or text.startswith("%") or text == ".":
            return True  # a lone '.' ends a goal already answered, as Prolog's would
        try:
            if text.startswith(":"):
                return self.command(text)
            stepper = None
            if self.trace_next:
                self.trace_next = False
                if self.keys is not None and self.trace_levels is None:
                    stepper = self.stepper("creep")
                else:
                    self.trace_goal(text)
            if stepper is None and self.leaps(text):
                stepper = self.stepper("leap")
            try:
                self.answer(text, stepper)
            finally:
                if stepper is not None and stepper.summary():
                    self.write(str(stepper.summary()))
        except Halt:
            return False
        except Aborted:
            self.write("% Execution Aborted")
        except (*ANSWER_ERRORS, EngineError) as error:
            self.write(f"ERROR: {report(error)}")
        except Terminated:
            raise
        except KeyboardInterrupt:
            self.engine.reset()
            self.write("% interrupted")
        return True

    def stepper(self, mode: str) -> Stepper:
        """The tracer for one goal: stepping on a terminal, printing spied ports off one."""
        return Stepper(self.write_port, self.spies,
                       None if self.keys is None else self.keys.read, mode,
                       lambda text: self.write_port(escaped(text), ended=False))

    def write_port(self, text: str, ended: bool = True) -> None:
        """A port's line, or its prompt (left open for the command typed); with `ended`
        False, what a stepped goal writes, a line it leaves open ended before what follows."""
        if self.line_open and ended:
            self.out.write("\n")
        self.out.write(text)
        self.out.flush()
        self.line_open = not ended and bool(text) and not text.endswith("\n")

    def answer(self, text: str, stepper: Stepper | None = None) -> None:
        """Print the answers to the goal `text`, waiting for a key after each if asked to;
        with `stepper`, its calls are traced."""
        if self.keys is None:
            self.show_answers(text, None, stepper)
            return
        with self.keys.answering():
            self.show_answers(text, self.keys, stepper)

    def show_answers(self, text: str, keys: Keys | None, stepper: Stepper | None = None
                     ) -> None:
        """Each answer as Prolog prints it, `false.` if none; with `keys`, one at a time."""
        started = time.perf_counter()
        answered = False
        shown = 0
        with closing(ask(text, self.engine, self.program, self, stepper=stepper)) as answers:
            for answer in answers:
                self.write_output(answer.output)
                if answer.kind == "output":
                    continue
                if answer.kind == "false":
                    self.write(FALSE)
                    answered = True
                    continue
                if keys is None and shown == MAX_SHOWN:
                    self.write(MORE)
                    return
                shown += 1
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

    # --- SWI-Prolog's own words: help., listing/1, trace., [file]., make. ----------------------

    def help(self, topic: Term | None) -> None:
        """`help.` is `:help`; `help(Name)` the predicate's line of it."""
        if topic is None:
            self.write(help_text())
            return
        name = _name_of(topic)
        if name in PREDICATES:
            predicate = PREDICATES[name]
            self.write("\n".join([predicate.signature, *wrapped(predicate.meaning, "    "),
                                  f"    ?- {predicate.example}"]))
        elif name is not None and any(key[0] == name for key in ENTRIES):
            self.write("\n".join([
                f"% {name} is SWI-Prolog's built-in, answered as SWI-Prolog answers it "
                "(docs/query.md lists the built-ins the top level answers)",
                *(f"%   {line}" for line in help_on_builtin(name))]))
        else:
            raise ToplevelError(f"no help on {format_term(topic)}; :help lists the "
                                "predicates and built-ins")

    def listing(self, spec: Term | None) -> None:
        """`listing(Name)` is `:listing Name`; a predicate of the loaded program is listed as
        its file writes it, as SWI-Prolog lists the predicates a file defines. `listing.`
        lists the loaded program, or with none the lab's, as SWI-Prolog running it does."""
        if spec is None:
            if self.program is None:
                self.write(f"% {LAB_PROGRAM}:\n{lab_listing()}")
                return
            names = sorted({name for name, _ in self.program.own})
            self.write("\n\n".join(self.program.listing(name) for name in names))
            return
        name = _name_of(spec)
        if name is None:
            raise ToplevelError(f"listing/1 takes a name or Name/Arity, not {format_term(spec)}")
        if self.program is not None and any(own == name for own, _ in self.program.own):
            self.write(f"% {self.program.name}:\n{self.program.listing(name)}")
            return
        arity = spec.args[1] if isinstance(spec, Struct) and spec.name == "/" else None
        self.write(listing(name if not isinstance(arity, Int) else f"{name}/{arity.value}"))

    def knows(self, name: str, arity: int | None) -> bool:
        """True if a goal can call `name/arity` (any arity, for None): a spy point may name it."""
        return is_known(name, arity, self.program)

    def leaps(self, goal: str) -> bool:
        """True when `goal` runs in debug mode, leaping to the spy points: debug mode is on
        with spy points, and the goal calls more than the session's own words."""
        return self.spies.active() and not session_words_only(goal)

    def stops_at_ports(self) -> bool:
        """Whether a stepped goal waits for a key at each port (on a terminal), or its ports
        are printed at once."""
        return self.keys is not None

    def trace(self, on: bool) -> None:
        """`trace.` is `:trace`, `notrace.` `:trace off`."""
        self.set_trace("" if on else "off")

    def spy(self, spec: Term) -> None:
        """`spy(Name/Arity)`: a spy point, and debug mode on, as in SWI-Prolog."""
        point = parse_spec(spec)
        if not self.knows(*point):
            raise ToplevelError(f"spy/1: no predicate {indicator(point)} (:help lists them)")
        self.spies.specs.add(point)
        self.spies.debugging = True
        how = "the tracer stops at its ports" if self.stops_at_ports() else "its ports are printed"
        self.write(f"% Spy point on {indicator(point)}: in debug mode, {how}")

    def nospy(self, spec: Term | None) -> None:
        """`nospy(Name/Arity)` removes a spy point; `nospyall` (None) removes them all."""
        if spec is None:
            self.spies.specs.clear()
            self.write("% All spy points removed")
            return
        point = parse_spec(spec)
        removed = {known for known in self.spies.specs if known[0] == point[0]
                   and point[1] in (None, known[1])}
        if point[1] is not None and (point[0], None) in self.spies.specs:  # spy(Name): each arity
            self.spies.specs.remove((point[0], None))
            self.spies.specs |= {(point[0], arity) for arity in ARITIES
                                 if arity != point[1] and self.knows(point[0], arity)}
            removed.add(point)
        if not removed:
            self.write(f"% no spy point on {indicator(point)}")
            return
        self.spies.specs -= removed
        for known in sorted(removed, key=indicator):
            self.write(f"% Spy point removed from {indicator(known)}")

    def debug(self, on: bool) -> None:
        """`debug.` turns debug mode on (spy points act), `nodebug.` off (and the next goal
        is not traced)."""
        if not on:
            self.trace(False)
            if self.spies.debugging and self.spies.specs:
                self.write("% debug mode off: the spy points are kept, not acted on "
                           "(debug. or spy/1 turns it on)")
            self.spies.debugging = False
            return
        self.spies.debugging = True
        self.write("% debug mode on" + ("" if self.spies.specs else
                                        ": no spy points (spy(Name/Arity) sets one)"))

    def debugging(self) -> None:
        """`debugging.`: the mode and the spy points."""
        mode = "on" if self.spies.debugging else "off"
        points = ", ".join(sorted(indicator(spec) for spec in self.spies.specs)) or "none"
        self.write(f"% debug mode {mode}; spy points: {points}")

    def consult(self, files: list[Term]) -> None:
        """`[file].`, `consult(file).`: load the student's file, contained as grade loads a
        submission; its predicates answer from now on, before the lab's."""
        if len(files) != 1:
            raise ToplevelError("load one file at a time: the top level, like the grader, "
                                "loads one main file (which loads minimax_helper itself)")
        name = _name_of(files[0]) if not isinstance(files[0], String) else files[0].text
        if not name:
            raise ToplevelError(f"consult/1 takes a file name, not {format_term(files[0])}")
        path = Path(name)
        if not path.suffix and not path.exists() and path.with_suffix(".pl").exists():
            path = path.with_suffix(".pl")
        if not path.exists():
            raise ToplevelError(f"no file {quoted(str(path))} (in {Path.cwd()}); "
                                f"[{name}] loads {name}.pl from the folder the top level "
                                "runs in")
        self.load(str(path))

    def make(self) -> None:
        """`make.`: load the program again, as its file now is."""
        if self.program is None:
            self.write("% no file is loaded ([file]. loads one)")
            return
        self.load(self.program.path)

    def load(self, path: str) -> None:
        loaded = Consulted(path)
        if self.program is not None:
            self.program.close()
        self.program = loaded
        own = ", ".join(f"{name}/{arity}" for name, arity in sorted(loaded.own)) or "nothing"
        self.write(f"% {loaded.name} loaded, contained as grade loads a submission (a copy, in "
                   f"SWI-Prolog's sandbox): it defines {own}; its predicates answer before "
                   "the lab's")
        for message in loaded.messages:
            self.write("\n".join(f"% {line}" for line in message.splitlines()))

    # --- the commands ------------------------------------------------------------------------

    def command(self, text: str) -> bool:
        """Run a `:` command; False for `:quit`."""
        name, _, rest = text.partition(" ")
        command = COMMANDS.get(name)
        if command is None:
            raise ToplevelError(f"unknown command {name}; the commands are "
                                + ", ".join(command.name for command in COMMANDS))
        return command.run(self, rest.strip()) is not False

    @COMMANDS(":help", "", "the predicates, the built-ins, the commands, the keys (SWI-Prolog's "
              "help. too)")
    def help_command(self, rest: str) -> None:
        self.write(help_text())

    @COMMANDS(":board", "STATE", "draw any board, blanks showing their cell numbers")
    def board(self, rest: str) -> None:
        state = parse_state(self.needs(rest, ":board STATE, e.g. :board o-x------"))
        self.write(draw_board(state))
        try:
            check_legal(state)
        except StateError as error:
            self.write(f"% no game reaches this board: {str(error).split(': ', 1)[-1]}")
        if len(reference.terminal_values(state, "x")) > 1:
            self.write(BOTH_LINES_NOTE)

    @COMMANDS(":explain", "STATE PLAYER", "every legal move's value for PLAYER, the decision in "
              "[brackets]")
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

    @COMMANDS(":engine", "[NAME]", f"show or switch the engine ({', '.join(engine_names())})",
              lambda: [f"{name} " for name in engine_names()])
    def engine_command(self, rest: str) -> None:
        if rest and rest not in self.engines:
            self.engines[rest] = make_engine(rest)
        self.engine_name = rest or self.engine_name
        self.write(f"% engine: {self.engine_name}")

    @COMMANDS(":listing", "PRED", "the lab's predicate PRED in Prolog, in pyDatalog and in Python "
              "(listing(PRED). too)", lambda: [*PREDICATES])
    def listing_command(self, rest: str) -> None:
        self.write(listing(self.needs(rest, ":listing PRED, e.g. :listing max_value")))

    @COMMANDS(":time", "[GOAL]", "show how long each answer takes (again: stop showing it); with "
              "a goal, time that goal alone")
    def time_command(self, rest: str) -> bool:
        if rest:  # `:time GOAL`: that goal alone, timed
            timing, self.timing = self.timing, True
            try:
                return self.handle(rest)
            finally:
                self.timing = timing
        self.timing = not self.timing
        self.write(f"% timing {'on' if self.timing else 'off'}")
        return True

    @COMMANDS(":trace", "[N|off]", "step through the next goal, port by port (off a terminal, "
              "or N levels deep: print its calls of max_value, min_value and terminal_state; "
              "off: do not); trace. too")
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

    def trace_goal(self, text: str) -> None:
        """The recursion below a goal of `max_value`, `min_value` or `minimax_decision` on a
        given state and player, before its answers: the lab's (`logic/tools/trace.py`), or
        SWI-Prolog's tracer on the loaded program's own predicate."""
        query = parse_query(text)
        call = query.call_of(query.goals[0]) if len(query.goals) == 1 else None
        state = board_of(call.args[0]) if call is not None and call.args else None
        player = player_of(call.args[1]) if call is not None and len(call.args) > 1 else None
        if call is None or call.name not in TRACED or state is None or player is None:
            self.write("% :trace follows max_value, min_value or minimax_decision alone, its "
                       "state and player given; this goal is answered untraced")
            return
        if self.program is not None and self.program.defines(call.name, len(call.args)):
            traced = trace_program(self.program.path, call.name, state, player, MAX_CALLS)
            for line in traced.lines:
                self.write(escaped(line))
            if traced.stopped:
                self.write(f"% the trace stopped {traced.stopped}")
            return
        own = self.engine.tracing == "proof"
        tracer = Tracer(self.engine.objective, self.trace_levels,
                        engine=self.engine if own else None)
        getattr(tracer, call.name)(state, player)
        for line in tracer.text(self.trace_more):
            self.write(line)
        if self.engine.tracing == "prolog":
            self.write(f"% the trace follows the lab's recursion in the reference; the "
                       f"answers below are the {self.engine_name} engine's (minimax-lab trace "
                       "--engine prolog shows SWI-Prolog's own tracer)")

    @COMMANDS(":quit", "", "leave; so do end of file (Ctrl-D) and halt.")
    def quit_command(self, rest: str) -> bool:
        return False

    @staticmethod
    def needs(argument: str, usage: str) -> str:
        """`argument`, or an error showing the command's usage if it is missing."""
        if not argument:
            raise ToplevelError(f"usage: {usage}")
        return argument


def _name_of(term: Term) -> str | None:
    """The predicate name a `help/1`, `listing/1` or `consult/1` argument gives."""
    if isinstance(term, Atom):
        return term.name
    if isinstance(term, Struct) and term.name == "/" and len(term.args) == 2 and isinstance(
            term.args[0], Atom):
        return term.args[0].name
    if isinstance(term, ListTerm):
        return None
    return None


def run(engine_name: str, stdin: TextIO | None = None, stdout: TextIO | None = None,
        program: str | None = None) -> None:
    """The top level over `stdin` (a terminal or not) until `:quit`, `halt.` or end of file."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    interactive = stdin.isatty()
    session = Session(engine_name, stdout, TerminalKeys() if interactive else None, program)
    try:
        if interactive:
            enable_line_editing(completions(COMMANDS), argument_completions(COMMANDS))
            session.write(
                f"minimax-lab: the lab's predicates in Prolog, answered by the {engine_name} "
                "engine. :help (or help.) for help, :quit (or halt.) to leave."
            )
        if session.program is not None:
            session.write(f"% {session.program.name} loaded, contained as grade loads a "
                          "submission; its predicates answer before the lab's")
        converse(session, stdin, interactive)
    finally:
        session.close()


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


def print_answers(goal: str, session: Session, out: TextIO, err: TextIO) -> int:
    """Write every answer to `goal` to `out` as `minimax-lab query` prints them (where nobody
    is asked for the next), an error to `err`; the exit status `query` gives: 0 with answers,
    1 with `false.`, 2 on an error (after any answers before it). The site answers so too."""
    answered = said_false = False
    shown = 0
    stepper = session.stepper("leap") if session.leaps(goal) else None
    try:
        for answer in ask(goal, session.engine, session.program, session, stepper=stepper):
            if answer.output:
                print(escaped(answer.output.removesuffix("\n")), file=out, flush=True)
            if answer.kind == "answer":
                if shown == MAX_SHOWN:
                    print(MORE, file=out, flush=True)
                    break
                shown += 1
                answered = True
                print(answer.line, file=out, flush=True)
            elif answer.kind == "false":
                said_false = True
                print(FALSE, file=out, flush=True)
    except Halt:
        return EXIT_OK
    except ANSWER_ERRORS as error:
        print(f"{PROG}: error: {report(error)}", file=err)
        return EXIT_USAGE
    if not answered:
        if not said_false:
            print(FALSE, file=out)
        return EXIT_FALSE
    return EXIT_OK
