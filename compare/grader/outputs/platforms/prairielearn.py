"""PrairieLearn's `results.json`: the score as a share from 0 to 1, one test per check with
its points, message and output, the first wrong board as an image; a submission that does not
load is `gradable: false` with its `format_errors`, so the student keeps the attempt
(docs/grading-reference.md, "PrairieLearn"). PrairieLearn has no visibility of its own: what
it gets is the student view (`compare.grader.outputs.students`), a check held back left out with its
points.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from minimax_lab.compare.grader.outputs.students import held_back_words, student_view
from minimax_lab.compare.grader.outputs.text import (
    bug_report,
    check_text,
    load_report,
    points,
    problems_report,
    text_of,
    unasked_words,
)
from minimax_lab.compare.grader.outputs.writer import Reach, Writer, results_json
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.compare.judge.scores import CheckScore, Score
from minimax_lab.logic.quote import one_line
from minimax_lab.logic.state import draw_board
from minimax_lab.logic.tools.board_svg import board_svg, data_url

"""The file PrairieLearn reads, in `/grade/results/`."""


def results(grade: SubmissionGrade, score: Score) -> dict[str, Any]:
    """The submission's results as PrairieLearn reads them: the student view."""
    whole = replace(grade, score=score)
    grade = student_view(whole)
    score = grade.score or score
    loading = [*load_report(grade), *problems_report(grade)]
    if grade.load.problem is not None:
        return {"gradable": False, "format_errors": [one_line(grade.load.problem)],
                "output": text_of(loading)}
    return {
        "gradable": True,
        "score": round(score.fraction, 4),
        "message": text_of([f"score {points(score.score)} of {points(score.max_score)}",
                            *([held_back_words(whole)] if held_back_words(whole) else []),
                            *unasked_words(score), *bug_report(grade)]).rstrip("\n"),
        "output": text_of(loading),
        "tests": [_test(grade, check) for check in score.checks],
    }


def _test(grade: SubmissionGrade, check: CheckScore) -> dict[str, Any]:
    test: dict[str, Any] = {
        "name": check.check,
        "points": check.score,
        "max_points": check.max_score,
        "message": check.counted,
    }
    test["output"] = check_text(grade, check.check)
    result = grade.checks.get(check.check)
    first = next((finding for finding in result.findings if finding.position), None
                 ) if result is not None else None
    if first is not None and first.position is not None:
        state = first.position[0]
        test["images"] = [{"label": f"first {first.category}: {state}",
                           "url": data_url(board_svg(state, draw_board(state)))}]
    return test


WRITER = Writer("prairielearn", "DIR", "one submission: write PrairieLearn's results.json into "
                "DIR (/grade/results on PrairieLearn)", results_json(results), Reach.SUBMISSION,
                platform=True)
