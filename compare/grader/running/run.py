"""A class's submissions graded, whatever their interface: each opened in its own contained
process, every question of its checks asked and judged (`ask_all`), several submissions at once.

A submission's faults are its own: a program that cannot load, loops, crashes or runs out of
its time budget is graded as far as it got, and the class goes on.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from minimax_lab.compare.grader.findings.diagnosis import first_wrong_call
from minimax_lab.compare.grader.findings.groups import fingerprint
from minimax_lab.compare.grader.findings.signatures import hypotheses
from minimax_lab.compare.grader.interfaces.interface import Options, Program, Question, Session
from minimax_lab.compare.grader.interfaces.play import PLAY, Decided, lab_decisions, play
from minimax_lab.compare.judge.categories import Category, Kind
from minimax_lab.compare.judge.results import (
    CheckResult,
    Finding,
    Problem,
    SubmissionGrade,
    Verdict,
    WrongCall,
)
from minimax_lab.logic.contain.loading import LoadReport
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.state import Player, State, is_terminal, to_prolog

LOG_CHARS = 65536
"""Characters of a program's output kept in its log."""
LOG_FULL = "\n--- (the log is full: later output is not kept)"
"""The log's last line, once it holds `LOG_CHARS`."""
WALK_SHARE = 0.1
"""The first-wrong-call walks may spend what the questions left of a submission's budgets of
work and time, and this share of each besides: never more."""


def grade_submission(
    name: str, path: Path, options: Options, running: Running | None = None
) -> SubmissionGrade:
    """Open one submission through its interface, load it in its sandbox and ask it every
    question; never raises for what the submission does. `running`, shared by a class, can
    stop it from another thread."""
    start = time.monotonic()
    running = running or Running()
    try:
        session = options.interface.open(path, options)
    except LabError as error:
        return SubmissionGrade(name, LoadReport(problem=str(error)),
                               seconds=time.monotonic() - start, policy=options.policy)
    with closing(session.program) as program, running.holding(program):
        grade = SubmissionGrade(name, program.load(), policy=options.policy,
                                judged=session.judged)
        if grade.load.output:
            log_output(grade, options.interface.load_label, grade.load.output,
                       len(grade.load.output), question=False)
        answered, probed = ask_all(session, grade, options, start, running)
    grade.hypotheses = hypotheses(grade, answered)
    grade.bug = fingerprint(grade, answered, probed)
    grade.seconds = time.monotonic() - start
    return grade


Answered = dict[str, list[tuple[Any, Verdict]]]
"""Each check's questions asked, with their verdicts."""


def ask_all(session: Session[Any, Any], grade: SubmissionGrade, options: Options,
            start: float, running: Running) -> tuple[Answered, frozenset[Any]]:
    """Ask every question of the submission's checks, the cheapest first, within the limits
    of work (per question, and the budget each counts in: the submission's, or its check's
    own, as the session says; one the program answered already, sent ahead, is judged) and
    the wall-clock guards; judge each reply, asking again where a random answer would show;
    keep what it printed and count its problems by kind. Each check's questions asked, with
    their verdicts, and the probe questions, which are asked whatever the budget of work."""
    answered: Answered = {}
    defined = set(grade.load.defined)
    asked, grade.not_checked = session.plan(options.checks, defined)
    loaded = grade.load.problem is None
    undefined: dict[str, Verdict] = {}
    for check in asked:
        if loaded and not session.defines(check, defined):
            problem, undefined[check] = session.undefined(check, defined)
            grade.problems.append(problem)
    grade.checks = {check: CheckResult(base=session.base(check, options.policy))
                    for check in asked}
    problems: dict[str, Problem] = {}
    deadline = start + options.budget
    session.will_ask({check for check in asked if check not in undefined} if loaded else set())
    if PLAY in asked and PLAY not in undefined:
        play_all(session, grade, options, deadline, running, loaded)
    questions = session.questions(asked)
    probed = session.probes(questions)
    shares: dict[str, list[Any]] = {}
    for question in questions:
        shares.setdefault(session.budget_of(question), []).append(question)
    budgets = {name: session.work_budget(share) for name, share in shares.items()}
    spent = dict.fromkeys(budgets, 0.0)
    first_wrong: dict[str, tuple[Any, Verdict]] = {}
    for question in questions:
        if running.cancelled.is_set():
            return answered, probed
        result = grade.checks[question.check]
        left = time_to_ask(question, result, grade, options, deadline,
                           undefined.get(question.check))
        if left is None:
            continue
        budget = session.budget_of(question)
        if (spent[budget] >= budgets[budget] and not session.answered(question)
                and question not in probed):
            whose = f"{budget}'s" if budget else "the"
            why = f"{whose} budget of {budgets[budget]:.4g} {session.work_unit} ran out"
            _add(result, question, Verdict(Category.NOT_ASKED, why))
            continue
        if session.program.given_up is not None:
            _add(result, question, Verdict(Category.NOT_ASKED, session.program.given_up))
            continue
        work = session.work_limit(question)
        session.budget_left = {name: budgets[name] - spent[name] for name in budgets}
        reply = session.ask(question, left, work)
        verdict = session.judge(question, reply, options.policy)
        used = reply.work
        if session.ask_again(question, reply):
            again = session.ask(question, left, work)
            used += again.work
            if not session.same(reply, again):
                verdict = replace(verdict, notes=(*verdict.notes, Category.NOT_REPEATABLE))
        result.work += used
        spent[budget] += used
        _add(result, question, verdict)
        answered.setdefault(question.check, []).append((question, verdict))
        if verdict.category.kind is Kind.FAULT:  # the first is the smallest computation
            first_wrong.setdefault(question.check, (question, verdict))
        if reply.output:
            log_output(grade, str(question), reply.output, reply.output_chars)
        found = session.problem(question, reply, verdict, defined)
        if found is not None:
            known = problems.get(found.kind)
            problems[found.kind] = found if known is None else replace(known,
                                                                       count=known.count + 1)
    grade.problems += problems.values()
    if session.program.given_up is not None:
        grade.problems.append(Problem("given up", session.program.given_up, ""))
    budget_all, spent_all = sum(budgets.values()), sum(spent.values())
    walked = Spent(max(0.0, budget_all - spent_all) + WALK_SHARE * budget_all,
                   deadline + WALK_SHARE * options.budget)
    session.will_ask(set())  # a walk's calls go alone, within what it may spend
    for check, (question, verdict) in first_wrong.items():
        if not running.cancelled.is_set() and session.walks(question):
            wrong = walk(session, question, verdict, options, walked)
            work = walked.take()
            grade.checks[check].first_wrong = replace(wrong, work=work)
            grade.checks[check].work += work
    return answered, probed


def play_all(session: Session[Any, Any], grade: SubmissionGrade, options: Options,
             deadline: float, running: Running, loaded: bool) -> None:
    """The play check (`compare.grader.interfaces.play`), before any other question: every game of
    the program's strategy tree, each decision asked of the whole program within its own limit and
    the check's budget (the lab's own decisions' cost, times the budget ratio); each game a
    question of the check, each decision counted in its `decisions`."""
    result = grade.checks[PLAY]
    budget, spent = session.play_budget([question for position in lab_decisions()
                                         if (question := session.decision(*position))
                                         is not None]), 0.0

    def decide(state: State, player: Player) -> Decided:
        nonlocal spent
        question = session.decision(state, player)
        why = (f"not loaded: {grade.load.problem}" if not loaded
               else "the grade was stopped" if running.cancelled.is_set()
               else f"the time budget of {options.budget:g} s ran out"
               if time.monotonic() >= deadline
               else f"the budget of {budget:.4g} {session.work_unit} ran out"
               if spent >= budget else session.program.given_up)
        if why is not None:
            return Decided(Verdict(Category.NOT_ASKED, why), None)
        session.budget_left = {session.budget_of(question): budget - spent}
        left = max(0.1, min(options.query_timeout, deadline - time.monotonic()))
        reply = session.ask(question, left, min(session.work_limit(question), budget - spent))
        verdict = session.judge(question, reply, options.policy)
        spent += reply.work
        result.work += reply.work
        result.decisions[verdict.category] += 1
        if reply.output:
            log_output(grade, str(question), reply.output, reply.output_chars)
        return Decided(verdict, session.played(question, verdict))

    fitted = session.play_starts()
    if not fitted:
        grade.not_checked.append(f"{PLAY}: this program cannot be played here")
        del grade.checks[PLAY]
        return
    for game in play(fitted, decide):
        where = (game.start.state, game.start.agent)
        said = f"a game as {game.start.agent} from {to_prolog(game.start.state)}"
        finding = None if game.verdict.right else Finding(
            game.verdict.category, where, game.verdict.detail, asked=said, moves=game.moves,
            lab=game.verdict.lab)
        result.judged(game.verdict.category, game.verdict.notes, finding)


class Spent:
    """What a walk may still spend of the submission's budget: work, and the time budget's
    `deadline`; `take` gives what was spent since it was last asked."""

    def __init__(self, work: float, deadline: float) -> None:
        self.left, self.deadline, self._since = work, deadline, 0.0

    def spend(self, work: float) -> None:
        self.left -= work
        self._since += work

    def take(self) -> float:
        spent, self._since = self._since, 0.0
        return spent

    def why_not(self, session: Session[Any, Any]) -> str | None:
        """Why nothing more may be asked, if so."""
        if self.left <= 0:
            return f"the budget of {session.work_unit} ran out"
        if time.monotonic() >= self.deadline:
            return "the time budget ran out"
        return session.program.given_up


def walk(session: Session[Any, Any], question: Question, verdict: Verdict, options: Options,
         spent: Spent | None = None) -> WrongCall:
    """Where the wrong answer to `question` goes wrong in the program's recursion, within what
    is left of the submission's budget (`spent`)."""
    spent = spent or Spent(float("inf"), float("inf"))

    def ask(call: Question) -> tuple[Any, Verdict] | str:
        why = spent.why_not(session)
        if why is not None:
            return why
        seconds = max(0.1, min(options.query_timeout, spent.deadline - time.monotonic()))
        reply = session.ask(call, seconds, min(session.work_limit(call), spent.left))
        spent.spend(reply.work)
        return reply, session.judge(call, reply, options.policy)

    wrong = Finding(verdict.category, (question.state, question.player), verdict.detail,
                    asked=str(question), lab=verdict.lab)
    return first_wrong_call(session, wrong, question, ask, options.policy)


def time_to_ask(question: Question, result: CheckResult, grade: SubmissionGrade,
                options: Options, deadline: float, undefined: Verdict | None) -> float | None:
    """The seconds `question` may take; None, with the question counted in `result`, when it
    is not asked: its check `undefined`, the program not loaded, the budget spent."""
    if undefined is not None:
        _add(result, question, undefined)
        return None
    if grade.load.problem is not None:
        _add(result, question, Verdict(Category.NOT_ASKED, f"not loaded: {grade.load.problem}"))
        return None
    if time.monotonic() >= deadline:
        why = f"the time budget of {options.budget:g} s ran out"
        _add(result, question, Verdict(Category.NOT_ASKED, why))
        return None
    return max(0.1, min(options.query_timeout, deadline - time.monotonic()))


def _add(result: CheckResult, question: Question, verdict: Verdict) -> None:
    result.add((question.state, question.player), str(question), verdict,
               is_terminal(question.state))
    if getattr(question, "sample", False) and verdict.category.kind is not Kind.UNASKED:
        result.end_to_end += 1
        result.end_to_end_right += verdict.category is Category.RIGHT


def submission_name(path: Path, taken: set[str]) -> str:
    """A name for the submission at `path`, its file's stem or folder's name, made unique."""
    base = path.stem if path.is_file() else path.name
    name, number = base, 2
    while name in taken:
        name, number = f"{base}-{number}", number + 1
    taken.add(name)
    return name


class Running:
    """The programs a class is running, so that an interrupt stops them all at once."""

    def __init__(self) -> None:
        self.cancelled = threading.Event()
        self._programs: set[Program] = set()
        self._lock = threading.Lock()

    @contextmanager
    def holding(self, program: Program) -> Iterator[None]:
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


def log_output(grade: SubmissionGrade, label: str, output: str, total: int,
               question: bool = True) -> None:
    """Keep what a question (or the loading) printed, up to `LOG_CHARS` for the whole
    submission; count the questions that printed."""
    grade.printed += question
    if grade.log and grade.log[-1].endswith(LOG_FULL):
        return
    used = sum(len(piece) for piece in grade.log)
    if used >= LOG_CHARS:
        grade.log[-1] += LOG_FULL
        return
    cut = "" if total <= len(output) else f"\n... ({total - len(output)} more characters)"
    grade.log.append(f"--- output of {label}\n{output[:LOG_CHARS - used]}{cut}")


ARCHIVES = (".zip", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar")


def submissions(paths: Sequence[Path], suffixes: Sequence[str] | None
                ) -> tuple[list[Path], list[str]]:
    """The paths that are submissions (a folder, or a file of the interface's `suffixes`;
    any file when None), and a note for each other file, which is left out."""
    kept, notes = [], []
    for path in paths:
        if suffixes is None or path.is_dir() or path.suffix.lower() in suffixes:
            kept.append(path)
        elif path.suffix.lower() in ARCHIVES:
            notes.append(f"{path.name} is an archive, not a submission: unpack it into a "
                         "folder and grade the folder")
        else:
            notes.append(f"{path.name} is not a submission ({', '.join(suffixes)}, or a "
                         "folder): left out")
    return kept, notes


def submission_names(paths: Sequence[Path]) -> list[str]:
    """A name for each submission, unique in the class."""
    taken: set[str] = set()
    return [submission_name(path, taken) for path in paths]


def grade_class(
    paths: Sequence[Path], options: Options, jobs: int,
    on_done: Callable[[SubmissionGrade], None] = lambda grade: None,
    grade_one: Callable[..., SubmissionGrade] = grade_submission,
    names: Sequence[str] | None = None,
) -> list[SubmissionGrade]:
    """Grade every submission with `grade_one`, `jobs` at a time, under `names` (default:
    `submission_names`); the grades in the order of `paths`."""
    named = list(zip(names if names is not None else submission_names(paths), paths,
                     strict=True))
    running = Running()

    def one(item: tuple[str, Path]) -> SubmissionGrade:
        try:
            grade = grade_one(item[0], item[1], options, running)
        except Exception as error:  # noqa: BLE001 - one submission's, never the class's
            grade = SubmissionGrade(item[0], LoadReport(
                problem=f"the grader failed on this submission ({type(error).__name__}: "
                f"{error}); please report it"), policy=options.policy)
        if options.assignment is not None:
            grade.score = options.assignment.score(grade, options.checks)
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
