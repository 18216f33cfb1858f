"""`grade`'s options, one record each (`Option`): its name, its kind and range or choices, its
default, its help, and where it may be set. `OPTIONS` is the one table; the command line's
options, the assignment file's JSON Schema, the API's keywords, the site's and the
autograder's values are made from it, and its `check` is the one check of a value, wherever
it comes from. Every reader reads the table when it is used (`OPTION`, `options_at`), so a line
added to it is an option everywhere. An interface's own options are declared on the interface
(`compare.grader.options.config.own`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import Enum, StrEnum
from typing import Any, get_args, get_type_hints

from minimax_lab.compare.judge.scores import Hints, Rule
from minimax_lab.compare.judge.truth import Ties, Values


class Where(StrEnum):
    """Where an option may be set."""

    LINE = "command line"
    FILE = "assignment file"
    API = "API"
    SITE = "site"
    AUTOGRADER = "autograder"


class Kind(Enum):
    """What an option's value is."""

    NUMBER = "number"
    CHOICE = "choice"
    TEXT = "text"
    SWITCH = "switch"
    NAMES = "names"
    INTERFACE = "interface"


EVERYWHERE = frozenset({Where.LINE, Where.FILE, Where.API})
"""Where most options may be set: `grade`'s command line, the assignment file and the API."""
SECONDS_MOST = 1e6
"""The longest time an option takes (about 11 days)."""
RATIO_MOST = 1000.0
"""The largest multiple of the lab's cost an option takes."""


@dataclass(frozen=True)
class Option:
    """One of `grade`'s options."""

    name: str
    """Its one name: the `Settings` field, the API's keyword, `--NAME` with dashes, the
    assignment file's key with dashes."""
    kind: Kind
    help: str
    default: Any = None
    """Its value when given nowhere (None: the interface's, or none)."""
    most: float = 0.0
    """A number's largest value (above 0 always)."""
    noun: str = ""
    """What a number is, as the command line says it: "a number of seconds"."""
    choices: type[StrEnum] | None = None
    metavar: str | None = None
    where: frozenset[Where] = EVERYWHERE
    group: str = ""
    """The assignment file's table that holds it (`limits`), else its top level."""
    flag: str = ""
    """The command line's flag, where it is not `--NAME` with dashes."""
    keyword: str = ""
    """The API's keyword, where it is not NAME."""
    defaults: Mapping[Where, Any] = field(default_factory=dict)
    """Its value where a place sets its own (the site's budget)."""

    @property
    def key(self) -> str:
        """Its key in the assignment file: `load-timeout`."""
        return self.name.replace("_", "-")

    @property
    def option(self) -> str:
        """Its flag on the command line: `--load-timeout`."""
        return self.flag or "--" + self.key

    @property
    def argument(self) -> str:
        """Its keyword in the API."""
        return self.keyword or self.name

    @property
    def expected(self) -> str:
        """What its value must be, after "expected" or "must be"."""
        if self.kind is Kind.NUMBER:
            return f"a number above 0 and at most {self.most:g}"
        if self.kind is Kind.CHOICE:
            assert self.choices is not None
            return f"one of {', '.join(self.words)}"
        if self.kind is Kind.SWITCH:
            return "true or false"
        if self.kind is Kind.NAMES:
            return "a list of names"
        if self.kind is Kind.INTERFACE:
            return "an interface's name"
        return "a file name (text)"

    @property
    def annotation(self) -> str:
        """Its type in the API's signature."""
        return {Kind.NUMBER: "float", Kind.SWITCH: "bool",
                Kind.NAMES: "Sequence[str]"}.get(self.kind, "str") + " | None"

    @property
    def words(self) -> tuple[str, ...]:
        """A choice's words."""
        return tuple(choice.value for choice in self.choices or ())

    def check(self, value: object) -> Any:
        """`value` as the option holds it (a choice's word as its enum, a number as a float),
        else a `ValueError` saying what it must be (`expected`)."""
        if self.kind is Kind.NUMBER:
            if (isinstance(value, bool) or not isinstance(value, int | float)
                    or math.isnan(value) or not 0 < value <= self.most):
                raise ValueError(self.expected)
            return float(value)
        if self.kind is Kind.CHOICE:
            assert self.choices is not None
            if not isinstance(value, str) or value not in self.words:
                raise ValueError(self.expected)
            return self.choices(value)
        if self.kind is Kind.SWITCH:
            if not isinstance(value, bool):
                raise ValueError(self.expected)
            return value
        if self.kind is Kind.NAMES:
            if isinstance(value, str) or not isinstance(value, Sequence) or not all(
                    isinstance(item, str) for item in value):
                raise ValueError(self.expected)
            return tuple(value)
        if not isinstance(value, str) or not value.strip():
            raise ValueError(self.expected)
        return value

    def read(self, text: str) -> Any:
        """A value as the command line writes it, checked; else a `ValueError` saying what it
        must be, with a number's noun."""
        if self.kind is Kind.NUMBER:
            try:
                return self.check(float(text))
            except ValueError:
                raise ValueError(self.expected.replace("a number", self.noun, 1)) from None
        if self.kind is Kind.NAMES:
            return tuple(name.strip() for name in text.split(","))
        return self.check(text)

    def default_for(self, where: Where) -> Any:
        """Its value where it is given nowhere else, at `where`."""
        return self.defaults.get(where, self.default)

    def schema(self, interfaces: Sequence[str] = ()) -> dict[str, Any]:
        """Its JSON Schema, as the assignment file holds it (`interfaces`: the interface's
        choices)."""
        if self.kind is Kind.NUMBER:
            return {"type": "number", "exclusiveMinimum": 0, "maximum": self.most}
        if self.kind is Kind.CHOICE:
            return {"type": "string", "enum": list(self.words)}
        if self.kind is Kind.SWITCH:
            return {"type": "boolean"}
        if self.kind is Kind.NAMES:
            return {"type": "array", "items": {"type": "string"}}
        if self.kind is Kind.INTERFACE and interfaces:
            return {"type": "string", "enum": list(interfaces)}
        return {"type": "string", "pattern": r"\S"}


def _seconds(name: str, default: float, help: str, **how: Any) -> Option:
    return Option(name, Kind.NUMBER, help, default, SECONDS_MOST, "a number of seconds",
                  metavar="SECONDS", group="limits", **how)


def _ratio(name: str, default: float, help: str) -> Option:
    return Option(name, Kind.NUMBER, help, default, RATIO_MOST, "a ratio", metavar="R",
                  group="limits")


HINTS_HELP = ("what students are told of a wrong answer, each level with those before it: "
              "what (the predicate, the kind of fault), where (the question, its board "
              "drawn, the first wrong call), expected (the lab's value or move), clause (the "
              "lab's clause); default where. The teacher's own reports say everything")
"""The hint levels, as `grade --hints`, the API and `gradebook release` say them."""

OPTIONS: tuple[Option, ...] = (
    Option("interface", Kind.INTERFACE, "prolog: the lab's predicates (default, unless "
           "--assignment names another); cs50: CS50 AI's tictactoe.py; function: a function "
           "declared by --mapping or --set"),
    Option("checks", Kind.NAMES, "the predicates (Prolog) or functions (cs50) to check",
           metavar="P,Q,...", where=frozenset({Where.LINE, Where.API}), flag="--predicates",
           keyword="predicates"),
    Option("main", Kind.TEXT, "the file to load in each submission (default: Prolog, the one "
           "that defines minimax_decision/4; cs50, tictactoe.py; else the only one)",
           metavar="NAME"),
    Option("ties", Kind.CHOICE, "lowest: the lab's rule, the lowest optimal cell; any: every "
           "optimal move agrees, and the report counts those that broke only the lab's tie "
           "rule", choices=Ties),
    Option("values", Kind.CHOICE, "all: an answer's value is graded too; none: moves only, "
           "for programs that give no value", choices=Values),
    Option("unsandboxed", Kind.SWITCH, "grade even where bwrap cannot contain the submissions "
           "(process limits alone): for programs you trust, never a class's"),
    _ratio("inference_ratio", 10.0, "Prolog: the inferences one question may take, as a "
           "multiple of the lab's own solution's"),
    _ratio("inference_budget", 1.0, "Prolog: the inferences one submission may take, as a "
           "multiple of the lab's own solution's for the same questions; what is left is "
           "reported as not asked"),
    _seconds("cpu_seconds", 60.0, "Python: the CPU time one call may take"),
    _seconds("cpu_budget", 900.0, "Python: the CPU time one submission may take; what is left "
             "is reported as not asked"),
    _seconds("query_timeout", 600.0, "wall-clock limit for one question, a guard against a "
             "program that waits"),
    _seconds("budget", 3600.0, "wall-clock limit for one submission, a guard; what is left "
             "is reported as not asked",
             where=EVERYWHERE | {Where.SITE, Where.AUTOGRADER}, defaults={Where.SITE: 1800.0}),
    _seconds("load_timeout", 30.0, "CPU time for loading a submission, all its processes "
             "together; the wall clock guards it at ten times that"),
    Option("hints", Kind.CHOICE, HINTS_HELP, choices=Hints, metavar="LEVEL"),
)
"""Every option of `grade` but an interface's own, in the command line's order."""

OPTION: dict[str, Option] = {option.name: option for option in OPTIONS}
"""Each option by its name, in the table's order: what every reader reads."""


def options_at(where: Where) -> tuple[Option, ...]:
    """The options that may be set at `where`."""
    return tuple(option for option in OPTION.values() if where in option.where)


def defaults_at(where: Where) -> dict[str, Any]:
    """The value of each option that may be set at `where` and has one there, by name."""
    return {option.name: option.default_for(where) for option in options_at(where)
            if option.default_for(where) is not None}


PAIRS = {"type": "array", "items": {"type": "array", "minItems": 2, "maxItems": 2,
                                     "items": {"type": "number", "minimum": 0, "maximum": 1}}}
"""The JSON Schema of a rule's thresholds: pairs of shares, each from 0 to 1."""


def rule_schema() -> dict[str, Any]:
    """The JSON Schema of a check's rule (`[checks.NAME]`, `[default]`), made from `Rule`'s
    fields: a number 0 or more, a choice's words, the thresholds' pairs, which go with
    `credit = "thresholds"` and only with it."""
    properties: dict[str, Any] = {}
    for item, hint in zip(fields(Rule), get_type_hints(Rule).values(), strict=True):
        kind = next((part for part in (hint, *get_args(hint)) if isinstance(part, type)
                     and issubclass(part, StrEnum)), None)
        properties[item.name] = ({"type": "string", "enum": [word.value for word in kind]}
                                 if kind is not None else PAIRS if item.name == "thresholds"
                                 else {"type": "number", "minimum": 0})
    return {"type": "object", "properties": properties, "additionalProperties": False,
            "if": {"properties": {"credit": {"const": "thresholds"}}, "required": ["credit"]},
            "then": {"required": ["thresholds"], "properties": {"thresholds": {"minItems": 1}}},
            "else": {"properties": {"thresholds": {"maxItems": 0}}}}


def file_schema(interfaces: Sequence[str], own: Sequence[str]) -> dict[str, Any]:
    """The JSON Schema of an assignment file: the options it may set (a group's in a table of
    its own), the keys of the interfaces' own options (`own`, checked by the interface), the
    assignment's name, its Python packages, its rules (`rule_schema`: `[default]` and each
    `[checks.NAME]`)."""
    top: dict[str, Any] = {"name": {"type": "string"},
                           "python-packages": {"type": "array"},
                           "default": rule_schema(),
                           "checks": {"type": "object", "additionalProperties": rule_schema()}}
    groups: dict[str, dict[str, Any]] = {}
    for option in options_at(Where.FILE):
        (groups.setdefault(option.group, {}) if option.group else top)[option.key] = \
            option.schema(interfaces)
    top.update({key: {} for key in own})
    for group, keys in groups.items():
        top[group] = {"type": "object", "properties": keys, "additionalProperties": False}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
            "properties": top, "additionalProperties": False}
