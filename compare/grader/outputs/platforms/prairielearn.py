"""PrairieLearn's `results.json`: the score as a share from 0 to 1, one test per check with
its points, message and output, the first wrong board as an image; a submission that does not
load is `gradable: false` with its `format_errors`, so the student keeps the attempt
(docs/grading-reference.md, "PrairieLearn"). PrairieLearn has no visibility of its own: what
it gets is the student view (`compare.grader.outputs.students`), a check held back left out with its
points.
"""

from __future__ import annotations

from typing import Any

from minimax_lab.compare.grader.outputs.platforms.shown import shown
from minimax_lab.compare.grader.outputs.text import check_text, text_of
from minimax_lab.compare.grader.outputs.writer import Reach, Writer, results_json
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.compare.judge.scores import CheckScore, Score
from minimax_lab.logic.quote import one_line
from minimax_lab.logic.state import draw_board
from minimax_lab.logic.tools.board_svg import board_svg, data_url

"""The file PrairieLearn reads, in `/grade/results/`."""


def results(grade: SubmissionGrade, score: Score) -> dict[str, Any]:
    """The submission's results as PrairieLearn reads them: the student view."""
    view = shown(grade, score)
    grade, score = view.grade, view.score
    if grade.load.problem is not None:
        return {"gradable": False, "format_errors": [one_line(grade.load.problem)],
                "output": text_of(view.loading)}
    return {
        "gradable": True,
        "score": round(score.fraction, 4),
        "message": text_of(view.summary()).rstrip("\n"),
        "output": text_of(view.loading),
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
