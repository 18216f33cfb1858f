"""The platforms' own formats, as the tests hold the grader's outputs to them: each schema
written from the platform's documentation or published code, and the JUnit XML elements and
attributes that Jenkins, GitLab and CodeGrade read."""

from __future__ import annotations

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
