"""Moodle's grade import from a CSV file (Grades, Import, CSV file): a header line, a column
Moodle maps to its users (`ID number`, the roster's id; `Email address`, where the roster
gives emails) and a column per grade item, mapped on the import page to an item or made a new
one (docs/grading-reference.md, "Canvas and Moodle"). A cell Moodle would not read as a grade
is left empty.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from minimax_lab.compare.grader.outputs.graded import Graded
from minimax_lab.compare.grader.outputs.platforms.canvas import UNTITLED
from minimax_lab.compare.grader.outputs.text import points
from minimax_lab.compare.grader.outputs.writer import Writer
from minimax_lab.logic.files import write_whole
from minimax_lab.logic.quote import spreadsheet_cell

ID_NUMBER, EMAIL, FULL_NAME = "ID number", "Email address", "Full name"
"""Moodle's names of the user fields a row is matched on, and the student's name (not
imported: it helps the teacher read the file)."""


def moodle_csv(graded: Graded) -> str:
    """The class as Moodle imports grades: a row per submission with its score."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    grades = graded.shown
    emails = any(student.email for student in graded.roster.values())
    writer.writerow([ID_NUMBER, *([EMAIL] if emails else []), FULL_NAME,
                     spreadsheet_cell(graded.title or UNTITLED)])
    for grade in grades:
        student = graded.student(grade)
        writer.writerow([spreadsheet_cell(student.id),
                         *([spreadsheet_cell(student.email)] if emails else []),
                         spreadsheet_cell(student.name),
                         points(grade.score.score) if grade.score is not None else ""])
    return out.getvalue()


def write(graded: Graded, path: Path) -> list[str]:
    write_whole(str(path), moodle_csv(graded))
    return []


WRITER = Writer("moodle", "FILE", "write the class's scores to FILE as Moodle imports grades "
                "(CSV; ids, names and emails from --roster)", write)
