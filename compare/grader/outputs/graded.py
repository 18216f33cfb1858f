"""A class's result, as every writer reads it: the grades in the class's order, the checks
asked, the policy, the exit status, the part of a split class, the bugs grouped, and whether
only what students may see is shown."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from minimax_lab.compare.grader.findings.groups import Group
from minimax_lab.compare.grader.outputs.roster import Roster, Student, student_of
from minimax_lab.compare.grader.outputs.students import held_back, student_view
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.compare.judge.scores import Score
from minimax_lab.compare.judge.truth import Policy

EXIT_CLEAN, EXIT_FAULTS = 0, 1
"""A class right everywhere, and one with faults (wrong answers, loading problems, questions
not asked)."""


@dataclass(frozen=True)
class Shard:
    """One of `parts` equal parts of a class (`grade --shard PART/PARTS`): the places of its
    submissions in the whole class, in a stable order."""

    part: int
    parts: int
    indices: tuple[int, ...] = ()

    @property
    def mark(self) -> str:
        """`-2of3`: what tells this part's files from the other parts'."""
        return f"-{self.part}of{self.parts}"


@dataclass
class Graded:
    """A class graded: each submission's grade, whole (the teacher's view)."""

    grades: list[SubmissionGrade]
    policy: Policy = Policy()
    checks: tuple[str, ...] = ()
    """The checks asked, in report order (none: those of the grades)."""
    shard: Shard | None = None
    groups: list[Group] = field(default_factory=list)
    student_view: bool = False
    """True when the summary, the reports, the CSV and the JSON show only what students may
    see (a platform's file always does)."""
    roster: Roster = field(default_factory=dict)
    """Who each submission is (`--roster`): else its name is its id."""
    title: str = ""
    """The assignment's name, for a course's gradebook (the assignment file's `name`)."""

    def student(self, grade: SubmissionGrade) -> Student:
        """Who `grade`'s submission is: the roster's student, else its own name."""
        return student_of(self.roster, grade.name)

    @property
    def status(self) -> int:
        """0 when every submission is right everywhere it is shown (in a student view: on the
        checks students may see), else 1."""
        return EXIT_CLEAN if all(grade.clean for grade in self.shown) else EXIT_FAULTS

    @property
    def shown(self) -> list[SubmissionGrade]:
        """The grades as the summary, the reports, the CSV and the JSON show them."""
        return [student_view(grade) for grade in self.grades] if self.student_view else list(
            self.grades)

    @property
    def shown_groups(self) -> list[Group]:
        """The bugs the shown grades still name."""
        bugs = {grade.bug for grade in self.shown}
        return [group for group in self.groups if group.fingerprint in bugs]

    @property
    def columns(self) -> tuple[str, ...]:
        """The checks a gradebook has columns for: those asked, or every one graded; in a
        student view, none held back."""
        asked = self.checks or tuple(dict.fromkeys(check for grade in self.grades
                                                   for check in grade.checks))
        if not self.student_view:
            return asked
        held = {check.check for grade in self.grades for check in held_back(grade)}
        return tuple(check for check in asked if check not in held)

    @property
    def scored(self) -> list[SubmissionGrade]:
        """The grades as a platform reads them: one with no score (the grader could not
        start) scores nothing of nothing."""
        return [grade if grade.score is not None else replace(grade, score=Score(()))
                for grade in self.grades]
