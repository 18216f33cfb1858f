"""The atoms and strings family: SWI-Prolog's text (an atom, a string, a number, a list
of codes or characters) measured, split, joined, converted; `term_to_atom/2`."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from minimax_lab.logic.toplevel.arithmetic import instantiation_error, type_error
from minimax_lab.logic.toplevel.builtins.lists import proper, skip_list
from minimax_lab.logic.toplevel.builtins.registry import Builtin, Family
from minimax_lab.logic.toplevel.builtins.support import must_be_integer, unified
from minimax_lab.logic.toplevel.context import Solving
from minimax_lab.logic.toplevel.errors import PrologError
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
    format_number,
    format_term,
    resolve,
    unify,
    walk,
)

register = Family("atoms and strings")


def text_of(term: Term, s: Substitution) -> str:
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
        items = proper(term, s)
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


def number_of(text: str) -> Int | Float | None:
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


@register("atom_length", 2, "atom_length(Atom, N): Atom has N characters")
def _atom_length(solver: Solving, args: tuple[Term, ...], s: Substitution
                 ) -> Iterator[Substitution]:
    length = walk(args[1], s)
    if not isinstance(length, Var | Int):
        raise type_error("integer", length)
    yield from unified(length, Int(len(text_of(args[0], s))), s)


register("string_length", 2, "string_length(String, N): String has N characters")(_atom_length)


def _split_text(kind: Callable[[str], Term]) -> Builtin:
    """atom_chars/2 and the like: text to a list, or a list back to text."""
    def convert(solver: Solving, args: tuple[Term, ...], s: Substitution
                ) -> Iterator[Substitution]:
        text_term = walk(args[0], s)
        if not isinstance(text_term, Var):
            yield from unified(args[1], ListTerm(tuple(
                kind(char) for char in text_of(text_term, s))), s)
            return
        yield from unified(text_term, Atom(text_of(args[1], s)), s)
    return convert


def _char(char: str) -> Term:
    return Atom(char)


def _code(char: str) -> Term:
    return Int(ord(char))


register("atom_chars", 2, "atom_chars(Atom, Chars): Atom as a list of characters")(
    _split_text(_char))
register("atom_codes", 2, "atom_codes(Atom, Codes): Atom as a list of character codes")(
    _split_text(_code))


def _string_split(kind: Callable[[str], Term]) -> Builtin:
    def convert(solver: Solving, args: tuple[Term, ...], s: Substitution
                ) -> Iterator[Substitution]:
        text_term = walk(args[0], s)
        if not isinstance(text_term, Var):
            yield from unified(args[1], ListTerm(tuple(
                kind(char) for char in text_of(text_term, s))), s)
            return
        yield from unified(text_term, String(text_of(args[1], s)), s)
    return convert


register("string_chars", 2, "string_chars(String, Chars): String as a list of characters")(
    _string_split(_char))
register("string_codes", 2, "string_codes(String, Codes): String as a list of character codes")(
    _string_split(_code))


@register("char_code", 2, "char_code(Char, Code): Code is the character code of Char")
def _char_code(solver: Solving, args: tuple[Term, ...], s: Substitution
               ) -> Iterator[Substitution]:
    char = walk(args[0], s)
    if isinstance(char, Atom) and len(char.name) == 1:
        yield from unified(args[1], Int(ord(char.name)), s)
        return
    if not isinstance(char, Var):
        raise type_error("character", char)
    code = must_be_integer(args[1], s)
    yield from unified(char, Atom(chr(code)), s)


@register("atom_number", 2, "atom_number(Atom, Number): Atom read as a number, or a number written")
def _atom_number(solver: Solving, args: tuple[Term, ...], s: Substitution
                 ) -> Iterator[Substitution]:
    atom = walk(args[0], s)
    if isinstance(atom, Var):
        number = walk(args[1], s)
        if isinstance(number, Var):
            raise instantiation_error()
        if not isinstance(number, Int | Float):
            raise type_error("number", number)
        yield from unified(atom, Atom(format_number(number)), s)
        return
    if not isinstance(atom, Atom):
        raise type_error("atom", atom)
    number_read = number_of(atom.name)
    if number_read is not None:
        yield from unified(args[1], number_read, s)


def _number_text(listed: bool, kind: Callable[[str], Term] = _code) -> Builtin:
    def convert(solver: Solving, args: tuple[Term, ...], s: Substitution
                ) -> Iterator[Substitution]:
        number = walk(args[0], s)
        if not isinstance(number, Var):
            if not isinstance(number, Int | Float):
                raise type_error("number", number)
            text = format_number(number)
            yield from unified(args[1], ListTerm(tuple(kind(char) for char in text))
                               if listed else String(text), s)
            return
        text = text_of(args[1], s)
        read = number_of(text)
        if read is None:
            raise PrologError(f"syntax error: illegal number {text!r}",
                              Struct("syntax_error", (Atom("illegal_number"),)))
        yield from unified(number, read, s)
    return convert


register("number_codes", 2, "number_codes(Number, Codes): Number as a list of character codes")(
    _number_text(True))
register("number_chars", 2, "number_chars(Number, Chars): Number as a list of characters")(
    _number_text(True, _char))


@register("number_string", 2, "number_string(Number, String): Number as a string")
def _number_string(solver: Solving, args: tuple[Term, ...], s: Substitution
                   ) -> Iterator[Substitution]:
    number = walk(args[0], s)
    if not isinstance(number, Var):
        yield from _number_text(False)(solver, args, s)
        return
    text = text_of(args[1], s)
    read = number_of(text) if text == text.strip() else None
    if read is not None:  # no number: it fails, where number_codes/2 raises an error
        yield from unified(number, read, s)


@register("atom_string", 2, "atom_string(Atom, String): Atom as a string")
def _atom_string(solver: Solving, args: tuple[Term, ...], s: Substitution
                 ) -> Iterator[Substitution]:
    atom = walk(args[0], s)
    if not isinstance(atom, Var):
        yield from unified(args[1], String(text_of(atom, s)), s)
        return
    yield from unified(atom, Atom(text_of(args[1], s)), s)


@register("string_to_atom", 2, "string_to_atom(String, Atom): String as an atom")
def _string_to_atom(solver: Solving, args: tuple[Term, ...], s: Substitution
                    ) -> Iterator[Substitution]:
    string = walk(args[0], s)
    if not isinstance(string, Var):
        yield from unified(args[1], Atom(text_of(string, s)), s)
        return
    yield from unified(string, String(text_of(args[1], s)), s)


def _concat(make: Callable[[str], Term]) -> Builtin:
    def concat(solver: Solving, args: tuple[Term, ...], s: Substitution
               ) -> Iterator[Substitution]:
        left, right = walk(args[0], s), walk(args[1], s)
        if not isinstance(left, Var) and not isinstance(right, Var):
            yield from unified(args[2], make(text_of(left, s) + text_of(right, s)), s)
            return
        whole_term = walk(args[2], s)
        if isinstance(whole_term, Var):
            raise instantiation_error()
        whole = text_of(whole_term, s)
        for cut in range(len(whole) + 1):
            found = unify(left, make(whole[:cut]), s)
            if found is not None:
                found = unify(right, make(whole[cut:]), found)
                if found is not None:
                    yield found
    return concat


register("atom_concat", 3, "atom_concat(A1, A2, A3): A3 is A1 then A2, or each way to split A3")(
    _concat(Atom))
register("string_concat", 3,
         "string_concat(S1, S2, S3): S3 is S1 then S2, or each way to split S3")(
    _concat(String))


def _recased(change: Callable[[str], str], make: Callable[[str], Term]) -> Builtin:
    def recased(solver: Solving, args: tuple[Term, ...], s: Substitution
                ) -> Iterator[Substitution]:
        yield from unified(args[1], make(change(text_of(args[0], s))), s)
    return recased


register("upcase_atom", 2, "upcase_atom(Text, Upper): Upper is Text in capitals, an atom")(
    _recased(str.upper, Atom))
register("downcase_atom", 2, "downcase_atom(Text, Lower): Lower is Text in small letters, an atom")(
    _recased(str.lower, Atom))
register("string_upper", 2, "string_upper(Text, Upper): Upper is Text in capitals, a string")(
    _recased(str.upper, String))
register("string_lower", 2, "string_lower(Text, Lower): Lower is Text in small letters, a string")(
    _recased(str.lower, String))


@register("atomic_list_concat", 2, "atomic_list_concat(List, Atom): Atom is List's items joined")
def _atomic_list_concat(solver: Solving, args: tuple[Term, ...], s: Substitution
                        ) -> Iterator[Substitution]:
    parts = [text_of(part, s) for part in proper(args[0], s)]
    yield from unified(args[1], Atom("".join(parts)), s)


@register("atomic_list_concat", 3,
          "atomic_list_concat(List, Separator, Atom): joined with Separator, or Atom split at it")
def _atomic_list_concat3(solver: Solving, args: tuple[Term, ...], s: Substitution
                         ) -> Iterator[Substitution]:
    separator = text_of(args[1], s)
    items, end = skip_list(args[0], s)
    if end == NIL and all(not isinstance(walk(item, s), Var) for item in items):
        yield from unified(args[2], Atom(separator.join(text_of(item, s) for item in items)),
                           s)
        return
    whole = walk(args[2], s)
    if isinstance(whole, Var) or not separator:
        raise instantiation_error()
    pieces = text_of(whole, s).split(separator)
    yield from unified(args[0], ListTerm(tuple(Atom(piece) for piece in pieces)), s)


@register("sub_atom", 5, "sub_atom(Atom, Before, Length, After, Sub): Sub is a part of Atom")
def _sub_atom(solver: Solving, args: tuple[Term, ...], s: Substitution
              ) -> Iterator[Substitution]:
    yield from _sub_text(args, s, Atom)


@register("sub_string", 5,
          "sub_string(String, Before, Length, After, Sub): Sub is a part of String")
def _sub_string(solver: Solving, args: tuple[Term, ...], s: Substitution
                ) -> Iterator[Substitution]:
    yield from _sub_text(args, s, String)


def _sub_text(args: tuple[Term, ...], s: Substitution, make: Callable[[str], Term]
              ) -> Iterator[Substitution]:
    text = text_of(args[0], s)
    sub = walk(args[4], s)
    length = len(text)
    if not isinstance(sub, Var):
        wanted = text_of(sub, s)
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


@register("term_to_atom", 2, "term_to_atom(Term, Atom): Atom is Term written, or Term is Atom read")
def _term_to_atom(solver: Solving, args: tuple[Term, ...], s: Substitution
                  ) -> Iterator[Substitution]:
    from minimax_lab.logic.toplevel.reader import Parser

    term = walk(args[0], s)
    if not isinstance(term, Var):
        yield from unified(args[1], Atom(format_term(resolve(term, s))), s)
        return
    read = Parser(text_of(args[1], s)).read()
    yield from unified(term, read.term, s)
