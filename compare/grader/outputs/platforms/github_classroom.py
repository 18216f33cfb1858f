"""The JSON result GitHub Classroom's grading reporter reads from a runner (base64 in the
step's `result` output): one test per check with its score, and partial credit
(docs/grading-reference.md, "GitHub Classroom").

The reporter (classroom-resources/autograding-grading-reporter) prints a test's `message` only
for the status `error`, and its `test_code` for every test: a check's findings go there. Its
table counts tests passed in full, not points, so the first test says what Classroom records.
It has no visibility of its own: what it gets is the student view
(`compare.grader.outputs.students`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from minimax_lab.compare.grader.outputs.graded import Graded
from minimax_lab.compare.grader.outputs.platforms.shown import shown
from minimax_lab.compare.grader.outputs.text import check_text, text_of
from minimax_lab.compare.grader.outputs.writer import Reach, Writer
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.compare.judge.scores import Score
from minimax_lab.logic.files import write_whole


def results(grade: SubmissionGrade, score: Score) -> dict[str, Any]:
    """The submission's result as the reporter reads it: the student view."""
    view = shown(grade, score)
    grade, score, loading = view.grade, view.score, view.loading
    tests: list[dict[str, Any]] = []
    if grade.load.problem is not None:
        tests.append({"name": "loading", "status": "error", "score": 0,
                      "message": text_of(loading), "line_no": 0})
    head = [*view.summary(" (the points GitHub Classroom records; the reporter's table counts "
                          "the checks right in full, not points)"),
            *([] if grade.load.problem is not None else loading), ""]
    for number, check in enumerate(score.checks):
        tests.append({
            "name": check.check,
            "status": "pass" if check.passed else "fail",
            "score": check.score,
            "message": check.counted,
            "test_code": (text_of(head) if number == 0 else "") + check_text(grade, check.check),
            "line_no": 0,
        })
    status = ("error" if grade.load.problem is not None
              else "pass" if all(test["status"] == "pass" for test in tests) else "fail")
    return {"version": 1, "status": status, "max_score": score.max_score, "tests": tests}


def write(graded: Graded, path: Path) -> list[str]:
    grade = graded.scored[0]
    assert grade.score is not None
    write_whole(str(path), json.dumps(results(grade, grade.score), indent=1, allow_nan=False)
                + "\n")
    return []


WRITER = Writer("github_classroom", "FILE", "one submission: write the JSON result GitHub "
                "Classroom's grading reporter reads to FILE", write, Reach.SUBMISSION,
                platform=True)
