"""The control family's built-ins (the constructs that cut are in `logic/toplevel/solve.py`):
`throw/1`, and the answers of a goal gathered, `findall/3,4` and `aggregate_all/3`."""

from __future__ import annotations

from collections.abc import Iterator

from minimax_lab.logic.toplevel.arithmetic import compare, evaluate, instantiation_error
from minimax_lab.logic.toplevel.builtins.lists import sort_terms
from minimax_lab.logic.toplevel.builtins.registry import Family
from minimax_lab.logic.toplevel.builtins.support import MAX_LIST, copy_term, too_long, unified
from minimax_lab.logic.toplevel.clauses import fresh_variable
from minimax_lab.logic.toplevel.context import Cut, Solving
from minimax_lab.logic.toplevel.errors import PrologError
from minimax_lab.logic.toplevel.prolog_terms import (
    Atom,
    Int,
    ListTerm,
    Struct,
    Substitution,
    Term,
    Var,
    format_term,
    resolve,
    walk,
)

register = Family("control")


def error_term(error: PrologError) -> Term:
    """The ball a `catch/3` catches: `error(Formal, _)`, or what `throw/1` threw."""
    formal = error.formal if error.formal is not None else Atom("error")
    if isinstance(formal, Struct) and formal.name == "$thrown":
        return formal.args[0]
    return Struct("error", (formal, fresh_variable()))


def _findall_items(solver: Solving, template: Term, goal: Term, s: Substitution
                   ) -> list[Term]:
    found = []
    for answer in solver.solve(goal, s, Cut()):
        found.append(copy_term(resolve(template, answer)))
        if len(found) > MAX_LIST:
            raise too_long()
    return found


@register("findall", 3,
          "findall(Template, Goal, List): List holds Template for each answer of Goal")
def _findall(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    found = _findall_items(solver, args[0], args[1], s)
    yield from unified(args[2], ListTerm(tuple(found)), s)


@register("findall", 4, "findall(Template, Goal, List, Tail): as findall/3, List ending in Tail")
def _findall4(solver: Solving, args: tuple[Term, ...], s: Substitution
              ) -> Iterator[Substitution]:
    found = _findall_items(solver, args[0], args[1], s)
    yield from unified(args[2], ListTerm(tuple(found), args[3]), s)


@register("aggregate_all", 3,
          "aggregate_all(Spec, Goal, Result): count, sum(E), max(E), min(E), bag(E) or "
          "set(E) of Goal's answers")
def _aggregate_all(solver: Solving, args: tuple[Term, ...], s: Substitution
                   ) -> Iterator[Substitution]:
    spec = walk(args[0], s)
    if isinstance(spec, Atom) and spec.name == "count":
        yield from unified(args[2], Int(len(_findall_items(solver, Atom("x"), args[1], s))),
                           s)
        return
    if not isinstance(spec, Struct) or len(spec.args) not in (1, 2) or spec.name not in (
            "count", "sum", "max", "min", "bag", "set"):
        raise PrologError(f"domain error: aggregate_all/3 takes count, sum(E), max(E), min(E), "
                          f"bag(E) or set(E), not {format_term(resolve(spec, s))}",
                          Struct("domain_error", (Atom("aggregate_spec"), spec)))
    items = _findall_items(solver, spec.args[0] if len(spec.args) == 1 else Struct(
        "-", spec.args), args[1], s)
    if spec.name == "count":
        result: Term = Int(len(items))
    elif spec.name == "bag":
        result = ListTerm(tuple(items))
    elif spec.name == "set":
        result = sort_terms(tuple(items), {}, True)
    elif spec.name == "sum":
        result = Int(0)
        for item in items:
            result = evaluate(Struct("+", (result, item)), {})
    else:
        if not items:
            return
        if len(spec.args) == 2:
            pairs = [(evaluate(item.args[0], {}), item.args[1]) for item in items
                     if isinstance(item, Struct)]
            best = pairs[0]
            for pair in pairs[1:]:
                found = compare(pair[0], best[0])
                if (found > 0) if spec.name == "max" else (found < 0):
                    best = pair
            result = Struct(spec.name, best)
        else:
            result = evaluate(items[0], {})
            for item in items[1:]:
                result = evaluate(Struct(spec.name, (result, item)), {})
    yield from unified(args[2], result, s)


@register("throw", 1, "throw(Ball): raise Ball, for catch/3 to catch")
def _throw(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    ball = copy_term(resolve(args[0], s))
    if isinstance(ball, Var):
        raise instantiation_error()
    if isinstance(ball, Struct) and ball.name == "error" and len(ball.args) == 2:
        raise PrologError(f"unhandled error: {format_term(ball.args[0])}", ball.args[0])
    raise PrologError(f"unhandled exception: {format_term(ball)}", Struct("$thrown", (ball,)))
