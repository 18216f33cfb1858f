"""SWI-Prolog's built-ins that the top level answers, each as SWI-Prolog 9 answers it (the
tests ask SWI-Prolog the same goals): arithmetic and comparison, type checks, lists, atoms and
strings, terms, output, and the session's own (`help.`, `listing/1`, `trace.`, `[file].`,
`make.`, `halt.`).

A built-in takes the solver (to call goals, and for the session), its arguments and the
substitution so far, and yields each substitution that makes it true.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator

from minimax_lab.logic.toplevel.arithmetic import (
    compare,
    evaluate,
    instantiation_error,
    type_error,
)
from minimax_lab.logic.toplevel.clauses import fresh_variable, rename
from minimax_lab.logic.toplevel.context import Cut, Solving
from minimax_lab.logic.toplevel.errors import Halt, PrologError
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
    as_list,
    format_number,
    format_term,
    resolve,
    unify,
    variables_of,
    walk,
)

Builtin = Callable[[Solving, tuple[Term, ...], Substitution], Iterator[Substitution]]
BUILTINS: dict[tuple[str, int], Builtin] = {}
SESSION = {("help", 0), ("help", 1), ("listing", 0), ("listing", 1), ("trace", 0),
           ("notrace", 0), ("nodebug", 0), ("consult", 1), ("ensure_loaded", 1), ("make", 0),
           ("halt", 0), ("halt", 1)}
"""The goals the session answers: SWI-Prolog's own words for the top level's commands."""
MAX_LIST = 100_000
"""The longest list a built-in makes (`length/2`, `numlist/3`)."""
MAX_GROWN = 10_000
"""The longest list a built-in grows one item at a time (`length(L, N)`, `member(X, L)`): each
item costs the whole list, so a goal that grows one without end is stopped there."""


def builtin(name: str, *arities: int) -> Callable[[Builtin], Builtin]:
    def register(function: Builtin) -> Builtin:
        for arity in arities:
            BUILTINS[name, arity] = function
        return function
    return register


def _unified(left: Term, right: Term, s: Substitution) -> Iterator[Substitution]:
    found = unify(left, right, s)
    if found is not None:
        yield found


def error_term(error: PrologError) -> Term:
    """The ball a `catch/3` catches: `error(Formal, _)`, or what `throw/1` threw."""
    formal = error.formal if error.formal is not None else Atom("error")
    if isinstance(formal, Struct) and formal.name == "$thrown":
        return formal.args[0]
    return Struct("error", (formal, fresh_variable()))


def _must_be_integer(term: Term, s: Substitution) -> int:
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


# --- unification, comparison, arithmetic --------------------------------------------------------

@builtin("=", 2)
def _equal(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    yield from _unified(args[0], args[1], s)


@builtin("\\=", 2)
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
    if isinstance(left, Atom | String | ListTerm) and not _compound(left):
        texts = _text(left), _text(right)
        return (texts[0] > texts[1]) - (texts[0] < texts[1])
    name_left, args_left = _parts(left)
    name_right, args_right = _parts(right)
    if len(args_left) != len(args_right):
        return -1 if len(args_left) < len(args_right) else 1
    if name_left != name_right:
        return -1 if name_left < name_right else 1
    for a, b in zip(args_left, args_right, strict=True):
        found = order(a, b)
        if found:
            return found
    return 0


def _compound(term: Term) -> bool:
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


def _parts(term: Term) -> tuple[str, tuple[Term, ...]]:
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


BUILTINS["==", 2] = _comparison(lambda found: found == 0)
BUILTINS["\\==", 2] = _comparison(lambda found: found != 0)
BUILTINS["@<", 2] = _comparison(lambda found: found < 0)
BUILTINS["@>", 2] = _comparison(lambda found: found > 0)
BUILTINS["@=<", 2] = _comparison(lambda found: found <= 0)
BUILTINS["@>=", 2] = _comparison(lambda found: found >= 0)


@builtin("compare", 3)
def _compare(solver: Solving, args: tuple[Term, ...], s: Substitution
             ) -> Iterator[Substitution]:
    found = order(resolve(args[1], s), resolve(args[2], s))
    yield from _unified(args[0], Atom("<" if found < 0 else ">" if found > 0 else "="), s)


@builtin("is", 2)
def _is(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    yield from _unified(args[0], evaluate(args[1], s), s)


def _arithmetic(test: Callable[[int], bool]) -> Builtin:
    def compare_values(solver: Solving, args: tuple[Term, ...], s: Substitution
                       ) -> Iterator[Substitution]:
        if test(compare(evaluate(args[0], s), evaluate(args[1], s))):
            yield s
    return compare_values


BUILTINS["=:=", 2] = _arithmetic(lambda found: found == 0)
BUILTINS["=\\=", 2] = _arithmetic(lambda found: found != 0)
BUILTINS["<", 2] = _arithmetic(lambda found: found < 0)
BUILTINS[">", 2] = _arithmetic(lambda found: found > 0)
BUILTINS["=<", 2] = _arithmetic(lambda found: found <= 0)
BUILTINS[">=", 2] = _arithmetic(lambda found: found >= 0)


@builtin("between", 3)
def _between(solver: Solving, args: tuple[Term, ...], s: Substitution
             ) -> Iterator[Substitution]:
    low = _must_be_integer(args[0], s)
    high_term = walk(args[1], s)
    high: int | None = None  # inf: no end
    if not (isinstance(high_term, Atom) and high_term.name in ("inf", "infinite")):
        high = _must_be_integer(high_term, s)
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


@builtin("succ", 2)
def _succ(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    before, after = walk(args[0], s), walk(args[1], s)
    for term in (before, after):
        if not isinstance(term, Var | Int):
            raise type_error("integer", term)
        if isinstance(term, Int) and term.value < 0:
            raise type_error("not_less_than_zero", term)
    if isinstance(before, Int):
        yield from _unified(after, Int(before.value + 1), s)
    elif isinstance(after, Int):
        if after.value > 0:
            yield from _unified(before, Int(after.value - 1), s)
    else:
        raise instantiation_error()


@builtin("plus", 3)
def _plus(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    a, b, c = (walk(arg, s) for arg in args)
    if isinstance(a, Int | Float) and isinstance(b, Int | Float):
        yield from _unified(c, evaluate(Struct("+", (a, b)), s), s)
    elif isinstance(a, Int | Float) and isinstance(c, Int | Float):
        yield from _unified(b, evaluate(Struct("-", (c, a)), s), s)
    elif isinstance(b, Int | Float) and isinstance(c, Int | Float):
        yield from _unified(a, evaluate(Struct("-", (c, b)), s), s)
    else:
        raise instantiation_error()


# --- types ---------------------------------------------------------------------------------------

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


BUILTINS["var", 1] = _type_check(lambda term: isinstance(term, Var))
BUILTINS["nonvar", 1] = _type_check(lambda term: not isinstance(term, Var))
BUILTINS["atom", 1] = _type_check(lambda term: isinstance(term, Atom))
BUILTINS["number", 1] = _type_check(lambda term: isinstance(term, Int | Float))
BUILTINS["integer", 1] = _type_check(lambda term: isinstance(term, Int))
BUILTINS["float", 1] = _type_check(lambda term: isinstance(term, Float))
BUILTINS["atomic", 1] = _type_check(
    lambda term: isinstance(term, Atom | Int | Float | String) or term == NIL)
BUILTINS["compound", 1] = _type_check(_compound)
BUILTINS["callable", 1] = _type_check(lambda term: isinstance(term, Atom | Struct))
BUILTINS["string", 1] = _type_check(lambda term: isinstance(term, String))
BUILTINS["is_list", 1] = _type_check(_is_list)
BUILTINS["ground", 1] = _type_check(_is_ground)


@builtin("must_be", 2)
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


# --- lists ---------------------------------------------------------------------------------------

def _skip_list(term: Term, s: Substitution) -> tuple[tuple[Term, ...], Term]:
    """The items of a list that are known, and what ends it: `[]` (NIL), a variable, or
    whatever else a partial list ends in."""
    term = walk(term, s)
    items: list[Term] = []
    while isinstance(term, ListTerm):
        items.extend(term.items)
        if term.tail is None:
            return tuple(items), NIL
        term = walk(term.tail, s)
    return tuple(items), term


def _fresh_list(count: int, tail: Term | None = None) -> ListTerm:
    return ListTerm(tuple(fresh_variable() for _ in range(count)), tail)


def _growing(solver: Solving, start: int = 0) -> Iterator[tuple[Term, ...]]:
    """Fresh variables, `start` of them, then one more each time: the items of a list grown
    one at a time, each a step of work, at most `MAX_GROWN` of them."""
    items = [fresh_variable() for _ in range(start)]
    while True:
        solver.tick()
        if len(items) > MAX_GROWN:
            raise _too_long_grown()
        yield tuple(items)
        items.append(fresh_variable())


@builtin("length", 2)
def _length(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    items, end = _skip_list(args[0], s)
    length = walk(args[1], s)
    if isinstance(length, Int):
        if length.value < 0:
            raise PrologError(f"domain error: not_less_than_zero expected, found {length.value}",
                              Struct("domain_error", (Atom("not_less_than_zero"), length)))
        if end == NIL:
            if len(items) == length.value:
                yield s
        elif isinstance(end, Var):
            extra = length.value - len(items)
            if extra >= 0:
                if extra > MAX_LIST:
                    raise _too_long()
                yield from _unified(end, _fresh_list(extra) if extra else NIL, s)
        else:
            raise type_error("list", resolve(args[0], s))
        return
    if not isinstance(length, Var):
        raise type_error("integer", length)
    if end == NIL:
        yield from _unified(length, Int(len(items)), s)
    elif isinstance(end, Var):
        if end == length:
            return
        for added in _growing(solver):
            grown = unify(end, ListTerm(added) if added else NIL, s)
            if grown is not None:
                found = unify(length, Int(len(items) + len(added)), grown)
                if found is not None:
                    yield found
    else:
        raise type_error("list", resolve(args[0], s))


def _too_long() -> PrologError:
    return PrologError(f"resource error: a list of more than {MAX_LIST} items",
                       Struct("resource_error", (Atom("memory"),)))


def _elements(solver: Solving, term: Term, s: Substitution
              ) -> Iterator[tuple[Term, Substitution]]:
    """Each element of a (partial) list in turn, as member/2 finds it: the items known, then
    for a list whose end is open, a new last item each time, without end (each a step)."""
    items, end = _skip_list(term, s)
    for item in items:
        yield item, s
    if isinstance(end, Var):
        for before in _growing(solver):
            element = fresh_variable()
            grown = unify(end, ListTerm(before + (element,), fresh_variable()), s)
            if grown is not None:
                yield element, grown


@builtin("member", 2)
def _member(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    for element, extended in _elements(solver, args[1], s):
        yield from _unified(args[0], element, extended)


@builtin("memberchk", 2)
def _memberchk(solver: Solving, args: tuple[Term, ...], s: Substitution
               ) -> Iterator[Substitution]:
    _, end = _skip_list(args[1], s)
    if end != NIL and not isinstance(end, Var):  # SWI-Prolog's is in C, and checks its list
        raise type_error("list", resolve(args[1], s))
    for element, extended in _elements(solver, args[1], s):
        found = unify(args[0], element, extended)
        if found is not None:
            yield found
            return


@builtin("append", 3)
def _append(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    front, back, whole = args
    items, end = _skip_list(front, s)
    if end == NIL:  # the first list is known: one answer
        yield from _unified(whole, ListTerm(items, back) if items else back, s)
        return
    for _ in _growing(solver):  # append([], L, L). append([H|T], L, [H|R]) :- append(T, L, R).
        empty = unify(front, NIL, s)
        if empty is not None:
            yield from _unified(back, whole, empty)
        head, rest, tail = fresh_variable(), fresh_variable(), fresh_variable()
        split = unify(front, ListTerm((head,), rest), s)
        if split is not None:
            split = unify(whole, ListTerm((head,), tail), split)
        if split is None:
            return
        front, whole, s = rest, tail, split


def _too_long_grown() -> PrologError:
    return PrologError(f"resource error: a list grown past {MAX_GROWN} items, one at a time "
                       "(does the goal run on without end?)",
                       Struct("resource_error", (Atom("memory"),)))


@builtin("append", 2)
def _append_lists(solver: Solving, args: tuple[Term, ...], s: Substitution
                  ) -> Iterator[Substitution]:
    lists, end = _skip_list(args[0], s)
    if end != NIL:
        raise instantiation_error() if isinstance(end, Var) else type_error("list", end)
    items: list[Term] = []
    for part in lists:
        found, part_end = _skip_list(part, s)
        if part_end != NIL:
            raise instantiation_error()
        items.extend(found)
    yield from _unified(args[1], ListTerm(tuple(items)), s)


def _nth(base: int) -> Builtin:
    def nth(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
        index = walk(args[0], s)
        if isinstance(index, Int):
            position = index.value - base
            if position < 0:
                return
            items, end = _skip_list(args[1], s)
            if position < len(items):
                yield from _unified(args[2], items[position], s)
            elif isinstance(end, Var):
                missing = position - len(items)
                yield from _unified(end, ListTerm(
                    tuple(fresh_variable() for _ in range(missing)) + (args[2],),
                    fresh_variable()), s)
            return
        if not isinstance(index, Var):
            raise type_error("integer", index)
        for number, (element, extended) in enumerate(_elements(solver, args[1], s), start=base):
            found = unify(args[2], element, extended)
            if found is not None:
                found = unify(index, Int(number), found)
                if found is not None:
                    yield found
    return nth


BUILTINS["nth0", 3] = _nth(0)
BUILTINS["nth1", 3] = _nth(1)


@builtin("last", 2)
def _last(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    items, end = _skip_list(args[0], s)
    if end == NIL:
        if items:
            yield from _unified(args[1], items[-1], s)
        return
    if not isinstance(end, Var):
        return
    for extra in _growing(solver, 0 if items else 1):
        grown = unify(end, ListTerm(extra) if extra else NIL, s)
        if grown is not None:
            whole, _ = _skip_list(args[0], grown)
            yield from _unified(args[1], whole[-1], grown)


def _proper(term: Term, s: Substitution) -> tuple[Term, ...]:
    """The items of a list that ends; SWI-Prolog's errors for one that does not."""
    items, end = _skip_list(term, s)
    if end == NIL:
        return items
    if isinstance(end, Var):
        raise instantiation_error()
    raise type_error("list", resolve(term, s))


@builtin("reverse", 2)
def _reverse(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    items, end = _skip_list(args[0], s)
    if end != NIL:
        raise instantiation_error() if isinstance(end, Var) else type_error(
            "list", resolve(args[0], s))
    yield from _unified(args[1], ListTerm(tuple(reversed(items))), s)


def _sorted(items: tuple[Term, ...], s: Substitution, unique: bool, key: int = 0,
            descending: bool = False) -> ListTerm:
    resolved = [resolve(item, s) for item in items]

    def keyed(term: Term) -> Term:
        if key == 0:
            return term
        if not isinstance(term, Struct) or len(term.args) < key:
            raise type_error("compound", term)
        return term.args[key - 1]

    def by_key(a: Term, b: Term) -> int:
        return order(keyed(a), keyed(b))

    ordered = sorted(resolved, key=functools.cmp_to_key(by_key), reverse=descending)
    if unique:
        kept: list[Term] = []
        for term in ordered:
            if not kept or order(keyed(kept[-1]), keyed(term)) != 0:
                kept.append(term)
        ordered = kept
    return ListTerm(tuple(ordered))


@builtin("msort", 2)
def _msort(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    yield from _unified(args[1], _sorted(_proper(args[0], s), s, False), s)


@builtin("sort", 2)
def _sort(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    yield from _unified(args[1], _sorted(_proper(args[0], s), s, True), s)


@builtin("sort", 4)
def _sort4(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    key = _must_be_integer(args[0], s)
    how = walk(args[1], s)
    if not isinstance(how, Atom) or how.name not in ("@<", "@=<", "@>", "@>="):
        raise PrologError("domain error: order expected (@<, @=<, @> or @>=)",
                          Struct("domain_error", (Atom("order"), how)))
    yield from _unified(args[3], _sorted(_proper(args[2], s), s, how.name in ("@<", "@>"),
                                         key, how.name.startswith("@>")), s)


@builtin("keysort", 2)
def _keysort(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    pairs: list[Struct] = []
    for item in _proper(args[0], s):
        pair = resolve(item, s)
        if isinstance(pair, Var):
            raise instantiation_error()
        if not (isinstance(pair, Struct) and pair.name == "-" and len(pair.args) == 2):
            raise type_error("pair", pair)
        pairs.append(pair)

    def by_key(a: Struct, b: Struct) -> int:
        return order(a.args[0], b.args[0])

    ordered = sorted(pairs, key=functools.cmp_to_key(by_key))  # stable: equal keys keep order
    yield from _unified(args[1], ListTerm(tuple(ordered)), s)


@builtin("pairs_keys_values", 3)
def _pairs_keys_values(solver: Solving, args: tuple[Term, ...], s: Substitution
                       ) -> Iterator[Substitution]:
    pairs = walk(args[0], s)
    if isinstance(pairs, ListTerm) and pairs.tail is None:
        keys, values = [], []
        for pair in pairs.items:
            key, value = fresh_variable(), fresh_variable()
            s = unify(pair, Struct("-", (key, value)), s)  # type: ignore[assignment]
            if s is None:
                return
            keys.append(key)
            values.append(value)
        found = unify(args[1], ListTerm(tuple(keys)), s)
        if found is not None:
            yield from _unified(args[2], ListTerm(tuple(values)), found)
        return
    keys_items = _proper(args[1], s)
    values_items, end = _skip_list(args[2], s)
    if end == NIL and len(values_items) != len(keys_items):
        return
    values_items = values_items if end == NIL else tuple(
        fresh_variable() for _ in keys_items)
    found = unify(args[2], ListTerm(values_items), s)
    if found is not None:
        yield from _unified(pairs, ListTerm(tuple(
            Struct("-", (key, value)) for key, value in zip(keys_items, values_items,
                                                             strict=True))), found)


def _pairs_part(index: int) -> Builtin:
    def part(solver: Solving, args: tuple[Term, ...], s: Substitution
             ) -> Iterator[Substitution]:
        parts = []
        for pair in _proper(args[0], s):
            wanted = fresh_variable()
            other = fresh_variable()
            s = unify(pair, Struct("-", (wanted, other) if index == 0 else (other, wanted)),
                      s)  # type: ignore[assignment]
            if s is None:
                return
            parts.append(wanted)
        yield from _unified(args[1], ListTerm(tuple(parts)), s)
    return part


BUILTINS["pairs_keys", 2] = _pairs_part(0)
BUILTINS["pairs_values", 2] = _pairs_part(1)


@builtin("list_to_set", 2)
def _list_to_set(solver: Solving, args: tuple[Term, ...], s: Substitution
                 ) -> Iterator[Substitution]:
    kept: list[Term] = []
    for item in _proper(args[0], s):
        resolved = resolve(item, s)
        if all(order(resolved, other) != 0 for other in kept):
            kept.append(resolved)
    yield from _unified(args[1], ListTerm(tuple(kept)), s)


def _fold(start: Term | None, function: str) -> Builtin:
    def fold(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
        items = _proper(args[0], s)
        if start is None and not items:
            return
        total = evaluate(items[0], s) if start is None else start
        for item in items[1 if start is None else 0:]:
            total = evaluate(Struct(function, (total, item)), s)
        yield from _unified(args[1], total, s)
    return fold


BUILTINS["sum_list", 2] = BUILTINS["sumlist", 2] = _fold(Int(0), "+")
BUILTINS["max_list", 2] = _fold(None, "max")
BUILTINS["min_list", 2] = _fold(None, "min")


def _extreme_member(greatest: bool) -> Builtin:
    def extreme(solver: Solving, args: tuple[Term, ...], s: Substitution
                ) -> Iterator[Substitution]:
        items = [resolve(item, s) for item in _proper(args[1], s)]
        if not items:
            return
        best = items[0]
        for item in items[1:]:
            if (order(item, best) > 0) == greatest and order(item, best) != 0:
                best = item
        yield from _unified(args[0], best, s)
    return extreme


BUILTINS["max_member", 2] = _extreme_member(True)
BUILTINS["min_member", 2] = _extreme_member(False)


@builtin("numlist", 3)
def _numlist(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    low, high = _must_be_integer(args[0], s), _must_be_integer(args[1], s)
    if low > high:
        return
    if high - low >= MAX_LIST:
        raise _too_long()
    yield from _unified(args[2], ListTerm(tuple(Int(n) for n in range(low, high + 1))), s)


# --- finding all answers -------------------------------------------------------------------------

def _findall_items(solver: Solving, template: Term, goal: Term, s: Substitution
                   ) -> list[Term]:
    found = []
    for answer in solver.solve(goal, s, Cut()):
        found.append(copy_term(resolve(template, answer)))
        if len(found) > MAX_LIST:
            raise _too_long()
    return found


@builtin("findall", 3)
def _findall(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    found = _findall_items(solver, args[0], args[1], s)
    yield from _unified(args[2], ListTerm(tuple(found)), s)


@builtin("findall", 4)
def _findall4(solver: Solving, args: tuple[Term, ...], s: Substitution
              ) -> Iterator[Substitution]:
    found = _findall_items(solver, args[0], args[1], s)
    yield from _unified(args[2], ListTerm(tuple(found), args[3]), s)


@builtin("aggregate_all", 3)
def _aggregate_all(solver: Solving, args: tuple[Term, ...], s: Substitution
                   ) -> Iterator[Substitution]:
    spec = walk(args[0], s)
    if isinstance(spec, Atom) and spec.name == "count":
        yield from _unified(args[2], Int(len(_findall_items(solver, Atom("x"), args[1], s))),
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
        result = _sorted(tuple(items), {}, True)
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
    yield from _unified(args[2], result, s)


# --- terms ---------------------------------------------------------------------------------------

@builtin("functor", 3)
def _functor(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    term = walk(args[0], s)
    if isinstance(term, Var):
        name, arity = walk(args[1], s), _must_be_integer(args[2], s)
        if arity == 0:
            yield from _unified(term, name, s)
        elif isinstance(name, Atom):
            if arity > MAX_LIST:
                raise _too_long()
            yield from _unified(term, Struct(name.name, tuple(
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
        yield from _unified(args[2], arity_term, found)


def _arguments(term: Term) -> tuple[Term, ...]:
    if isinstance(term, Struct):
        return term.args
    if isinstance(term, ListTerm) and term != NIL:
        return _parts(term)[1]
    raise type_error("compound", term)


@builtin("arg", 3)
def _arg(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    term = walk(args[1], s)
    if isinstance(term, Var):
        raise instantiation_error()
    arguments = _arguments(term)
    index = walk(args[0], s)
    if isinstance(index, Int):
        if 1 <= index.value <= len(arguments):
            yield from _unified(args[2], arguments[index.value - 1], s)
        return
    if not isinstance(index, Var):
        raise type_error("integer", index)
    for number, argument in enumerate(arguments, start=1):
        found = unify(args[2], argument, s)
        if found is not None:
            found = unify(index, Int(number), found)
            if found is not None:
                yield found


@builtin("=..", 2)
def _univ(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    term = walk(args[0], s)
    if not isinstance(term, Var):
        if isinstance(term, Struct):
            parts: tuple[Term, ...] = (Atom(term.name), *term.args)
        elif isinstance(term, ListTerm) and term != NIL:
            parts = (Atom("[|]"), *_parts(term)[1])
        else:
            parts = (term,)
        yield from _unified(args[1], ListTerm(parts), s)
        return
    items = _proper(args[1], s)
    if not items:
        raise PrologError("domain error: non_empty_list expected, found []",
                          Struct("domain_error", (Atom("non_empty_list"), NIL)))
    name = walk(items[0], s)
    if len(items) == 1:
        yield from _unified(term, name, s)
    elif isinstance(name, Atom):
        yield from _unified(term, Struct(name.name, items[1:]), s)
    elif isinstance(name, Var):
        raise instantiation_error()
    else:
        raise type_error("atom", name)


@builtin("copy_term", 2)
def _copy_term(solver: Solving, args: tuple[Term, ...], s: Substitution
               ) -> Iterator[Substitution]:
    yield from _unified(args[1], copy_term(resolve(args[0], s)), s)


@builtin("throw", 1)
def _throw(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    ball = copy_term(resolve(args[0], s))
    if isinstance(ball, Var):
        raise instantiation_error()
    if isinstance(ball, Struct) and ball.name == "error" and len(ball.args) == 2:
        raise PrologError(f"unhandled error: {format_term(ball.args[0])}", ball.args[0])
    raise PrologError(f"unhandled exception: {format_term(ball)}", Struct("$thrown", (ball,)))


# --- atoms and strings ---------------------------------------------------------------------------

def _text_of(term: Term, s: Substitution) -> str:
    """The text of an atom, string, number or code or character list (SWI-Prolog's text)."""
    term = walk(term, s)
    if isinstance(term, Var):
        raise instantiation_error()
    if isinstance(term, Atom):
        return term.name
    if isinstance(term, String):
        return term.text
    if isinstance(term, Int | Float):
        return format_number(term)
    if isinstance(term, ListTerm):
        items = _proper(term, s)
        chars = []
        for item in items:
            item = walk(item, s)
            if isinstance(item, Int) and 0 <= item.value <= 0x10FFFF:
                chars.append(chr(item.value))
            elif isinstance(item, Atom) and len(item.name) == 1:
                chars.append(item.name)
            elif isinstance(item, Var):
                raise instantiation_error()
            else:
                raise type_error("text", resolve(term, s))
        return "".join(chars)
    raise type_error("atomic", resolve(term, s))


def _number_of(text: str) -> Int | Float | None:
    """The number `text` reads as, as SWI-Prolog's number syntax reads it; None if none."""
    from minimax_lab.logic.toplevel.errors import GoalSyntaxError, ToplevelError
    from minimax_lab.logic.toplevel.reader import Parser

    if not text or text != text.rstrip() or text.strip().endswith("."):
        return None
    try:
        read = Parser(text, check_length=False).read()
    except (GoalSyntaxError, ToplevelError, RecursionError):
        return None
    term = read.term
    if isinstance(term, Struct) and term.name in "+-" and len(term.args) == 1 and isinstance(
            term.args[0], Int | Float):
        return term.args[0] if term.name == "+" else (
            Int(-term.args[0].value) if isinstance(term.args[0], Int)
            else Float(-term.args[0].value))
    return term if isinstance(term, Int | Float) else None


@builtin("atom_length", 2)
def _atom_length(solver: Solving, args: tuple[Term, ...], s: Substitution
                 ) -> Iterator[Substitution]:
    length = walk(args[1], s)
    if not isinstance(length, Var | Int):
        raise type_error("integer", length)
    yield from _unified(length, Int(len(_text_of(args[0], s))), s)


BUILTINS["string_length", 2] = _atom_length


def _split_text(kind: Callable[[str], Term]) -> Builtin:
    """atom_chars/2 and the like: text to a list, or a list back to text."""
    def convert(solver: Solving, args: tuple[Term, ...], s: Substitution
                ) -> Iterator[Substitution]:
        text_term = walk(args[0], s)
        if not isinstance(text_term, Var):
            yield from _unified(args[1], ListTerm(tuple(
                kind(char) for char in _text_of(text_term, s))), s)
            return
        yield from _unified(text_term, Atom(_text_of(args[1], s)), s)
    return convert


def _char(char: str) -> Term:
    return Atom(char)


def _code(char: str) -> Term:
    return Int(ord(char))


BUILTINS["atom_chars", 2] = _split_text(_char)
BUILTINS["atom_codes", 2] = _split_text(_code)


def _string_split(kind: Callable[[str], Term]) -> Builtin:
    def convert(solver: Solving, args: tuple[Term, ...], s: Substitution
                ) -> Iterator[Substitution]:
        text_term = walk(args[0], s)
        if not isinstance(text_term, Var):
            yield from _unified(args[1], ListTerm(tuple(
                kind(char) for char in _text_of(text_term, s))), s)
            return
        yield from _unified(text_term, String(_text_of(args[1], s)), s)
    return convert


BUILTINS["string_chars", 2] = _string_split(_char)
BUILTINS["string_codes", 2] = _string_split(_code)


@builtin("char_code", 2)
def _char_code(solver: Solving, args: tuple[Term, ...], s: Substitution
               ) -> Iterator[Substitution]:
    char = walk(args[0], s)
    if isinstance(char, Atom) and len(char.name) == 1:
        yield from _unified(args[1], Int(ord(char.name)), s)
        return
    if not isinstance(char, Var):
        raise type_error("character", char)
    code = _must_be_integer(args[1], s)
    yield from _unified(char, Atom(chr(code)), s)


@builtin("atom_number", 2)
def _atom_number(solver: Solving, args: tuple[Term, ...], s: Substitution
                 ) -> Iterator[Substitution]:
    atom = walk(args[0], s)
    if isinstance(atom, Var):
        number = walk(args[1], s)
        if isinstance(number, Var):
            raise instantiation_error()
        if not isinstance(number, Int | Float):
            raise type_error("number", number)
        yield from _unified(atom, Atom(format_number(number)), s)
        return
    if not isinstance(atom, Atom):
        raise type_error("atom", atom)
    number_read = _number_of(atom.name)
    if number_read is not None:
        yield from _unified(args[1], number_read, s)


def _number_text(listed: bool, kind: Callable[[str], Term] = _code) -> Builtin:
    def convert(solver: Solving, args: tuple[Term, ...], s: Substitution
                ) -> Iterator[Substitution]:
        number = walk(args[0], s)
        if not isinstance(number, Var):
            if not isinstance(number, Int | Float):
                raise type_error("number", number)
            text = format_number(number)
            yield from _unified(args[1], ListTerm(tuple(kind(char) for char in text))
                                if listed else String(text), s)
            return
        text = _text_of(args[1], s)
        read = _number_of(text)
        if read is None:
            raise PrologError(f"syntax error: illegal number {text!r}",
                              Struct("syntax_error", (Atom("illegal_number"),)))
        yield from _unified(number, read, s)
    return convert


BUILTINS["number_codes", 2] = _number_text(True)
BUILTINS["number_chars", 2] = _number_text(True, _char)


@builtin("number_string", 2)
def _number_string(solver: Solving, args: tuple[Term, ...], s: Substitution
                   ) -> Iterator[Substitution]:
    number = walk(args[0], s)
    if not isinstance(number, Var):
        yield from _number_text(False)(solver, args, s)
        return
    text = _text_of(args[1], s)
    read = _number_of(text) if text == text.strip() else None
    if read is not None:  # no number: it fails, where number_codes/2 raises an error
        yield from _unified(number, read, s)


@builtin("atom_string", 2)
def _atom_string(solver: Solving, args: tuple[Term, ...], s: Substitution
                 ) -> Iterator[Substitution]:
    atom = walk(args[0], s)
    if not isinstance(atom, Var):
        yield from _unified(args[1], String(_text_of(atom, s)), s)
        return
    yield from _unified(atom, Atom(_text_of(args[1], s)), s)


@builtin("string_to_atom", 2)
def _string_to_atom(solver: Solving, args: tuple[Term, ...], s: Substitution
                    ) -> Iterator[Substitution]:
    string = walk(args[0], s)
    if not isinstance(string, Var):
        yield from _unified(args[1], Atom(_text_of(string, s)), s)
        return
    yield from _unified(string, String(_text_of(args[1], s)), s)


def _concat(make: Callable[[str], Term]) -> Builtin:
    def concat(solver: Solving, args: tuple[Term, ...], s: Substitution
               ) -> Iterator[Substitution]:
        left, right = walk(args[0], s), walk(args[1], s)
        if not isinstance(left, Var) and not isinstance(right, Var):
            yield from _unified(args[2], make(_text_of(left, s) + _text_of(right, s)), s)
            return
        whole_term = walk(args[2], s)
        if isinstance(whole_term, Var):
            raise instantiation_error()
        whole = _text_of(whole_term, s)
        for cut in range(len(whole) + 1):
            found = unify(left, make(whole[:cut]), s)
            if found is not None:
                found = unify(right, make(whole[cut:]), found)
                if found is not None:
                    yield found
    return concat


BUILTINS["atom_concat", 3] = _concat(Atom)
BUILTINS["string_concat", 3] = _concat(String)


@builtin("upcase_atom", 2)
def _upcase_atom(solver: Solving, args: tuple[Term, ...], s: Substitution
                 ) -> Iterator[Substitution]:
    yield from _unified(args[1], Atom(_text_of(args[0], s).upper()), s)


@builtin("downcase_atom", 2)
def _downcase_atom(solver: Solving, args: tuple[Term, ...], s: Substitution
                   ) -> Iterator[Substitution]:
    yield from _unified(args[1], Atom(_text_of(args[0], s).lower()), s)


@builtin("string_upper", 2)
def _string_upper(solver: Solving, args: tuple[Term, ...], s: Substitution
                  ) -> Iterator[Substitution]:
    yield from _unified(args[1], String(_text_of(args[0], s).upper()), s)


@builtin("string_lower", 2)
def _string_lower(solver: Solving, args: tuple[Term, ...], s: Substitution
                  ) -> Iterator[Substitution]:
    yield from _unified(args[1], String(_text_of(args[0], s).lower()), s)


@builtin("atomic_list_concat", 2)
def _atomic_list_concat(solver: Solving, args: tuple[Term, ...], s: Substitution
                        ) -> Iterator[Substitution]:
    parts = [_text_of(part, s) for part in _proper(args[0], s)]
    yield from _unified(args[1], Atom("".join(parts)), s)


@builtin("atomic_list_concat", 3)
def _atomic_list_concat3(solver: Solving, args: tuple[Term, ...], s: Substitution
                         ) -> Iterator[Substitution]:
    separator = _text_of(args[1], s)
    items, end = _skip_list(args[0], s)
    if end == NIL and all(not isinstance(walk(item, s), Var) for item in items):
        yield from _unified(args[2], Atom(separator.join(_text_of(item, s) for item in items)),
                            s)
        return
    whole = walk(args[2], s)
    if isinstance(whole, Var) or not separator:
        raise instantiation_error()
    pieces = _text_of(whole, s).split(separator)
    yield from _unified(args[0], ListTerm(tuple(Atom(piece) for piece in pieces)), s)


@builtin("sub_atom", 5)
def _sub_atom(solver: Solving, args: tuple[Term, ...], s: Substitution
              ) -> Iterator[Substitution]:
    yield from _sub_text(args, s, Atom)


@builtin("sub_string", 5)
def _sub_string(solver: Solving, args: tuple[Term, ...], s: Substitution
                ) -> Iterator[Substitution]:
    yield from _sub_text(args, s, String)


def _sub_text(args: tuple[Term, ...], s: Substitution, make: Callable[[str], Term]
              ) -> Iterator[Substitution]:
    text = _text_of(args[0], s)
    sub = walk(args[4], s)
    length = len(text)
    if not isinstance(sub, Var):
        wanted = _text_of(sub, s)
        start = text.find(wanted)
        while start >= 0:
            found = _all_unified(s, (args[1], Int(start)), (args[2], Int(len(wanted))),
                                 (args[3], Int(length - start - len(wanted))))
            if found is not None:
                yield found
            start = text.find(wanted, start + 1)
        return
    for before in range(length + 1):
        for size in range(length - before + 1):
            found = _all_unified(s, (args[1], Int(before)), (args[2], Int(size)),
                                 (args[3], Int(length - before - size)),
                                 (sub, make(text[before:before + size])))
            if found is not None:
                yield found


def _all_unified(s: Substitution | None, *pairs: tuple[Term, Term]) -> Substitution | None:
    for left, right in pairs:
        if s is None:
            return None
        s = unify(left, right, s)
    return s


@builtin("term_to_atom", 2)
def _term_to_atom(solver: Solving, args: tuple[Term, ...], s: Substitution
                  ) -> Iterator[Substitution]:
    from minimax_lab.logic.toplevel.reader import Parser

    term = walk(args[0], s)
    if not isinstance(term, Var):
        yield from _unified(args[1], Atom(format_term(resolve(term, s))), s)
        return
    read = Parser(_text_of(args[1], s)).read()
    yield from _unified(term, read.term, s)


# --- output ------------------------------------------------------------------------------------

def _writer(quoted: bool, newline: bool = False) -> Builtin:
    def write(solver: Solving, args: tuple[Term, ...], s: Substitution
              ) -> Iterator[Substitution]:
        solver.context.out(show(resolve(args[0], s), quoted) + ("\n" if newline else ""))
        yield s
    return write


def show(term: Term, quoted: bool) -> str:
    """A term as write/1 (`quoted` False) or writeq/1 and print/1 write it."""
    text = format_term(term)
    if quoted:
        return text
    if isinstance(term, Atom):
        return term.name
    if isinstance(term, String):
        return term.text
    return format_term(term, quoted=False)


BUILTINS["write", 1] = _writer(False)
BUILTINS["print", 1] = _writer(True)
BUILTINS["writeq", 1] = _writer(True)


@builtin("write_canonical", 1)
def _write_canonical(solver: Solving, args: tuple[Term, ...], s: Substitution
                     ) -> Iterator[Substitution]:
    solver.context.out(canonical(resolve(args[0], s)))
    yield s


def canonical(term: Term) -> str:
    """A term as write_canonical/1 writes it: quoted, without operators."""
    if isinstance(term, Struct):
        return (format_term(Atom(term.name)) + "("
                + ",".join(canonical(arg) for arg in term.args) + ")")
    if isinstance(term, ListTerm):
        tail = "" if term.tail is None else "|" + canonical(term.tail)
        return "[" + ",".join(canonical(item) for item in term.items) + tail + "]"
    if isinstance(term, Atom) and term.name in ("-", "+"):
        return term.name
    return format_term(term)
BUILTINS["writeln", 1] = _writer(False, newline=True)


@builtin("nl", 0)
def _nl(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    solver.context.out("\n")
    yield s


@builtin("tab", 1)
def _tab(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    count = evaluate(args[0], s)
    if not isinstance(count, Int):
        raise type_error("integer", count)
    solver.context.out(" " * min(max(count.value, 0), MAX_LIST))
    yield s


@builtin("put_char", 1)
def _put_char(solver: Solving, args: tuple[Term, ...], s: Substitution
              ) -> Iterator[Substitution]:
    char = walk(args[0], s)
    if isinstance(char, Var):
        raise instantiation_error()
    if not isinstance(char, Atom) or len(char.name) != 1:
        raise type_error("character", char)
    solver.context.out(char.name)
    yield s


@builtin("format", 1)
def _format1(solver: Solving, args: tuple[Term, ...], s: Substitution
             ) -> Iterator[Substitution]:
    format_text(_text_of(args[0], s), [], s, solver.context.out)
    yield s


@builtin("format", 2)
def _format2(solver: Solving, args: tuple[Term, ...], s: Substitution
             ) -> Iterator[Substitution]:
    values = walk(args[1], s)
    listed: list[Term] = list(_proper(values, s)) if isinstance(values, ListTerm) else [values]
    format_text(_text_of(args[0], s), listed, s, solver.context.out)
    yield s


def format_error(message: str) -> PrologError:
    return PrologError(f"format: {message}", Struct("format", (Atom(message),)))


def format_text(control: str, values: list[Term], s: Substitution,
                out: Callable[[str], None]) -> None:
    """format/2's output: `~w`, `~p`, `~q`, `~a`, `~d`, `~D`, `~s`, `~e`, `~f`, `~g`, `~n`,
    `~c`, `~r`, `~e`, `~i`, `~*c` and `~~`; column stops (`~t`, `~|`, `~+`) write nothing."""
    written: list[str] = []
    try:
        _format(control, values, s, written)
    finally:  # what was formatted before an error is written, as SWI-Prolog writes it
        out("".join(written))


def _format(control: str, values: list[Term], s: Substitution, out: list[str]) -> None:
    pending = list(values)
    index = 0

    def take() -> Term:
        if not pending:
            raise format_error("not enough arguments")
        return walk(pending.pop(0), s)

    while index < len(control):
        char = control[index]
        if char != "~":
            out.append(char)
            index += 1
            continue
        index += 1
        argument = ""
        while index < len(control) and (control[index].isdigit() or control[index] == "*"):
            if control[index] == "*":
                number = take()
                if not isinstance(number, Int):
                    raise format_error("~* takes an integer")
                argument += str(number.value)
            else:
                argument += control[index]
            index += 1
        if index >= len(control):
            raise format_error("the control text ends in ~")
        directive = control[index]
        index += 1
        count = int(argument) if argument else None
        if directive == "~":
            out.append("~")
        elif directive == "n":
            out.append("\n" * (count or 1))
        elif directive in "wpqa":
            term = resolve(take(), s)
            out.append(show(term, directive in "pq"))
        elif directive in "dD":
            number = evaluate(take(), s)
            if not isinstance(number, Int):
                raise format_error(f"~{directive} expects an integer argument")
            digits = str(abs(number.value))
            fraction = ""
            if count:
                digits = digits.rjust(count + 1, "0")
                digits, fraction = digits[:-count], "." + digits[-count:]
            if directive == "D":
                digits = f"{int(digits):,}"
            out.append(("-" if number.value < 0 else "") + digits + fraction)
        elif directive in "efg":
            value = evaluate(take(), s)
            precision = 6 if count is None else count
            out.append(f"{float(value.value):.{precision}{directive}}")
        elif directive == "s":
            out.append(_text_of(take(), s))
        elif directive == "c":
            code = take()
            if not isinstance(code, Int):
                raise format_error("~c expects a character code")
            out.append(chr(code.value) * (count or 1))
        elif directive == "r":
            number = take()
            if not isinstance(number, Int) or count is None or not 2 <= count <= 36:
                raise format_error("~Nr expects a radix N from 2 to 36 and an integer")
            out.append(_radix(number.value, count))
        elif directive == "i":
            take()
        elif directive in "t|+":
            continue
        else:
            raise format_error(f"unknown directive ~{directive}")
    if pending:
        raise format_error("too many arguments")


def _radix(value: int, base: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    if value == 0:
        return "0"
    sign, value = ("-", -value) if value < 0 else ("", value)
    out = []
    while value:
        value, digit = divmod(value, base)
        out.append(digits[digit])
    return sign + "".join(reversed(out))


# --- the session ---------------------------------------------------------------------------------

def session_goal(solver: Solving, name: str, goal: Term, s: Substitution
                 ) -> Iterator[Substitution]:
    """`help.`, `listing(P).`, `trace.`, `[file].`, `consult(F).`, `make.`, `halt.`"""
    if name == "halt":
        raise Halt
    commands = solver.context.commands
    if commands is None:
        raise PrologError(f"{name} works in the interactive top level (minimax-lab repl)",
                          Struct("permission_error", (Atom("call"), Atom(name))))
    argument = resolve(goal.args[0], s) if isinstance(goal, Struct) else None
    if name == "help":
        commands.help(argument)
    elif name == "listing":
        commands.listing(argument)
    elif name in ("trace", "notrace", "nodebug"):
        commands.trace(name == "trace")
    elif name == "make":
        commands.make()
    else:
        files = goal if name == "consult" and isinstance(goal, ListTerm) else argument
        assert files is not None
        if isinstance(files, Var) or (isinstance(files, ListTerm) and files.tail is not None):
            raise instantiation_error()
        commands.consult(list(as_list(files).items) if isinstance(files, ListTerm)
                         else [files])
    yield s
