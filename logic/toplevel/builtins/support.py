"""What the families share: unifying as an answer, an integer argument checked, a term
copied, and the bound on the lists a built-in makes."""

from __future__ import annotations

from collections.abc import Iterator

from minimax_lab.logic.toplevel.arithmetic import instantiation_error, type_error
from minimax_lab.logic.toplevel.clauses import fresh_variable, rename
from minimax_lab.logic.toplevel.errors import PrologError
from minimax_lab.logic.toplevel.prolog_terms import (
    Atom,
    Int,
    Struct,
    Substitution,
    Term,
    Var,
    unify,
    variables_of,
    walk,
)

MAX_LIST = 100_000
"""The longest list a built-in makes (`length/2`, `numlist/3`)."""
MAX_GROWN = 10_000
"""The longest list a built-in grows one item at a time (`length(L, N)`, `member(X, L)`): each
item costs the whole list, so a goal that grows one without end is stopped there."""


def unified(left: Term, right: Term, s: Substitution) -> Iterator[Substitution]:
    """The one answer of `left = right`, or none."""
    found = unify(left, right, s)
    if found is not None:
        yield found


def must_be_integer(term: Term, s: Substitution) -> int:
    """The integer `term` is bound to; SWI-Prolog's errors for a variable or another term."""
    term = walk(term, s)
    if isinstance(term, Var):
        raise instantiation_error()
    if not isinstance(term, Int):
        raise type_error("integer", term)
    return term.value


def copy_term(term: Term) -> Term:
    """`term` with fresh variables, as findall/3 and copy_term/2 copy it."""
    variables = dict.fromkeys(variables_of(term))
    return rename(term, {var: fresh_variable() for var in variables}) if variables else term


def too_long() -> PrologError:
    return PrologError(f"resource error: a list of more than {MAX_LIST} items",
                       Struct("resource_error", (Atom("memory"),)))
