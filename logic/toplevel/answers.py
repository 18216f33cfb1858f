"""Answers as SWI-Prolog prints them: `Action = [o,4], Value = 1.`, `true.`, `false.`

An answer lists the user's named variables in the order they first appear in the goal, with
the names the user wrote; `_` is never shown. Between answers Prolog writes ` ;`, after the
last one `.`, so each answer is computed one ahead to know whether it is the last.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass

from minimax_lab.logic.engines import Engine
from minimax_lab.logic.toplevel.context import MAX_STEPS, Commands, Context, Program
from minimax_lab.logic.toplevel.errors import ANSWER_ERRORS, PrologError
from minimax_lab.logic.toplevel.grammar import Query, parse_query
from minimax_lab.logic.toplevel.prolog_terms import (
    SYMBOL_CHARS,
    Atom,
    Struct,
    Substitution,
    Var,
    format_answer,
    fresh_names,
    resolve,
)
from minimax_lab.logic.toplevel.solve import solve
from minimax_lab.logic.toplevel.stepper import Stepper

FALSE = "false."
MAX_SHOWN = 100
"""Answers printed where nobody is asked for the next one (a pipe, `query`, a notebook):
a goal with more, such as `length(L, N)`, stops there with a note."""
MORE = (f"% {MAX_SHOWN} answers shown; the goal has more (a terminal asks for each in turn, "
        "; for the next)")


@dataclass(frozen=True)
class Solution:
    """One answer: its text without the final ` ;` or `.`, how long it took, whether it is last,
    and what the goal wrote (write/1, format/2) while this answer was sought, shown before it.
    An answer of `kind` "false" is the `false.` after output written looking for one more
    answer; one of kind "output" is output written before an error."""

    text: str
    seconds: float
    last: bool
    bindings: tuple[tuple[str, str], ...] = ()
    """Each named variable bound, with its value as Prolog prints it."""
    output: str = ""
    kind: str = "answer"

    @property
    def line(self) -> str:
        """The answer as Prolog prints it when it does not wait: ends in ` ;` or `.` (after
        a space where the answer ends in a symbol, which the `.` would join: `X = ? .`)."""
        if not self.last:
            return self.text + " ;"
        return self.text + (" ." if self.text[-1:] in SYMBOL_CHARS else ".")


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
    for variable, value in reversed(bound):  # the last of several such variables names it
        if isinstance(value, Var) and value.is_anonymous and value not in aliases:
            aliases[value] = variable.name
    bound = [(variable, value) for variable, value in bound
             if not (isinstance(value, Var) and aliases.get(value) == variable.name)]
    names = {**fresh_names([value for _, value in bound]), **aliases}
    return [(variable.name, format_answer(value, names)) for variable, value in bound]


def ask(text: str, engine: Engine, program: Program | None = None,
        commands: Commands | None = None, max_steps: int = MAX_STEPS,
        stepper: Stepper | None = None) -> Generator[Solution, None, None]:
    """Every answer to the goal `text`, in the predicates' order; errors raise as they come.
    The goal is parsed and checked before the first answer is sought; it may take
    `max_steps` steps of work; with `stepper`, its calls are traced."""
    query = parse_query(text)
    written = _Written()
    out = written.write if stepper is None else stepper.output  # between the ports, at once
    solutions = solve(query, Context(engine, out, program, commands, max_steps, stepper))
    if stepper is not None:
        yield from _stepped(query, solutions, written)
        return
    pending = _next_timed(solutions)
    pending_output = written.take()
    while isinstance(pending, tuple):
        substitution, seconds = pending
        try:
            shown = format_bindings(query, substitution), tuple(bound_values(query, substitution))
        except RecursionError:
            raise _too_deep() from None
        # an error met looking one answer ahead is raised only when the next answer is asked
        # for, as Prolog reports an error on backtracking after the answers before it
        following = _next_timed(solutions)
        following_output = written.take()
        last = following is None and not following_output
        yield Solution(shown[0], seconds, last, shown[1], pending_output)
        pending, pending_output = following, following_output
    if isinstance(pending, Exception):
        if pending_output:
            yield Solution("", 0.0, True, (), pending_output, "output")
        raise pending
    if pending_output:  # written while looking for one more answer, which is not there
        yield Solution("false", 0.0, True, (), pending_output, "false")


def _stepped(query: Query, solutions: Iterator[Substitution], written: _Written
             ) -> Generator[Solution, None, None]:
    """The answers of a traced goal, none sought before it is asked for (the next one's ports
    come after `;`), so each is shown as one that may have more, and `false.` ends them."""
    found = False
    while True:
        pending = _next_timed(solutions)
        output = written.take()
        if isinstance(pending, Exception):
            if output:
                yield Solution("", 0.0, True, (), output, "output")
            raise pending
        if pending is None:
            if found or output:
                yield Solution("false", 0.0, True, (), output, "false")
            return
        found = True
        substitution, seconds = pending
        try:
            shown = format_bindings(query, substitution), tuple(bound_values(query, substitution))
        except RecursionError:
            raise _too_deep() from None
        yield Solution(shown[0], seconds, False, shown[1], output)


class _Written:
    """What a goal writes, kept until its answer is shown; at most `MAX_OUTPUT` characters."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.cut = False

    def write(self, text: str) -> None:
        room = MAX_OUTPUT - self.size
        if len(text) > room:
            text, self.cut = text[:max(room, 0)], True
        self.parts.append(text)
        self.size += len(text)

    def take(self) -> str:
        text = "".join(self.parts)
        if self.cut:
            text += f"\n% ... more output not shown (at most {MAX_OUTPUT} characters)\n"
        self.parts, self.size, self.cut = [], 0, False
        return text


MAX_OUTPUT = 100_000
"""Characters of output kept for one answer."""


def _too_deep() -> PrologError:
    return PrologError("the goal went deeper than the top level can follow (a term too deep "
                       "or cyclic, or a recursion too long)",
                       Struct("resource_error", (Atom("depth"),)))


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
    except RecursionError:
        return _too_deep()
    return solution, time.perf_counter() - started
