"""Answer a goal depth-first, left to right, as Prolog does, through an engine.

A call of the lab's predicates resolves its arguments under the bindings so far, the
predicate answers with ground terms, and each answer is unified with the call. Around them:
conjunction, disjunction (`;`), negation as failure (`\\+`), `=`, `\\=`, `==`, `\\==`, and
the list predicates `findall/3`, `member/2`, `length/2` and `nth1/3` (docs/query.md).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from difflib import get_close_matches

from logic.commands.toplevel.errors import InstantiationError, UnknownPredicateError
from logic.commands.toplevel.grammar import (
    Call,
    Comparison,
    Conjunction,
    Disjunction,
    FindAll,
    Goal,
    Negation,
    Query,
)
from logic.commands.toplevel.predicates import PREDICATES, Predicate
from logic.commands.toplevel.prolog_terms import (
    Int,
    ListTerm,
    Substitution,
    Term,
    Var,
    format_term,
    resolve,
    unify,
)
from logic.engines import Engine

LIST_PREDICATES = {"member": 2, "length": 2, "nth1": 3}
"""The list predicates the top level adds to the lab's, by arity."""
MAX_LENGTH = 1000
"""The longest list `length/2` makes."""
_FRESH = itertools.count(10**6)


def known_predicates() -> str:
    """The predicates a goal may call, as name/arity, for error messages."""
    lab = [predicate.indicator for predicate in PREDICATES.values()]
    return ", ".join([*lab, "findall/3", *(f"{n}/{a}" for n, a in LIST_PREDICATES.items())])


def predicate_of(call: Call) -> Predicate | None:
    """The lab predicate a call names (None for a list predicate); an error naming the right
    arity or the known predicates."""
    if LIST_PREDICATES.get(call.name) == len(call.args):
        return None
    predicate = PREDICATES.get(call.name)
    if predicate is None:
        names = [*PREDICATES, *LIST_PREDICATES, "findall"]
        close = get_close_matches(call.name, names, n=1)
        hint = ""
        if close:
            shown = PREDICATES[close[0]].indicator if close[0] in PREDICATES else close[0]
            hint = f" (did you mean {shown}?)"
        raise UnknownPredicateError(
            f"unknown predicate {call.indicator}{hint}; the predicates are {known_predicates()}"
        )
    if len(predicate.arguments) != len(call.args):
        raise UnknownPredicateError(
            f"unknown predicate {call.indicator}; the lab's {call.name} is "
            f"{predicate.indicator}: {predicate.signature}"
        )
    return predicate


def solve(query: Query, engine: Engine) -> Iterator[Substitution]:
    """Every substitution that satisfies the goal of `query`, asked of `engine`.
    Every call is checked against the known predicates before the first is asked."""
    for call in query.calls():
        predicate_of(call)
    return _solve(query.body, engine, {})


def _solve(goal: Goal, engine: Engine, substitution: Substitution) -> Iterator[Substitution]:
    if isinstance(goal, Call):
        yield from _call(goal, engine, substitution)
    elif isinstance(goal, Conjunction):
        yield from _all(goal.goals, engine, substitution)
    elif isinstance(goal, Disjunction):
        for branch in goal.goals:
            yield from _solve(branch, engine, substitution)
    elif isinstance(goal, Negation):
        if next(iter(_solve(goal.goal, engine, substitution)), None) is None:
            yield substitution
    elif isinstance(goal, Comparison):
        yield from _compare(goal, substitution)
    else:
        yield from _findall(goal, engine, substitution)


def _all(goals: tuple[Goal, ...], engine: Engine,
         substitution: Substitution) -> Iterator[Substitution]:
    if not goals:
        yield substitution
        return
    for extended in _solve(goals[0], engine, substitution):
        yield from _all(goals[1:], engine, extended)


def _call(call: Call, engine: Engine, substitution: Substitution) -> Iterator[Substitution]:
    args = tuple(resolve(arg, substitution) for arg in call.args)
    predicate = predicate_of(call)
    if predicate is None:
        yield from LIST_SOLVERS[call.name](args, substitution)
        return
    for answer in predicate.answer(engine, args):
        extended: Substitution | None = substitution
        for arg, value in zip(args, answer, strict=True):
            extended = unify(arg, value, extended)
            if extended is None:
                break
        if extended is not None:
            yield extended


def _compare(goal: Comparison, substitution: Substitution) -> Iterator[Substitution]:
    left, right = resolve(goal.left, substitution), resolve(goal.right, substitution)
    if goal.operator == "=":
        unified = unify(left, right, substitution)
        if unified is not None:
            yield unified
    elif goal.operator == "\\=":
        if unify(left, right, substitution) is None:
            yield substitution
    elif (left == right) == (goal.operator == "=="):
        yield substitution


def _findall(goal: FindAll, engine: Engine,
             substitution: Substitution) -> Iterator[Substitution]:
    found = tuple(resolve(goal.template, answer)
                  for answer in _solve(goal.goal, engine, substitution))
    unified = unify(resolve(goal.result, substitution), ListTerm(found), substitution)
    if unified is not None:
        yield unified


def _proper(term: Term, predicate: str) -> ListTerm:
    """The list `term` is; an instantiation error if its end is unbound."""
    if isinstance(term, ListTerm) and term.tail is None:
        return term
    if isinstance(term, Var) or (isinstance(term, ListTerm) and isinstance(term.tail, Var)):
        raise InstantiationError(f"arguments are not sufficiently instantiated: {predicate} "
                                 f"needs a list that ends, and {format_term(term)} does not")
    return ListTerm(())  # not a list: no answer, as in Prolog


def _member(args: tuple[Term, ...], substitution: Substitution) -> Iterator[Substitution]:
    element, listed = args
    if not isinstance(listed, ListTerm | Var):
        return
    for item in _proper(listed, "member/2").items:
        unified = unify(element, item, substitution)
        if unified is not None:
            yield unified


def _length(args: tuple[Term, ...], substitution: Substitution) -> Iterator[Substitution]:
    listed, count = args
    if isinstance(listed, ListTerm) and listed.tail is None:
        unified = unify(count, Int(len(listed.items)), substitution)
        if unified is not None:
            yield unified
        return
    if not isinstance(count, Int):
        if isinstance(listed, ListTerm | Var):
            raise InstantiationError("arguments are not sufficiently instantiated: length/2 "
                                     "needs a list that ends, or a length")
        return
    if not 0 <= count.value <= MAX_LENGTH:
        return
    fresh = ListTerm(tuple(Var("_", next(_FRESH)) for _ in range(count.value)))
    unified = unify(listed, fresh, substitution)
    if unified is not None:
        yield unified


def _nth1(args: tuple[Term, ...], substitution: Substitution) -> Iterator[Substitution]:
    index, listed, element = args
    if not isinstance(listed, ListTerm | Var):
        return
    items = _proper(listed, "nth1/3").items
    if isinstance(index, Int):
        if 1 <= index.value <= len(items):
            unified = unify(element, items[index.value - 1], substitution)
            if unified is not None:
                yield unified
        return
    for number, item in enumerate(items, start=1):
        unified = unify(element, item, substitution)
        if unified is not None:
            unified = unify(index, Int(number), unified)
        if unified is not None:
            yield unified


LIST_SOLVERS: dict[str, Callable[[tuple[Term, ...], Substitution], Iterator[Substitution]]] = {
    "member": _member, "length": _length, "nth1": _nth1,
}
