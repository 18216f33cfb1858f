"""The arithmetic family: `is/2`, the comparisons of values, `between/3`, `succ/2`,
`plus/3` (the expressions themselves are evaluated by `logic/toplevel/arithmetic.py`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

from minimax_lab.logic.toplevel.arithmetic import compare, evaluate, instantiation_error, type_error
from minimax_lab.logic.toplevel.builtins.registry import Builtin, Family
from minimax_lab.logic.toplevel.builtins.support import must_be_integer, unified
from minimax_lab.logic.toplevel.context import Solving
from minimax_lab.logic.toplevel.prolog_terms import (
    Atom,
    Float,
    Int,
    Struct,
    Substitution,
    Term,
    Var,
    walk,
)

register = Family("arithmetic")


@register("is", 2, "X is Expr: X is the value of the arithmetic expression Expr")
def _is(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    yield from unified(args[0], evaluate(args[1], s), s)


def _arithmetic(test: Callable[[int], bool]) -> Builtin:
    def compare_values(solver: Solving, args: tuple[Term, ...], s: Substitution
                       ) -> Iterator[Substitution]:
        if test(compare(evaluate(args[0], s), evaluate(args[1], s))):
            yield s
    return compare_values


register("=:=", 2, "E1 =:= E2: the values of E1 and E2 are equal")(
    _arithmetic(lambda found: found == 0))
register("=\\=", 2, "E1 =\\= E2: the values of E1 and E2 differ")(
    _arithmetic(lambda found: found != 0))
register("<", 2, "E1 < E2: the value of E1 is less than E2's")(_arithmetic(lambda found: found < 0))
register(">", 2, "E1 > E2: the value of E1 is greater than E2's")(
    _arithmetic(lambda found: found > 0))
register("=<", 2, "E1 =< E2: the value of E1 is at most E2's")(
    _arithmetic(lambda found: found <= 0))
register(">=", 2, "E1 >= E2: the value of E1 is at least E2's")(
    _arithmetic(lambda found: found >= 0))


@register("between", 3, "between(Low, High, X): X is each integer from Low to High (or inf)")
def _between(solver: Solving, args: tuple[Term, ...], s: Substitution
             ) -> Iterator[Substitution]:
    low = must_be_integer(args[0], s)
    high_term = walk(args[1], s)
    high: int | None = None  # inf: no end
    if not (isinstance(high_term, Atom) and high_term.name in ("inf", "infinite")):
        high = must_be_integer(high_term, s)
    value = walk(args[2], s)
    if isinstance(value, Int):
        if low <= value.value and (high is None or value.value <= high):
            yield s
        return
    if not isinstance(value, Var):
        raise type_error("integer", value)
    numbers = itertools.count(low) if high is None else range(low, high + 1)
    for number in numbers:
        solver.tick()
        yield {**s, value: Int(number)}


@register("succ", 2, "succ(N, M): M is N + 1, both natural numbers")
def _succ(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    before, after = walk(args[0], s), walk(args[1], s)
    for term in (before, after):
        if not isinstance(term, Var | Int):
            raise type_error("integer", term)
        if isinstance(term, Int) and term.value < 0:
            raise type_error("not_less_than_zero", term)
    if isinstance(before, Int):
        yield from unified(after, Int(before.value + 1), s)
    elif isinstance(after, Int):
        if after.value > 0:
            yield from unified(before, Int(after.value - 1), s)
    else:
        raise instantiation_error()


@register("plus", 3, "plus(X, Y, Z): Z is X + Y, any one of the three unknown")
def _plus(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    a, b, c = (walk(arg, s) for arg in args)
    if isinstance(a, Int | Float) and isinstance(b, Int | Float):
        yield from unified(c, evaluate(Struct("+", (a, b)), s), s)
    elif isinstance(a, Int | Float) and isinstance(c, Int | Float):
        yield from unified(b, evaluate(Struct("-", (c, a)), s), s)
    elif isinstance(b, Int | Float) and isinstance(c, Int | Float):
        yield from unified(a, evaluate(Struct("-", (c, b)), s), s)
    else:
        raise instantiation_error()
