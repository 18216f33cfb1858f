"""One kind of submission, as the grader sees it: which questions it is asked, how a question
is put to the program and how its reply is judged. The ask-all loop (`compare.grader.run`)
drives every interface; `compare.grader.registry` names them.

A new interface is one module with a class that has what `Interface` lists, and one line in
the registry (docs/grading.md, "Adding an interface").
"""

from __future__ import annotations

import argparse
import difflib
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from compare.grader.assignment import DEFAULT_WORK, Assignment, WorkLimits
from compare.judge.categories import Category
from compare.judge.results import Problem, Verdict
from compare.judge.truth import Policy
from logic.contain import sandbox
from logic.contain.contained import ContainedProgram
from logic.errors import LabError
from logic.state import Player, State


@dataclass(frozen=True)
class Options:
    """How a class is graded, whatever the interface: which checks, the program's main file,
    the limits (of work; of the wall clock per question and per submission, as guards
    against a program that waits; of the sandbox), the policy and the assignment that scores
    it (none: no score). What belongs to one interface lives in its object."""

    interface: Interface
    checks: tuple[str, ...] = ()
    main: str | None = None
    query_seconds: float = 600.0
    budget_seconds: float = 3600.0
    load_seconds: float = 30.0
    limits: sandbox.Limits = sandbox.DEFAULT_LIMITS
    policy: Policy = Policy()
    assignment: Assignment | None = None
    work: WorkLimits = DEFAULT_WORK


class Question(Protocol):
    """One question: the check it belongs to, the state and player it is asked of."""

    check: str
    state: State
    player: Player

    def __str__(self) -> str:
        """The question in the submission's notation."""


class Reply(Protocol):
    """What a question got back, as far as the loop reads it: what the program printed, and
    the work it took (in its session's `work_unit`)."""

    output: str
    output_chars: int
    work: float


class Session(Protocol):
    """One submission, started contained and bound to its interface."""

    program: ContainedProgram
    work_unit: str
    """What its work is counted in: inferences, CPU seconds."""

    def plan(self, checks: tuple[str, ...], defined: set[str]) -> tuple[tuple[str, ...],
                                                                         list[str]]:
        """The checks to ask, in report order, and why any asked for is not checked."""

    def defines(self, check: str, defined: set[str]) -> bool:
        """True when the program, having loaded, defines what `check` calls."""

    def undefined(self, check: str, defined: set[str]) -> tuple[Problem, Verdict]:
        """The problem reported once, and every question's verdict, for an undefined check."""

    def questions(self, checks: tuple[str, ...]) -> list[Question]:
        """Every question of `checks`, the cheapest (fullest boards) first."""

    def work_limit(self, question: Question) -> float:
        """The most work the question may take."""

    def work_budget(self, questions: list[Question]) -> float:
        """The most work the submission's questions may take together."""

    def ask(self, question: Question, seconds: float, work: float) -> Reply:
        """Put the question to the program, within `work` and `seconds` of the wall clock."""

    def judge(self, question: Question, reply: Reply, policy: Policy) -> Verdict:
        """The verdict on the reply, against the reference, under `policy`."""

    def ask_again(self, question: Question, reply: Reply) -> bool:
        """True when the question is worth asking twice (several answers are right, and a
        program that picks among them at random shows it)."""

    def same(self, reply: Reply, again: Reply) -> bool:
        """True when two replies to one question give the same answer."""

    def problem(self, question: Question, reply: Reply, verdict: Verdict,
                defined: set[str]) -> Problem | None:
        """A fault to report once per kind (an exception, by its kind), or None."""

    def calls_below(self, question: Question) -> list[Question]:
        """The calls the lab's clause for `question` makes (a recursive check's), each a
        question of its own; none for a check that calls nothing the grader can ask."""

    def said(self, reply: Reply) -> str:
        """The reply's answer, as the program wrote it."""

    def clause(self, check: str) -> str:
        """The lab's own clause for `check`, shown beside a first wrong call ("" if none)."""


class Interface(Protocol):
    """A kind of submission: its name, the checks it knows, and how a submission is opened."""

    name: str
    checks: tuple[str, ...]
    """Every check it knows, in report order (none when each submission names its own)."""
    check_noun: str
    """What a check is called: predicate, function."""
    load_label: str
    """What loading is called in the output log: loading, import."""
    policy: Policy
    """Its default policy: the tie rule and whether values are graded, as its specification
    has them (the lab's lowest cell for the lab's Prolog; any optimal move for CS50)."""
    suffixes: tuple[str, ...]
    """The file names a submission handed in as one file may have (`.pl`; `.py`)."""

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Interface:
        """The interface as the `grade` command's options set it; a `LabError` for an option
        it does not take, or a program it needs that is missing."""

    def open(self, path: Path, options: Options) -> Session:
        """The submission at `path`, ready to load; a `LabError` for one that cannot be."""


def refuse_python_options(args: argparse.Namespace, interface: str) -> None:
    """A `LabError` for `--mapping`, `--set`, `--python` or `--definitions-only` given to an
    interface that takes none of them."""
    if args.mapping or args.settings:
        raise LabError("--mapping and --set declare a Python function: use --interface "
                       "function")
    if interface == "prolog" and (args.python or args.definitions_only):
        raise LabError("--python and --definitions-only are for Python submissions: use "
                       "--interface cs50 or function")


UNDEFINED_CATEGORIES = (Category.UNDEFINED, Category.UNDEFINED_FUNCTION)
"""Said once per submission, as a problem, never per question in a report."""


def did_you_mean(wanted: str, names: set[str]) -> str:
    """`; did you mean minimax_decision/4?` for a near name, or nothing."""
    close = difflib.get_close_matches(wanted, sorted(names), n=1, cutoff=0.75)
    return f"; did you mean {close[0]}?" if close else ""
