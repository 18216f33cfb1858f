"""JUnit XML, as CI systems and CodeGrade read it: a test suite per submission (its scores as
properties), a test case per check, a failure with the check's first findings, a skipped case
for a check right on every question asked but not asked them all, an error for a submission
that does not load (docs/grading-reference.md, "JUnit XML").

GitLab shows a case's text only for a failure, an error or a skip, and reads no properties: the
score is also the name of a `score` case, and the bug, its guesses and feedback follow the
first failure's findings. What students may see only: the student view
(`compare.grader.outputs.students`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from xml.etree import ElementTree

from minimax_lab.compare.grader.outputs.graded import Graded
from minimax_lab.compare.grader.outputs.students import held_back_words, student_view
from minimax_lab.compare.grader.outputs.text import (
    bug_report,
    check_text,
    load_report,
    points,
    problems_report,
    text_of,
)
from minimax_lab.compare.grader.outputs.writer import Writer
from minimax_lab.compare.judge.results import SubmissionGrade
from minimax_lab.logic.files import write_whole
from minimax_lab.logic.quote import one_line


def junit_xml(grades: Sequence[SubmissionGrade]) -> str:
    """The class as one `<testsuites>` document, as students may see it."""
    root = ElementTree.Element("testsuites", name="minimax-lab grade")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for whole in grades:
        grade = student_view(whole)
        name = one_line(grade.name)
        suite = ElementTree.SubElement(root, "testsuite", name=name)
        properties = ElementTree.SubElement(suite, "properties")
        counts = {"tests": 1, "failures": 0, "errors": 0, "skipped": 0}
        loading = ElementTree.SubElement(suite, "testcase", name="loading", classname=name)
        if grade.load.problem is not None:
            counts["errors"] += 1
            _say(loading, "error", one_line(grade.load.problem),
                 text_of([*load_report(grade), *problems_report(grade)]))
        checks = grade.score.checks if grade.score is not None else ()
        if grade.score is not None:
            _property(properties, "score", points(grade.score.score))
            _property(properties, "max_score", points(grade.score.max_score))
            ElementTree.SubElement(suite, "testcase", classname=name, name=one_line(
                f"score: {points(grade.score.score)} of {points(grade.score.max_score)}"
                + (f" ({held_back_words(whole)})" if held_back_words(whole) else "")))
            counts["tests"] += 1
        told = bug_report(grade)
        for check in checks:
            _property(properties, f"{check.check}.score", points(check.score))
            _property(properties, f"{check.check}.max_score", points(check.max_score))
            case = ElementTree.SubElement(
                suite, "testcase", name=one_line(check.check), classname=name)
            counts["tests"] += 1
            if check.passed:
                continue
            lines = check_text(grade, check.check)
            result = grade.checks.get(check.check)
            if result is not None and result.correct == result.checked and check.not_asked:
                counts["skipped"] += 1
                _say(case, "skipped", f"right on all {result.checked} asked; {check.counted}",
                     lines)
                continue
            counts["failures"] += 1
            _say(case, "failure", check.counted, lines + text_of(told))
            told = []
        for check in grade.score.unasked if grade.score is not None else ():
            case = ElementTree.SubElement(
                suite, "testcase", name=one_line(check.check), classname=name)
            counts["tests"] += 1
            counts["skipped"] += 1
            _say(case, "skipped", f"not asked in this grading: its {points(check.max_score)} "
                 "points are out of the maximum", "")
        if told:  # no failure to carry it
            ElementTree.SubElement(suite, "system-out").text = text_of(told)
        suite.set("time", f"{grade.seconds:.3f}")
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
    for key, value in totals.items():
        if key != "skipped":  # a suite's count, not the document's
            root.set(key, str(value))
    ElementTree.indent(root)
    return ElementTree.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _property(properties: ElementTree.Element, name: str, value: str) -> None:
    ElementTree.SubElement(properties, "property", name=one_line(name), value=value)


def _say(case: ElementTree.Element, tag: str, message: str, text: str) -> None:
    element = ElementTree.SubElement(case, tag, message=one_line(message))
    if tag != "skipped":
        element.set("type", tag)
    element.text = text


def write(graded: Graded, path: Path) -> list[str]:
    write_whole(str(path), junit_xml(graded.scored))
    return []


WRITER = Writer("junit", "FILE", "write the class to FILE as JUnit XML: a test case per check",
                write, platform=True)
