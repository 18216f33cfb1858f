"""Answer a conjunction of goals depth-first, left to right, as Prolog does, through an engine.

Each goal's arguments are resolved under the bindings so far, the predicate answers with
ground terms, and each answer is unified with the goal; the conjunction's answers are the
substitutions that satisfy every goal, in the order of the predicates' answers.
"""

from __future__ import annotations

from collections.abc import Iterator
from difflib import get_close_matches

from logic.commands.toplevel.errors import UnknownPredicateError
from logic.commands.toplevel.grammar import Call, Query
from logic.commands.toplevel.predicates import PREDICATES, Predicate
from logic.commands.toplevel.prolog_terms import Substitution, resolve, unify
from logic.engines import Engine


def known_predicates() -> str:
    """The lab's predicates as name/arity, for error messages."""
    return ", ".join(predicate.indicator for predicate in PREDICATES.values())


def predicate_of(call: Call) -> Predicate:
    """The lab predicate a goal calls; an error naming the right arity or the known predicates."""
    predicate = PREDICATES.get(call.name)
    if predicate is None:
        close = get_close_matches(call.name, list(PREDICATES), n=1)
        hint = f" (did you mean {PREDICATES[close[0]].indicator}?)" if close else ""
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
    """Every substitution that satisfies all the goals of `query`, asked of `engine`.

    Every goal is checked against the lab's predicates before the first is asked.
    """
    predicates = [predicate_of(call) for call in query.goals]
    return _solve_from(0, query.goals, predicates, engine, {})


def _solve_from(
    index: int,
    calls: tuple[Call, ...],
    predicates: list[Predicate],
    engine: Engine,
    substitution: Substitution,
) -> Iterator[Substitution]:
    if index == len(calls):
        yield substitution
        return
    args = tuple(resolve(arg, substitution) for arg in calls[index].args)
    for answer in predicates[index].answer(engine, args):
        extended = substitution
        for arg, value in zip(args, answer, strict=True):
            extended = unify(arg, value, extended)
            if extended is None:
                break
        if extended is not None:
            yield from _solve_from(index + 1, calls, predicates, engine, extended)
