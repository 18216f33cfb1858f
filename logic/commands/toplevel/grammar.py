"""The project's own grammar of goals: Prolog syntax for the lab's predicates, with positions.

    query    := goals ["."]
    goals    := conjunction (";" conjunction)*
    conjunction := literal ("," literal)*
    literal  := "\\+" literal | "(" goals ")" | term [operator term]
                | "findall(" term "," goals "," term ")"
    operator := "=" | "\\=" | "==" | "\\=="
    term     := Variable | integer | atom ["(" term ("," term)* ")"]
                | "[" [term ("," term)* ["|" term]] "]" | a compact state such as o-x------

A literal that is a term is a call: one of the lab's predicates, or `member/2`, `length/2`,
`nth1/3` (docs/query.md).

A leading `?- ` is read past, as SWI-Prolog's documentation prints it, and `%` starts a comment
that runs to the end of its line. Variables start with a capital or `_`; each `_` is a fresh
variable. A compact state (9 cells of
`-`, `x`, `o`; docs/lab.md) reads as the list of its cells. Input longer than `MAX_LENGTH`
characters or nested deeper than `MAX_DEPTH` brackets is refused before anything is built, so
no input can exhaust the parser's recursion.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from logic.commands.toplevel.errors import GoalSyntaxError, ToplevelError
from logic.commands.toplevel.prolog_terms import (
    Atom,
    Int,
    ListTerm,
    Struct,
    Term,
    Var,
    format_term,
    state_term,
)
from logic.state import StateError, parse_state

MAX_LENGTH = 1000
MAX_DEPTH = 16

_WORD = re.compile(r"[A-Za-z0-9_-]+")
_QUOTED = re.compile(r"'((?:[^'\n]|'')*)'")
"""A quoted atom; `''` inside it is one quote, as in Prolog."""
_INTEGER = re.compile(r"-?[0-9]{1,18}")
_VARIABLE = re.compile(r"[A-Z_][A-Za-z0-9_]*")
_ATOM = re.compile(r"[a-z][A-Za-z0-9_]*|-")
_HYPHENATED = re.compile(r"[a-z][A-Za-z0-9_]*(-[a-z][A-Za-z0-9_]*)+")
_STATE_LIKE = re.compile(r"[A-Za-z-]*-[A-Za-z-]*|[xo]{9}")
_PUNCTUATION = "()[],.;|"
_OPERATORS = ("\\==", "\\=", "\\+", "==", "=")
COMPARISONS = ("=", "\\=", "==", "\\==")


@dataclass(frozen=True)
class Token:
    """A token: its kind (`var`, `atom`, `int`, `state`, a punctuation mark, `end`), its column."""

    kind: str
    text: str
    column: int
    term: Term | None = None


@dataclass(frozen=True)
class Call:
    """One goal of a conjunction: `name(args...)`, at `column` of the input."""

    name: str
    args: tuple[Term, ...]
    column: int

    @property
    def indicator(self) -> str:
        """Prolog's name/arity, e.g. `successor/3`."""
        return f"{self.name}/{len(self.args)}"


@dataclass(frozen=True)
class Conjunction:
    """`A, B, ...`: every goal, left to right."""

    goals: tuple[Goal, ...]


@dataclass(frozen=True)
class Disjunction:
    """`A ; B ; ...`: the answers of each goal in turn."""

    goals: tuple[Goal, ...]


@dataclass(frozen=True)
class Negation:
    """`\\+ A`: true, binding nothing, when A has no answer."""

    goal: Goal


@dataclass(frozen=True)
class Comparison:
    """`A = B`, `A \\= B`, `A == B`, `A \\== B`."""

    operator: str
    left: Term
    right: Term


@dataclass(frozen=True)
class FindAll:
    """`findall(Template, Goal, List)`."""

    template: Term
    goal: Goal
    result: Term


Goal = Call | Conjunction | Disjunction | Negation | Comparison | FindAll


@dataclass(frozen=True)
class Query:
    """A goal and its named variables, in the order the user wrote them."""

    text: str
    body: Goal
    variables: tuple[Var, ...]

    @property
    def goals(self) -> tuple[Goal, ...]:
        """The goals of the top-level conjunction (one, if the body is no conjunction)."""
        return self.body.goals if isinstance(self.body, Conjunction) else (self.body,)

    def calls(self) -> list[Call]:
        """Every call in the goal, wherever it is."""
        found: list[Call] = []
        pending: list[Goal] = [self.body]
        while pending:
            goal = pending.pop()
            if isinstance(goal, Call):
                found.append(goal)
            elif isinstance(goal, Conjunction | Disjunction):
                pending.extend(reversed(goal.goals))
            elif isinstance(goal, Negation | FindAll):
                pending.append(goal.goal)
        return found


def parse_query(text: str) -> Query:
    """Read one goal or conjunction of goals; `GoalSyntaxError` (with a column) if it is not one."""
    return _Parser(text).query()


def without_comment(line: str) -> str:
    """`line` up to its `%` comment, if any (a `%` inside a quoted atom is no comment)."""
    quoted = False
    for index, char in enumerate(line):
        if char == "'":
            quoted = not quoted
        elif char == "%" and not quoted:
            return line[:index]
    return line


def needs_more(text: str) -> bool:
    """True when `text` is not yet a whole goal but may become one on the next line: a bracket
    or parenthesis is open, or it ends in a comma, `;` or an operator. A line that reads as a
    whole goal (with or without its final `.`), or cannot be read at all, needs no more."""
    try:
        tokens = _tokens(text)
    except (GoalSyntaxError, ToplevelError):
        return False
    kinds = [token.kind for token in tokens[:-1]]
    if not kinds or kinds[-1] == ".":
        return False
    depth = 0
    for kind in kinds:
        depth += (kind in "([") - (kind in ")]")
        if depth < 0:
            return False
    return depth > 0 or kinds[-1] in (",", ";", "|", "\\+", *COMPARISONS)


def _tokens(text: str) -> list[Token]:
    tokens = []
    offset = 0
    while offset < len(text):
        char = text[offset]
        column = offset + 1
        if char.isspace():
            offset += 1
        elif char == "%":
            end = text.find("\n", offset)
            offset = len(text) if end < 0 else end
        elif char == "?" and not tokens and text.startswith("?-", offset):
            offset += 2
        elif (operator := next((op for op in _OPERATORS if text.startswith(op, offset)),
                               None)) is not None:
            tokens.append(Token(operator, operator, column))
            offset += len(operator)
        elif char in _PUNCTUATION:
            tokens.append(Token(char, char, column))
            offset += 1
        elif char == "'":
            quoted = _QUOTED.match(text, offset)
            if quoted is None:
                raise GoalSyntaxError("a quoted atom has no closing quote", text, column)
            tokens.append(Token("atom", quoted.group(0), column,
                                Atom(quoted.group(1).replace("''", "'"))))
            offset = quoted.end()
        else:
            word = _WORD.match(text, offset)
            if word is None:
                raise GoalSyntaxError(f"unexpected character {char!r}", text, column)
            tokens.append(_word_token(word.group(0), text, column))
            offset = word.end()
    tokens.append(Token("end", "", len(text) + 1))
    return tokens


def _word_token(word: str, text: str, column: int) -> Token:
    if _INTEGER.fullmatch(word):
        return Token("int", word, column, Int(int(word)))
    if _HYPHENATED.fullmatch(word) and set(word) - set("xo-"):
        raise GoalSyntaxError(
            f"a name has no '-' in Prolog (the lab writes min-value for min_value); "
            f"did you mean {word.replace('-', '_')}?",
            text, column,
        )
    if word != "-" and _STATE_LIKE.fullmatch(word):
        try:
            state = parse_state(word)
        except StateError as error:
            raise GoalSyntaxError(str(error), text, column) from None
        return Token("state", word, column, state_term(state))
    if _ATOM.fullmatch(word):
        return Token("atom", word, column, Atom(word))
    if _VARIABLE.fullmatch(word):
        return Token("var", word, column)
    raise GoalSyntaxError(f"cannot read {word!r} as a term", text, column)


class _Parser:
    """Recursive descent over the tokens; depth is bounded by `MAX_DEPTH`."""

    def __init__(self, text: str) -> None:
        if len(text) > MAX_LENGTH:
            raise ToplevelError(
                f"the input has {len(text)} characters; a goal may have at most {MAX_LENGTH}"
            )
        self.text = text
        self.tokens = _tokens(text)
        self.index = 0
        self.depth = 0
        self.variables: dict[str, Var] = {}
        self.anonymous = 0

    @property
    def current(self) -> Token:
        return self.tokens[self.index]

    def fail(self, expected: str) -> GoalSyntaxError:
        token = self.current
        found = "the end of the input" if token.kind == "end" else repr(token.text)
        return GoalSyntaxError(f"expected {expected}, found {found}", self.text, token.column)

    def take(self, kind: str, expected: str) -> Token:
        token = self.current
        if token.kind != kind:
            raise self.fail(expected)
        self.index += 1
        return token

    def query(self) -> Query:
        if self.current.kind == "end":
            raise self.fail("a goal such as successor(x--------, o, S)")
        body = self.goals()
        if self.current.kind == ".":
            self.index += 1
            self.take("end", "nothing after the final '.'")
        else:
            self.take("end", "',' and another goal, or the end of the goal")
        return Query(self.text, body, tuple(self.variables.values()))

    def goals(self) -> Goal:
        """Conjunctions joined by `;`."""
        branches = [self.conjunction()]
        while self.current.kind == ";":
            self.index += 1
            branches.append(self.conjunction())
        return branches[0] if len(branches) == 1 else Disjunction(tuple(branches))

    def conjunction(self) -> Goal:
        goals = [self.literal()]
        while self.current.kind == ",":
            self.index += 1
            goals.append(self.literal())
        return goals[0] if len(goals) == 1 else Conjunction(tuple(goals))

    def literal(self) -> Goal:
        token = self.current
        if token.kind == "\\+":
            self.index += 1
            return Negation(self.literal())
        if token.kind == "(":
            self.open()
            inner = self.goals()
            self.take(")", "',', ';' or ')'")
            self.depth -= 1
            return inner
        if token.kind == "atom" and token.text == "findall" and self.next_kind() == "(":
            self.index += 1
            self.open()
            template = self.term()
            self.take(",", "',' and the goal of findall/3")
            goal = self.literal()  # as in Prolog: a conjunction goes in parentheses
            self.take(",", "',' and the list of findall/3")
            result = self.term()
            self.take(")", "')'")
            self.depth -= 1
            return FindAll(template, goal, result)
        if token.kind not in ("atom", "var", "int", "state", "["):
            raise self.fail("a goal such as successor(x--------, o, S)")
        left = self.term()
        if self.current.kind in COMPARISONS:
            operator = self.current.kind
            self.index += 1
            return Comparison(operator, left, self.term())
        if isinstance(left, Atom):
            return Call(left.name, (), token.column)
        if isinstance(left, Struct):
            return Call(left.name, left.args, token.column)
        raise GoalSyntaxError("expected a goal such as successor(x--------, o, S), found "
                              f"{format_term(left)!r}", self.text, token.column)

    def next_kind(self) -> str:
        return self.tokens[self.index + 1].kind if self.index + 1 < len(self.tokens) else "end"

    def arguments(self) -> tuple[Term, ...]:
        self.open()
        args = [self.term()]
        while self.current.kind == ",":
            self.index += 1
            args.append(self.term())
        self.take(")", "',' or ')'")
        self.depth -= 1
        return tuple(args)

    def open(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise GoalSyntaxError(
                f"terms nested deeper than {MAX_DEPTH} levels", self.text, self.current.column
            )
        self.index += 1

    def term(self) -> Term:
        token = self.current
        if token.kind in ("atom", "int", "state"):
            self.index += 1
            if token.kind == "atom" and self.current.kind == "(":
                assert isinstance(token.term, Atom)
                return Struct(token.term.name, self.arguments())
            assert token.term is not None
            return token.term
        if token.kind == "var":
            self.index += 1
            return self.variable(token.text)
        if token.kind == "[":
            return self.list_term()
        raise self.fail("a term (a state, a player, a number, a variable)")

    def list_term(self) -> ListTerm:
        self.open()
        items: list[Term] = []
        tail: Term | None = None
        if self.current.kind != "]":
            items.append(self.term())
            while self.current.kind == ",":
                self.index += 1
                items.append(self.term())
            if self.current.kind == "|":
                self.index += 1
                tail = self.term()
        self.take("]", "',', '|' or ']'" if tail is None and items else "',' or ']'")
        self.depth -= 1
        return ListTerm(tuple(items), tail)

    def variable(self, name: str) -> Var:
        if name == "_":
            self.anonymous += 1
            return Var("_", self.anonymous)
        return self.variables.setdefault(name, Var(name))
