"""What `grade` writes for course platforms, each checked against the schema written below from
the platform's own documentation, for a right submission, a faulty one, one that does not load
and one that loops: Gradescope, PrairieLearn, GitHub Classroom's reporter, JUnit XML."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import jsonschema
import pytest

from compare.judge.scores import Score
from logic.commands.cli import EXIT_USAGE, main
from logic.state import BLANK

pytestmark = pytest.mark.skipif(
    shutil.which("swipl") is None,
    reason="swipl is not installed (Debian package swi-prolog-nox); .ci/run installs it",
)
ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "tests" / "submissions"

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
            "required": ["name", "status", "score"],
            "properties": {"name": TEXT, "status": {"enum": ["pass", "fail", "error"]},
                           "score": NUMBER, "message": {"type": ["string", "null"]},
                           "test_code": TEXT, "filename": TEXT, "line_no": {"type": "integer"},
                           "execution_time": TEXT},
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
}

CASES = {  # a submission, the options that make it quick, what it is
    "right": ("lab_style", ["--predicates", "terminal_state"]),
    "faulty": ("no_draw", ["--predicates", "terminal_state"]),
    "not loading": ("never_loads", ["--predicates", "terminal_state", "--load-timeout", "1"]),
    "looping": ("loops", ["--predicates", "max_value", "--query-timeout", "0.5",
                          "--budget", "2"]),
}


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


@pytest.fixture(scope="module", params=sorted(CASES))
def outputs(request, tmp_path_factory):
    """Every platform's output for one case, from one run of the command line."""
    name, options = CASES[request.param]
    folder = tmp_path_factory.mktemp(request.param.replace(" ", "_"))
    run = subprocess.run(
        [sys.executable, "-m", "logic", "grade", str(SUBMISSIONS / f"{name}.pl"), *options,
         "--jobs", "1", "--gradescope", str(folder / "gs"), "--prairielearn",
         str(folder / "pl"), "--github-classroom", str(folder / "gh.json"),
         "--junit", str(folder / "junit.xml"), "--json", str(folder / "class.json")],
        capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode in (0, 1), run.stderr
    return request.param, {
        "gradescope": json.loads((folder / "gs" / "results.json").read_text()),
        "prairielearn": json.loads((folder / "pl" / "results.json").read_text()),
        "github": json.loads((folder / "gh.json").read_text()),
        "junit": ElementTree.parse(folder / "junit.xml").getroot(),
        "json": json.loads((folder / "class.json").read_text())["submissions"][0],
        "returncode": run.returncode,
    }


def test_every_output_meets_its_platforms_schema(outputs):
    case, written = outputs
    jsonschema.validate(written["gradescope"], GRADESCOPE)
    jsonschema.validate(written["prairielearn"], PRAIRIELEARN)
    jsonschema.validate(written["github"], GITHUB_CLASSROOM)
    check_junit(written["junit"])
    assert len(json.dumps(written["prairielearn"])) < 1_000_000  # PrairieLearn's limit


def test_every_output_carries_the_same_score(outputs):
    case, written = outputs
    report = written["json"]
    gradescope = written["gradescope"]
    assert gradescope["score"] == report["score"]
    assert sum(test["score"] for test in gradescope["tests"]) == pytest.approx(report["score"])
    assert sum(test["max_score"] for test in gradescope["tests"]) == report["max_score"] == 100
    github = written["github"]
    assert sum(test["score"] for test in github["tests"]) == pytest.approx(report["score"])
    assert github["max_score"] == report["max_score"]
    properties = {item.get("name"): float(item.get("value"))
                  for item in written["junit"].iter("property")}
    assert properties["score"] == pytest.approx(report["score"])
    if written["prairielearn"]["gradable"]:
        assert written["prairielearn"]["score"] == pytest.approx(report["score"] / 100)
    for result in report["predicates"].values():  # the score is the share right
        questions = result["checked"] + result["counts"].get("not_asked", 0)
        assert result["score"] == pytest.approx(result["max_score"] * result["correct"]
                                                / questions, abs=0.01)


def test_each_case_reads_as_what_it_is(outputs):
    case, written = outputs
    tests = {test["name"]: test for test in written["gradescope"]["tests"]}
    checked = "max_value" if case == "looping" else "terminal_state"
    if case == "right":
        assert tests[checked]["status"] == "passed"
        assert tests[checked]["score"] == tests[checked]["max_score"] > 0
        assert written["github"]["tests"][0]["status"] == "pass"
    else:
        assert tests[checked]["status"] == "failed"
        assert tests[checked]["score"] < tests[checked]["max_score"]
    if case == "faulty":  # the first wrong board drawn, in the output and as an image
        assert "no answer: terminal_state([o,o,x,x,o,o,o,x,x], x, ...)" in tests[checked][
            "output"]
        assert " o | o | x" in tests[checked]["output"]
        test = next(test for test in written["prairielearn"]["tests"]
                    if test["name"] == checked)
        svg = base64.b64decode(test["images"][0]["url"].split(",", 1)[1]).decode()
        marks = [text.rsplit(">", 1)[1] for text in svg.split("</text>")[:-1]]
        assert "".join(mark if mark in "xo" else BLANK for mark in marks) == "ooxxoooxx"
    if case == "not loading":  # a test with its message, never a failed autograder
        assert tests["loading"]["status"] == "failed"
        assert "load: FAILED" in tests["loading"]["output"]
        assert written["gradescope"]["score"] == 0
        assert written["prairielearn"]["gradable"] is False
        assert "used more than" in written["prairielearn"]["format_errors"][0]
        assert written["github"]["status"] == "error"
        assert written["junit"].find("testsuite/testcase/error") is not None
    if case == "looping":
        assert "inference limit" in tests[checked]["output"]
        assert written["returncode"] == 1


def test_a_platform_that_grades_one_submission_refuses_a_class(tmp_path, capsys):
    one, two = tmp_path / "a.pl", tmp_path / "b.pl"
    one.write_text("")
    two.write_text("")
    for option in ("--gradescope", "--prairielearn", "--github-classroom"):
        assert main(["grade", str(one), str(two), option, str(tmp_path / "out")]) == EXIT_USAGE
    errors = capsys.readouterr().err.splitlines()
    assert errors[0] == ("minimax-lab: error: --gradescope writes one submission's results (a "
                         "platform grades each in its own container), not 2")
    assert len(errors) == 3 and not (tmp_path / "out").exists()


def test_when_the_grader_cannot_start_gradescope_still_gets_results(tmp_path, capsys):
    submission = tmp_path / "a.pl"
    submission.write_text("")
    bad = tmp_path / "bad.toml"
    bad.write_text("[checks.max_valu]\n")
    assert main(["grade", str(submission), "--assignment", str(bad), "--gradescope",
                 str(tmp_path)]) == EXIT_USAGE
    results = json.loads((tmp_path / "results.json").read_text())
    jsonschema.validate(results, GRADESCOPE)
    assert results["score"] == 0
    assert "the grader could not start" in results["tests"][0]["output"]
    assert "unknown check 'max_valu'" in capsys.readouterr().err


def test_a_score_with_nothing_possible_is_no_fraction():
    assert Score(()).fraction == 0.0


def test_the_gradescope_zip_grades_a_submission_where_gradescope_puts_it(tmp_path):
    assignment = tmp_path / "quick.toml"
    assignment.write_text("[checks.terminal_state]\npoints = 10\n")
    submission = tmp_path / "lab3.pl"
    shutil.copy(SUBMISSIONS / "no_draw.pl", submission)
    graded = tmp_path / "graded.json"
    main(["grade", str(submission), "--assignment", str(assignment), "--json", str(graded)])
    bug = json.loads(graded.read_text())["submissions"][0]["bug"]
    feedback = tmp_path / "feedback.toml"  # written once, after grading the class
    feedback.write_text(f'{bug} = "A full board with no line is a draw: value 0."\n')
    autograder = tmp_path / "autograder.zip"
    assert main(["autograder", "gradescope", "--assignment", str(assignment),
                 "--feedback", str(feedback), "--out", str(autograder)]) == 0
    root = tmp_path / "autograder"
    with zipfile.ZipFile(autograder) as archive:
        for name in ("setup.sh", "run_autograder"):
            assert archive.getinfo(name).external_attr >> 16 & 0o111  # executable
        archive.extractall(root / "source")
    (root / "submission").mkdir()
    shutil.copy(submission, root / "submission" / "lab3.pl")
    run = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")], capture_output=True, text=True,
        timeout=120, cwd=tmp_path,
        env={**os.environ, "AUTOGRADER_ROOT": str(root), "MINIMAX_LAB_PYTHON": sys.executable})
    assert run.returncode == 0, run.stderr  # faults found are a grade, not a failure
    results = json.loads((root / "results" / "results.json").read_text())
    jsonschema.validate(results, GRADESCOPE)
    tests = {test["name"]: test for test in results["tests"]}
    assert set(tests) == {"loading", "terminal_state"}  # the assignment's one check, asked
    assert 9 < results["score"] == tests["terminal_state"]["score"] < 10
    assert "no answer: terminal_state([o,o,x,x,o,o,o,x,x], x" in tests["terminal_state"]["output"]
    assert "A full board with no line is a draw: value 0." in results["output"]


def test_the_gradescope_zip_refuses_a_bad_feedback_file_before_writing(tmp_path, capsys):
    bad = tmp_path / "feedback.toml"
    bad.write_text("bug-0000000a = 3\n")
    assert main(["autograder", "gradescope", "--feedback", str(bad), "--out",
                 str(tmp_path / "a.zip")]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "must be text" in err
    assert not (tmp_path / "a.zip").exists()


def test_the_gradescope_zip_refuses_a_bad_assignment_before_writing(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[checks.winner]\n")
    assert main(["autograder", "gradescope", "--assignment", str(bad), "--out",
                 str(tmp_path / "a.zip")]) == EXIT_USAGE
    assert "unknown check 'winner'" in capsys.readouterr().err
    assert not (tmp_path / "a.zip").exists()
