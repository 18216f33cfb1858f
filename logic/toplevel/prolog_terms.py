"""The Prolog terms a goal is made of, their unification, and how SWI-Prolog writes them.

Terms are immutable; a substitution maps variables to terms. The lab's terms come in as: a state
is a list of 9 atoms, an action `[Player, Position]` a list of an atom and an integer, and
`sv(State, Value)` a compound. Terms are written as SWI-Prolog's `writeq/1` writes them, with
operators (`C-V`, `1+2*3`, `a:-b`), quotes where an atom needs them, and no space after a
comma, as this project writes the lab's terms everywhere (`[o,-,x,-,-,-,-,-,-]`).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal

from minimax_lab.logic.state import State
from minimax_lab.logic.terms import SV, Action, whole
from minimax_lab.logic.toplevel.operators import INFIX, PREFIX, is_operator


@dataclass(frozen=True)
class Var:
    """A variable; every `_` and every variable of a clause in use gets its own `serial`, so
    they never share."""

    name: str
    serial: int = 0

    @property
    def is_anonymous(self) -> bool:
        """True for `_` and a clause's own variables, which are never shown by their name."""
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
class Float:
    """A floating-point number: `X is 5/2` makes 2.5."""

    value: float


@dataclass(frozen=True)
class String:
    """A string, `"text"`, as SWI-Prolog reads double quotes."""

    text: str


@dataclass(frozen=True)
class ListTerm:
    """A Prolog list: `[o,-,x,-,-,-,-,-,-]`, `[o,4]`, or with a tail, `[H|T]` (`tail` is
    None for a list that ends, as most do)."""

    items: tuple[Term, ...]
    tail: Term | None = None


@dataclass(frozen=True)
class Struct:
    """A compound term: `sv(State, Value)`, `C-V`, `1+2`."""

    name: str
    args: tuple[Term, ...]


Term = Var | Atom | Int | Float | String | ListTerm | Struct
Number = Int | Float
Substitution = dict[Var, Term]
NIL = ListTerm(())


def walk(term: Term, substitution: Substitution) -> Term:
    """`term`, or what the variable it is is bound to, one level down."""
    while isinstance(term, Var) and term in substitution:
        term = substitution[term]
    return term


def resolve(term: Term, substitution: Substitution) -> Term:
    """`term` with every bound variable replaced by its value, all the way down."""
    term = walk(term, substitution)
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


def unify(left: Term, right: Term, substitution: Substitution) -> Substitution | None:
    """The substitution extended so that `left` and `right` are equal, or None if they cannot be."""
    extended = dict(substitution)
    pending = [(left, right)]
    while pending:
        a, b = pending.pop()
        a, b = walk(a, extended), walk(b, extended)
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
                        walk(rest.tail, extended), Var | ListTerm)):
                    return None
                if rest.tail is not None:
                    pending.append((rest.tail, NIL))
            else:
                pending.append((a.tail, rest if rest.items or rest.tail is None else rest.tail))
        elif isinstance(a, Struct) and isinstance(b, Struct):
            if (a.name, len(a.args)) != (b.name, len(b.args)):
                return None
            pending.extend(zip(a.args, b.args, strict=True))
        else:
            return None
    return extended


def unify_all(pairs: Iterable[tuple[Term, Term]], substitution: Substitution
              ) -> Substitution | None:
    """The substitution extended so that each pair is equal, or None if one cannot be."""
    found = substitution
    for left, right in pairs:
        extended = unify(left, right, found)
        if extended is None:
            return None
        found = extended
    return found


def is_ground(term: Term) -> bool:
    """True if `term` holds no variable."""
    return next(variables_of(term), None) is None


def variables_of(term: Term) -> Iterator[Var]:
    """The variables of `term`, depth first, left to right, each as often as it occurs."""
    pending = [term]
    while pending:
        term = pending.pop()
        if isinstance(term, Var):
            yield term
        elif isinstance(term, ListTerm):
            if term.tail is not None:
                pending.append(term.tail)
            pending.extend(reversed(term.items))
        elif isinstance(term, Struct):
            pending.extend(reversed(term.args))


def as_list(term: Term) -> ListTerm:
    """A list term from its items, its tail folded in: `[a|[b]]` is `[a,b]`."""
    if isinstance(term, ListTerm) and isinstance(term.tail, ListTerm):
        inner = as_list(term.tail)
        return ListTerm(term.items + inner.items, inner.tail)
    return term if isinstance(term, ListTerm) else ListTerm((), term)


# --- writing terms as SWI-Prolog does ----------------------------------------------------------

SYMBOL_CHARS = frozenset("#$&*+-./:<=>?@^~\\")
_SOLO = frozenset(["{}", "!", ";"])
_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\a": "\\a", "\b": "\\b",
            "\f": "\\f", "\v": "\\v"}
ANSWER_PRIORITY = 699
"""The priority an answer's value is written at: the right of `X = ...`, as SWI-Prolog does."""


def format_term(term: Term, names: dict[Var, str] | None = None,
                priority: int = 1200, quoted: bool = True) -> str:
    """The term as SWI-Prolog's `writeq/1` writes it (`write/1` with `quoted` False), without
    spaces after commas: `[o,-,x,-,-,-,-,-,-]`, `sv([x,o,-],-1)`, `a-1`, `'It\\'s'`. An unbound
    variable without a name prints as `names` calls it, else as `_G1` and so on."""
    return "".join(_glued(_pieces(term, names or {}, priority, quoted)))


def format_answer(term: Term, names: dict[Var, str] | None = None) -> str:
    """A value as the top level shows it after `X = `: an operator alone in parentheses,
    `(-)`, as SWI-Prolog's top level writes it."""
    if isinstance(term, Atom) and is_operator(term.name):
        return "(" + quote_atom(term.name) + ")"
    return format_term(term, names, ANSWER_PRIORITY)


def quote_atom(name: str) -> str:
    """An atom's name as `writeq/1` writes it: quoted where reading it back needs quotes."""
    if name in _SOLO or _plain_name(name) or (
            name and set(name) <= SYMBOL_CHARS and not name.startswith("/*")):
        return name
    return "'" + "".join(_escape(char, "'") for char in name) + "'"


def _escape(char: str, quote: str) -> str:
    """A character inside quotes as SWI-Prolog writes it: `\\n`, `\\'`, a control character
    as `\\xHH\\`."""
    if char in _ESCAPES:
        return _ESCAPES[char]
    if char == quote:
        return "\\" + quote
    if unicodedata.category(char) in ("Cc", "Zl", "Zp"):
        return f"\\x{ord(char):X}\\"
    return char


def _plain_name(name: str) -> bool:
    return bool(name) and name[0].isalpha() and not name[0].isupper() and all(
        char.isalnum() or char == "_" for char in name)


def format_number(term: Int | Float) -> str:
    """A number as SWI-Prolog writes it: `2`, `2.5`, `10000000000.0`, `1.0e+22`, `1.0Inf`."""
    if isinstance(term, Int):
        return str(term.value)
    value = term.value
    if math.isnan(value):
        return "1.5NaN"
    if math.isinf(value):
        return "1.0Inf" if value > 0 else "-1.0Inf"
    sign, digits, exponent = Decimal(repr(value)).as_tuple()
    assert isinstance(exponent, int)
    text = "".join(map(str, digits)).rstrip("0") or "0"
    minus = "-" if sign else ""
    if value == 0:
        return minus + "0.0"
    point = len(digits) + exponent  # the digits before the decimal point
    leading = point - 1  # the power of ten of the first digit
    # C's %.Pg with P the digits needed, at least 15, then ".0" where no fraction is left
    if leading < -4 or leading >= max(15, len(text)):
        mantissa = text[0] + "." + (text[1:] or "0")
        return f"{minus}{mantissa}e{'+' if leading > 0 else '-'}{abs(leading)}"
    if point <= 0:
        return f"{minus}0.{'0' * -point}{text}"
    whole, fraction = text[:point].ljust(point, "0"), text[point:]
    return f"{minus}{whole}.{fraction or '0'}"


def _string(text: str) -> str:
    return '"' + "".join(_escape(char, '"') for char in text) + '"'


def _pieces(term: Term, names: dict[Var, str], priority: int, quoted: bool = True
            ) -> list[str]:
    """The term as a list of tokens; `_glued` puts spaces between those that would run into
    one another."""
    if isinstance(term, Var):
        return [term.name if not term.is_anonymous else names.get(term, f"_G{term.serial}")]
    if isinstance(term, Atom):
        if not quoted:
            return [term.name]
        return [quote_atom(term.name) if term.name not in (",", "|") else f"'{term.name}'"]
    if isinstance(term, Int | Float):
        return [format_number(term)]
    if isinstance(term, String):
        return [_string(term.text) if quoted else term.text]
    if isinstance(term, ListTerm):
        out = ["["]
        for index, item in enumerate(term.items):
            if index:
                out.append(",")
            out += _pieces(item, names, 999, quoted)
        if term.tail is not None:
            out += ["|", *_pieces(term.tail, names, 999, quoted)]
        return [*out, "]"]
    if term.name == "{}" and len(term.args) == 1:
        return ["{", *_pieces(term.args[0], names, 1200, quoted), "}"]
    if len(term.args) == 2 and term.name in INFIX:
        op = INFIX[term.name]
        left = _operand(term.args[0], names, op.left, quoted)
        right = _operand(term.args[1], names, op.right, quoted)
        name = term.name if term.name == "," or not quoted else quote_atom(term.name)
        # an operator of letters after a letter or a digit is spaced on both sides, elsewhere
        # only where it would run into its right operand, as SWI-Prolog writes `a rem -1` and
        # `"a"rem-1`
        if _plain_name(term.name) and _ends_alphanumeric(left):
            name = f" {name} "
        return _embraced([*left, name, *right], op.priority > priority)
    if len(term.args) == 1 and term.name in PREFIX:
        op = PREFIX[term.name]
        arg = term.args[0]
        inner = _operand(arg, names, op.right, quoted)
        first = "".join(_glued(inner))[:1]
        # a space where the operator would read as a functor (`- (1+2)`, `- {a}`) or a minus
        # sign as a negative number (`- 1`); letters are spaced from letters by _glued
        spaced = first in "({" or (term.name == "-" and first.isdigit())
        head = (quote_atom(term.name) if quoted else term.name) + (" " if spaced else "")
        return _embraced([head, *inner], op.priority > priority)
    out = [quote_atom(term.name) if quoted else term.name, "("]
    for index, arg in enumerate(term.args):
        if index:
            out.append(",")
        out += _pieces(arg, names, 999, quoted)
    return [*out, ")"]


def _ends_alphanumeric(pieces: list[str]) -> bool:
    last = "".join(pieces)[-1:]
    return last.isalnum() or last == "_"


def _operand(term: Term, names: dict[Var, str], priority: int, quoted: bool = True
             ) -> list[str]:
    """An operator's argument: an operator atom in parentheses, as SWI-Prolog writes `a-(-)`."""
    if isinstance(term, Atom) and is_operator(term.name):
        return ["(" + (quote_atom(term.name) if quoted else term.name) + ")"]
    return _pieces(term, names, priority, quoted)


def _embraced(pieces: list[str], embrace: bool) -> list[str]:
    return ["(", *pieces, ")"] if embrace else pieces


def _glued(pieces: list[str]) -> Iterator[str]:
    """The tokens with a space where two would read as one: `1- -1`, `a= \\+b`."""
    last = ""
    for piece in pieces:
        if not piece:
            continue
        if last and _clash(last[-1], piece[0]):
            yield " "
        yield piece
        last = piece


def _clash(before: str, after: str) -> bool:
    if before in SYMBOL_CHARS and after in SYMBOL_CHARS:
        return True
    return (before.isalnum() or before == "_") and (after.isalnum() or after == "_")


_WRITTEN_VARIABLE = re.compile(r"_G\d+")


def fresh_names(terms: Sequence[Term]) -> dict[Var, str]:
    """Names for the unnamed variables in `terms`, as SWI-Prolog prints an answer: `_` for one
    that occurs once, `_A`, `_B`, ... for one that occurs more often."""
    seen = [var for term in terms for var in variables_of(term) if var.is_anonymous]
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
    return Struct("sv", (state_term(sv.state), Int(whole(sv.value))))
