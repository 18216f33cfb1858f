"""The gradebook: one CSV row per submission, who it is (its name, the id a course's gradebook
matches rows on, the student's name, and email where the roster gives it), its load status,
per check the questions right, judged and left unasked and the points earned, its score and
its seconds. Text a submission chose is never a formula in a spreadsheet (`spreadsheet_cell`)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from minimax_lab.compare.grader.outputs.graded import Graded
from minimax_lab.compare.grader.outputs.results_json import load_status
from minimax_lab.compare.grader.outputs.roster import Roster, student_of
from minimax_lab.compare.grader.outputs.text import points
from minimax_lab.compare.grader.outputs.writer import Writer
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.logic.files import write_whole
from minimax_lab.logic.quote import spreadsheet_cell


def gradebook_csv(grades: Sequence[SubmissionGrade], checks: Sequence[str],
                  roster: Roster | None = None) -> str:
    """The gradebook: a row per submission, who it is (by `roster`, else its name), its load
    status, correct, checked, not asked and points (when scored) per check, its score and
    the possible (when scored), and seconds; text cells as `spreadsheet_cell` writes them."""
    roster = roster or {}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    emails = any(student.email for student in roster.values())
    scored = any(grade.score is not None for grade in grades)
    header = ["name", "id", "student", *(["email"] if emails else []), "load"]
    for check in checks:  # a function's name is the submission's choice
        header += [spreadsheet_cell(f"{check}_{column}") for column in
                   ("correct", "checked", "not_asked", *(["points"] if scored else []))]
    writer.writerow([*header, *(["score", "max_score"] if scored else []), "seconds"])
    for grade in grades:
        student = student_of(roster, grade.name)
        row: list[Any] = [spreadsheet_cell(grade.name), spreadsheet_cell(student.id),
                          spreadsheet_cell(student.name),
                          *([spreadsheet_cell(student.email)] if emails else []),
                          load_status(grade)]
        for check in checks:
            result = grade.checks.get(check)
            row += ([result.correct, result.checked, result.counts[Category.NOT_ASKED]]
                    if result else ["", "", ""])
            if scored:
                earned = grade.score.of(check) if grade.score is not None else None
                row.append(points(earned.score) if earned is not None else "")
        if scored:
            row += ([points(grade.score.score), points(grade.score.max_score)]
                    if grade.score is not None else ["", ""])
        writer.writerow([*row, f"{grade.seconds:.1f}"])
    return out.getvalue()


def write(graded: Graded, path: Path) -> list[str]:
    write_whole(str(path), gradebook_csv(graded.shown, graded.columns, graded.roster))
    return []


WRITER = Writer("csv", "FILE", "write the gradebook to FILE as CSV: who each submission is "
                "(--roster), each check's counts and points, the score", write)
