"""A grading run's options as typed values: `Settings` holds every option as a front end was
given it (the command line from its arguments, the API from keywords) or as an assignment
file sets it (from TOML), None where not given; `compare.grader.assignment.settled` is the one
place where they meet. The core never sees how they were written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from compare.judge.truth import Ties, Values
from logic.errors import LabError


@dataclass(frozen=True)
class WorkLimits:
    """Limits that count a program's work, not the time a machine takes, so that a submission
    gets the same grade on an idle machine, a loaded one and a slow one (docs/grading.md,
    "Limits"). Prolog: inferences, `ratio` times the lab's own cost per question and
    `budget_ratio` times it for the whole submission. Python: CPU seconds."""

    ratio: float = 10.0
    budget_ratio: float = 1.0
    cpu_seconds: float = 60.0
    cpu_budget: float = 900.0


DEFAULT_WORK = WorkLimits()


@dataclass(frozen=True)
class Guards:
    """The wall-clock guards against a program that waits (a question's, a submission's) and
    the CPU time loading may take, in seconds."""

    query_seconds: float = 600.0
    budget_seconds: float = 3600.0
    load_seconds: float = 30.0


DEFAULT_GUARDS = Guards()


NUMBERS = ("load_timeout", "query_timeout", "budget", "inference_ratio", "inference_budget",
           "cpu_seconds", "cpu_budget")
"""The options that are a number of seconds or a ratio of the lab's cost."""
MOST = 1e6
"""The largest of them (about 11 days, or a million times the lab's cost)."""


class SettingsError(LabError, ValueError):
    """An option given that is out of its range."""


@dataclass(frozen=True)
class Settings:
    """Every grading option, None where it is not given: the interface and its checks, the
    main file, the policy, each interface's own options, the guards and the limits of work."""

    interface: str | None = None
    checks: tuple[str, ...] | None = None
    main: str | None = None
    ties: Ties | None = None
    values: Values | None = None
    answers: int | None = None
    python: str | None = None
    definitions_only: bool | None = None
    mapping: str | None = None
    """A declared function's mapping file (`--mapping`)."""
    mapping_set: tuple[str, ...] | None = None
    """Keys of the mapping set one by one (`--set KEY=VALUE`)."""
    mapping_table: Mapping[str, object] | None = field(default=None, hash=False)
    """An assignment's `[mapping]` table."""
    load_timeout: float | None = None
    query_timeout: float | None = None
    budget: float | None = None
    inference_ratio: float | None = None
    inference_budget: float | None = None
    cpu_seconds: float | None = None
    cpu_budget: float | None = None

    def __post_init__(self) -> None:
        for name in NUMBERS:
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(
                    value, int | float) or not 0 < value <= MOST):
                raise SettingsError(f"{name} = {value!r}: expected a number above 0 and at "
                                    f"most {MOST:g}")
        if self.answers is not None and (isinstance(self.answers, bool) or not isinstance(
                self.answers, int) or self.answers < 1):
            raise SettingsError(f"answers = {self.answers!r}: expected a whole number, 1 or "
                                "more")

    def over(self, other: Settings) -> Settings:
        """These settings, and `other`'s where these give none."""
        return replace(other, **self.given())

    def given(self) -> dict[str, Any]:
        """The options given, by name."""
        return {item.name: getattr(self, item.name) for item in fields(self)
                if getattr(self, item.name) is not None}

    @property
    def guards(self) -> Guards:
        """The guards set, else the defaults."""
        return Guards(_or(self.query_timeout, DEFAULT_GUARDS.query_seconds),
                      _or(self.budget, DEFAULT_GUARDS.budget_seconds),
                      _or(self.load_timeout, DEFAULT_GUARDS.load_seconds))

    @property
    def work(self) -> WorkLimits:
        """The limits of work set, else the defaults."""
        return WorkLimits(_or(self.inference_ratio, DEFAULT_WORK.ratio),
                          _or(self.inference_budget, DEFAULT_WORK.budget_ratio),
                          _or(self.cpu_seconds, DEFAULT_WORK.cpu_seconds),
                          _or(self.cpu_budget, DEFAULT_WORK.cpu_budget))


def _or(value: float | None, default: float) -> float:
    return default if value is None else value


INTERFACE_OPTIONS = {
    "mapping": "--mapping and --set declare a Python function",
    "mapping_set": "--mapping and --set declare a Python function",
    "python": "--python and --definitions-only are for Python submissions",
    "definitions_only": "--python and --definitions-only are for Python submissions",
}
"""The options only some interfaces take, in the order they are refused to another, each with
what it is for; an interface takes one when it has a field of that name."""
