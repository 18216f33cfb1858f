"""Prolog terms built as data and written as Prolog reads them: every atom quoted and escaped,
so that no text of a mapping or a submission is ever pasted into a goal as source."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Atom:
    """An atom, whatever its characters."""

    name: str


@dataclass(frozen=True)
class Var:
    """A variable, by its name (a Prolog variable name, made here, never taken from input)."""

    name: str


@dataclass(frozen=True)
class Compound:
    """A compound term: its functor's name and its arguments."""

    name: str
    args: tuple[Term, ...]


Term = int | Atom | Var | Compound | list["Term"]
"""A term as data: an integer, an atom, a variable, a compound, or a list of terms."""


def quote_atom(name: str) -> str:
    """`name` as a quoted atom: `'...'`, its quotes, backslashes and control characters
    escaped."""
    out = []
    for char in name:
        if char in "'\\":
            out.append("\\" + char)
        elif ord(char) < 32 or ord(char) == 127:
            out.append(f"\\x{ord(char):x}\\")
        else:
            out.append(char)
    return "'" + "".join(out) + "'"


def write(term: Term) -> str:
    """`term` as Prolog text, read back by `read_term/2` as the same term."""
    if isinstance(term, bool):
        raise TypeError("a truth value is no Prolog term")
    if isinstance(term, int):
        return str(term)
    if isinstance(term, Atom):
        return quote_atom(term.name)
    if isinstance(term, Var):
        if not (term.name[:1].isupper() or term.name[:1] == "_") or not term.name.replace(
                "_", "a").isalnum() or not term.name.isascii():
            raise ValueError(f"not a variable name: {term.name!r}")
        return term.name
    if isinstance(term, Compound):
        return f"{quote_atom(term.name)}({', '.join(write(arg) for arg in term.args)})"
    if isinstance(term, list):
        return "[" + ", ".join(write(item) for item in term) + "]"
    raise TypeError(f"not a term: {term!r}")
