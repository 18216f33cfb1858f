"""Prolog programs the top level runs clause by clause: the lab as this project states it
(`facts/game.pl` and `logic/prolog/lab.pl`), read by the top level's own reader, so that every
goal the engines do not answer directly is answered by the lab's own clauses, as SWI-Prolog
running them answers it."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache
from importlib import resources

from minimax_lab.logic.toplevel.prolog_terms import (
    Atom,
    ListTerm,
    Struct,
    Term,
    Var,
    variables_of,
)
from minimax_lab.logic.toplevel.reader import read_program

TRUE = Atom("true")
_FRESH = itertools.count(1)


@dataclass(frozen=True)
class Clause:
    """`Head :- Body` (a fact's body is `true`), and its variables."""

    head: Term
    body: Term
    variables: tuple[Var, ...]

    def renamed(self) -> tuple[Term, Term]:
        """The head and body with fresh variables, for one use of the clause."""
        if not self.variables:
            return self.head, self.body
        fresh = {var: Var("_", next(_FRESH)) for var in self.variables}
        return rename(self.head, fresh), rename(self.body, fresh)


def rename(term: Term, mapping: dict[Var, Var]) -> Term:
    """`term` with its variables replaced as `mapping` says."""
    if isinstance(term, Var):
        return mapping.get(term, term)
    if isinstance(term, Struct):
        return Struct(term.name, tuple(rename(arg, mapping) for arg in term.args))
    if isinstance(term, ListTerm):
        return ListTerm(tuple(rename(item, mapping) for item in term.items),
                        None if term.tail is None else rename(term.tail, mapping))
    return term


def fresh_variable() -> Var:
    """A variable no goal has yet."""
    return Var("_", next(_FRESH))


class Database:
    """Clauses by predicate (name, arity), in the order the sources give them."""

    def __init__(self, sources: list[tuple[str, str]]) -> None:
        self.predicates: dict[tuple[str, int], list[Clause]] = {}
        self.origin: dict[tuple[str, int], str] = {}
        for name, text in sources:
            for read in read_program(text):
                term = read.term
                if isinstance(term, Struct) and term.name == ":-" and len(term.args) == 1:
                    continue  # a directive
                head: Term = term
                body: Term = TRUE
                if isinstance(term, Struct) and term.name == ":-" and len(term.args) == 2:
                    head, body = term.args
                key = (head.name, len(head.args)) if isinstance(head, Struct) else (
                    (head.name, 0) if isinstance(head, Atom) else None)
                if key is None:
                    raise ValueError(f"{name}: a clause's head is not callable: {head}")
                variables = tuple(dict.fromkeys(variables_of(term)))
                self.predicates.setdefault(key, []).append(Clause(head, body, variables))
                self.origin.setdefault(key, name)

    def clauses(self, name: str, arity: int) -> list[Clause] | None:
        """The clauses of `name/arity`, or None if this program does not define it."""
        return self.predicates.get((name, arity))


def _source(package: str, file: str) -> tuple[str, str]:
    return f"{package.replace('.', '/')}/{file}", (
        resources.files(package) / file).read_text(encoding="utf-8")


@cache
def lab_program() -> Database:
    """The game's facts and the lab's clauses, as `swipl facts/game.pl logic/prolog/lab.pl`."""
    return Database([_source("minimax_lab.facts", "game.pl"),
                     _source("minimax_lab.logic.prolog", "lab.pl")])


@cache
def library() -> Database:
    """The list predicates of SWI-Prolog's library that the top level runs as clauses."""
    return Database([_source("minimax_lab.logic.toplevel", "library.pl")])
