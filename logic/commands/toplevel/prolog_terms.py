"""The Prolog terms a goal is made of, their unification, and how SWI-Prolog prints them.

Terms are immutable; a substitution maps variables to terms. A list is a fixed-length
`ListTerm` (the grammar has no `[H|T]` tails). The lab's terms come in as: a state is a list of
9 atoms, an action `[Player, Position]` a list of an atom and an integer, and `sv(State, Value)`
a compound.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from logic.state import State
from logic.terms import SV, Action


@dataclass(frozen=True)
class Var:
    """A variable; every `_` gets its own `serial`, so anonymous variables never share."""

    name: str
    serial: int = 0

    @property
    def is_anonymous(self) -> bool:
        """True for `_`, which is never shown in an answer."""
        return self.name == "_"


@dataclass(frozen=True)
class Atom:
    """An atom: `x`, `o`, `-`, `sv`, ..."""

    name: str


@dataclass(frozen=True)
class Int:
    """An integer: a cell number or a value."""

    value: int


@dataclass(frozen=True)
class ListTerm:
    """A Prolog list: `[o,-,x,-,-,-,-,-,-]`, `[o,4]`, or with a tail, `[H|T]` (`tail` is
    None for a list that ends, as most do)."""

    items: tuple[Term, ...]
    tail: Term | None = None


@dataclass(frozen=True)
class Struct:
    """A compound term: `sv(State, Value)`."""

    name: str
    args: tuple[Term, ...]


Term = Var | Atom | Int | ListTerm | Struct
Substitution = dict[Var, Term]


def resolve(term: Term, substitution: Substitution) -> Term:
    """`term` with every bound variable replaced by its value, all the way down."""
    if isinstance(term, Var):
        bound = substitution.get(term)
        return term if bound is None else resolve(bound, substitution)
    if isinstance(term, ListTerm):
        items = tuple(resolve(item, substitution) for item in term.items)
        if term.tail is None:
            return ListTerm(items)
        tail = resolve(term.tail, substitution)
        if isinstance(tail, ListTerm):  # a tail now known: one list
            return ListTerm(items + tail.items, tail.tail)
        return ListTerm(items, tail)
    if isinstance(term, Struct):
        return Struct(term.name, tuple(resolve(arg, substitution) for arg in term.args))
    return term


def _walk(term: Term, substitution: Substitution) -> Term:
    while isinstance(term, Var) and term in substitution:
        term = substitution[term]
    return term


def unify(left: Term, right: Term, substitution: Substitution) -> Substitution | None:
    """The substitution extended so that `left` and `right` are equal, or None if they cannot be."""
    extended = dict(substitution)
    pending = [(left, right)]
    while pending:
        a, b = pending.pop()
        a, b = _walk(a, extended), _walk(b, extended)
        if a == b:
            continue
        if isinstance(a, Var):
            extended[a] = b
        elif isinstance(b, Var):
            extended[b] = a
        elif isinstance(a, ListTerm) and isinstance(b, ListTerm):
            if len(a.items) > len(b.items):
                a, b = b, a
            shared = len(a.items)
            pending.extend(zip(a.items, b.items[:shared], strict=True))
            rest = ListTerm(b.items[shared:], b.tail)
            if a.tail is None:
                if rest.items or (rest.tail is not None and not isinstance(
                        _walk(rest.tail, extended), Var | ListTerm)):
                    return None
                if rest.tail is not None:
                    pending.append((rest.tail, ListTerm(())))
            else:
                pending.append((a.tail, rest if rest.items or rest.tail is None else rest.tail))
        elif isinstance(a, Struct) and isinstance(b, Struct):
            if (a.name, len(a.args)) != (b.name, len(b.args)):
                return None
            pending.extend(zip(a.args, b.args, strict=True))
        else:
            return None
    return extended


def is_ground(term: Term) -> bool:
    """True if `term` holds no variable."""
    if isinstance(term, Var):
        return False
    if isinstance(term, ListTerm):
        return all(is_ground(item) for item in term.items) and (
            term.tail is None or is_ground(term.tail))
    if isinstance(term, Struct):
        return all(is_ground(arg) for arg in term.args)
    return True


_PLAIN_ATOM = re.compile(r"[a-z][A-Za-z0-9_]*|-|\[\]")


def format_term(term: Term, names: dict[Var, str] | None = None) -> str:
    """The term as the top level prints it, without spaces: `[o,-,x,-,-,-,-,-,-]`, `[o,4]`.
    An unbound variable without a name prints as `names` calls it, else as `_G1` and so on."""
    if isinstance(term, Var):
        if not term.is_anonymous:
            return term.name
        return (names or {}).get(term, f"_G{term.serial}")
    if isinstance(term, Atom):
        if _PLAIN_ATOM.fullmatch(term.name):
            return term.name
        return "'" + term.name.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if isinstance(term, Int):
        return str(term.value)
    if isinstance(term, ListTerm):
        items = ",".join(format_term(item, names) for item in term.items)
        tail = "" if term.tail is None else "|" + format_term(term.tail, names)
        return "[" + items + tail + "]"
    return f"{term.name}(" + ",".join(format_term(arg, names) for arg in term.args) + ")"


def fresh_names(terms: Sequence[Term]) -> dict[Var, str]:
    """Names for the unnamed variables in `terms`, as SWI-Prolog prints an answer: `_` for one
    that occurs once, `_A`, `_B`, ... for one that occurs more often."""
    seen: list[Var] = []

    def walk(term: Term) -> None:
        if isinstance(term, Var):
            if term.is_anonymous:
                seen.append(term)
        elif isinstance(term, ListTerm):
            for item in term.items:
                walk(item)
            if term.tail is not None:
                walk(term.tail)
        elif isinstance(term, Struct):
            for arg in term.args:
                walk(arg)

    for term in terms:
        walk(term)
    shared = [var for var in dict.fromkeys(seen) if seen.count(var) > 1]
    names = {var: "_" for var in seen}
    names.update({var: "_" + _letters(index) for index, var in enumerate(shared)})
    return names


def _letters(index: int) -> str:
    """A, B, ..., Z, AA, AB, ...: SWI-Prolog's names for shared fresh variables."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def state_term(state: State) -> ListTerm:
    """A state as the lab writes it: a list of 9 atoms."""
    return ListTerm(tuple(Atom(cell) for cell in state))


def action_term(action: Action) -> ListTerm:
    """The lab's action `[Player, Position]`."""
    return ListTerm((Atom(action.player), Int(action.cell)))


def sv_term(sv: SV) -> Struct:
    """The lab's `sv(State, Value)`."""
    return Struct("sv", (state_term(sv.state), Int(sv.value)))
