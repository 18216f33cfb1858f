"""What can go wrong with a goal: each error is reported and the top level carries on.

An error Prolog itself would raise carries Prolog's own error term (`formal`), as SWI-Prolog's
`error(Formal, Context)` does: `instantiation_error`, `type_error(evaluable, foo/0)`,
`evaluation_error(zero_divisor)`, `existence_error(procedure, foo/1)`, ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import escaped
from minimax_lab.logic.state import StateError

if TYPE_CHECKING:
    from minimax_lab.logic.toplevel.prolog_terms import Term


class ToplevelError(LabError):
    """A goal that cannot be answered; `report()` is what the user sees."""

    def report(self) -> str:
        """The message, one line."""
        return str(self)


class GoalSyntaxError(ToplevelError):
    """Text that is not a goal: the report shows the input with a caret under `column` (1-based)."""

    def __init__(self, message: str, text: str, column: int) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.column = column

    def report(self) -> str:
        """Three lines: the message with the column, the input, a caret under the column."""
        shown = "".join(char if char.isprintable() else "?" for char in self.text)
        return (
            f"syntax error at column {self.column}: {self.message}\n"
            f"  {shown}\n"
            f"  {' ' * (self.column - 1)}^"
        )


class PrologError(ToplevelError):
    """An error Prolog raises while answering, with its error term (`formal`), which the
    tests compare with SWI-Prolog's."""

    def __init__(self, message: str, formal: Term | None = None) -> None:
        super().__init__(message)
        self.formal = formal


class UnknownPredicateError(PrologError):
    """A goal whose name and arity is no predicate the top level knows."""


class InstantiationError(PrologError):
    """An argument that must be bound is (or holds) a variable, as SWI-Prolog reports it."""


class Halt(Exception):  # noqa: N818 - it is Prolog's halt/0, not an error
    """`halt.`: the session ends."""


ANSWER_ERRORS = (ToplevelError, StateError)
"""Errors about the goal asked (an illegal state included): reported, never a traceback."""


def report(error: Exception) -> str:
    """What the user sees for one of `ANSWER_ERRORS`, any text the terminal would act on
    escaped."""
    return escaped(error.report() if isinstance(error, ToplevelError) else str(error))
