"""JUnit XML, as CI systems and CodeGrade read it: a test suite per submission (its scores as
properties), a test case per check, a failure with the check's first findings, an error for a
submission that does not load (docs/grading.md, "JUnit XML").
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.etree import ElementTree

from compare.grader.gradebook import (
    bug_report,
    check_text,
    load_report,
    points,
    problems_report,
    text_of,
)
from compare.judge.results import SubmissionGrade
from logic.quote import one_line


def junit_xml(grades: Sequence[SubmissionGrade]) -> str:
    """The class as one `<testsuites>` document."""
    root = ElementTree.Element("testsuites", name="minimax-lab grade")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for grade in grades:
        suite = ElementTree.SubElement(root, "testsuite", name=one_line(grade.name))
        properties = ElementTree.SubElement(suite, "properties")
        counts = {"tests": 1, "failures": 0, "errors": 0}
        loading = ElementTree.SubElement(suite, "testcase", name="loading",
                                         classname=one_line(grade.name))
        if grade.load.problem is not None:
            counts["errors"] += 1
            _say(loading, "error", one_line(grade.load.problem),
                 [*load_report(grade), *problems_report(grade)])
        checks = grade.score.checks if grade.score is not None else ()
        if grade.score is not None:
            _property(properties, "score", points(grade.score.score))
            _property(properties, "max_score", points(grade.score.max_score))
        for check in checks:
            _property(properties, f"{check.check}.score", points(check.score))
            _property(properties, f"{check.check}.max_score", points(check.max_score))
            case = ElementTree.SubElement(
                suite, "testcase", name=one_line(check.check), classname=one_line(grade.name))
            counts["tests"] += 1
            if not (check.questions and check.right == check.questions):
                counts["failures"] += 1
                message = (f"{check.right} of {check.questions} right" if check.questions
                           else check.why or "not checked")
                _say(case, "failure", message, check_text(grade, check.check).splitlines())
        if grade.bug is not None:
            ElementTree.SubElement(suite, "system-out").text = text_of(bug_report(grade))
        suite.set("time", f"{grade.seconds:.3f}")
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    ElementTree.indent(root)
    return ElementTree.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _property(properties: ElementTree.Element, name: str, value: str) -> None:
    ElementTree.SubElement(properties, "property", name=one_line(name), value=value)


def _say(case: ElementTree.Element, tag: str, message: str, lines: list[str]) -> None:
    element = ElementTree.SubElement(case, tag, message=message, type=tag)
    element.text = text_of(lines)
