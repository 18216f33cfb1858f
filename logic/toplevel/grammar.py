"""A goal as the top level reads it: a Prolog term (`logic/toplevel/reader.py`),
answered as SWI-Prolog's `?-` answers it, and the calls it makes.

    query := term ["."]

The term is read with SWI-Prolog's operators, so `X is 1+2`, `findall(C-V, ..., L)`,
`(A -> B ; C)` and `\\+ G` read as they do there. A leading `?- ` is read past, as SWI-Prolog's
documentation prints it, and `%` starts a comment that runs to the end of its line. A compact
state (9 cells of `-`, `x`, `o`; docs/lab.md) reads as the list of its cells.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minimax_lab.logic.toplevel.errors import GoalSyntaxError, ToplevelError
from minimax_lab.logic.toplevel.operators import INFIX, PREFIX
from minimax_lab.logic.toplevel.prolog_terms import Atom, Struct, Term, Var
from minimax_lab.logic.toplevel.reader import (
    END,
    MAX_DEPTH,
    MAX_LENGTH,
    read_term,
    tokens,
)

__all__ = ["MAX_DEPTH", "MAX_LENGTH", "Call", "Query", "needs_more", "parse_query",
           "without_comment"]

CONTROL = {(",", 2): (0, 1), (";", 2): (0, 1), ("->", 2): (0, 1), ("*->", 2): (0, 1),
           ("\\+", 1): (0,), ("not", 1): (0,), ("call", 1): (0,), ("once", 1): (0,),
           ("ignore", 1): (0,), ("findall", 3): (1,), ("findall", 4): (1,),
           ("forall", 2): (0, 1), ("aggregate_all", 3): (1,), ("bagof", 3): (1,),
           ("setof", 3): (1,)}
"""The control constructs and meta-calls, with the arguments of each that are goals."""


@dataclass(frozen=True)
class Call:
    """One call a goal makes: `name(args...)`, at `column` of the input."""

    name: str
    args: tuple[Term, ...]
    column: int

    @property
    def indicator(self) -> str:
        """Prolog's name/arity, e.g. `successor/3`."""
        return f"{self.name}/{len(self.args)}"


@dataclass(frozen=True)
class Query:
    """A goal and its named variables, in the order the user wrote them."""

    text: str
    body: Term
    variables: tuple[Var, ...]
    columns: dict[int, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def goals(self) -> tuple[Term, ...]:
        """The goals of the top-level conjunction (one, if the body is no conjunction)."""
        found: list[Term] = []
        pending = [self.body]
        while pending:
            goal = pending.pop()
            if isinstance(goal, Struct) and goal.name == "," and len(goal.args) == 2:
                pending += [goal.args[1], goal.args[0]]
            else:
                found.append(goal)
        return tuple(found)

    def call_of(self, goal: Term) -> Call | None:
        """`goal` as a call, with its column; None for a variable, a number or a list."""
        if isinstance(goal, Atom):
            return Call(goal.name, (), self.columns.get(id(goal), 1))
        if isinstance(goal, Struct):
            return Call(goal.name, goal.args, self.columns.get(id(goal), 1))
        return None

    def calls(self) -> list[Call]:
        """Every call the goal makes where its text names it, control constructs and the goals
        of findall/3, forall/2, \\+ ... included, in the order written."""
        found: list[Call] = []
        pending: list[Term] = [self.body]
        while pending:
            goal = pending.pop()
            call = self.call_of(goal)
            if call is None:
                continue
            inner = CONTROL.get((call.name, len(call.args)))
            if inner is None:
                found.append(call)
            else:
                if call.name not in (",", ";", "->", "*->"):
                    found.append(call)
                pending.extend(reversed([call.args[index] for index in inner]))
        return found


def parse_query(text: str) -> Query:
    """Read one goal; `GoalSyntaxError` (with a column) if it is not one."""
    read = read_term(text)
    return Query(text, read.term, read.variables, read.columns)


def without_comment(line: str) -> str:
    """`line` up to its `%` comment, if any (a `%` inside quotes is no comment)."""
    quote = None
    index = 0
    while index < len(line):
        char = line[index]
        if quote is not None:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = None
        elif line.startswith("0'", index):
            index += 2
        elif char in "'\"`":
            quote = char
        elif char == "%":
            return line[:index]
        index += 1
    return line


def needs_more(text: str) -> bool:
    """True when `text` is not yet a whole goal but may become one on the next line: a bracket
    or parenthesis is open, or it ends in a comma, `;`, `|` or an operator. A line that reads
    as a whole goal (with or without its final `.`), or cannot be read at all, needs no more."""
    try:
        found = tokens(text)
    except (GoalSyntaxError, ToplevelError):
        return False
    kinds = [token for token in found if token.kind != "eof"]
    if not kinds or kinds[-1].kind == END:
        return False
    depth = 0
    for token in kinds:
        depth += (token.kind in "([{") - (token.kind in ")]}")
        if depth < 0:
            return False
    last = kinds[-1]
    open_ended = depth > 0 or last.kind in (",", "|") or (
        last.kind == "name" and last.value is not True and (
            last.text in INFIX or last.text in PREFIX) and len(kinds) > 1)
    if not open_ended:
        return False
    try:  # an operator ending a line may be an atom closing a whole goal (`0|:`)
        parse_query(text)
    except (GoalSyntaxError, ToplevelError):
        return True
    return False
