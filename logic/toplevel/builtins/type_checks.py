"""The types family: `var/1`, `atom/1`, `is_list/1` and the other checks of a term's type,
`must_be/2`."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from minimax_lab.logic.toplevel.arithmetic import instantiation_error, type_error
from minimax_lab.logic.toplevel.builtins.order import compound
from minimax_lab.logic.toplevel.builtins.registry import Builtin, Family
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
    variables_of,
    walk,
)

register = Family("types")


def _type_check(test: Callable[[Term], bool]) -> Builtin:
    def check(solver: Solving, args: tuple[Term, ...], s: Substitution
              ) -> Iterator[Substitution]:
        if test(walk(args[0], s) if not _needs_resolving(test) else resolve(args[0], s)):
            yield s
    return check


def _needs_resolving(test: Callable[[Term], bool]) -> bool:
    return test in (_is_list, _is_ground)


def _is_list(term: Term) -> bool:
    return isinstance(term, ListTerm) and term.tail is None


def _is_ground(term: Term) -> bool:
    return next(variables_of(term), None) is None


register("var", 1, "var(X): X is a variable not bound")(
    _type_check(lambda term: isinstance(term, Var)))
register("nonvar", 1, "nonvar(X): X is bound")(_type_check(lambda term: not isinstance(term, Var)))
register("atom", 1, "atom(X): X is an atom")(_type_check(lambda term: isinstance(term, Atom)))
register("number", 1, "number(X): X is an integer or a float")(
    _type_check(lambda term: isinstance(term, Int | Float)))
register("integer", 1, "integer(X): X is an integer")(
    _type_check(lambda term: isinstance(term, Int)))
register("float", 1, "float(X): X is a float")(_type_check(lambda term: isinstance(term, Float)))
register("atomic", 1, "atomic(X): X is an atom, a number, a string or []")(_type_check(
    lambda term: isinstance(term, Atom | Int | Float | String) or term == NIL))
register("compound", 1, "compound(X): X is a compound term")(_type_check(compound))
register("callable", 1, "callable(X): X is an atom or a compound term")(
    _type_check(lambda term: isinstance(term, Atom | Struct)))
register("string", 1, "string(X): X is a string")(
    _type_check(lambda term: isinstance(term, String)))
register("is_list", 1, "is_list(X): X is a list that ends")(_type_check(_is_list))
register("ground", 1, "ground(X): X holds no variable")(_type_check(_is_ground))


@register("must_be", 2,
          "must_be(Type, X): an error unless X is a Type (list, integer, nonneg, ...)")
def _must_be(solver: Solving, args: tuple[Term, ...], s: Substitution
             ) -> Iterator[Substitution]:
    kind, value = walk(args[0], s), resolve(args[1], s)
    if not isinstance(kind, Atom):
        raise instantiation_error()
    if kind.name == "list":
        if isinstance(value, ListTerm) and isinstance(value.tail, Var) or isinstance(value, Var):
            raise instantiation_error()
        if not _is_list(value):
            raise type_error("list", value)
    elif kind.name in ("integer", "positive_integer", "nonneg"):
        if isinstance(value, Var):
            raise instantiation_error()
        if not isinstance(value, Int):
            raise type_error("integer", value)
        if kind.name != "integer" and value.value < (kind.name == "positive_integer"):
            raise type_error(kind.name, value)
    elif kind.name in ("atom", "callable", "boolean") and isinstance(value, Var):
        raise instantiation_error()
    yield s
