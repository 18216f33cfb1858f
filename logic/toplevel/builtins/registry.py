"""The one registry of the top level's built-ins: each registered once, by its family, with its
name, arity and help line. The solver calls them from `BUILTINS`; the help, `help(Name).`,
Tab completion and the check for unknown predicates read `ENTRIES`, which also holds the
control constructs that `logic/toplevel/solve.py` runs itself.

A built-in takes the solver (to call goals, and for the session), its arguments and the
substitution so far, and yields each substitution that makes it true.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from minimax_lab.logic.toplevel.context import Solving
from minimax_lab.logic.toplevel.prolog_terms import Substitution, Term

Builtin = Callable[[Solving, tuple[Term, ...], Substitution], Iterator[Substitution]]
FAMILIES = ("control", "unification and order", "arithmetic", "types", "lists",
            "atoms and strings", "terms", "output", "the session")
"""The families, in the order the help lists them."""


@dataclass(frozen=True)
class Entry:
    """A built-in or a control construct as the help shows it."""

    name: str
    arity: int
    family: str
    help: str
    """One line: how it is called, then what it does."""

    @property
    def indicator(self) -> str:
        return f"{self.name}/{self.arity}"


ENTRIES: dict[tuple[str, int], Entry] = {}
"""Every built-in and control construct the top level answers, by name and arity."""
BUILTINS: dict[tuple[str, int], Builtin] = {}
"""The built-ins the solver calls (the control constructs are `solve.CONTROL`)."""


class Family:
    """Registers the built-ins of one family: `@family(name, arity, help)` above a built-in,
    or `family(name, arity, help)(built_in)` for one a function makes."""

    def __init__(self, title: str) -> None:
        if title not in FAMILIES:
            raise ValueError(f"unknown family {title!r}; the families are {FAMILIES}")
        self.title = title

    def describe(self, name: str, arity: int, help: str) -> None:
        """Enter `name/arity` in the help, once."""
        if (name, arity) in ENTRIES:
            raise ValueError(f"{name}/{arity} is registered twice")
        ENTRIES[name, arity] = Entry(name, arity, self.title, help)

    def __call__(self, name: str, arity: int, help: str) -> Callable[[Builtin], Builtin]:
        def register(function: Builtin) -> Builtin:
            self.describe(name, arity, help)
            BUILTINS[name, arity] = function
            return function
        return register
