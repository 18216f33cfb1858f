"""A grading run's options as typed values: `Settings` holds the options of the table
(`compare.grader.options.options.OPTIONS`) given, by name, as a front end was given them (the
command line from its arguments, the API from keywords) or as an assignment file sets them
(from TOML); `compare.grader.assignments.assignment.settled` is
the one place where they meet. The core never sees how they were written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

from minimax_lab.compare.grader.options.options import OPTION
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import quoted


@dataclass(frozen=True)
class WorkLimits:
    """Limits that count a program's work, not the time a machine takes, so that a submission
    gets the same grade on an idle machine, a loaded one and a slow one (docs/grading-reference.md,
    "Limits"). Prolog: inferences, `ratio` times the lab's own cost per question and
    `budget_ratio` times it for the whole submission (`--inference-ratio`,
    `--inference-budget`). Python: CPU seconds (`--cpu-seconds`, `--cpu-budget`). Their
    defaults are the options' (`compare.grader.options.options`)."""

    ratio: float = OPTION["inference_ratio"].default
    budget_ratio: float = OPTION["inference_budget"].default
    cpu_seconds: float = OPTION["cpu_seconds"].default
    cpu_budget: float = OPTION["cpu_budget"].default


DEFAULT_WORK = WorkLimits()


class SettingsError(LabError, ValueError):
    """An option given that is unknown or out of its range: `name`, the `value` given and
    what it must be (`expected`; empty for an unknown name)."""

    def __init__(self, message: str, name: str = "", value: object = None,
                 expected: str = "") -> None:
        super().__init__(message)
        self.name, self.value, self.expected = name, value, expected


@dataclass(frozen=True, init=False, repr=False)
class Settings:
    """Every grading option of the table (`OPTION`) given, by name, each checked once as it
    is given and held as its option holds it (a choice as its enum, a number as a float);
    the options of an interface's own (`own`, by name: `compare.grader.options.config.Own`).
    `Settings(ties="any", budget=60)`; an option not given is read as its default
    (`chosen`)."""

    options: tuple[tuple[str, Any], ...]
    """The options given, in the table's order, as (name, value)."""
    own: Mapping[str, object] = field(hash=False)
    """An interface's own options given, by name (`answers`, `python`, `mapping`...)."""

    def __init__(self, *, own: Mapping[str, object] | None = None, **options: object) -> None:
        unknown = sorted(set(options) - set(OPTION))
        if unknown:
            raise SettingsError(f"unknown option {quoted(unknown[0])}; the options are "
                                f"{', '.join(OPTION)}", unknown[0])
        checked: dict[str, Any] = {}
        for name, option in OPTION.items():  # the table's order: its first fault is said
            value = options.get(name)
            if value is not None:
                try:
                    checked[name] = option.check(value)
                except ValueError as why:
                    raise SettingsError(f"{name} = {value!r}: expected {why}", name, value,
                                        str(why)) from None
        self._hold(checked, own or {})

    def _hold(self, checked: Mapping[str, Any], own: Mapping[str, object]) -> None:
        object.__setattr__(self, "options", tuple(
            (name, checked[name]) for name in OPTION if name in checked))
        object.__setattr__(self, "own", dict(own))

    def __repr__(self) -> str:
        given = [f"{name}={value!r}" for name, value in self.options]
        return f"Settings({', '.join([*given, f'own={dict(self.own)!r}'])})"

    def over(self, other: Settings) -> Settings:
        """These settings, and `other`'s where these give none (values checked already)."""
        merged = object.__new__(Settings)
        merged._hold({**other.given(), **self.given()}, {**other.own, **self.own})
        return merged

    def given(self) -> dict[str, Any]:
        """The options given, by name (not an interface's own)."""
        return dict(self.options)

    def given_value(self, name: str) -> Any:
        """The option `name` as given, None if not given."""
        if name not in OPTION:
            raise KeyError(name)
        return dict(self.options).get(name)

    def chosen(self, name: str) -> Any:
        """The option `name` as given, else its default (`compare.grader.options.options`)."""
        value = self.given_value(name)
        return OPTION[name].default if value is None else value

    @property
    def work(self) -> WorkLimits:
        """The limits of work set, else the defaults."""
        return WorkLimits(*(self.chosen(name) for name in WORK))


WORK = ("inference_ratio", "inference_budget", "cpu_seconds", "cpu_budget")
"""The options that make `WorkLimits`, in its order."""


OWN = "own option"
"""The key, in an interface's dataclass field's metadata, of how the option is given."""


@dataclass(frozen=True)
class Own:
    """How an interface's own option is given (command line, API, assignment file): what it is
    for, its help, and how its value is checked (`check`: a `ValueError` says what it must be)."""

    said: str
    """What it is for, after its name: `is for Python submissions`."""
    help: str
    check: Callable[[object], object]
    metavar: str | None = None
    """The command line's placeholder; None for a switch, true when given."""
    parse: Callable[[str], object] = str
    flag: str | None = None
    """The command line's flag, where it is not `--NAME` (None: not on the command line
    when `line` is False)."""
    many: bool = False
    """Given again and again on the command line; its value is then a tuple."""
    key: str | None = None
    """The assignment file's key, where it is not NAME with dashes ("": not in the file)."""
    line: bool = True
    """Offered on the command line."""
    table: bool = False
    """A table of the assignment file (`[mapping]`), not a key."""
    in_file: Callable[[object], object] | None = None
    """A check of its own for the assignment file, stricter than `check`."""


def own(default: object, said: str, help: str, check: Callable[[object], object],
        **how: Any) -> Any:
    """A dataclass field of an interface: one of its own options, `default` when not given."""
    return field(default=default, hash=False, metadata={OWN: Own(said, help, check, **how)})


def own_options(kind: type) -> dict[str, Own]:
    """The options an interface takes, by name: its dataclass's fields with an `Own`."""
    if not is_dataclass(kind):
        return {}
    return {item.name: item.metadata[OWN] for item in fields(kind) if OWN in item.metadata}


def flag(name: str, how: Own) -> str:
    """`--definitions-only`, or the option's own flag."""
    return how.flag or "--" + name.replace("_", "-")


def file_key(name: str, how: Own) -> str:
    """`definitions-only`, or the option's own key in an assignment file ("": none)."""
    return how.key if how.key is not None else name.replace("_", "-")


# --- the checks an option's value passes -----------------------------------------------------

def text(value: object) -> object:
    """Text, not empty."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError("a file name (text)")
    return value


def switch(value: object) -> object:
    """True or false."""
    if not isinstance(value, bool):
        raise ValueError("true or false")
    return value


def answers(value: object) -> object:
    """A whole number from 1 to 100."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100:
        raise ValueError("a whole number from 1 to 100")
    return value


def whole(text: str) -> object:
    """A whole number written as text, else the text (its check says why not)."""
    return int(text) if text.strip().lstrip("+-").isdigit() else text


def texts(value: object) -> object:
    """A list of texts, as a tuple."""
    if not isinstance(value, list | tuple) or not all(isinstance(item, str) for item in value):
        raise ValueError("a list of texts")
    return tuple(value)


def table(value: object) -> object:
    """A table: keys and values."""
    if not isinstance(value, Mapping):
        raise ValueError("a table")
    return dict(value)


def absolute(value: object) -> object:
    """An absolute path."""
    if not str(text(value)).startswith("/"):
        raise ValueError(f"an absolute path, not {quoted(str(value))}")
    return value
