"""Canvas's gradebook import (Grades, Import): a CSV file whose first columns are `Student`,
`ID`, `SIS User ID`, `SIS Login ID` and `Section`, then a column per assignment, and a
`Points Possible` row first (docs/grading-reference.md, "Canvas and Moodle"). Canvas matches a
row to a student by `ID` (Canvas's own number, which the grader cannot know: left empty), else
by `SIS User ID` (the roster's id), else by `SIS Login ID` (the roster's email). The
assignment's column is named after the assignment file's `name`: Canvas creates an assignment
for a name it does not know, or fills the one whose `Name (ID)` the column is renamed to.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from minimax_lab.compare.grader.outputs.graded import Graded
from minimax_lab.compare.grader.outputs.text import points
from minimax_lab.compare.grader.outputs.writer import Writer
from minimax_lab.logic.files import write_whole
from minimax_lab.logic.quote import spreadsheet_cell

STUDENT_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
"""The columns that say who a row is, in Canvas's order."""
POINTS_POSSIBLE = "Points Possible"
"""The first cell of the row of each assignment's possible points."""
UNTITLED = "minimax lab"
"""The assignment's column where the assignment has no name."""


def canvas_csv(graded: Graded) -> str:
    """The class as Canvas imports it: a row per submission with its score."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    grades = graded.shown
    title = spreadsheet_cell(graded.title or UNTITLED)
    writer.writerow([*STUDENT_COLUMNS, title])
    possible = next((grade.score.max_score for grade in grades if grade.score is not None), None)
    if possible is not None:
        writer.writerow([POINTS_POSSIBLE, "", "", "", "", points(possible)])
    for grade in grades:
        student = graded.student(grade)
        writer.writerow([spreadsheet_cell(student.name), "", spreadsheet_cell(student.id),
                         spreadsheet_cell(student.email), "",
                         points(grade.score.score) if grade.score is not None else ""])
    return out.getvalue()


def write(graded: Graded, path: Path) -> list[str]:
    write_whole(str(path), canvas_csv(graded))
    return []


WRITER = Writer("canvas", "FILE", "write the class's scores to FILE as Canvas imports a "
                "gradebook (CSV; ids and names from --roster)", write)
