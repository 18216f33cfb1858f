"""A class's Prolog submissions graded: each in its own contained `swipl`, every predicate of
the lab asked on every state it applies to (`compare.lab_checks`), several at once.

A submission's faults are its own: a program that cannot load, loops, crashes or runs out of
its time budget is graded as far as it got, and the class goes on.
"""

from __future__ import annotations

import difflib
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from compare.grading import Policy
from compare.lab_checks import (
    DIED,
    EXCEPTION,
    NOT_ASKED,
    PREDICATES,
    UNDEFINED,
    Question,
    Verdict,
    judge,
    questions,
)
from logic.contain import sandbox
from logic.contain.contained import ContainedProgram
from logic.contain.harness import LoadReport, ProgramError, StudentProgram
from logic.contain.python_program import Interpreter
from logic.state import is_terminal

ARITY = {"terminal_state": 3, "max_value": 3, "min_value": 3, "minimax_decision": 4,
         "successor": 3}
HELPERS = ("successor/3", "other_player/2", "list_replace/4", "get_action/3", "find_max_sv/2",
           "find_min_sv/2", "winning_config/2")
KEEP_FINDINGS = 50
"""Findings kept per predicate and category for the reports (all are counted)."""
LOG_CHARS = 65536
"""Characters of a program's output kept in its log."""


@dataclass(frozen=True)
class Options:
    """How a class is graded (the `grade` command's options)."""

    predicates: tuple[str, ...] = PREDICATES
    main: str | None = None
    query_seconds: float = 60.0
    budget_seconds: float = 900.0
    load_seconds: float = 30.0
    answers: int = 3
    limits: sandbox.Limits = sandbox.DEFAULT_LIMITS
    interface: str = "prolog"
    functions: tuple[str, ...] = ()
    mapping_file: str | None = None
    settings: tuple[str, ...] = ()
    policy: Policy = Policy()
    python: Interpreter | None = None
    definitions_only: bool = False


@dataclass
class PredicateGrade:
    """One predicate's questions: how many were checked and right, by category, and the first
    findings of each category."""

    checked: int = 0
    correct: int = 0
    counts: Counter = field(default_factory=Counter)
    notes: Counter = field(default_factory=Counter)
    findings: list[tuple[Question, Verdict]] = field(default_factory=list)
    finished: Counter = field(default_factory=Counter)
    """The categories of the questions asked on finished boards, and (under "") how many."""

    def add(self, question: Question, verdict: Verdict) -> None:
        self.counts[verdict.category] += 1
        if is_terminal(question.state):
            self.finished[""] += 1
            self.finished[verdict.category] += 1
        self.notes.update(verdict.notes)
        if verdict.category == NOT_ASKED:
            return
        self.checked += 1
        if verdict.right:
            self.correct += 1
        elif self.counts[verdict.category] <= KEEP_FINDINGS:
            self.findings.append((question, verdict))


@dataclass(frozen=True)
class Problem:
    """A fault reported once per kind: an exception or an undefined predicate, how often."""

    kind: str
    message: str
    first: str
    count: int = 1


@dataclass
class SubmissionGrade:
    """Everything found in one submission."""

    name: str
    load: LoadReport
    predicates: dict[str, PredicateGrade] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    printed: int = 0
    seconds: float = 0.0
    not_checked: list[str] = field(default_factory=list)

    @property
    def faulty(self) -> bool:
        """True when loading had problems or a question asked was answered wrong."""
        return not self.load.ok or any(
            grade.correct < grade.checked for grade in self.predicates.values()
        )

    @property
    def clean(self) -> bool:
        """True when it loaded cleanly and every question asked was answered right."""
        return self.load.ok and all(
            grade.correct == grade.checked and not grade.counts[NOT_ASKED]
            for grade in self.predicates.values()
        )


def submission_name(path: Path, taken: set[str]) -> str:
    """A name for the submission at `path`, its file's stem or folder's name, made unique."""
    base = path.stem if path.is_file() else path.name
    name, number = base, 2
    while name in taken:
        name, number = f"{base}-{number}", number + 1
    taken.add(name)
    return name


def grade_submission(
    name: str, path: Path, options: Options, running: Running | None = None
) -> SubmissionGrade:
    """Load one submission in its sandbox and ask it every question; never raises for what
    the submission does. `running`, shared by a class, can stop it from another thread."""
    start = time.monotonic()
    running = running or Running()
    try:
        program = StudentProgram([path], options.main, options.limits, options.load_seconds)
    except ProgramError as error:
        return SubmissionGrade(name, LoadReport(problem=str(error)),
                               seconds=time.monotonic() - start)
    with program, running.holding(program):
        report = program.load()
        grade = SubmissionGrade(name, report)
        if report.output:
            log_output(grade, "loading", report.output, len(report.output), question=False)
        _ask_all(program, grade, options, start, running)
    grade.seconds = time.monotonic() - start
    return grade


class Running:
    """The programs a class is running, so that an interrupt stops them all at once."""

    def __init__(self) -> None:
        self.cancelled = threading.Event()
        self._programs: set[ContainedProgram] = set()
        self._lock = threading.Lock()

    @contextmanager
    def holding(self, program: ContainedProgram) -> Iterator[None]:
        with self._lock:
            self._programs.add(program)
        try:
            yield
        finally:
            with self._lock:
                self._programs.discard(program)

    def cancel(self) -> None:
        """Stop asking, and kill every program running now."""
        self.cancelled.set()
        with self._lock:
            programs = list(self._programs)
        for program in programs:
            program.stop()


def _ask_all(program: StudentProgram, grade: SubmissionGrade, options: Options,
             start: float, running: Running) -> None:
    defined = set(grade.load.defined)
    asked = list(options.predicates)
    if "successor" in asked and "successor/3" not in defined:
        asked.remove("successor")
        grade.not_checked.append("successor/3: not defined by the submission (the lab's "
                                 "helper answers it)")
    missing = {predicate for predicate in asked
               if f"{predicate}/{ARITY[predicate]}" not in defined
               and grade.load.problem is None}
    for predicate in sorted(missing, key=PREDICATES.index):
        wanted = f"{predicate}/{ARITY[predicate]}"
        hint = did_you_mean(wanted, defined)
        grade.problems.append(Problem(UNDEFINED, f"{wanted} is not defined{hint}", wanted))
    grade.predicates = {predicate: PredicateGrade() for predicate in asked}
    exceptions: dict[str, Problem] = {}
    deadline = start + options.budget_seconds
    for question in questions(tuple(asked)):
        if running.cancelled.is_set():
            return
        result = grade.predicates[question.predicate]
        undefined = Verdict(UNDEFINED, f"{question.predicate} is not defined")
        left = time_to_ask(question, result, grade, options, deadline,
                           undefined if question.predicate in missing else None)
        if left is None:
            continue
        reply = program.ask(question.goal, "A", options.answers, left)
        verdict = judge(question, reply, options.policy)
        result.add(question, verdict)
        if reply.output:
            log_output(grade, str(question), reply.output, reply.output_chars)
        if verdict.category in (EXCEPTION, DIED) and reply.error:
            _count_problem(exceptions, reply.error_term or verdict.category, reply.error,
                           question, defined)
    grade.problems += exceptions.values()


def time_to_ask(question: Question, result: PredicateGrade, grade: SubmissionGrade,
                options: Options, deadline: float, undefined: Verdict | None) -> float | None:
    """The seconds `question` may take; None, with the question counted in `result`, when it
    is not asked: its predicate `undefined`, the program not loaded, the budget spent."""
    if undefined is not None:
        result.add(question, undefined)
        return None
    if grade.load.problem is not None:
        result.add(question, Verdict(NOT_ASKED, f"not loaded: {grade.load.problem}"))
        return None
    if time.monotonic() >= deadline:
        why = f"the time budget of {options.budget_seconds:g} s ran out"
        result.add(question, Verdict(NOT_ASKED, why))
        return None
    return max(0.1, min(options.query_seconds, deadline - time.monotonic()))


def _count_problem(problems: dict[str, Problem], kind: str, message: str, question: Question,
                   defined: set[str]) -> None:
    known = problems.get(kind)
    if known is not None:
        problems[kind] = Problem(known.kind, known.message, known.first, known.count + 1)
        return
    if kind.startswith("existence_error(procedure,"):
        unknown = kind[len("existence_error(procedure,"):-1].split(":")[-1]
        message += did_you_mean(unknown, defined | set(HELPERS))
    problems[kind] = Problem(kind, message, str(question))


def did_you_mean(wanted: str, names: set[str]) -> str:
    """`; did you mean minimax_decision/4?` for a near name, or nothing."""
    close = difflib.get_close_matches(wanted, sorted(names), n=1, cutoff=0.75)
    return f"; did you mean {close[0]}?" if close else ""


def log_output(grade: SubmissionGrade, label: str, output: str, total: int,
               question: bool = True) -> None:
    """Keep what a question (or the loading) printed, up to `LOG_CHARS` for the whole
    submission; count the questions that printed."""
    grade.printed += question
    used = sum(len(piece) for piece in grade.log)
    if used >= LOG_CHARS:
        return
    cut = "" if total <= len(output) else f"\n... ({total - len(output)} more characters)"
    grade.log.append(f"--- output of {label}\n{output[:LOG_CHARS - used]}{cut}")


def grade_class(
    paths: Sequence[Path], options: Options, jobs: int,
    on_done: Callable[[SubmissionGrade], None] = lambda grade: None,
    grade_one: Callable[..., SubmissionGrade] = grade_submission,
) -> list[SubmissionGrade]:
    """Grade every submission with `grade_one` (Prolog's by default), `jobs` at a time; the
    grades in the order of `paths`."""
    taken: set[str] = set()
    named = [(submission_name(path, taken), path) for path in paths]
    running = Running()

    def one(item: tuple[str, Path]) -> SubmissionGrade:
        try:
            grade = grade_one(item[0], item[1], options, running)
        except Exception as error:  # noqa: BLE001 - one submission's, never the class's
            grade = SubmissionGrade(item[0], LoadReport(
                problem=f"the grader failed on this submission ({type(error).__name__}: "
                f"{error}); please report it"))
        if not running.cancelled.is_set():
            on_done(grade)
        return grade

    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        return list(pool.map(one, named))
    except BaseException:
        running.cancel()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
