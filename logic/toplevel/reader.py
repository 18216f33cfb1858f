"""Reading Prolog text into terms, as SWI-Prolog's reader does: names, variables, numbers,
quoted atoms, strings, lists, `{}` and operators (`logic/toplevel/operators.py`), with
the column of every token for the errors.

Two things are read beyond SWI-Prolog: a compact state (9 cells of `x`, `o` and `-`, such as
`o-x------`; docs/lab.md) is the list of its cells, and a word that looks like a misspelt
state (`x-------`, `x---a----`) or a hyphenated name (`min-value(`) is a syntax error that
says so. Input longer than `MAX_LENGTH` characters, or nested deeper than `MAX_DEPTH` brackets
or `MAX_OPERATORS` operators, is refused before anything is built, so no input can exhaust
the reader's recursion.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from minimax_lab.logic.state import StateError, parse_state
from minimax_lab.logic.toplevel.errors import GoalSyntaxError, ToplevelError
from minimax_lab.logic.toplevel.operators import INFIX, PREFIX
from minimax_lab.logic.toplevel.prolog_terms import (
    NIL,
    SYMBOL_CHARS,
    Atom,
    Float,
    Int,
    ListTerm,
    String,
    Struct,
    Term,
    Var,
    state_term,
)

MAX_LENGTH = 1000
MAX_DEPTH = 16
"""Brackets and parentheses nested at most this deep."""
MAX_OPERATORS = 200
"""Operators nested at most this deep (`- - - a`, `a^b^c`)."""

_STATE_RUN = re.compile(r"[A-Za-z0-9_-]+")
_STATE = re.compile(r"[xo-]{9}")
_STATE_LIKE = re.compile(r"(?=[A-Za-z-]*[A-Za-z])[A-Za-z-]*--[A-Za-z-]*")
"""A word of letters and dashes, with two dashes running: a misspelt state (`x-------`)."""
_HYPHENATED = re.compile(r"[a-z][A-Za-z0-9_]*(-[a-z][A-Za-z0-9_]*)+")
_NUMBER = re.compile(
    r"0'(\\.|''|.)|0x[0-9a-fA-F]+|0o[0-7]+|0b[01]+"
    r"|([0-9]+(?:_[0-9]+)*)(\.[0-9]+Inf|\.[0-9]+NaN|\.[0-9]+(?:[eE][+-]?[0-9]+)?"
    r"|[eE][+-]?[0-9]+)?", re.ASCII)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
            "0": "\0", "\\": "\\", "'": "'", '"': '"', "`": "`", "e": "\x1b", "s": " "}
_PUNCTUATION = "()[]{},|"
END = "end"


@dataclass(frozen=True)
class Token:
    """A token: its kind (`name`, `var`, `number`, `string`, `codes`, `state`, a punctuation
    mark, `end` for the final `.`, `eof`), its text, its column (1-based), whether layout came
    before it, and the term it stands for (numbers, strings, states, quoted names)."""

    kind: str
    text: str
    column: int
    layout: bool = False
    value: object = None


def tokens(text: str) -> list[Token]:
    """The tokens of `text`, ending in `eof`; `GoalSyntaxError` for text that is none."""
    return list(_Tokens(text))


class _Tokens:
    def __init__(self, text: str) -> None:
        self.text = text
        self.offset = 0

    def __iter__(self) -> Iterator[Token]:
        text = self.text
        first = True
        while True:
            layout = self.skip_layout()
            if first and text.startswith("?-", self.offset):  # a prompt pasted in
                self.offset += 2
                layout = self.skip_layout() or True
            first = False
            if self.offset >= len(text):
                yield Token("eof", "", len(text) + 1, layout)
                return
            before = self.offset
            token = self.token(layout)
            # Every token takes a character at least: Ⓐ, upper case yet no letter, takes none.
            if self.offset == before:
                raise self.fail(f"unexpected character {text[before]!r}")
            yield token

    def fail(self, message: str, offset: int | None = None) -> GoalSyntaxError:
        where = self.offset if offset is None else offset
        return GoalSyntaxError(message, self.text, where + 1)

    def skip_layout(self) -> bool:
        text, start = self.text, self.offset
        while self.offset < len(text):
            char = text[self.offset]
            if char.isspace():
                self.offset += 1
            elif char == "%":
                end = text.find("\n", self.offset)
                self.offset = len(text) if end < 0 else end
            elif text.startswith("/*", self.offset):
                end = text.find("*/", self.offset + 2)
                if end < 0:
                    raise self.fail("a comment /* has no closing */")
                self.offset = end + 2
            else:
                break
        return self.offset > start

    def token(self, layout: bool) -> Token:
        text, start = self.text, self.offset
        char = text[start]
        column = start + 1
        if (char.isalnum() or char in "_-") and (start == 0 or not _word_char(text[start - 1])):
            state = self.state(layout)
            if state is not None:
                return state
        if char in "0123456789":
            return self.number(layout)
        if char == "_" or char.isupper():
            word = self.word()
            return Token("var", word, column, layout)
        if char.isalpha():
            word = self.word()
            return Token("name", word, column, layout, word)
        if char == "'":
            return Token("name", self.quoted("'"), column, layout, True)
        if char == '"':
            return Token("string", "", column, layout, String(self.quoted('"')))
        if char == "`":
            codes = self.quoted("`")
            return Token("codes", "", column, layout,
                         ListTerm(tuple(Int(ord(code)) for code in codes)))
        if char in "!;":
            self.offset += 1
            return Token("name", char, column, layout, char)
        if char in _PUNCTUATION:
            self.offset += 1
            return Token(char, char, column, layout)
        if char in SYMBOL_CHARS:
            end = start
            while end < len(text) and text[end] in SYMBOL_CHARS:
                end += 1
            symbol = text[start:end]
            self.offset = end
            if symbol == "." and (end == len(text) or text[end].isspace() or text[end] == "%"):
                return Token(END, ".", column, layout)
            return Token("name", symbol, column, layout, symbol)
        raise self.fail(f"unexpected character {char!r}")

    def state(self, layout: bool) -> Token | None:
        """A compact state, or the error of a word that looks like a misspelt one."""
        run = _STATE_RUN.match(self.text, self.offset)
        if run is None:
            return None
        word, column = run.group(0), self.offset + 1
        after = self.text[run.end():run.end() + 1]
        first = self.text[:self.offset].strip() in ("", "?-")  # the goal's own name, not x-sv(x)
        if first and _HYPHENATED.fullmatch(word) and set(word) - set("xo-") and after == "(":
            raise self.fail(f"a name has no '-' in Prolog (the lab writes min-value for "
                            f"min_value); did you mean {word.replace('-', '_')}?")
        if not (_STATE.fullmatch(word) or _STATE_LIKE.fullmatch(word)):
            return None
        try:
            state = parse_state(word)
        except StateError as error:
            raise self.fail(str(error)) from None
        self.offset = run.end()
        return Token("state", word, column, layout, state_term(state))

    def word(self) -> str:
        start = self.offset
        while self.offset < len(self.text) and _word_char(self.text[self.offset]):
            self.offset += 1
        return self.text[start:self.offset]

    def number(self, layout: bool) -> Token:
        start = self.offset
        found = _NUMBER.match(self.text, start)
        assert found is not None
        literal = found.group(0)
        self.offset = found.end()
        if literal.startswith("0'"):
            code = found.group(1)
            if code.startswith("\\"):
                code = _ESCAPES.get(code[1])
                if code is None:
                    raise self.fail(f"unknown escape in {literal!r}", start)
            elif code == "''":
                code = "'"
            value: Int | Float = Int(ord(code))
        elif literal[:2] in ("0x", "0o", "0b"):
            value = Int(int(literal[2:], {"x": 16, "o": 8, "b": 2}[literal[1]]))
        elif found.group(3):
            tail = found.group(3)
            if tail.endswith("Inf"):
                value = Float(float("inf"))
            elif tail.endswith("NaN"):
                value = Float(float("nan"))
            else:
                value = Float(float(literal.replace("_", "")))
        else:
            value = Int(int(literal.replace("_", "")))
        if self.offset < len(self.text) and _word_char(self.text[self.offset]):
            raise self.fail(f"cannot read {self.text[start:self.offset + 1]!r} as a number",
                            start)
        return Token("number", literal, start + 1, layout, value)

    def quoted(self, quote: str) -> str:
        """The text of a quoted atom, string or code list, its escapes read; `''` is one `'`."""
        text, start = self.text, self.offset
        offset = start + 1
        out = []
        kind = {"'": "quoted atom", '"': "string", "`": "back-quoted text"}[quote]
        while True:
            if offset >= len(text):
                raise self.fail(f"a {kind} has no closing {quote}", start)
            char = text[offset]
            if char == quote:
                if text.startswith(quote, offset + 1):
                    out.append(quote)
                    offset += 2
                    continue
                self.offset = offset + 1
                return "".join(out)
            if char == "\\":
                following = text[offset + 1:offset + 2]
                if following == "\n":
                    offset += 2
                elif following == "x":
                    end = text.find("\\", offset + 2)
                    digits = text[offset + 2:end] if end > 0 else ""
                    if not re.fullmatch(r"[0-9a-fA-F]{1,6}", digits):
                        raise self.fail("a \\x escape is \\xHEX\\", offset)
                    out.append(chr(int(digits, 16)))
                    offset = end + 1
                elif following.isdigit() and following not in "89":
                    end = text.find("\\", offset + 1)
                    digits = text[offset + 1:end] if end > 0 else ""
                    if not re.fullmatch(r"[0-7]{1,7}", digits):
                        if following == "0":
                            out.append("\0")
                            offset += 2
                            continue
                        raise self.fail("an octal escape is \\OCTAL\\", offset)
                    out.append(chr(int(digits, 8)))
                    offset = end + 1
                elif following in _ESCAPES:
                    out.append(_ESCAPES[following])
                    offset += 2
                else:
                    raise self.fail(f"unknown escape \\{following} in a {kind}", offset)
            else:
                out.append(char)
                offset += 1


def _word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


# --- terms ---------------------------------------------------------------------------------

_TERMINATORS = frozenset([")", "]", "}", ",", "|", END, "eof"])


@dataclass
class Read:
    """A term read, its named variables in the order they first appear, and where each
    subterm started (by its identity: the columns of the calls a goal makes)."""

    term: Term
    variables: tuple[Var, ...]
    columns: dict[int, int] = field(default_factory=dict)
    text: str = ""
    ended: bool = False
    """True when the term ended with a full stop."""


class Parser:
    """Recursive descent with operator priorities; nesting is bounded by `MAX_DEPTH` and
    `MAX_OPERATORS`."""

    def __init__(self, text: str, check_length: bool = True) -> None:
        if check_length and len(text) > MAX_LENGTH:
            raise ToplevelError(
                f"the input has {len(text)} characters; a goal may have at most {MAX_LENGTH}"
            )
        self.text = text
        self.tokens = tokens(text)
        self.index = 0
        self.depth = 0
        self.operators = 0
        self.variables: dict[str, Var] = {}
        self.anonymous = 0
        self.columns: dict[int, int] = {}
        self.kept: list[Term] = []  # every term a column is kept for, so its identity holds

    @property
    def current(self) -> Token:
        return self.tokens[self.index]

    def peek(self, ahead: int = 1) -> Token:
        return self.tokens[min(self.index + ahead, len(self.tokens) - 1)]

    def fail(self, expected: str, token: Token | None = None) -> GoalSyntaxError:
        token = token or self.current
        found = ("the end of the input" if token.kind == "eof" else
                 "the final '.'" if token.kind == END else repr(token.text or token.kind))
        if token.kind in ("string", "codes"):
            found = "a string"
        return GoalSyntaxError(f"expected {expected}, found {found}", self.text, token.column)

    def take(self, kind: str, expected: str) -> Token:
        token = self.current
        if token.kind != kind:
            raise self.fail(expected)
        self.index += 1
        return token

    def read(self, expected: str = "a term") -> Read:
        """One term up to its final `.` (or the end of the text)."""
        if self.current.kind in ("eof", END):
            raise self.fail(expected)
        term = self.term(1200)
        ended = self.current.kind == END
        if ended:
            self.index += 1
        if self.current.kind != "eof":
            raise self.fail("nothing after the final '.'" if ended else
                            "an operator, or the end of the goal")
        return self.result(term, ended)

    def read_all(self) -> Iterator[Read]:
        """Every term of a program's text, each ending in its full stop."""
        while self.current.kind != "eof":
            self.variables, self.anonymous = {}, 0
            term = self.term(1200)
            self.take(END, "an operator, or the '.' that ends a clause")
            yield self.result(term, True)

    def result(self, term: Term, ended: bool) -> Read:
        return Read(term, tuple(self.variables.values()), self.columns, self.text, ended)

    def mark(self, term: Term, column: int) -> Term:
        self.columns[id(term)] = column
        self.kept.append(term)
        return term

    def term(self, limit: int, argument: bool = False) -> Term:
        """A term of at most priority `limit`; an `argument` (of a compound or a list) ends
        at a comma or a bar, and may be an operator term of any priority, as SWI-Prolog
        reads `f(a:-b)`."""
        self.operators += 1
        if self.operators > MAX_OPERATORS:
            raise GoalSyntaxError(f"operators nested deeper than {MAX_OPERATORS}", self.text,
                                  self.current.column)
        try:
            left, priority = self.primary(limit)
            return self.infix(left, priority, limit, argument)
        finally:
            self.operators -= 1

    def infix(self, left: Term, priority: int, limit: int, argument: bool = False) -> Term:
        while True:
            token = self.current
            name = None
            if token.kind == "name" and token.value is not True and token.text in INFIX:
                name = token.text
            elif token.kind == "," and not argument:
                name = ","
            elif token.kind == "|" and not argument:
                name = "|"
            if name is None:
                return left
            op = INFIX[name]
            if op.priority > limit:
                return left
            if priority > op.left:
                raise self.fail(f"parentheses around the left of {name}", token)
            self.index += 1
            right = self.term(op.right)
            functor = ";" if name == "|" else name
            left = self.mark(Struct(functor, (left, right)), token.column)
            priority = op.priority

    def primary(self, limit: int) -> tuple[Term, int]:
        token = self.current
        column = token.column
        kind = token.kind
        if kind == "number":
            self.index += 1
            return token.value, 0  # type: ignore[return-value]
        if kind in ("string", "codes", "state"):
            self.index += 1
            return self.mark(token.value, column), 0  # type: ignore[arg-type]
        if kind == "var":
            self.index += 1
            return self.mark(self.variable(token.text), column), 0
        if kind == "(":
            self.open()
            inner = self.term(1200)
            self.take(")", "an operator, ',' or ')'")
            self.depth -= 1
            return inner, 0
        if kind == "[":
            return self.mark(self.list_term(), column), 0
        if kind == "{":
            self.open()
            if self.current.kind == "}":
                self.index += 1
                self.depth -= 1
                return self.mark(Atom("{}"), column), 0
            inner = self.term(1200)
            self.take("}", "an operator, ',' or '}'")
            self.depth -= 1
            return self.mark(Struct("{}", (inner,)), column), 0
        if kind != "name":
            raise self.fail("a term")
        name = token.text
        self.index += 1
        following = self.current
        if following.kind == "(" and not following.layout:
            return self.mark(Struct(name, self.arguments()), column), 0
        if (name == "-" and token.value is not True and following.kind == "number"
                and not following.layout):
            self.index += 1
            number = following.value
            assert isinstance(number, Int | Float)
            return (Int(-number.value) if isinstance(number, Int) else Float(-number.value)), 0
        if (token.value is not True and name in PREFIX and PREFIX[name].priority <= limit
                and not self.ends_operand(following)):
            op = PREFIX[name]
            argument = self.term(op.right)
            return self.mark(Struct(name, (argument,)), column), op.priority
        return self.mark(Atom(name), column), 0

    def ends_operand(self, token: Token) -> bool:
        """True when a prefix operator before `token` stands alone, as an atom: `- )`, `- =`."""
        if token.kind in _TERMINATORS:
            return True
        return (token.kind == "name" and token.text in INFIX and token.text not in PREFIX
                and self.peek().kind != "(")

    def arguments(self) -> tuple[Term, ...]:
        self.open()
        args = [self.term(1200, argument=True)]
        while self.current.kind == ",":
            self.index += 1
            args.append(self.term(1200, argument=True))
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

    def list_term(self) -> ListTerm:
        self.open()
        if self.current.kind == "]":
            self.index += 1
            self.depth -= 1
            return NIL
        items = [self.term(1200, argument=True)]
        tail: Term | None = None
        while self.current.kind == ",":
            self.index += 1
            items.append(self.term(1200, argument=True))
        if self.current.kind == "|":
            self.index += 1
            tail = self.term(1200, argument=True)
        self.take("]", "',', '|' or ']'" if tail is None else "']'")
        self.depth -= 1
        if isinstance(tail, ListTerm):
            return ListTerm(tuple(items) + tail.items, tail.tail)
        return ListTerm(tuple(items), tail)

    def variable(self, name: str) -> Var:
        if name == "_":
            self.anonymous += 1
            return Var("_", self.anonymous)
        return self.variables.setdefault(name, Var(name))


def read_term(text: str) -> Read:
    """One term, as the top level reads a goal: its final `.` optional."""
    return Parser(text).read("a goal such as successor(x--------, o, S)")


def read_program(text: str) -> list[Read]:
    """The clauses of a Prolog program's text, each read as a term."""
    return list(Parser(text, check_length=False).read_all())
