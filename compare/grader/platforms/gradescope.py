"""Gradescope's `results.json`: one test per check with its score, the first findings drawn
as boards in its output, its visibility from the assignment; and a test for loading, so a
submission that does not load still gets its results (docs/grading.md, "Gradescope").
"""

from __future__ import annotations

from typing import Any

from compare.grader.gradebook import (
    bug_report,
    check_text,
    load_report,
    points,
    problems_report,
    text_of,
)
from compare.judge.results import SubmissionGrade
from compare.judge.scores import Score

RESULTS = "results.json"
"""The file Gradescope reads, in `/autograder/results/`."""


def results(grade: SubmissionGrade, score: Score) -> dict[str, Any]:
    """The submission's results as Gradescope reads them."""
    loading = [*load_report(grade), *problems_report(grade)]
    tests: list[dict[str, Any]] = [{
        "name": "loading",
        "score": 0.0,
        "max_score": 0.0,
        "status": "passed" if grade.load.ok else "failed",
        "output": text_of(loading),
        "visibility": "visible",
    }]
    for number, check in enumerate(score.checks, start=1):
        tests.append({
            "name": check.check,
            "number": str(number),
            "score": check.score,
            "max_score": check.max_score,
            "status": "passed" if check.questions and check.right == check.questions
            else "failed",
            "output": check_text(grade, check.check),
            "visibility": check.visibility.value,
        })
    summary = f"score {points(score.score)} of {points(score.max_score)}"
    return {
        "score": score.score,
        "execution_time": round(grade.seconds),
        "output": text_of([summary, *bug_report(grade), *loading]),
        "output_format": "text",
        "test_output_format": "text",
        "tests": tests,
    }
