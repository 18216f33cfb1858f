"""The platforms' own formats, as the tests hold the grader's outputs to them: each schema
written from the platform's documentation or published code, and the JUnit XML elements and
attributes that Jenkins, GitLab and CodeGrade read; Canvas's and Moodle's gradebook imports,
read as their guides describe them."""

from __future__ import annotations

import csv
import io
import math
from xml.etree import ElementTree

NUMBER = {"type": "number"}
TEXT = {"type": "string"}
VISIBILITY = {"enum": ["hidden", "after_due_date", "after_published", "visible"]}
FORMAT = {"enum": ["text", "html", "simple_format", "md", "ansi"]}

GRADESCOPE = {  # Gradescope's autograder specifications, "Output format" (results.json)
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "score": NUMBER, "execution_time": NUMBER, "output": TEXT, "output_format": FORMAT,
        "test_output_format": FORMAT, "test_name_format": FORMAT, "visibility": VISIBILITY,
        "stdout_visibility": VISIBILITY, "extra_data": {"type": "object"},
        "leaderboard": {"type": "array"},
        "tests": {"type": "array", "items": {
            "type": "object",
            "additionalProperties": False,
            "required": ["name", "score", "max_score"],
            "properties": {
                "score": NUMBER, "max_score": NUMBER,
                "status": {"enum": ["passed", "failed"]},
                "name": TEXT, "name_format": FORMAT, "number": TEXT, "output": TEXT,
                "output_format": FORMAT, "tags": {"type": "array", "items": TEXT},
                "visibility": VISIBILITY, "extra_data": {"type": "object"},
            },
        }},
    },
    "required": ["score", "tests"],
}
IMAGES = {"type": "array", "items": {"anyOf": [TEXT, {
    "type": "object", "additionalProperties": False, "required": ["url"],
    "properties": {"url": TEXT, "label": TEXT}}]}}
PRAIRIELEARN = {  # PrairieLearn's docs, "External grading", "Grading results"
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "gradable": {"type": "boolean"},
        "score": {"type": "number", "minimum": 0, "maximum": 1},
        "format_errors": {"anyOf": [TEXT, {"type": "array", "items": TEXT}]},
        "message": TEXT, "output": TEXT, "images": IMAGES,
        "tests": {"type": "array", "items": {
            "type": "object",
            "additionalProperties": False,
            "required": ["name", "points", "max_points"],
            "properties": {"name": TEXT, "description": TEXT, "points": NUMBER,
                           "max_points": NUMBER, "message": TEXT, "output": TEXT,
                           "images": IMAGES},
        }},
    },
    "if": {"properties": {"gradable": {"const": False}}},
    "then": {"required": ["format_errors"]},
    "else": {"required": ["score"]},
}
GITHUB_CLASSROOM = {  # classroom-resources/autograding-grading-reporter: a runner's result
    "type": "object",
    "additionalProperties": False,
    "required": ["version", "status", "max_score", "tests"],
    "properties": {
        "version": {"const": 1},
        "status": {"enum": ["pass", "fail", "error"]},
        "max_score": NUMBER,
        "tests": {"type": "array", "items": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"name": TEXT, "status": {"enum": ["pass", "fail", "error"]},
                           "score": NUMBER, "message": {"type": ["string", "null"]},
                           "test_code": TEXT, "filename": TEXT, "line_no": {"type": "integer"},
                           "execution_time": TEXT},
            "required": ["name", "status", "score", "line_no"],  # else "- line undefined"
        }},
    },
}
JUNIT = {  # the JUnit XML that Jenkins, GitLab and CodeGrade read: element -> attributes
    "testsuites": ({"name", "tests", "failures", "errors", "time"}, {"testsuite"}),
    "testsuite": ({"name", "tests", "failures", "errors", "skipped", "time", "timestamp",
                   "hostname"}, {"properties", "testcase", "system-out", "system-err"}),
    "properties": (set(), {"property"}),
    "property": ({"name", "value"}, set()),
    "testcase": ({"name", "classname", "time"},
                 {"failure", "error", "skipped", "system-out", "system-err"}),
    "system-out": (set(), set()),
    "failure": ({"message", "type"}, set()),
    "error": ({"message", "type"}, set()),
    "skipped": ({"message"}, set()),
}
PRAIRIELEARN_EXTERNAL = {  # PrairieLearn's schema of a question's info.json (infoQuestion.json)
    "type": "object",
    "required": ["uuid", "type", "title", "topic"],
    "properties": {
        "uuid": {"type": "string", "pattern": "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-"
                                              "[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"},
        "type": {"enum": ["Calculation", "MultipleChoice", "Checkbox", "File",
                          "MultipleTrueFalse", "v3"]},
        "title": TEXT, "topic": TEXT, "tags": {"type": "array", "items": TEXT},
        "gradingMethod": {"enum": ["Internal", "External", "Manual"]},
        "singleVariant": {"type": "boolean"},
        "externalGradingOptions": {
            "type": "object", "additionalProperties": False, "required": ["image", "entrypoint"],
            "properties": {
                "enabled": {"type": "boolean"}, "image": TEXT,
                "entrypoint": {"anyOf": [TEXT, {"type": "array", "items": TEXT}]},
                "serverFilesCourse": {"type": "array", "items": TEXT},
                "timeout": {"type": "integer"}, "enableNetworking": {"type": "boolean"},
                "environment": {"type": "object"}}},
    },
}


def validate(instance: object, schema: dict[str, object]) -> None:
    """`jsonschema.validate`, imported when first used: its format checkers take a second or
    more to import, which every xdist worker would otherwise pay while collecting."""
    import jsonschema

    jsonschema.validate(instance, schema)


def check_junit(element: ElementTree.Element) -> None:
    attributes, children = JUNIT[element.tag]
    assert set(element.attrib) <= attributes, element.tag
    for child in element:
        assert child.tag in children, (element.tag, child.tag)
        check_junit(child)
    if element.tag in ("testsuites", "testsuite"):
        cases = list(element.iter("testcase"))
        assert int(element.get("tests")) == len(cases)
        assert int(element.get("failures")) == sum(case.find("failure") is not None
                                                   for case in cases)
        assert int(element.get("errors")) == sum(case.find("error") is not None
                                                 for case in cases)


CANVAS_STUDENT = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
"""Canvas's guide, "How do I import grades in the Gradebook?": the columns that say who a row
is, first and in this order; then a column per assignment (`Name (ID)` for one Canvas has, a
new name for a new one); a `Points Possible` row may come first."""
CANVAS_IDENTIFIERS = ("ID", "SIS User ID", "SIS Login ID")
"""What Canvas matches a row to a student on, in this order."""


def grade_cell(cell: str) -> float | None:
    """A grade as a gradebook import reads it: a number, or nothing (left as it is)."""
    if cell == "":
        return None
    value = float(cell)
    assert math.isfinite(value), cell
    return value


Grades = dict[str, float | None]
"""Each assignment's (or grade item's) grade, None for none."""


def read_canvas(text: str) -> tuple[Grades, dict[tuple[str, str], Grades]]:
    """A Canvas gradebook import: the points possible per assignment, and per student (the
    identifier Canvas matches first, and its value) each assignment's grade."""
    rows = list(csv.reader(io.StringIO(text)))
    header, body = rows[0], rows[1:]
    assert tuple(header[:len(CANVAS_STUDENT)]) == CANVAS_STUDENT, header
    assignments = header[len(CANVAS_STUDENT):]
    assert assignments and all(name.strip() for name in assignments)
    assert len(set(assignments)) == len(assignments)
    assert all(len(row) == len(header) for row in rows)
    possible: Grades = {}
    if body and body[0][0].strip() == "Points Possible":
        possible = dict(zip(assignments, map(grade_cell, body[0][len(CANVAS_STUDENT):]),
                            strict=True))
        body = body[1:]
    students: dict[tuple[str, str], Grades] = {}
    for row in body:
        cells = dict(zip(header, row, strict=True))
        key = next((column, cells[column]) for column in CANVAS_IDENTIFIERS if cells[column])
        assert key not in students, key
        students[key] = {name: grade_cell(cells[name]) for name in assignments}
    return possible, students


MOODLE_USER_FIELDS = {"ID number": "useridnumber", "Email address": "useremail",
                      "Username": "username"}
"""Moodle's docs, "Grade import", CSV: the user fields a column may be mapped from ("Map to"),
by the names Moodle's own export gives their columns."""


def read_moodle(text: str, map_from: str) -> dict[str, Grades]:
    """A Moodle grade import whose column `map_from` is mapped to its user field: per user,
    each other column's grade (the columns mapped to grade items; a name is not imported)."""
    assert map_from in MOODLE_USER_FIELDS
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    assert map_from in header and len(set(header)) == len(header)
    assert all(len(row) == len(header) for row in rows), "every line as long as the header"
    items = [name for name in header if name not in MOODLE_USER_FIELDS and name != "Full name"]
    users: dict[str, Grades] = {}
    for row in rows[1:]:
        cells = dict(zip(header, row, strict=True))
        user = cells[map_from]
        assert user and user not in users, user  # Moodle refuses a user it cannot tell
        users[user] = {name: grade_cell(cells[name]) for name in items}
    return users
