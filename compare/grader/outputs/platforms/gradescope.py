"""Gradescope's `results.json`: one test per check with its score, the first findings drawn
as boards in its output, its visibility from the assignment; and a test for loading, so a
submission that does not load still gets its results (docs/grading-reference.md, "Gradescope").

Gradescope applies each test's visibility itself. A test's output says nothing of a check
released after it (its first wrong call is left out if the walk asked one), and what is not
a test's (the top-level output: the score, the bug, its guesses and feedback, the problems)
says nothing of a check held back; the bug, its guesses and feedback then go to a test of
their own, shown with the last check to be released (`compare.grader.outputs.students`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from minimax_lab.compare.grader.outputs.students import WHEN, held_back, strictest, student_view
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
from minimax_lab.compare.judge.scores import Score

"""The file Gradescope reads, in `/autograder/results/`."""


def results(grade: SubmissionGrade, score: Score) -> dict[str, Any]:
    """The submission's results as Gradescope reads them."""
    shown = student_view(replace_score(grade, score))
    loading = [*load_report(shown), *problems_report(shown)]
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
            "status": "passed" if check.passed else "failed",
            "output": check_text(student_view(replace_score(grade, score), check.visibility),
                                 check.check),
            "visibility": check.visibility.value,
        })
    held = held_back(replace_score(grade, score))
    summary = [f"score {points(sum(c.score for c in score.checks if c.visible))} of "
               f"{points(sum(c.max_score for c in score.checks if c.visible))} on the checks "
               "shown now" if held else f"score {points(score.score)} of "
                                        f"{points(score.max_score)}"]
    for check in held:
        summary.append(f"{check.check}: {points(check.max_score)} points, its result "
                       f"{WHEN[check.visibility]}")
    summary += unasked_words(score)
    told = bug_report(grade)
    if held and told:
        last = strictest(replace_score(grade, score))
        tests.append({"name": "feedback", "score": 0.0, "max_score": 0.0,
                      "output": text_of(told), "visibility": last.value})
        told = []
    return {
        "score": score.score,
        "execution_time": round(grade.seconds),
        "output": text_of([*summary, *told, *loading]),
        "output_format": "text",
        "test_output_format": "text",
        "stdout_visibility": "hidden",
        "tests": tests,
    }


def replace_score(grade: SubmissionGrade, score: Score) -> SubmissionGrade:
    """`grade` scored by `score`."""
    return grade if grade.score is score else replace(grade, score=score)


WRITER = Writer("gradescope", "DIR", "one submission: write Gradescope's results.json into DIR "
                "(/autograder/results on Gradescope)", results_json(results), Reach.SUBMISSION,
                platform=True)
