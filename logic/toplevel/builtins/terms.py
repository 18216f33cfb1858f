"""The terms family: `functor/3`, `arg/3`, `=../2`, `copy_term/2`."""

from __future__ import annotations

from collections.abc import Iterator

from minimax_lab.logic.toplevel.arithmetic import instantiation_error, type_error
from minimax_lab.logic.toplevel.builtins.lists import proper
from minimax_lab.logic.toplevel.builtins.order import name_and_args
from minimax_lab.logic.toplevel.builtins.registry import Family
from minimax_lab.logic.toplevel.builtins.support import (
    MAX_LIST,
    copy_term,
    must_be_integer,
    too_long,
    unified,
)
from minimax_lab.logic.toplevel.clauses import fresh_variable
from minimax_lab.logic.toplevel.context import Solving
from minimax_lab.logic.toplevel.errors import PrologError
from minimax_lab.logic.toplevel.prolog_terms import (
    NIL,
    Atom,
    Int,
    ListTerm,
    Struct,
    Substitution,
    Term,
    Var,
    resolve,
    unify,
    walk,
)

register = Family("terms")


@register("functor", 3, "functor(Term, Name, Arity): Term's name and arity, or a term of them")
def _functor(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    term = walk(args[0], s)
    if isinstance(term, Var):
        name, arity = walk(args[1], s), must_be_integer(args[2], s)
        if arity == 0:
            yield from unified(term, name, s)
        elif isinstance(name, Atom):
            if arity > MAX_LIST:
                raise too_long()
            yield from unified(term, Struct(name.name, tuple(
                fresh_variable() for _ in range(arity))), s)
        elif isinstance(name, Var):
            raise instantiation_error()
        else:
            raise type_error("atomic" if isinstance(name, Struct) else "atom", name)
        return
    name_term: Term
    if isinstance(term, Struct):
        name_term, arity_term = Atom(term.name), Int(len(term.args))
    elif isinstance(term, ListTerm) and term != NIL:
        name_term, arity_term = Atom("[|]"), Int(2)
    else:
        name_term, arity_term = term, Int(0)
    found = unify(args[1], name_term, s)
    if found is not None:
        yield from unified(args[2], arity_term, found)


def _arguments(term: Term) -> tuple[Term, ...]:
    if isinstance(term, Struct):
        return term.args
    if isinstance(term, ListTerm) and term != NIL:
        return name_and_args(term)[1]
    raise type_error("compound", term)


@register("arg", 3, "arg(N, Term, Arg): Arg is argument N of Term")
def _arg(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    term = walk(args[1], s)
    if isinstance(term, Var):
        raise instantiation_error()
    arguments = _arguments(term)
    index = walk(args[0], s)
    if isinstance(index, Int):
        if 1 <= index.value <= len(arguments):
            yield from unified(args[2], arguments[index.value - 1], s)
        return
    if not isinstance(index, Var):
        raise type_error("integer", index)
    for number, argument in enumerate(arguments, start=1):
        found = unify(args[2], argument, s)
        if found is not None:
            found = unify(index, Int(number), found)
            if found is not None:
                yield found


@register("=..", 2, "Term =.. List: List is Term's name, then its arguments")
def _univ(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    term = walk(args[0], s)
    if not isinstance(term, Var):
        if isinstance(term, Struct):
            parts: tuple[Term, ...] = (Atom(term.name), *term.args)
        elif isinstance(term, ListTerm) and term != NIL:
            parts = (Atom("[|]"), *name_and_args(term)[1])
        else:
            parts = (term,)
        yield from unified(args[1], ListTerm(parts), s)
        return
    items = proper(args[1], s)
    if not items:
        raise PrologError("domain error: non_empty_list expected, found []",
                          Struct("domain_error", (Atom("non_empty_list"), NIL)))
    name = walk(items[0], s)
    if len(items) == 1:
        yield from unified(term, name, s)
    elif isinstance(name, Atom):
        yield from unified(term, Struct(name.name, items[1:]), s)
    elif isinstance(name, Var):
        raise instantiation_error()
    else:
        raise type_error("atom", name)


@register("copy_term", 2, "copy_term(Term, Copy): Copy is Term with fresh variables")
def _copy_term(solver: Solving, args: tuple[Term, ...], s: Substitution
               ) -> Iterator[Substitution]:
    yield from unified(args[1], copy_term(resolve(args[0], s)), s)
