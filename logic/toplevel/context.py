"""What a goal is answered with, shared by the solver and the built-ins: the engine, a student's
program, the session's commands, where output goes, the bound on work, the tracer; and where a
cut prunes to, and what the built-ins ask of the solver."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Protocol

from minimax_lab.logic.engines import Engine
from minimax_lab.logic.toplevel.prolog_terms import Substitution, Term
from minimax_lab.logic.toplevel.stepper import Stepper

MAX_STEPS = 5_000_000
"""The most calls one goal may make, as SWI-Prolog's inference limits count them: a goal that
would run on without end stops with an error, the session going on."""


class Program(Protocol):
    """A student's program, loaded and contained (`logic/toplevel/consulted.py`)."""

    def defines(self, name: str, arity: int) -> bool:
        """True for a predicate the program defines, or takes from the lab's helper file."""
        ...

    def ask(self, goal: Term, substitution: Substitution,
            out: Callable[[str], None]) -> Iterator[Substitution]:
        """The program's answers to `goal`."""
        ...

    def step(self, goal: Term, substitution: Substitution, stepper: Stepper, depth: int
             ) -> Iterator[Substitution]:
        """The program's answers to `goal`, its calls below `depth` stepped by `stepper`."""
        ...


class Commands(Protocol):
    """What SWI-Prolog's own `help.`, `listing(P).`, `trace.`, `[file].`, `make.` and the spy
    points' built-ins do, as the top level's matching commands do it."""

    def help(self, topic: Term | None) -> None: ...

    def listing(self, spec: Term | None) -> None: ...

    def trace(self, on: bool) -> None: ...

    def consult(self, files: list[Term]) -> None: ...

    def make(self) -> None: ...

    def spy(self, spec: Term) -> None: ...

    def nospy(self, spec: Term | None) -> None: ...

    def debug(self, on: bool) -> None: ...

    def debugging(self) -> None: ...


@dataclass
class Context:
    """What a goal is answered with: the engine for the lab's predicates, a student's program
    if one is loaded, the session's commands, where output goes."""

    engine: Engine
    out: Callable[[str], None]
    program: Program | None = None
    commands: Commands | None = None
    max_steps: int = MAX_STEPS
    stepper: Stepper | None = None
    """The tracer that steps the goal's calls, if it is traced (`stepper.py`)."""


class Cut:
    """Where a cut `!` prunes to: set when the cut is backtracked into."""

    __slots__ = ("done",)

    def __init__(self) -> None:
        self.done = False


class Solving(Protocol):
    """What a built-in asks of the solver: to count its work, to answer a goal."""

    context: Context

    def tick(self) -> None:
        """Count one step of work."""
        ...

    def solve(self, goal: Term, substitution: Substitution, cut: Cut
              ) -> Generator[Substitution, None, None]:
        """The substitutions that make `goal` true."""
        ...

    def knows(self, name: str, arity: int) -> bool:
        """True for a predicate the top level can call."""
        ...
