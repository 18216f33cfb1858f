"""A submission's page (`NAME.html` in `--reports DIR`, and the notebook's grade): its
report, then at each first wrong call the program's search drawn beside the lab's, the first
node where they differ marked (`logic.tools.beside`); no page where nothing is drawn."""

from __future__ import annotations

from html import escape

from minimax_lab.compare.grader.outputs.text import submission_report
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.logic.tools.beside import beside_html, first_difference


def searches_html(grade: SubmissionGrade) -> str:
    """Each first wrong call's two searches side by side, once per call (naming the checks
    whose walk reached it); "" where none is drawn (a right program, or a student view that
    does not show the lab's answers)."""
    drawn: dict[str, list[str]] = {}
    parts: dict[str, str] = {}
    for check, result in grade.checks.items():
        wrong = result.first_wrong
        if wrong is None or wrong.searches is None:
            continue
        student, lab = wrong.searches
        called = str(student)
        drawn.setdefault(called, []).append(check)
        if called not in parts:
            parts[called] = beside_html(student, lab, first_difference(student, lab))
    return "".join(
        f'<section class="first-wrong-call"><h3>first wrong call {escape(called)} '
        f'(reached from {escape(", ".join(checks))})</h3>{parts[called]}</section>'
        for called, checks in drawn.items())


def report_page(grade: SubmissionGrade) -> str | None:
    """The submission's page: its report, then its searches; None where none is drawn."""
    searches = searches_html(grade)
    if not searches:
        return None
    return PAGE.format(title=escape(grade.name), report=escape(submission_report(grade)),
                       searches=searches)


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>{title}</title></head>
<body><pre>{report}</pre>
<h2>your search beside the lab's</h2>
{searches}
</body></html>
"""
