"""The output family: `write/1` and its kin, `nl/0`, `tab/1`, `format/1,2`; what a goal
writes goes to the context's output, never to a stream of its choosing."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from minimax_lab.logic.toplevel.arithmetic import evaluate, instantiation_error, type_error
from minimax_lab.logic.toplevel.builtins.lists import proper
from minimax_lab.logic.toplevel.builtins.registry import Builtin, Family
from minimax_lab.logic.toplevel.builtins.support import MAX_LIST
from minimax_lab.logic.toplevel.builtins.text import text_of
from minimax_lab.logic.toplevel.context import Solving
from minimax_lab.logic.toplevel.errors import PrologError
from minimax_lab.logic.toplevel.prolog_terms import (
    Atom,
    Int,
    ListTerm,
    String,
    Struct,
    Substitution,
    Term,
    Var,
    format_term,
    resolve,
    walk,
)

register = Family("output")


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


register("write", 1, "write(Term): write Term")(_writer(False))
register("print", 1, "print(Term): write Term quoted, as writeq/1 does")(_writer(True))
register("writeq", 1, "writeq(Term): write Term, quoted so that it reads back")(_writer(True))


@register("write_canonical", 1, "write_canonical(Term): write Term quoted, without operators")
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
register("writeln", 1, "writeln(Term): write Term, then end the line")(_writer(False, newline=True))


@register("nl", 0, "nl: end the line")
def _nl(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    solver.context.out("\n")
    yield s


@register("tab", 1, "tab(N): write N spaces")
def _tab(solver: Solving, args: tuple[Term, ...], s: Substitution) -> Iterator[Substitution]:
    count = evaluate(args[0], s)
    if not isinstance(count, Int):
        raise type_error("integer", count)
    solver.context.out(" " * min(max(count.value, 0), MAX_LIST))
    yield s


@register("put_char", 1, "put_char(Char): write the character Char")
def _put_char(solver: Solving, args: tuple[Term, ...], s: Substitution
              ) -> Iterator[Substitution]:
    char = walk(args[0], s)
    if isinstance(char, Var):
        raise instantiation_error()
    if not isinstance(char, Atom) or len(char.name) != 1:
        raise type_error("character", char)
    solver.context.out(char.name)
    yield s


@register("format", 1, "format(Text): write Text, its ~ directives done")
def _format1(solver: Solving, args: tuple[Term, ...], s: Substitution
             ) -> Iterator[Substitution]:
    format_text(text_of(args[0], s), [], s, solver.context.out)
    yield s


@register("format", 2,
          "format(Text, Args): write Text, Args put in its ~w, ~a, ~d, ~s, ... (~n: a new line)")
def _format2(solver: Solving, args: tuple[Term, ...], s: Substitution
             ) -> Iterator[Substitution]:
    values = walk(args[1], s)
    listed: list[Term] = list(proper(values, s)) if isinstance(values, ListTerm) else [values]
    format_text(text_of(args[0], s), listed, s, solver.context.out)
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
            out.append(text_of(take(), s))
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
