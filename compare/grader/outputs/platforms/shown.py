"""What a platform shows one student: the student view of a scored grade, its loading lines,
and the summary that heads its output (the score, the points held back, the questions not
asked, the bug)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from minimax_lab.compare.grader.outputs.students import held_back_words, student_view
from minimax_lab.compare.grader.outputs.text import (
    bug_report,
    load_report,
    points,
    problems_report,
    unasked_words,
)
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.compare.judge.scores import Score


@dataclass(frozen=True)
class Shown:
    whole: SubmissionGrade
    """The grade with its score, as the teacher sees it."""
    grade: SubmissionGrade
    """The student view of `whole`."""
    score: Score
    loading: list[str]
    """How the program loaded, and its problems."""

    def summary(self, after_score: str = "") -> list[str]:
        """The lines that head the output: `score 7 of 10` (then `after_score`), the points
        held back, the questions not asked, the bug."""
        held = held_back_words(self.whole)
        return [f"score {points(self.score.score)} of {points(self.score.max_score)}"
                + after_score, *([held] if held else []), *unasked_words(self.score),
                *bug_report(self.grade)]


def shown(grade: SubmissionGrade, score: Score) -> Shown:
    """`grade` scored by `score`, as its student sees it."""
    whole = replace(grade, score=score)
    view = student_view(whole)
    return Shown(whole, view, view.score or score, [*load_report(view), *problems_report(view)])
