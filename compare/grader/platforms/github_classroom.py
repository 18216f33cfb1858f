"""The JSON result GitHub Classroom's grading reporter reads from a runner (base64 in the
step's `result` output): one test per check with its score, and partial credit
(docs/grading.md, "GitHub Classroom").
"""

from __future__ import annotations

from typing import Any

from compare.grader.gradebook import (
    bug_report,
    check_text,
    load_report,
    problems_report,
    text_of,
)
from compare.judge.results import SubmissionGrade
from compare.judge.scores import Score, Visibility


def results(grade: SubmissionGrade, score: Score) -> dict[str, Any]:
    """The submission's result as the reporter reads it."""
    tests = []
    if not grade.load.ok:
        lines = [*load_report(grade), *problems_report(grade)]
        tests.append({"name": "loading", "status": "error" if grade.load.problem else "fail",
                      "score": 0, "message": text_of(lines)})
    if grade.feedback or grade.hypotheses:
        tests.append({"name": "feedback", "status": "pass", "score": 0,
                      "message": text_of(bug_report(grade))})
    for check in score.checks:
        passed = check.questions and check.right == check.questions
        tests.append({
            "name": check.check,
            "status": "pass" if passed else "fail",
            "score": check.score,
            "message": check_text(grade, check.check)
            if check.visibility is Visibility.VISIBLE else "details after the deadline",
        })
    status = ("error" if grade.load.problem is not None
              else "pass" if all(test["status"] == "pass" for test in tests) else "fail")
    return {"version": 1, "status": status, "max_score": score.max_score, "tests": tests}
