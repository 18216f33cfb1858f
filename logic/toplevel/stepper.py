"""The tracer that steps, in SWI-Prolog's model: each call a box with four ports (`Call`,
`Exit`, `Redo`, `Fail`), printed one at a time with the call's depth and the goal; at each
port the tracer waits for a command (creep, skip, leap, retry, fail, abort, help) and the
solver does what it says (`solve.Solver.frame`). Spy points (`spy/1`) stop a leap; off a
terminal the ports of spied predicates are printed, nobody being asked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from minimax_lab.logic.toplevel.errors import ToplevelError
from minimax_lab.logic.toplevel.operators import is_operator
from minimax_lab.logic.toplevel.prolog_terms import (
    Atom,
    Int,
    Struct,
    Substitution,
    Term,
    Var,
    format_term,
    resolve,
    variables_of,
)

PORTS = ("call", "exit", "redo", "fail")
"""The four ports of a call's box, as SWI-Prolog names them."""
MAX_PRINTED = 200
"""The most ports printed for one goal where nobody is asked (a pipe); after them, the lab's
predicates are answered by the engine, and a line says that more were not shown."""


@dataclass(frozen=True)
class Option:
    """A command at a port: its keys, its word (echoed after the port), what it does."""

    keys: str
    word: str
    meaning: str


OPTIONS = (
    Option("c\n\r ", "creep", "go on to the next port"),
    Option("s", "skip", "run this call to its exit or fail without showing what is below it"),
    Option("l", "leap", "run on to the next port of a spy point (to the end if there is none)"),
    Option("r", "retry", "go back to this call's Call port, undoing what it did"),
    Option("f", "fail", "make this call fail now"),
    Option("a", "abort", "stop the goal and go back to the ?- prompt"),
    Option("n", "nodebug", "run on to the end, tracing nothing"),
    Option("h?", "help", "this list"),
)
"""The commands at a port, as SWI-Prolog's tracer has them (Enter creeps)."""
UNKNOWN = "Unknown option (h for help)"


def option_for(key: str) -> Option | None:
    """The command `key` asks for, or None."""
    return next((option for option in OPTIONS if key and key in option.keys), None)


def help_lines() -> list[str]:
    """What `h` prints at a port."""
    keys = {"c\n\r ": "c (Enter)", "h?": "h, ?"}
    return [f"    {keys.get(option.keys, option.keys):<10} {option.word:<8} {option.meaning}"
            for option in OPTIONS]


class Aborted(Exception):  # noqa: N818 - it is SWI-Prolog's abort, not an error
    """The user typed `a` at a port: the goal stops, the session goes on."""


Spec = tuple[str, int | None]
"""A spy point: a predicate's name, and its arity (None: every arity)."""


@dataclass
class SpyPoints:
    """The session's spy points and whether debug mode is on (`spy/1` turns it on,
    `nodebug/0` off, as in SWI-Prolog)."""

    specs: set[Spec] = field(default_factory=set)
    debugging: bool = False

    def spied(self, name: str, arity: int) -> bool:
        return (name, arity) in self.specs or (name, None) in self.specs

    def active(self) -> bool:
        """True when a goal should run in debug mode, leaping to its spy points."""
        return self.debugging and bool(self.specs)

    def written(self) -> list[str]:
        """The spy points as SWI-Prolog reads them (`Name/Arity`, or `Name`), for the tracer
        that steps a student's program (`logic/prolog/stepping.pl`)."""
        return [format_term(Atom(name)) + ("" if arity is None else f"/{arity}")
                for name, arity in sorted(self.specs, key=str)]


def indicator(spec: Spec) -> str:
    return spec[0] if spec[1] is None else f"{spec[0]}/{spec[1]}"


class Stepper:
    """One goal's tracer: the mode it runs in (creep, skip to a depth, leap, off) and the spy
    points. `read` gives the key typed at a port ("" at end of input); without it, the ports
    of spied predicates are printed and nothing is asked. `write` prints a port's text."""

    def __init__(self, write: Callable[[str], None], spies: SpyPoints,
                 read: Callable[[], str] | None, mode: str = "creep",
                 output: Callable[[str], None] | None = None) -> None:
        self.write = write
        self.output = output or write
        """Where what the goal writes goes, at once, between its ports."""
        self.spies = spies
        self.read = read
        self.mode = mode if read is not None else "leap"
        self.skip_depth = 0
        self.printed = 0
        self.hidden = 0
        self.names: dict[Var, str] = {}
        """The names of the goal's unnamed variables, `_G1` on, in the order they are shown."""

    def name_of(self, variable: Var) -> str:
        """The name `variable` is shown by: its own, the `_G` one it was shown by, or `_`
        (not shown yet)."""
        return variable.name if not variable.is_anonymous else self.names.get(variable, "_")

    def looks_inside(self, depth: int) -> bool:
        """True if a port below a call at `depth` may be shown: the lab's predicates are then
        run by their clauses, call by call, rather than answered by the engine at once."""
        if self.mode == "creep":
            return True
        if self.read is None and self.printed >= MAX_PRINTED:
            return False  # nothing more will be shown: let the engine answer the rest
        return self.mode == "leap" and bool(self.spies.specs)

    def port(self, port: str, depth: int, goal: Term, substitution: Substitution,
             name: str, arity: int) -> str:
        """Show the port if the mode says so and return the command: "creep" (go on), "skip",
        "retry" or "fail"; `Aborted` for abort."""
        spied = self.spies.spied(name, arity)
        if self.mode == "off":
            return "creep"
        if self.mode == "skip":
            if depth > self.skip_depth:
                return "creep"
            self.mode = "creep"
        if self.mode == "leap" and not spied:
            return "creep"
        mark = "*" if spied else " "
        line = f" {mark} {port.capitalize()}: ({depth}) {shown(goal, substitution, self.names)}"
        if self.read is None:
            if self.printed < MAX_PRINTED:
                self.printed += 1
                self.write(line + "\n")
            else:
                self.hidden += 1
            return "creep"
        self.mode = "creep"
        return self.ask(line, port, depth)

    def choose(self, line: str) -> str:
        """Wait at the port `line` for a command (help and unknown keys asked again) and
        return its word; `Aborted` for abort, nodebug and leap setting the mode."""
        assert self.read is not None
        while True:
            self.write(line + " ? ")
            key = self.read()
            option = option_for(key) if key else Option("", "abort", "")
            if option is None:
                self.write(f"\n{UNKNOWN}\n")
                continue
            self.write(option.word + "\n")
            if option.word == "help":
                self.write("\n".join(help_lines()) + "\n")
                continue
            if option.word == "abort":
                raise Aborted
            if option.word == "nodebug":
                self.mode = "off"
            if option.word == "leap":
                self.mode = "leap"
            return option.word

    def ask(self, line: str, port: str, depth: int) -> str:
        """Wait at the port for a command and do it."""
        word = self.choose(line)
        if word == "skip" and port in ("call", "redo"):
            self.mode, self.skip_depth = "skip", depth
        return word if word in ("retry", "fail") else "creep"

    def summary(self) -> str | None:
        """A line on the ports not printed, if any."""
        if not self.hidden:
            return None
        return (f"% the ports of spy points after the first {MAX_PRINTED} are not shown; on a "
                "terminal the tracer stops at each")


def shown(goal: Term, substitution: Substitution, names: dict[Var, str]) -> str:
    """The goal as the tracer shows it, its arguments apart: `max_value([x,-,o],x,SV)` is
    `max_value([x,-,o], x, SV)`, as the printed trace and SWI-Prolog's tracer write it; an
    unnamed variable gets the next of `names` the first time it is shown."""
    goal = resolve(goal, substitution)
    for variable in variables_of(goal):
        if variable.is_anonymous and variable not in names:
            names[variable] = f"_G{len(names) + 1}"
    if isinstance(goal, Struct) and not is_operator(goal.name):
        args = ", ".join(format_term(arg, names, priority=999) for arg in goal.args)
        return f"{format_term(Atom(goal.name))}({args})"
    return format_term(goal, names)


def parse_spec(term: Term) -> Spec:
    """The spy point `Name` or `Name/Arity` names; an error for anything else."""
    if isinstance(term, Atom):
        return term.name, None
    if (isinstance(term, Struct) and term.name == "/" and len(term.args) == 2
            and isinstance(term.args[0], Atom) and isinstance(term.args[1], Int)
            and 0 <= term.args[1].value <= 8):
        return term.args[0].name, term.args[1].value
    raise ToplevelError(f"a spy point is Name or Name/Arity (max_value/3), not "
                        f"{format_term(term)}")
