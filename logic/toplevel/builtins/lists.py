"""The lists family: `length/2`, `member/2`, `append/3`, the sorts, the pairs, the folds.
A list whose end is open is grown one item at a time, each a step of work."""

from __future__ import annotations

import functools
from collections.abc import Iterator

from minimax_lab.logic.toplevel.arithmetic import evaluate, instantiation_error, type_error
from minimax_lab.logic.toplevel.builtins.order import order
from minimax_lab.logic.toplevel.builtins.registry import Builtin, Family
from minimax_lab.logic.toplevel.builtins.support import (
    MAX_GROWN,
    MAX_LIST,
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

register = Family("lists")


def skip_list(term: Term, s: Substitution) -> tuple[tuple[Term, ...], Term]:
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


@register("length", 2, "length(List, N): List has N items")
def _length(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    items, end = skip_list(args[0], s)
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
                    raise too_long()
                yield from unified(end, _fresh_list(extra) if extra else NIL, s)
        else:
            raise type_error("list", resolve(args[0], s))
        return
    if not isinstance(length, Var):
        raise type_error("integer", length)
    if end == NIL:
        yield from unified(length, Int(len(items)), s)
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



def _elements(solver: Solving, term: Term, s: Substitution
              ) -> Iterator[tuple[Term, Substitution]]:
    """Each element of a (partial) list in turn, as member/2 finds it: the items known, then
    for a list whose end is open, a new last item each time, without end (each a step)."""
    items, end = skip_list(term, s)
    for item in items:
        yield item, s
    if isinstance(end, Var):
        for before in _growing(solver):
            element = fresh_variable()
            grown = unify(end, ListTerm(before + (element,), fresh_variable()), s)
            if grown is not None:
                yield element, grown


@register("member", 2, "member(X, List): X is an item of List, each in turn")
def _member(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    for element, extended in _elements(solver, args[1], s):
        yield from unified(args[0], element, extended)


@register("memberchk", 2, "memberchk(X, List): X is the first item of List it unifies with")
def _memberchk(solver: Solving, args: tuple[Term, ...], s: Substitution
               ) -> Iterator[Substitution]:
    _, end = skip_list(args[1], s)
    if end != NIL and not isinstance(end, Var):  # SWI-Prolog's is in C, and checks its list
        raise type_error("list", resolve(args[1], s))
    for element, extended in _elements(solver, args[1], s):
        found = unify(args[0], element, extended)
        if found is not None:
            yield found
            return


@register("append", 3, "append(L1, L2, L3): L3 is L1 then L2")
def _append(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    front, back, whole = args
    items, end = skip_list(front, s)
    if end == NIL:  # the first list is known: one answer
        yield from unified(whole, ListTerm(items, back) if items else back, s)
        return
    for _ in _growing(solver):  # append([], L, L). append([H|T], L, [H|R]) :- append(T, L, R).
        empty = unify(front, NIL, s)
        if empty is not None:
            yield from unified(back, whole, empty)
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


@register("append", 2, "append(Lists, List): List is the lists of Lists, one after another")
def _append_lists(solver: Solving, args: tuple[Term, ...], s: Substitution
                  ) -> Iterator[Substitution]:
    lists, end = skip_list(args[0], s)
    if end != NIL:
        raise instantiation_error() if isinstance(end, Var) else type_error("list", end)
    items: list[Term] = []
    for part in lists:
        found, part_end = skip_list(part, s)
        if part_end != NIL:
            raise instantiation_error()
        items.extend(found)
    yield from unified(args[1], ListTerm(tuple(items)), s)


def _nth(base: int) -> Builtin:
    def nth(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
        index = walk(args[0], s)
        if isinstance(index, Int):
            position = index.value - base
            if position < 0:
                return
            items, end = skip_list(args[1], s)
            if position < len(items):
                yield from unified(args[2], items[position], s)
            elif isinstance(end, Var):
                missing = position - len(items)
                yield from unified(end, ListTerm(
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


register("nth0", 3, "nth0(I, List, X): X is item I of List, counted from 0")(_nth(0))
register("nth1", 3, "nth1(I, List, X): X is item I of List, counted from 1")(_nth(1))


@register("last", 2, "last(List, X): X is the last item of List")
def _last(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    items, end = skip_list(args[0], s)
    if end == NIL:
        if items:
            yield from unified(args[1], items[-1], s)
        return
    if not isinstance(end, Var):
        return
    for extra in _growing(solver, 0 if items else 1):
        grown = unify(end, ListTerm(extra) if extra else NIL, s)
        if grown is not None:
            whole, _ = skip_list(args[0], grown)
            yield from unified(args[1], whole[-1], grown)


def proper(term: Term, s: Substitution) -> tuple[Term, ...]:
    """The items of a list that ends; SWI-Prolog's errors for one that does not."""
    items, end = skip_list(term, s)
    if end == NIL:
        return items
    if isinstance(end, Var):
        raise instantiation_error()
    raise type_error("list", resolve(term, s))


@register("reverse", 2, "reverse(List, Reversed): List's items in the other order")
def _reverse(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    items, end = skip_list(args[0], s)
    if end != NIL:
        raise instantiation_error() if isinstance(end, Var) else type_error(
            "list", resolve(args[0], s))
    yield from unified(args[1], ListTerm(tuple(reversed(items))), s)


def sort_terms(items: tuple[Term, ...], s: Substitution, unique: bool, key: int = 0,
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


@register("msort", 2, "msort(List, Sorted): List in the standard order, repeats kept")
def _msort(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    yield from unified(args[1], sort_terms(proper(args[0], s), s, False), s)


@register("sort", 2, "sort(List, Sorted): List in the standard order, repeats left out")
def _sort(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    yield from unified(args[1], sort_terms(proper(args[0], s), s, True), s)


@register("sort", 4,
          "sort(Key, Order, List, Sorted): List sorted on argument Key by Order (@<, ...)")
def _sort4(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    key = must_be_integer(args[0], s)
    how = walk(args[1], s)
    if not isinstance(how, Atom) or how.name not in ("@<", "@=<", "@>", "@>="):
        raise PrologError("domain error: order expected (@<, @=<, @> or @>=)",
                          Struct("domain_error", (Atom("order"), how)))
    yield from unified(args[3], sort_terms(proper(args[2], s), s, how.name in ("@<", "@>"),
                                           key, how.name.startswith("@>")), s)


@register("keysort", 2,
          "keysort(Pairs, Sorted): Key-Value pairs sorted by key, equal keys in order")
def _keysort(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    pairs: list[Struct] = []
    for item in proper(args[0], s):
        pair = resolve(item, s)
        if isinstance(pair, Var):
            raise instantiation_error()
        if not (isinstance(pair, Struct) and pair.name == "-" and len(pair.args) == 2):
            raise type_error("pair", pair)
        pairs.append(pair)

    def by_key(a: Struct, b: Struct) -> int:
        return order(a.args[0], b.args[0])

    ordered = sorted(pairs, key=functools.cmp_to_key(by_key))  # stable: equal keys keep order
    yield from unified(args[1], ListTerm(tuple(ordered)), s)


@register("pairs_keys_values", 3,
          "pairs_keys_values(Pairs, Keys, Values): Pairs is Key-Value pairs")
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
            yield from unified(args[2], ListTerm(tuple(values)), found)
        return
    keys_items = proper(args[1], s)
    values_items, end = skip_list(args[2], s)
    if end == NIL and len(values_items) != len(keys_items):
        return
    values_items = values_items if end == NIL else tuple(
        fresh_variable() for _ in keys_items)
    found = unify(args[2], ListTerm(values_items), s)
    if found is not None:
        yield from unified(pairs, ListTerm(tuple(
            Struct("-", (key, value)) for key, value in zip(keys_items, values_items,
                                                            strict=True))), found)


def _pairs_part(index: int) -> Builtin:
    def part(solver: Solving, args: tuple[Term, ...], s: Substitution
             ) -> Iterator[Substitution]:
        parts = []
        for pair in proper(args[0], s):
            wanted = fresh_variable()
            other = fresh_variable()
            s = unify(pair, Struct("-", (wanted, other) if index == 0 else (other, wanted)),
                      s)  # type: ignore[assignment]
            if s is None:
                return
            parts.append(wanted)
        yield from unified(args[1], ListTerm(tuple(parts)), s)
    return part


register("pairs_keys", 2, "pairs_keys(Pairs, Keys): the keys of Key-Value pairs")(_pairs_part(0))
register("pairs_values", 2, "pairs_values(Pairs, Values): the values of Key-Value pairs")(
    _pairs_part(1))


@register("list_to_set", 2, "list_to_set(List, Set): List's items, the first of each kept")
def _list_to_set(solver: Solving, args: tuple[Term, ...], s: Substitution
                 ) -> Iterator[Substitution]:
    kept: list[Term] = []
    for item in proper(args[0], s):
        resolved = resolve(item, s)
        if all(order(resolved, other) != 0 for other in kept):
            kept.append(resolved)
    yield from unified(args[1], ListTerm(tuple(kept)), s)


def _fold(start: Term | None, function: str) -> Builtin:
    def fold(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
        items = proper(args[0], s)
        if start is None and not items:
            return
        total = evaluate(items[0], s) if start is None else start
        for item in items[1 if start is None else 0:]:
            total = evaluate(Struct(function, (total, item)), s)
        yield from unified(args[1], total, s)
    return fold


register("sum_list", 2, "sum_list(List, Sum): Sum is the sum of List's numbers")(
    _fold(Int(0), "+"))
register("sumlist", 2, "sumlist(List, Sum): as sum_list/2")(_fold(Int(0), "+"))
register("max_list", 2, "max_list(List, Max): Max is the greatest of List's numbers")(
    _fold(None, "max"))
register("min_list", 2, "min_list(List, Min): Min is the least of List's numbers")(
    _fold(None, "min"))


def _extreme_member(greatest: bool) -> Builtin:
    def extreme(solver: Solving, args: tuple[Term, ...], s: Substitution
                ) -> Iterator[Substitution]:
        items = [resolve(item, s) for item in proper(args[1], s)]
        if not items:
            return
        best = items[0]
        for item in items[1:]:
            if (order(item, best) > 0) == greatest and order(item, best) != 0:
                best = item
        yield from unified(args[0], best, s)
    return extreme


register("max_member", 2, "max_member(Max, List): Max is List's last item in the standard order")(
    _extreme_member(True))
register("min_member", 2, "min_member(Min, List): Min is List's first item in the standard order")(
    _extreme_member(False))


@register("numlist", 3, "numlist(Low, High, List): List is the integers from Low to High")
def _numlist(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    low, high = must_be_integer(args[0], s), must_be_integer(args[1], s)
    if low > high:
        return
    if high - low >= MAX_LIST:
        raise too_long()
    yield from unified(args[2], ListTerm(tuple(Int(n) for n in range(low, high + 1))), s)
