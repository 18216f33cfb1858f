"""The lab's own interface: a Prolog program defining the lab's predicates, each asked as a goal
in a contained `swipl` within an inference limit, its checks those of
`compare.grader.interfaces.prolog`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar, Protocol

from minimax_lab.compare.grader.interfaces.interface import (
    Check,
    Interface,
    Options,
    Program,
    Session,
    did_you_mean,
)
from minimax_lab.compare.grader.interfaces.play import PLAY
from minimax_lab.compare.grader.interfaces.prolog import (
    CHECKS,
    HELPERS,
    Question,
    decision,
    judged_questions,
    lab_cost,
)
from minimax_lab.compare.grader.interfaces.sample import (
    END_TO_END_HELP,
    END_TO_END_SAID,
    Judged,
    judged_option,
    sample_check,
)
from minimax_lab.compare.grader.options.config import DEFAULT_WORK, WorkLimits, own, whole
from minimax_lab.compare.grader.options.config import answers as answers_check
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import Problem, Verdict
from minimax_lab.compare.judge.truth import Policy, Ties, Values
from minimax_lab.logic.contain.harness import (
    PROLOG_SUFFIXES,
    WHOLE,
    Ask,
    Pipelined,
    Reply,
    StudentProgram,
)
from minimax_lab.logic.contain.swipl import require
from minimax_lab.logic.state import PLAYERS, Player, State
from minimax_lab.logic.tools.beside import MOST_NODES

PLAY_SLACK = 3
"""The play check's budget, as a multiple of what the budget ratio gives the lab's own
decisions in it (docs/grading-reference.md, "The agent judged by how it plays")."""
BATCH = 200
BATCH_BYTES = 32_768
"""Questions, and bytes of questions, sent to a program at once, at most: fewer round trips,
and never more than its question pipe holds (64 KiB), so that no answer waits on a question
still being written."""


@dataclass(frozen=True)
class PrologInterface(Interface):
    """The lab's predicates in a Prolog program, with up to `answers` answers asked of each
    question (the first, and the rest on backtracking)."""

    answers: int = own(3, "is for Prolog submissions, whose goals answer again on backtracking",
                       "answers asked of each question, the first and N-1 on backtracking "
                       "(default: the assignment's, else 3)", answers_check, metavar="N",
                       parse=whole)
    judged: str = judged_option()
    end_to_end: int = own(1, END_TO_END_SAID, END_TO_END_HELP, sample_check, metavar="N",
                          parse=whole)

    name: ClassVar[str] = "prolog"
    checks: ClassVar[tuple[str, ...]] = tuple(CHECKS)
    check_noun: ClassVar[str] = "predicate"
    load_label: ClassVar[str] = "loading"
    suffixes: ClassVar[tuple[str, ...]] = PROLOG_SUFFIXES
    policy: ClassVar[Policy] = Policy(Ties.LOWEST, Values.ALL)
    """The lab's own rule: the first optimal successor in cell order, and values graded."""

    def ready(self, paths: Sequence[Path]) -> None:
        require("grade")

    def open(self, path: Path, options: Options) -> Session[Any, Any]:
        program = StudentProgram([path], options.main, options.limits, options.load_timeout)
        return PrologSession(program, self.answers, options.work, Judged(self.judged),
                             self.end_to_end)


class PrologProgram(Program, Protocol):
    """A student's Prolog program that answers goals: contained in a subprocess
    (`StudentProgram`), or in a host in this process (`logic.contain.hosted`)."""

    def ask(self, goal: str, template: str, most: int, seconds: float,
            inferences: int | None = None, below: str = "none") -> Reply: ...

    def ask_many(self, asks: Sequence[Ask], seconds: float) -> list[Reply]: ...


class PrologSession(Session[Question, Reply]):
    """One Prolog submission: goals asked within inference limits, answers judged as the
    lab's predicates."""

    work_unit = "inferences"

    def __init__(self, program: PrologProgram, answers: int,
                 work: WorkLimits = DEFAULT_WORK, judged: Judged = Judged.WHOLE,
                 end_to_end: int = 0) -> None:
        checks: dict[str, Check[Question, Reply]] = dict(CHECKS)
        super().__init__(program, checks, work)
        self.student = program
        self.answers = answers
        self.judged = judged.value
        self.end_to_end = end_to_end
        self._order: list[Question] = []
        self._index: dict[Question, int] = {}
        self._ahead: dict[tuple[Question, int], Reply] = {}
        self._at = -1
        """The furthest question of the order asked so far (its index)."""
        self._asking: set[str] = set(CHECKS)
        """The checks whose questions the run asks (`will_ask`): only theirs go ahead."""
        self._record = False
        """True when the next question records the calls below it (`record_next`)."""
        self._posted: dict[int, list[tuple[Question, int]]] = {}
        """The batches posted to a pipelined program, by number: their questions and limits."""
        self._pipe = program if isinstance(program, Pipelined) and program.pipelined else None
        """The program, where it can be sent questions ahead (`Pipelined`): decided once."""

    def will_ask(self, checks: set[str]) -> None:
        self._asking = set(checks)

    def questions(self, checks: tuple[str, ...]) -> list[Question]:
        """Every question of `checks`, judged as the session is; judged on its own clauses,
        followed by the end-to-end sample, unless the play check is asked (which plays the
        lab's cases and every board the program meets, of the whole program)."""
        sampled = None if PLAY in checks and self.play_starts() else self.end_to_end
        return self.follow(judged_questions(checks, Judged(self.judged), sampled))

    def follow(self, order: list[Question]) -> list[Question]:
        """`order`, the questions the run asks, in turn: those sent ahead follow it (a
        session that asks a selection of them follows the selection)."""
        self._order = order
        self._index = {question: index for index, question in enumerate(order)}
        self._at = -1
        return order

    def decision(self, state: State, player: Player) -> Question | None:
        return decision(state, player)

    def work_limit(self, question: Question) -> float:
        return round(self.work.ratio * lab_cost(question))

    def play_budget(self, decisions: Sequence[Question]) -> float:
        """`PLAY_SLACK` times the budget of the lab's own decisions: a right program a few
        times slower than the lab's style plays every game."""
        return PLAY_SLACK * self.work_budget(decisions)

    def work_budget(self, questions: Sequence[Question]) -> float:
        return round(self.work.budget_ratio * sum(lab_cost(question) for question in questions))

    def answered(self, question: Question) -> bool:
        key = (question, round(self.work_limit(question)))
        return key in self._ahead or any(key in keys for keys in self._posted.values())

    def budget_of(self, question: Question) -> str:
        """Each check's own: a loop in one spends its budget, never another check's."""
        return question.check

    def plan(self, checks: tuple[str, ...], defined: set[str]) -> tuple[tuple[str, ...],
                                                                         list[str]]:
        if "successor" in checks and "successor/3" not in defined:
            return (tuple(check for check in checks if check != "successor"),
                    ["successor/3: not defined by the submission (the lab's helper answers "
                     "it)"])
        return checks, []

    def defines(self, check: str, defined: set[str]) -> bool:
        return CHECKS[check].indicator in defined

    def undefined(self, check: str, defined: set[str]) -> tuple[Problem, Verdict]:
        wanted = CHECKS[check].indicator
        hint = did_you_mean(wanted, defined)
        return (Problem(Category.UNDEFINED, f"{wanted} is not defined{hint}", wanted),
                Verdict(Category.UNDEFINED, f"{check} is not defined"))

    def ask(self, question: Question, seconds: float, work: float) -> Reply:
        """The reply to `question`: asked with the questions that follow it in the order
        planned (`questions`) of the checks the run asks (`will_ask`) and whose budgets are
        not spent, up to `BATCH_BYTES` and as many as their limits fit in what is left of
        their checks' budgets (`budget_left`), their replies kept until they are asked
        within their own limits. A question that is not further on in that order (asked
        again, or a call below that a first-wrong-call walk asks) goes alone, the replies
        ahead kept. A program that can be sent questions before their replies are wanted
        (`Pipelined`, the site's SWI-Prolog in a worker of its own) is sent the next batch
        as soon as one is taken, so that it answers while these are judged: the same
        questions in the same order, each as sure to be asked (its room counts every
        question sent before it as if it took its whole limit), none while a budget is near
        its end (less than twice what is sent and not judged left), where a question of it
        may be asked alone."""
        limit = round(work)
        if self._record:  # alone, afresh, never a reply sent ahead
            self._record = False
            return self.student.ask_many([self._ask(question, limit, record=True)], seconds)[0]
        if (question, limit) not in self._ahead and self._posted:
            self._take_posted()
        ahead = self._ahead.pop((question, limit), None)
        index = self._index.get(question, -1)
        onwards = index > self._at
        self._at = max(self._at, index)
        if ahead is not None:
            self._post_next(question, limit, index)
            return ahead
        if not onwards:
            return self.student.ask_many([self._ask(question, limit)], seconds)[0]
        asks, batch = self._batch(index, {question.check: limit}, [self._ask(question, limit)],
                                  [question])
        replies = self.student.ask_many(asks, seconds)
        self._ahead.update({(asked, int(ask.inferences or 0)): reply  # those sent before kept
                            for asked, ask, reply in zip(batch[1:], asks[1:], replies[1:],
                                                         strict=False)})
        self._post_next(question, limit, index)
        return replies[0]

    def _batch(self, index: int, taken: dict[str, float], asks: list[Ask],
               batch: list[Question]) -> tuple[list[Ask], list[Question]]:
        """`asks` of `batch` with the questions that follow the order's `index`-th added, as
        `ask` says, each check's room its budget left less `taken` (the limits of those sent
        and not yet judged); the questions, and their asks."""
        room = {check: left - taken.get(check, 0) for check, left in self.budget_left.items()}
        spent = {check for check, left in self.budget_left.items() if left <= 0}  # never again
        size = sum(ask.size for ask in asks)
        kind = next((ask.kind for ask in asks if ask.kind), "")
        posted = {key for keys in self._posted.values() for key in keys}
        for following in self._order[index + 1:index + BATCH]:
            limit_of = round(self.work_limit(following))
            if (following.check not in self._asking or following.check in spent
                    or (following, limit_of) in self._ahead  # sent already: its reply kept
                    or (following, limit_of) in posted):
                continue
            ask = self._ask(following, limit_of)
            size += ask.size
            room[following.check] = room.get(following.check, float("inf")) - (
                ask.inferences or 0)
            if (size > BATCH_BYTES or room[following.check] < 0
                    or ask.kind not in ("", kind or ask.kind)):
                break
            kind = kind or ask.kind
            asks.append(ask)
            batch.append(following)
        return asks, batch

    def _post_next(self, question: Question, limit: int, index: int) -> None:
        """Send a pipelined program the batch after the last question sent, where none is on
        its way: its room counts `question` (asked now, judged next) and every reply kept
        ahead as if each took its whole limit."""
        if self._pipe is None or self._posted or index < 0:
            return
        taken: dict[str, float] = {question.check: limit}
        for (kept, kept_limit) in self._ahead:
            taken[kept.check] = taken.get(kept.check, 0) + kept_limit
        if any(left <= 0 or left < 2 * taken.get(check, 0)
               for check, left in self.budget_left.items() if check in self._asking):
            return  # a budget near its end: a question of it may be asked alone before the next
        last = max((self._index.get(kept, -1) for kept, _ in self._ahead), default=index)
        last = max(last, index)
        if last + 1 >= len(self._order):
            return
        first = self._order[last + 1]
        first_limit = round(self.work_limit(first))
        if (first.check not in self._asking or self.budget_left.get(first.check, 1) <= 0
                or taken.get(first.check, 0) + first_limit > self.budget_left.get(
                    first.check, float("inf"))):
            return
        ask = self._ask(first, first_limit)
        if ask.kind == WHOLE:
            return
        taken[first.check] = taken.get(first.check, 0) + first_limit
        asks, batch = self._batch(last + 1, taken, [ask], [first])
        number = self._pipe.post(asks)
        self._posted[number] = [(asked, int(ask.inferences or 0))
                                for asked, ask in zip(batch, asks, strict=True)]

    def _take_posted(self) -> None:
        """The replies of the batches posted, kept ahead."""
        assert self._pipe is not None  # only a pipelined program is posted anything
        for number, keys in list(self._posted.items()):
            replies = self._pipe.take(number)
            self._ahead.update(zip(keys, replies, strict=False))
            del self._posted[number]

    def _ask(self, question: Question, limit: int, record: bool = False) -> Ask:
        """The harness's question for `question` within `limit` inferences; one that
        `record`s the calls below it keeps those its answers asked for took."""
        return Ask(question.goal, "A", 1 if question.played else self.answers, limit,
                   question.below, MOST_NODES if record else 0)

    records_calls = True

    def record_next(self) -> None:
        """The next question is asked alone and records the calls its predicate's own
        clauses make directly below it (`Ask.record`): the program is not started afresh (the
        harness keeps nothing of one question for the next but the lab's answers below)."""
        self._record = True

    def made(self, question: Question, reply: Reply) -> list[tuple[Question, str | None]]:
        """The calls of the lab's predicates the program's own clauses made directly below
        `question` (the lab's predicate names: its own search, as the harness recorded it),
        each once (a second call of a predicate on the same board and player is the same node
        of its search), with the first answer it got."""
        calls: dict[Question, str | None] = {}
        for call in reply.made:
            player = next((player for player in PLAYERS if player == call.player), None)
            if call.call in CHECKS and player is not None:
                asked = Question(call.call, call.state, player, question.judged)
                calls.setdefault(asked, "no answer" if call.answer is None
                                 else f"answers {call.answer}")
        return list(calls.items())

    def searched_below(self, question: Question) -> list[Question]:
        """The calls the lab's clause makes below `question` in its whole search: judged on
        its own clauses, the walk asks fewer (the calls on the successors got the lab's
        answers), yet the program's own clauses made them."""
        return self.calls_below(replace(question, judged=Judged.WHOLE))

    def said(self, reply: Reply) -> str:
        return f"answers {reply.answers[0].text}" if reply.answers else "no answer"

    def same(self, reply: Reply, again: Reply) -> bool:
        return reply.answers == again.answers

    def problem(self, question: Question, reply: Reply, verdict: Verdict,
                defined: set[str]) -> Problem | None:
        if verdict.category not in (Category.EXCEPTION, Category.DIED) or not reply.error:
            return None
        kind, message = reply.error_term or verdict.category, reply.error
        if kind.startswith("existence_error(procedure,"):
            unknown = kind[len("existence_error(procedure,"):-1].split(":")[-1]
            message += did_you_mean(unknown, defined | set(HELPERS))
        return Problem(kind, message, str(question))
