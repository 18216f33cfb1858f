"""The unification and order family: `=`, `\\=`, `==`, `@<` and the other comparisons of
terms in SWI-Prolog 9's standard order, `compare/3`."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from minimax_lab.logic.toplevel.arithmetic import compare
from minimax_lab.logic.toplevel.builtins.registry import Builtin, Family
from minimax_lab.logic.toplevel.builtins.support import unified
from minimax_lab.logic.toplevel.context import Solving
from minimax_lab.logic.toplevel.prolog_terms import (
    NIL,
    Atom,
    Float,
    Int,
    ListTerm,
    String,
    Struct,
    Substitution,
    Term,
    Var,
    resolve,
    unify,
)

register = Family("unification and order")


@register("=", 2, "X = Y: X and Y unify")
def _equal(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    yield from unified(args[0], args[1], s)


@register("\\=", 2, "X \\= Y: X and Y do not unify")
def _not_equal(solver: Solving, args: tuple[Term, ...], s: Substitution
               ) -> Iterator[Substitution]:
    if unify(args[0], args[1], s) is None:
        yield s


def order(left: Term, right: Term) -> int:
    """-1, 0, 1: the standard order of terms as SWI-Prolog 9 orders them: variables, numbers,
    strings, atoms, compounds."""
    rank_left, rank_right = _rank(left), _rank(right)
    if rank_left != rank_right:
        return -1 if rank_left < rank_right else 1
    if isinstance(left, Var) and isinstance(right, Var):
        by_serial = (left.serial, left.name), (right.serial, right.name)
        return (by_serial[0] > by_serial[1]) - (by_serial[0] < by_serial[1])
    if isinstance(left, Int | Float) and isinstance(right, Int | Float):
        by_value = compare(left, right)
        if by_value or type(left) is type(right):
            return by_value
        return -1 if isinstance(left, Float) else 1
    if isinstance(left, Atom | String | ListTerm) and not compound(left):
        texts = _text(left), _text(right)
        return (texts[0] > texts[1]) - (texts[0] < texts[1])
    name_left, args_left = name_and_args(left)
    name_right, args_right = name_and_args(right)
    if len(args_left) != len(args_right):
        return -1 if len(args_left) < len(args_right) else 1
    if name_left != name_right:
        return -1 if name_left < name_right else 1
    for a, b in zip(args_left, args_right, strict=True):
        found = order(a, b)
        if found:
            return found
    return 0


def compound(term: Term) -> bool:
    return isinstance(term, Struct) or (isinstance(term, ListTerm) and term != NIL)


def _rank(term: Term) -> int:
    if isinstance(term, Var):
        return 0
    if isinstance(term, Int | Float):
        return 1
    if isinstance(term, String):
        return 2
    if isinstance(term, Atom) or term == NIL:
        return 3
    return 5


def _text(term: Term) -> str:
    if isinstance(term, Atom):
        return term.name
    if isinstance(term, String):
        return term.text
    return "[]"


def name_and_args(term: Term) -> tuple[str, tuple[Term, ...]]:
    if isinstance(term, Struct):
        return term.name, term.args
    assert isinstance(term, ListTerm)
    rest = ListTerm(term.items[1:], term.tail) if len(term.items) > 1 else (
        term.tail if term.tail is not None else NIL)
    return "[|]", (term.items[0], rest)


def _comparison(test: Callable[[int], bool]) -> Builtin:
    def compare_terms(solver: Solving, args: tuple[Term, ...], s: Substitution
                      ) -> Iterator[Substitution]:
        if test(order(resolve(args[0], s), resolve(args[1], s))):
            yield s
    return compare_terms


register("==", 2, "X == Y: X and Y are the same term")(_comparison(lambda found: found == 0))
register("\\==", 2, "X \\== Y: X and Y are not the same term")(
    _comparison(lambda found: found != 0))
register("@<", 2, "X @< Y: X comes before Y in the standard order of terms")(
    _comparison(lambda found: found < 0))
register("@>", 2, "X @> Y: X comes after Y in the standard order of terms")(
    _comparison(lambda found: found > 0))
register("@=<", 2, "X @=< Y: X comes before Y, or is the same term")(
    _comparison(lambda found: found <= 0))
register("@>=", 2, "X @>= Y: X comes after Y, or is the same term")(
    _comparison(lambda found: found >= 0))


@register("compare", 3, "compare(Order, X, Y): Order is <, = or >, as X stands to Y in that order")
def _compare(solver: Solving, args: tuple[Term, ...], s: Substitution
             ) -> Iterator[Substitution]:
    found = order(resolve(args[1], s), resolve(args[2], s))
    yield from unified(args[0], Atom("<" if found < 0 else ">" if found > 0 else "="), s)
