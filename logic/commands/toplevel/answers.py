"""Answers as SWI-Prolog prints them: `Action = [o,4], Value = 1.`, `true.`, `false.`

An answer lists the user's named variables in the order they first appear in the goal, with
the names the user wrote; `_` is never shown. Between answers Prolog writes ` ;`, after the
last one `.`, so each answer is computed one ahead to know whether it is the last.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from logic.commands.toplevel.errors import ANSWER_ERRORS
from logic.commands.toplevel.grammar import Query, parse_query
from logic.commands.toplevel.prolog_terms import (
    Substitution,
    Var,
    format_term,
    fresh_names,
    resolve,
)
from logic.commands.toplevel.solve import solve
from logic.engines import Engine

FALSE = "false."


@dataclass(frozen=True)
class Solution:
    """One answer: its text without the final ` ;` or `.`, how long it took, whether it is last."""

    text: str
    seconds: float
    last: bool
    bindings: tuple[tuple[str, str], ...] = ()
    """Each named variable bound, with its value as Prolog prints it."""

    @property
    def line(self) -> str:
        """The answer as Prolog prints it when it does not wait: ends in ` ;` or `.`."""
        return self.text + ("." if self.last else " ;")


def format_bindings(query: Query, substitution: Substitution) -> str:
    """`X = value, Y = value` for the named variables of `query` that are bound (as SWI-Prolog
    leaves out a variable still free); `true` if none is."""
    bindings = [f"{name} = {value}" for name, value in bound_values(query, substitution)]
    return ", ".join(bindings) if bindings else "true"


def bound_values(query: Query, substitution: Substitution) -> list[tuple[str, str]]:
    """The named variables of `query` that are bound, each with its value as Prolog prints
    it, in the order they first appear in the goal."""
    bound = [(variable, value) for variable in query.variables
             if (value := resolve(variable, substitution)) != variable]
    aliases: dict[Var, str] = {}  # a goal's variable bound to a fresh one names it, as in SWI
    for variable, value in bound:
        if isinstance(value, Var) and value.is_anonymous and value not in aliases:
            aliases[value] = variable.name
    bound = [(variable, value) for variable, value in bound
             if not (isinstance(value, Var) and aliases.get(value) == variable.name)]
    names = {**fresh_names([value for _, value in bound]), **aliases}
    return [(variable.name, format_term(value, names)) for variable, value in bound]


def ask(text: str, engine: Engine) -> Iterator[Solution]:
    """Every answer to the goal `text`, in the predicates' order; errors raise as they come.
    The goal is parsed and checked before the first answer is sought."""
    query = parse_query(text)
    solutions = solve(query, engine)
    pending = _next_timed(solutions)
    while isinstance(pending, tuple):
        substitution, seconds = pending
        # an error met looking one answer ahead is raised only when the next answer is asked
        # for, as Prolog reports an error on backtracking after the answers before it
        following = _next_timed(solutions)
        yield Solution(format_bindings(query, substitution), seconds, following is None,
                       tuple(bound_values(query, substitution)))
        pending = following
    if isinstance(pending, Exception):
        raise pending


def _next_timed(
    solutions: Iterator[Substitution],
) -> tuple[Substitution, float] | Exception | None:
    """The next solution and the seconds it took; the error met instead; None at the end."""
    started = time.perf_counter()
    try:
        solution = next(solutions)
    except StopIteration:
        return None
    except ANSWER_ERRORS as error:
        return error
    return solution, time.perf_counter() - started
