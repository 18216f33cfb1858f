"""The gradebook: one CSV row per submission, its load status, per check the questions right,
judged and left unasked, its score and its seconds. Text a submission chose is never a
formula in a spreadsheet (`spreadsheet_cell`)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from minimax_lab.compare.grader.graded import Graded
from minimax_lab.compare.grader.results_json import load_status
from minimax_lab.compare.grader.text import points
from minimax_lab.compare.grader.writer import Writer
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.logic.files import write_whole
from minimax_lab.logic.quote import spreadsheet_cell


def gradebook_csv(grades: Sequence[SubmissionGrade], checks: Sequence[str]) -> str:
    """The gradebook: a row per submission, its load status, correct, checked and not asked
    per check, its score and the possible (when scored), and seconds; text cells as
    `spreadsheet_cell` writes them."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["name", "load"]
    for check in checks:  # a function's name is the submission's choice
        header += [spreadsheet_cell(f"{check}_correct"), spreadsheet_cell(f"{check}_checked"),
                   spreadsheet_cell(f"{check}_not_asked")]
    scored = any(grade.score is not None for grade in grades)
    writer.writerow([*header, *(["score", "max_score"] if scored else []), "seconds"])
    for grade in grades:
        row: list[Any] = [spreadsheet_cell(grade.name), load_status(grade)]
        for check in checks:
            result = grade.checks.get(check)
            row += ([result.correct, result.checked, result.counts[Category.NOT_ASKED]]
                    if result else ["", "", ""])
        if scored:
            row += ([points(grade.score.score), points(grade.score.max_score)]
                    if grade.score is not None else ["", ""])
        writer.writerow([*row, f"{grade.seconds:.1f}"])
    return out.getvalue()


def write(graded: Graded, path: Path) -> list[str]:
    write_whole(str(path), gradebook_csv(graded.shown, graded.columns))
    return []


WRITER = Writer("csv", "FILE", "write the gradebook to FILE as CSV", write)
