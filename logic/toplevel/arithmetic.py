"""Arithmetic as SWI-Prolog evaluates it (`is/2`, `=:=`, `<`, ...): integers of any size,
floats, and the functions students reach for, with SWI-Prolog's errors. Nothing is evaluated
as Python: each function is looked up in a table."""

from __future__ import annotations

import math
from collections.abc import Callable

from minimax_lab.logic.toplevel.errors import InstantiationError, PrologError
from minimax_lab.logic.toplevel.prolog_terms import (
    Atom,
    Float,
    Int,
    ListTerm,
    Number,
    String,
    Struct,
    Substitution,
    Term,
    Var,
    format_term,
    walk,
)

MAX_BITS = 1_000_000
"""The largest integer made, in bits: past it, SWI-Prolog would spend the machine's memory."""


def evaluation_error(what: str) -> PrologError:
    return PrologError(f"arithmetic: evaluation error: {what}",
                       Struct("evaluation_error", (Atom(what),)))


def type_error(kind: str, culprit: Term) -> PrologError:
    """SWI-Prolog's `type_error(Kind, Culprit)`."""
    if kind == "evaluable":
        return PrologError(f"arithmetic: {format_term(culprit)} is not a function",
                           Struct("type_error", (Atom(kind), culprit)))
    return PrologError(f"type error: {kind} expected, found {format_term(culprit)}"
                       f" ({_kind_of(culprit)})", Struct("type_error", (Atom(kind), culprit)))


def _kind_of(term: Term) -> str:
    if isinstance(term, Int):
        return "an integer"
    if isinstance(term, Float):
        return "a float"
    if isinstance(term, Atom):
        return "an atom"
    if isinstance(term, String):
        return "a string"
    if isinstance(term, ListTerm):
        return "a list" if term.items or term.tail is not None else "an empty list"
    return "a compound"


def instantiation_error(where: str = "") -> InstantiationError:
    return InstantiationError("arguments are not sufficiently instantiated" + where,
                              Atom("instantiation_error"))


def evaluate(term: Term, substitution: Substitution) -> Number:
    """The value of the arithmetic expression `term`."""
    term = walk(term, substitution)
    if isinstance(term, Int | Float):
        return term
    if isinstance(term, Var):
        raise instantiation_error()
    if isinstance(term, Atom):
        constant = _CONSTANTS.get(term.name)
        if constant is None:
            raise type_error("evaluable", Struct("/", (term, Int(0))))
        return constant
    if isinstance(term, String):
        if len(term.text) == 1:
            return Int(ord(term.text))
        raise PrologError(f'type error: a string of one character expected, found "{term.text}"',
                          Struct("type_error", (Atom("[]"), term)))
    if isinstance(term, ListTerm):
        if len(term.items) == 1 and term.tail is None:
            return evaluate(term.items[0], substitution)
        raise type_error("evaluable", Struct("/", (Atom("[|]"), Int(2))))
    function = _FUNCTIONS.get((term.name, len(term.args)))
    if function is None:
        raise type_error("evaluable", Struct("/", (Atom(term.name), Int(len(term.args)))))
    values = [evaluate(arg, substitution) for arg in term.args]
    return _checked(function(*values))


def _checked(value: Number) -> Number:
    if isinstance(value, Float):
        if math.isnan(value.value):
            raise evaluation_error("undefined")
        if math.isinf(value.value):
            raise evaluation_error("float_overflow")
    elif value.value.bit_length() > MAX_BITS:
        raise PrologError(f"resource error: an integer of more than {MAX_BITS} bits",
                          Struct("resource_error", (Atom("memory"),)))
    return value


def compare(left: Number, right: Number) -> int:
    """-1, 0 or 1 as `left` is less than, equal to or greater than `right`, as numbers."""
    a, b = left.value, right.value
    return (a > b) - (a < b)


def _float(value: Number) -> float:
    try:
        return float(value.value)
    except OverflowError:
        raise evaluation_error("float_overflow") from None


def _int(value: Number) -> int:
    if not isinstance(value, Int):
        raise type_error("integer", value)
    return value.value


def _number(value: int | float) -> Number:
    return Int(value) if isinstance(value, int) else Float(value)


def _mixed(integer: Callable[[int, int], int], floating: Callable[[float, float], float]
           ) -> Callable[[Number, Number], Number]:
    def apply(a: Number, b: Number) -> Number:
        if isinstance(a, Int) and isinstance(b, Int):
            return Int(integer(a.value, b.value))
        return Float(floating(_float(a), _float(b)))
    return apply


def _divide(a: Number, b: Number) -> Number:
    if isinstance(a, Int) and isinstance(b, Int):
        if b.value == 0:
            raise evaluation_error("zero_divisor")
        if a.value % b.value == 0:
            return Int(a.value // b.value)
        return Float(a.value / b.value)
    if _float(b) == 0.0:
        raise evaluation_error("zero_divisor")
    return Float(_float(a) / _float(b))


def _integer_division(kind: str) -> Callable[[Number, Number], Number]:
    def apply(a: Number, b: Number) -> Number:
        x, y = _int(a), _int(b)
        if y == 0:
            raise evaluation_error("zero_divisor")
        quotient = abs(x) // abs(y) * (1 if (x >= 0) == (y >= 0) else -1)  # toward zero
        if kind == "//":
            return Int(quotient)
        if kind == "rem":
            return Int(x - y * quotient)
        if kind == "div":
            return Int(x // y)
        return Int(x % y)  # mod: the sign of the divisor
    return apply


def _power(caret: bool) -> Callable[[Number, Number], Number]:
    def apply(a: Number, b: Number) -> Number:
        if isinstance(a, Int) and isinstance(b, Int):
            base, exponent = a.value, b.value
            if exponent < 0:
                if base == 0:
                    raise evaluation_error("zero_divisor")
                if base in (1, -1):
                    return Int(base ** exponent) if caret else Float(float(base) ** exponent)
                return Float(float(base) ** exponent)
            if base not in (0, 1, -1) and exponent * max(1, abs(base).bit_length()) > MAX_BITS:
                raise PrologError(f"resource error: an integer of more than {MAX_BITS} bits",
                                  Struct("resource_error", (Atom("memory"),)))
            return Int(base ** exponent)
        x, y = _float(a), _float(b)
        if x == 0.0 and y < 0:
            raise evaluation_error("zero_divisor")
        try:
            result = math.pow(x, y)
        except ValueError:
            raise evaluation_error("undefined") from None
        except OverflowError:
            raise evaluation_error("float_overflow") from None
        return Float(result)
    return apply


def _shift(left: bool) -> Callable[[Number, Number], Number]:
    def apply(a: Number, b: Number) -> Number:
        x, y = _int(a), _int(b)
        if left and y > 0 and x.bit_length() + y > MAX_BITS:
            raise PrologError(f"resource error: an integer of more than {MAX_BITS} bits",
                              Struct("resource_error", (Atom("memory"),)))
        towards_left = left == (y >= 0)  # a negative shift goes the other way
        return Int(x << abs(y) if towards_left else x >> abs(y))
    return apply


def _real(function: Callable[[float], float]) -> Callable[[Number], Number]:
    def apply(a: Number) -> Number:
        try:
            return Float(function(_float(a)))
        except ValueError:
            raise evaluation_error("undefined") from None
        except OverflowError:
            raise evaluation_error("float_overflow") from None
    return apply


def _log(a: Number) -> Number:
    value = _float(a)
    if value == 0.0:
        raise evaluation_error("float_overflow" if isinstance(a, Int) else "undefined")
    if value < 0:
        raise evaluation_error("undefined")
    return Float(math.log(value))


def _log2(base: Number, a: Number) -> Number:
    return Float(_float(_log(a)) / _float(_log(base)))


def _to_integer(function: Callable[[float], int]) -> Callable[[Number], Number]:
    def apply(a: Number) -> Number:
        if isinstance(a, Int):
            return a
        if math.isinf(a.value) or math.isnan(a.value):
            raise evaluation_error("undefined")
        return Int(function(a.value))
    return apply


def _round(value: float) -> int:
    """Half away from zero, as C's round()."""
    return int(math.floor(abs(value) + 0.5)) * (1 if value >= 0 else -1)


def _sign(a: Number) -> Number:
    if isinstance(a, Int):
        return Int((a.value > 0) - (a.value < 0))
    return Float(math.copysign(1.0, a.value) if a.value != 0 else 0.0)


def _extreme(greatest: bool) -> Callable[[Number, Number], Number]:
    def apply(a: Number, b: Number) -> Number:
        order = compare(a, b)
        if order == 0:  # equal, perhaps of two types: SWI-Prolog gives the second
            return b
        return a if (order > 0) == greatest else b
    return apply


def _gcd(a: Number, b: Number) -> Number:
    return Int(math.gcd(_int(a), _int(b)))


def _msb(a: Number) -> Number:
    value = _int(a)
    if value <= 0:
        raise type_error("positive_integer" if value else "not_less_than_one", a)
    return Int(value.bit_length() - 1)


_CONSTANTS: dict[str, Number] = {
    "pi": Float(math.pi), "e": Float(math.e), "inf": Float(math.inf),
    "infinite": Float(math.inf), "nan": Float(math.nan), "epsilon": Float(2.0 ** -52),
    "max_tagged_integer": Int((1 << 60) - 1), "min_tagged_integer": Int(-(1 << 60)),
}
_FUNCTIONS: dict[tuple[str, int], Callable[..., Number]] = {
    ("+", 2): _mixed(lambda a, b: a + b, lambda a, b: a + b),
    ("-", 2): _mixed(lambda a, b: a - b, lambda a, b: a - b),
    ("*", 2): _mixed(lambda a, b: a * b, lambda a, b: a * b),
    ("/", 2): _divide,
    ("//", 2): _integer_division("//"),
    ("mod", 2): _integer_division("mod"),
    ("rem", 2): _integer_division("rem"),
    ("div", 2): _integer_division("div"),
    ("**", 2): _power(False),
    ("^", 2): _power(True),
    ("-", 1): lambda a: _number(-a.value),
    ("+", 1): lambda a: a,
    ("abs", 1): lambda a: _number(abs(a.value)),
    ("sign", 1): _sign,
    ("min", 2): _extreme(False),
    ("max", 2): _extreme(True),
    ("sqrt", 1): _real(math.sqrt),
    ("sin", 1): _real(math.sin),
    ("cos", 1): _real(math.cos),
    ("tan", 1): _real(math.tan),
    ("asin", 1): _real(math.asin),
    ("acos", 1): _real(math.acos),
    ("atan", 1): _real(math.atan),
    ("atan", 2): lambda a, b: Float(math.atan2(_float(a), _float(b))),
    ("atan2", 2): lambda a, b: Float(math.atan2(_float(a), _float(b))),
    ("exp", 1): _real(math.exp),
    ("log", 1): _log,
    ("log2", 1): lambda a: _log2(Int(2), a),
    ("float", 1): lambda a: Float(_float(a)),
    ("integer", 1): _to_integer(_round),
    ("truncate", 1): _to_integer(math.trunc),
    ("round", 1): _to_integer(_round),
    ("ceiling", 1): _to_integer(math.ceil),
    ("floor", 1): _to_integer(math.floor),
    ("float_integer_part", 1): lambda a: Float(float(math.trunc(_float(a)))),
    ("float_fractional_part", 1): lambda a: (
        Int(0) if isinstance(a, Int) else Float(a.value - math.trunc(a.value))),
    (">>", 2): _shift(False),
    ("<<", 2): _shift(True),
    ("/\\", 2): lambda a, b: Int(_int(a) & _int(b)),
    ("\\/", 2): lambda a, b: Int(_int(a) | _int(b)),
    ("xor", 2): lambda a, b: Int(_int(a) ^ _int(b)),
    ("\\", 1): lambda a: Int(~_int(a)),
    ("gcd", 2): _gcd,
    ("msb", 1): _msb,
}
