"""One kind of submission, as the grader sees it: an `Interface` opens a submission into a
`Session`, whose `Check`s (one object per predicate or function) say which questions are
asked, how a reply is judged, which answers are right, the calls below a question and the
lab's clause. The ask-all loop (`compare.grader.running.run`) drives every interface;
`compare.grader.interfaces.registry` names them.

A new interface is one module with its checks, a session (a subclass of `Session`, which
writes only what differs) and an interface class, and one line in the registry
(docs/grading-reference.md, "Adding an interface").
"""

from __future__ import annotations

import difflib
import threading
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Generic, Protocol, TypeVar

from minimax_lab.compare.grader.interfaces.play import Start, fitting, starts
from minimax_lab.compare.grader.interfaces.probes import probes
from minimax_lab.compare.grader.options.config import DEFAULT_WORK, WorkLimits
from minimax_lab.compare.grader.options.options import OPTION
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import Problem, SubmissionGrade, Verdict
from minimax_lab.compare.judge.scores import Score
from minimax_lab.compare.judge.truth import Policy, Ties, Values
from minimax_lab.logic.contain import sandbox
from minimax_lab.logic.contain.loading import LoadReport
from minimax_lab.logic.positions import fullest_first
from minimax_lab.logic.state import BLANK, Player, State


class Question(Protocol):
    """One question: the check it belongs to, the state and player it is asked of."""

    @property
    def check(self) -> str: ...

    @property
    def state(self) -> State: ...

    @property
    def player(self) -> Player: ...


class Reply(Protocol):
    """What a question got back, as far as the loop reads it: what the program printed, and
    the work it took (in its session's `work_unit`)."""

    @property
    def output(self) -> str: ...

    @property
    def output_chars(self) -> int: ...

    @property
    def work(self) -> float: ...


class Program(Protocol):
    """A submission's program, contained (`logic.contain`): loaded once, stopped at will."""

    @property
    def given_up(self) -> str | None: ...

    def load(self) -> LoadReport: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


class Scoring(Protocol):
    """What scores a submission: an assignment (`compare.grader.assignments.assignment`), by its
    name."""

    @property
    def name(self) -> str: ...

    def score(self, grade: SubmissionGrade, asked: Sequence[str] | None = None) -> Score: ...


Q = TypeVar("Q", bound=Question)
R = TypeVar("R", bound=Reply)


class Check(Generic[Q, R]):
    """One check, a predicate or a function, as one object: the questions it is asked, how a
    reply is judged, which answers are right, the calls its clause makes below a question
    (for the walk to the first wrong call) and the lab's clause to show beside it."""

    name: str

    @property
    def clause(self) -> str:
        """The lab's own clause, shown beside a first wrong call ("" if none)."""
        return ""

    def questions(self) -> Sequence[Q]:
        """Every question it is asked, the fullest boards first."""
        raise NotImplementedError

    def judge(self, question: Q, reply: R, policy: Policy) -> Verdict:
        """The verdict on the reply, against the reference, under `policy`."""
        raise NotImplementedError

    def right(self, question: Q, policy: Policy) -> frozenset[Hashable]:
        """The answers right for `question`, each a key a constant answer keeps (a value, a
        cell and a value, a board), from the reference, for `constant_share`; none by default."""
        return frozenset()

    def calls_below(self, question: Q) -> list[Q]:
        """The calls its clause makes for `question`, each a question of its own; none for a
        check that calls nothing the grader can ask."""
        return []

    @property
    def key(self) -> Hashable:
        """What tells its questions and answers apart from another check's, for caching."""
        return (type(self).__qualname__, self.name)


_BASES: dict[tuple[Hashable, Policy], float] = {}
_BASES_LOCK = threading.Lock()


def constant_share(check: Check[Q, R], policy: Policy) -> float:
    """The largest share of `check`'s questions that any one constant answer gets right (its
    base: proportional credit counts only what is right above it), computed once per check and
    policy."""
    key = (check.key, policy)
    with _BASES_LOCK:
        if key in _BASES:
            return _BASES[key]
    questions = check.questions()
    counts: Counter[Hashable] = Counter()
    for question in questions:
        counts.update(check.right(question, policy))
    share = max(counts.values(), default=0) / len(questions) if questions else 0.0
    with _BASES_LOCK:
        _BASES[key] = share
    return share


@dataclass(frozen=True)
class Options:
    """How a class is graded, whatever the interface: which checks, the program's main file,
    the limits (of work; of the wall clock per question and per submission, as guards
    against a program that waits; of the sandbox), the policy and the assignment that scores
    it (none: no score). What belongs to one interface lives in its object."""

    interface: Interface
    checks: tuple[str, ...] = ()
    main: str | None = None
    query_timeout: float = OPTION["query_timeout"].default
    budget: float = OPTION["budget"].default
    load_timeout: float = OPTION["load_timeout"].default
    limits: sandbox.Limits = sandbox.DEFAULT_LIMITS
    policy: Policy = Policy()
    assignment: Scoring | None = None
    work: WorkLimits = DEFAULT_WORK
    unsandboxed: bool = False
    """Graded even where bwrap cannot contain the submissions (else refused)."""


class Session(Generic[Q, R]):
    """One submission, started contained and bound to its interface's checks. Every member
    has a default but `ask`, `work_limit` and `work_budget`: an interface writes only what
    differs."""

    work_unit: ClassVar[str] = "CPU seconds"
    """What its work is counted in: inferences, CPU seconds."""
    judged: str = ""
    """How its questions are judged, where an interface offers a choice ("": no choice)."""

    def __init__(self, program: Program, checks: dict[str, Check[Q, R]],
                 work: WorkLimits = DEFAULT_WORK) -> None:
        self.program = program
        self.checks = checks
        self.work = work
        self.budget_left: dict[str, float] = {}
        """The work left of each budget (`budget_of`) when the next question is asked (kept
        by `compare.grader.running.run`): an interface that sends questions ahead sends no more than
        each holds, so that the budgets bound the work the program does, not only the work
        counted."""

    def ask(self, question: Q, seconds: float, work: float) -> R:
        """Put the question to the program, within `work` and `seconds` of the wall clock."""
        raise NotImplementedError

    def work_limit(self, question: Q) -> float:
        """The most work the question may take."""
        raise NotImplementedError

    def work_budget(self, questions: Sequence[Q]) -> float:
        """The most work the submission's questions may take together."""
        raise NotImplementedError

    def play_budget(self, decisions: Sequence[Q]) -> float:
        """The most work the play check may take, given the questions of the decisions the
        lab's own solution makes in it: the submission's budget for those by default."""
        return self.work_budget(decisions)

    def answered(self, question: Q) -> bool:
        """True when the program has answered the question already, sent ahead with others:
        its work is done, and asking it costs nothing more."""
        return False

    def budget_of(self, question: Q) -> str:
        """The budget of work the question counts in, the `work_budget` of the questions that
        share it: by default one, the submission's ("")."""
        return ""

    def plan(self, checks: tuple[str, ...], defined: set[str]) -> tuple[tuple[str, ...],
                                                                         list[str]]:
        """The checks to ask, in report order, and why any asked for is not checked."""
        return checks, []

    def defines(self, check: str, defined: set[str]) -> bool:
        """True when the program, having loaded, defines what `check` calls."""
        return check in defined

    def undefined(self, check: str, defined: set[str]) -> tuple[Problem, Verdict]:
        """The problem reported once, and every question's verdict, for an undefined check."""
        hint = did_you_mean(check, defined)
        return (Problem(Category.UNDEFINED_FUNCTION, f"{check}() is not defined{hint}", check),
                Verdict(Category.UNDEFINED_FUNCTION, f"{check}() is not defined"))

    def will_ask(self, checks: set[str]) -> None:
        """Told, before the first question, the checks whose questions the run puts to the
        program (the others it only counts: undefined, say); nothing to do by default."""

    def questions(self, checks: tuple[str, ...]) -> list[Q]:
        """Every question of `checks`, the cheapest (fullest boards) first; within a board,
        the checks in report order."""
        asked = [question for check in checks for question in self.checks[check].questions()]
        return sorted(asked, key=lambda question: fullest_first(question.state))

    def probes(self, questions: Sequence[Q]) -> frozenset[Q]:
        """The probe questions of a run that asks `questions`, every question of its checks:
        they name its bug (`compare.grader.findings.groups`), and are asked whatever the budget."""
        return probes(questions)

    def base(self, check: str, policy: Policy) -> float:
        """The share of the check's questions one constant answer gets right."""
        return constant_share(self.checks[check], policy)

    def judge(self, question: Q, reply: R, policy: Policy) -> Verdict:
        """The verdict on the reply, by its check."""
        return self.checks[question.check].judge(question, reply, policy)

    def ask_again(self, question: Q, reply: R) -> bool:
        """True when the question is worth asking twice (several answers are right, and a
        program that picks among them at random shows it)."""
        return False

    def same(self, reply: R, again: R) -> bool:
        """True when two replies to one question give the same answer."""
        return reply == again

    def problem(self, question: Q, reply: R, verdict: Verdict,
                defined: set[str]) -> Problem | None:
        """A fault to report once per kind (an exception, by its kind), or None."""
        return None

    def calls_below(self, question: Q) -> list[Q]:
        """The calls the check's clause makes below `question`."""
        return self.checks[question.check].calls_below(question)

    def walks(self, question: Q) -> bool:
        """True when a wrong answer to `question` is walked to its first wrong call: where
        its check's clause makes calls below it."""
        return bool(self.calls_below(question))

    def searched_below(self, question: Q) -> list[Q]:
        """The calls the lab's clause makes below `question` in its own search, drawn beside
        the program's (`calls_below`, unless the session asks fewer of them)."""
        return self.calls_below(question)

    def said(self, reply: R) -> str:
        """The reply's answer, as the program wrote it."""
        return str(reply)

    records_calls: ClassVar[bool] = False
    """True when its replies record the calls the program's own code made below (`made`)."""

    def forget(self) -> None:
        """Start the program afresh before its next question, so that nothing it kept (a
        cache) answers in place of its code."""

    def record_next(self) -> None:
        """Record the calls the program's own code makes below its next question (`made`), as
        it makes them afresh: by default its replies record them always, and the program is
        started afresh (`forget`)."""
        self.forget()

    def made(self, question: Q, reply: R) -> list[tuple[Q, str | None]] | None:
        """The calls the program's own code made one level below `question` while answering
        it, in order, each with what it got (None: the lab's answer, given it), where they
        are recorded (None: not recorded)."""
        return None

    def decision(self, state: State, player: Player) -> Q | None:
        """The question that asks the whole program its move for `player` on `state`, for the
        play check (`compare.grader.interfaces.play`), in a process never given a lab answer; None
        where the interface has no play check or cannot ask it there."""
        return None

    def play_starts(self) -> list[Start]:
        """Where the play check's games start: those of `compare.grader.interfaces.play.starts`
        where the program can be asked its first decision (none: no play check)."""
        return fitting(starts(), lambda state, player: self.decision(state, player) is not None)

    def played(self, question: Q, verdict: Verdict) -> int | None:
        """The cell a decision's answer marks, where it is a legal move (the game goes on)."""
        judgement = verdict.judgement
        if judgement is None or judgement.category is Category.ILLEGAL_MOVE:
            return None
        cell = judgement.answer.cell
        return cell if question.state[cell - 1] == BLANK else None

    def lab_right(self, question: Q, policy: Policy) -> frozenset[Hashable]:
        """The lab's answers to a call drawn in a search beside the lab's: its check's right
        answers (none where no check asks it)."""
        check = self.checks.get(question.check)
        return check.right(question, policy) if check is not None else frozenset()

    def clause(self, check: str) -> str:
        """The lab's own clause for `check`, shown beside a first wrong call ("" if none)."""
        found = self.checks.get(check)
        return found.clause if found is not None else ""


class Interface:
    """A kind of submission: its name, the checks it knows, its default policy, and how a
    submission is opened. An interface with options of its own is a frozen dataclass whose
    fields are named as `compare.grader.options.config.Settings` names them."""

    name: ClassVar[str]
    checks: ClassVar[tuple[str, ...]] = ()
    """Every check it knows, in report order (none when each submission names its own)."""
    check_noun: ClassVar[str] = "function"
    """What a check is called: predicate, function."""
    load_label: ClassVar[str] = "import"
    """What loading is called in the output log: loading, import."""
    policy: ClassVar[Policy] = Policy(Ties.ANY, Values.ALL)
    """Its default policy: the tie rule and whether values are graded, as its specification
    has them (the lab's lowest cell for the lab's Prolog; any optimal move for CS50)."""
    suffixes: ClassVar[tuple[str, ...]] = (".py",)
    """The file names a submission handed in as one file may have (`.pl`; `.py`)."""

    def ready(self, paths: Sequence[Path]) -> None:
        """A `LabError`, before anything runs, for what it cannot grade as configured (a
        missing `swipl`, a course Python that cannot run, a mapping that cannot be
        followed)."""

    def open(self, path: Path, options: Options) -> Session[Question, Reply]:
        """The submission at `path`, ready to load; a `LabError` for one that cannot be."""
        raise NotImplementedError


UNDEFINED_CATEGORIES = (Category.UNDEFINED, Category.UNDEFINED_FUNCTION)
"""Said once per submission, as a problem, never per question in a report."""


def did_you_mean(wanted: str, names: set[str]) -> str:
    """`; did you mean minimax_decision/4?` for a near name, or nothing."""
    close = difflib.get_close_matches(wanted, sorted(names), n=1, cutoff=0.75)
    return f"; did you mean {close[0]}?" if close else ""
