"""Points: what share of a check's points its right answers earn (all or nothing, in
proportion, or by thresholds), counted above what one constant answer would get right, and a
submission's score, check by check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from minimax_lab.logic.json_fields import DEFAULT, key


class Credit(StrEnum):
    """How a check's points are given for a share of its questions answered right."""

    ALL_OR_NOTHING = "all-or-nothing"
    PROPORTIONAL = "proportional"
    THRESHOLDS = "thresholds"


class Visibility(StrEnum):
    """When students see a check's result: Gradescope's words, read the same way elsewhere."""

    VISIBLE = "visible"
    AFTER_DUE_DATE = "after_due_date"
    AFTER_PUBLISHED = "after_published"
    HIDDEN = "hidden"


class Hints(StrEnum):
    """How much a student view says of a check's wrong answers, each level with all before
    it: what is wrong (the check, the kind of fault, how often), where (the questions asked,
    their boards drawn, the program's own answers, the first wrong call), what was expected
    (the lab's value or move), and the lab's clause (docs/grading-reference.md, "Hint levels")."""

    WHAT = "what"
    WHERE = "where"
    EXPECTED = "expected"
    CLAUSE = "clause"

    def gives(self, level: Hints) -> bool:
        """True when this level says what `level` says."""
        order = list(Hints)
        return order.index(self) >= order.index(level)


DEFAULT_HINTS = Hints.WHERE
"""What a student view says where the teacher chose no level: where the program goes wrong,
never the lab's answer."""


def above_base(share: float, base: float) -> float:
    """The share of right answers counted above `base`, the share one constant answer gets
    right: 0 at or below it, 1 for every answer right (docs/grading-reference.md, "Scores")."""
    if share >= 1.0:
        return 1.0
    if base >= 1.0:
        return 0.0
    return round(max(0.0, (share - base) / (1.0 - base)), 12)  # 90 % is 0.9, not 0.8999...


@dataclass(frozen=True)
class Rule:
    """One check's points, how they are given, and when students see its result.
    `thresholds` are (at least this share right, this share of the points), in any order."""

    points: float = 1.0
    credit: Credit = Credit.PROPORTIONAL
    thresholds: tuple[tuple[float, float], ...] = ()
    visibility: Visibility = Visibility.VISIBLE
    hints: Hints | None = None
    """What students are told of its wrong answers (None: the assignment's level)."""

    def earned(self, right: int, questions: int, base: float = 0.0) -> float:
        """The points earned for `right` of `questions`, counted above `base` (the share of
        them one constant answer gets right), to two decimals."""
        if questions <= 0:
            return 0.0
        share = above_base(right / questions, base)
        if self.credit is Credit.ALL_OR_NOTHING:
            part = 1.0 if right == questions else 0.0
        elif self.credit is Credit.PROPORTIONAL:
            part = share
        else:
            part = max((given for least, given in self.thresholds if share >= least),
                       default=0.0)
        return round(self.points * part, 2)

    def score(self, check: str, right: int, questions: int, not_asked: int = 0,
              base: float = 0.0) -> CheckScore:
        """The check's score for `right` of `questions` (the judged and the `not_asked`),
        counted above `base`."""
        return CheckScore(check, self.earned(right, questions, base), self.points, right,
                          questions, self.visibility, not_asked=not_asked, base=base,
                          hints=self.hints or DEFAULT_HINTS)

    def unchecked(self, check: str) -> CheckScore:
        """The score of a check that was not graded: none of its points."""
        return CheckScore(check, 0.0, self.points, 0, 0, self.visibility, "not checked",
                          hints=self.hints or DEFAULT_HINTS)

    def unasked(self, check: str) -> CheckScore:
        """The score of a check the run did not ask (left out by `--predicates`): its points
        are out of the maximum, not lost."""
        return CheckScore(check, 0.0, self.points, 0, 0, self.visibility, "not asked",
                          asked=False, hints=self.hints or DEFAULT_HINTS)


@dataclass(frozen=True)
class CheckScore:
    """A check's points: earned, possible, for how many right of how many questions (counted
    above `base`), and why none were earned when it was not graded."""

    check: str
    score: float
    max_score: float
    right: int
    questions: int
    visibility: Visibility = Visibility.VISIBLE
    why: str = ""
    not_asked: int = 0
    """Of its questions, those left unasked (a budget spent, a program not loaded)."""
    base: float = 0.0
    """The share of its questions one constant answer gets right: only what is right above it
    earns points."""
    asked: bool = True
    """False for a check the run did not ask (`--predicates`): neither passed nor failed."""
    hints: Hints = field(default=DEFAULT_HINTS, metadata=key(absent=DEFAULT))
    """What a student view says of its wrong answers (in JSON written before it was kept,
    the default)."""

    @property
    def counted(self) -> str:
        """`7908 of 9040 right; 1132 not asked`, or why it was not graded."""
        if not self.questions:
            return self.why or "not checked"
        return f"{self.right} of {self.questions} right" + (
            f"; {self.not_asked} not asked" if self.not_asked else "")

    @property
    def passed(self) -> bool:
        """True when every question was asked and answered right: the one rule of every
        platform's pass or fail."""
        return bool(self.questions) and self.right == self.questions

    @property
    def constant(self) -> int:
        """How many of its questions one constant answer gets right (the base, counted)."""
        return round(self.base * self.questions)

    @property
    def visible(self) -> bool:
        """True when students may see it now (the teacher has released it otherwise)."""
        return self.visibility is Visibility.VISIBLE


@dataclass(frozen=True)
class Score:
    """A submission's score: each check asked, and their sums; the checks of the assignment
    the run did not ask (`--predicates`) apart, out of the maximum."""

    checks: tuple[CheckScore, ...]
    unasked: tuple[CheckScore, ...] = ()

    @property
    def score(self) -> float:
        return round(sum(check.score for check in self.checks), 2)

    @property
    def max_score(self) -> float:
        return round(sum(check.max_score for check in self.checks), 2)

    def of(self, check: str) -> CheckScore | None:
        """The score of one check, or None if it earns no points."""
        return next((score for score in self.checks if score.check == check), None)

    @property
    def unasked_points(self) -> float:
        """The points of the checks not asked, out of the maximum."""
        return round(sum(check.max_score for check in self.unasked), 2)

    @property
    def fraction(self) -> float:
        """The score as a share of the possible, 0 to 1 (0 when nothing is possible)."""
        return self.score / self.max_score if self.max_score else 0.0
