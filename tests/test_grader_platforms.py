"""What `grade` writes for course platforms, each checked against the schema written below from
the platform's own documentation or published code, for a right submission, a faulty one, one
that does not load and one that loops: Gradescope, PrairieLearn, GitHub Classroom's reporter,
JUnit XML; what each platform then shows students (the reporter's and GitLab's reading, as
their published code reads it); hidden checks hidden in every student view; the Gradescope zip
grading with every option of its assignment; PrairieLearn's info.json from the docs."""

from __future__ import annotations

import base64
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest
from marks import few_by_default, needs_swipl
from platforms import (
    GITHUB_CLASSROOM,
    GRADESCOPE,
    PRAIRIELEARN,
    PRAIRIELEARN_EXTERNAL,
    check_junit,
    validate,
)
from quiet import grade_quietly

from minimax_lab.compare.judge.scores import Score
from minimax_lab.logic.commands.cli import EXIT_USAGE, main
from minimax_lab.logic.state import BLANK

pytestmark = needs_swipl
ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "tests" / "submissions"

CASES = {  # a submission, the options that make it quick, what it is
    "right": ("lab_style", ["--predicates", "terminal_state"]),
    "faulty": ("no_draw", ["--predicates", "terminal_state"]),
    "not loading": ("never_loads", ["--predicates", "terminal_state", "--load-timeout", "1"]),
    "looping": ("loops", ["--predicates", "max_value", "--inference-budget", "0.001"]),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def outputs(request, tmp_path_factory):
    """Every platform's output for one case, from one run of the command line."""
    name, options = CASES[request.param]
    folder = tmp_path_factory.mktemp(request.param.replace(" ", "_"))
    status, _ = grade_quietly(
        [str(SUBMISSIONS / f"{name}.pl"), *options, "--jobs", "1", "--gradescope",
         str(folder / "gs"), "--prairielearn", str(folder / "pl"), "--github-classroom",
         str(folder / "gh.json"), "--junit", str(folder / "junit.xml"), "--json",
         str(folder / "class.json")])
    assert status in (0, 1)
    return request.param, {
        "gradescope": json.loads((folder / "gs" / "results.json").read_text()),
        "prairielearn": json.loads((folder / "pl" / "results.json").read_text()),
        "github": json.loads((folder / "gh.json").read_text()),
        "junit": ElementTree.parse(folder / "junit.xml").getroot(),
        "json": json.loads((folder / "class.json").read_text())["submissions"][0],
        "returncode": status,
    }


def test_every_output_meets_its_platforms_schema(outputs):
    case, written = outputs
    validate(written["gradescope"], GRADESCOPE)
    validate(written["prairielearn"], PRAIRIELEARN)
    validate(written["github"], GITHUB_CLASSROOM)
    check_junit(written["junit"])
    assert len(json.dumps(written["prairielearn"])) < 1_000_000  # PrairieLearn's limit


def test_every_output_carries_the_same_score(outputs):
    case, written = outputs
    report = written["json"]
    gradescope = written["gradescope"]
    assert gradescope["score"] == report["score"]
    assert sum(test["score"] for test in gradescope["tests"]) == pytest.approx(report["score"])
    asked = 15 if case == "looping" else 10  # max_value's points, or terminal_state's
    assert sum(test["max_score"] for test in gradescope["tests"]) == report["max_score"] == asked
    github = written["github"]
    assert sum(test["score"] for test in github["tests"]) == pytest.approx(report["score"])
    assert github["max_score"] == report["max_score"]
    properties = {item.get("name"): float(item.get("value"))
                  for item in written["junit"].iter("property")}
    assert properties["score"] == pytest.approx(report["score"])
    if written["prairielearn"]["gradable"]:
        assert written["prairielearn"]["score"] == pytest.approx(
            report["score"] / report["max_score"])
    for result in report["predicates"].values():  # the share right above the constant's
        questions = result["checked"] + result["counts"].get("not_asked", 0)
        share, base = result["correct"] / questions, result["base"]
        above = 1.0 if share == 1 else max(0.0, (share - base) / (1 - base))
        assert 0 < base < 1
        assert result["score"] == pytest.approx(result["max_score"] * above, abs=0.01)


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
        # its CPU time ran out, or on a machine loaded enough, the wall clock's guard first
        assert written["prairielearn"]["format_errors"][0].startswith(
            ("loading used more than 1 s of CPU time", "loading did not finish within 10 s"))
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
    validate(results, GRADESCOPE)
    assert results["score"] == 0
    assert "the grader could not start" in results["tests"][0]["output"]
    assert "unknown check 'max_valu'" in capsys.readouterr().err


def test_a_score_with_nothing_possible_is_no_fraction():
    assert Score(()).fraction == 0.0


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
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
    validate(results, GRADESCOPE)
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


# --- what each platform shows students --------------------------------------------------------

def reporter_console(results: dict) -> tuple[str, str]:
    """What GitHub Classroom's grading reporter (classroom-resources/autograding-grading-reporter,
    v1: src/console-results.js, src/notify-classroom.js, src/helpers/test-helpers.js) prints
    for one runner, and its points notice: a test's name with "- line N" unless line_no is 0,
    its message only when its status is error, its test_code always; the runner's points in
    the table as tests passed over tests, times max_score; the notice as the tests' scores
    added up."""
    lines = []
    for test in results["tests"]:
        line = "" if test.get("line_no") == 0 else f" - line {test.get('line_no', 'undefined')}"
        if test["status"] == "pass":
            lines.append(f"PASS {test['name']}{line}")
        elif test["status"] == "error":
            lines.append(f"Error: {test.get('message') or test['name']}")
        else:
            lines.append(f"FAIL {test['name']}{line}")
        if test.get("test_code"):
            lines.append(f"Test code:\n{test['test_code']}")
    passed = sum(test["status"] == "pass" for test in results["tests"])
    table = passed / len(results["tests"]) * results["max_score"]
    lines.append(f"Total: {table} {results['max_score']}")
    notice = f"Points {sum(test['score'] for test in results['tests'])}/{results['max_score']}"
    return "\n".join(lines), notice


def gitlab_cases(junit: ElementTree.Element) -> list[tuple[str, str]]:
    """What GitLab shows of each test case (lib/gitlab/ci/parsers/test/junit.rb): its name, and
    text only for a failure, an error (with the case's system-out after it) or a skip; nothing
    of a passed case's system-out, of the suites' properties or of their system-out."""
    shown = []
    for case in junit.iter("testcase"):
        text = ""
        for tag in ("failure", "error"):
            found = case.find(tag)
            if found is not None:
                out = case.find("system-out")
                text = (found.text or "") + (
                    "" if out is None else f"\n\nSystem Out:\n\n{out.text}")
        skipped = case.find("skipped")
        if skipped is not None:
            text = skipped.text or skipped.get("message", "")
        shown.append((case.get("name"), text))
    return shown


def test_the_reporter_shows_each_checks_findings_and_what_classroom_records(outputs):
    case, written = outputs
    console, notice = reporter_console(written["github"])
    assert "line undefined" not in console
    assert notice == f"Points {written['json']['score']}/{written['json']['max_score']}"
    assert (f"score {written['json']['score']:g} of {written['json']['max_score']:g} (the "
            "points GitHub Classroom records") in console.replace(".0 of", " of")
    if case == "faulty":
        assert "no answer: terminal_state([o,o,x,x,o,o,o,x,x], x, ...)" in console
        assert "this looks like no draw clause: " in console
    if case == "not loading":
        assert console.startswith("Error: ") and "load: FAILED" in console
        assert "containment" not in console  # the sandbox's words are the teacher's


def test_gitlab_shows_the_score_the_findings_and_the_guess(outputs):
    case, written = outputs
    shown = gitlab_cases(written["junit"])
    names = [name for name, _ in shown]
    score = written["json"]["score"]
    possible = written["json"]["max_score"]
    assert f"score: {score:g} of {possible:g}" in [name.replace(".0 of", " of") for name in names]
    texts = "\n".join(text for _, text in shown)
    if case == "faulty":
        assert "no answer: terminal_state([o,o,x,x,o,o,o,x,x], x, ...)" in texts
        assert "this looks like no draw clause: " in texts
    if case == "not loading":
        assert "load: FAILED" in texts


def test_a_check_right_on_every_question_asked_is_skipped_not_failed_in_junit(tmp_path):
    junit = tmp_path / "j.xml"
    main(["grade", str(SUBMISSIONS / "lab_style.pl"), "--predicates", "max_value",
          "--inference-budget", "0.002", "--junit", str(junit), "--csv", str(tmp_path / "g.csv")])
    root = ElementTree.parse(junit).getroot()
    check_junit(root)
    case = next(case for case in root.iter("testcase") if case.get("name") == "max_value")
    skipped = case.find("skipped")
    assert case.find("failure") is None and skipped is not None
    right = skipped.get("message").split("right on all ")[1].split(" asked")[0]
    row = next(csv.DictReader(io.StringIO((tmp_path / "g.csv").read_text())))
    assert right == row["max_value_correct"] == row["max_value_checked"]  # right = checked
    unasked = row["max_value_not_asked"]
    assert int(unasked) > 0  # not asked: a column of its own
    assert f"{unasked} not asked" in skipped.get("message")
    assert skipped.get("message").startswith(f"right on all {right} asked; {right} of "
                                              f"{int(right) + int(unasked)} right; ")


HIDDEN = """[checks.terminal_state]
points = 10

[checks.max_value]
points = 25
visibility = "after_due_date"
"""


@pytest.fixture(scope="module")
def hidden(tmp_path_factory):
    """A faulty submission graded under an assignment with one check held back until the due
    date: every platform's output, the teacher's JSON, and the student view's summary."""
    folder = tmp_path_factory.mktemp("hidden")
    assignment = folder / "week.toml"
    assignment.write_text(HIDDEN)
    common = [str(SUBMISSIONS / "no_draw.pl"), "--assignment", str(assignment),
              "--inference-budget", "0.001", "--jobs", "1"]
    status, teacher_out = grade_quietly(
        [*common, "--gradescope", str(folder / "gs"), "--prairielearn", str(folder / "pl"),
         "--github-classroom", str(folder / "gh.json"), "--junit", str(folder / "junit.xml"),
         "--json", str(folder / "teacher.json")])
    student_status, student_out = grade_quietly(
        [*common, "--student-view", "--json", str(folder / "student.json")])
    assert status == student_status == 1
    return {
        "teacher": json.loads((folder / "teacher.json").read_text())["submissions"][0],
        "student": json.loads((folder / "student.json").read_text())["submissions"][0],
        "stdout": student_out, "teacher stdout": teacher_out,
        "gradescope": json.loads((folder / "gs" / "results.json").read_text()),
        "prairielearn": json.loads((folder / "pl" / "results.json").read_text()),
        "github": json.loads((folder / "gh.json").read_text()),
        "junit": ElementTree.parse(folder / "junit.xml").getroot(),
    }


def test_the_teacher_sees_the_hidden_check_and_its_guess(hidden):
    teacher = hidden["teacher"]
    assert set(teacher["predicates"]) == {"terminal_state", "max_value"}
    assert teacher["max_score"] == 35 and teacher["hypotheses"]
    assert "max_value" in hidden["teacher stdout"]


def test_a_hidden_check_is_invisible_in_every_students_view(hidden):
    leaks = ("this looks like", "bug-", "feedback:")
    gradescope = hidden["gradescope"]
    validate(gradescope, GRADESCOPE)
    tests = {test["name"]: test for test in gradescope["tests"]}
    assert tests["max_value"]["visibility"] == "after_due_date"  # Gradescope releases it
    assert tests["feedback"]["visibility"] == "after_due_date"
    assert "this looks like no draw clause" in tests["feedback"]["output"]
    top = gradescope["output"]
    assert not any(leak in top for leak in leaks)
    assert top.splitlines()[:2] == [
        f"score {tests['terminal_state']['score']:g} of 10 on the checks shown now",
        "max_value: 25 points, its result shown after the due date"]
    prairielearn = hidden["prairielearn"]
    validate(prairielearn, PRAIRIELEARN)
    assert [test["name"] for test in prairielearn["tests"]] == ["terminal_state"]
    assert prairielearn["score"] == pytest.approx(tests["terminal_state"]["score"] / 10, abs=1e-4)
    assert "25 more points of this assignment are for checks not shown here" in prairielearn[
        "message"]
    github = hidden["github"]
    validate(github, GITHUB_CLASSROOM)
    assert [test["name"] for test in github["tests"]] == ["terminal_state"]
    assert github["max_score"] == 10
    junit = hidden["junit"]
    check_junit(junit)
    assert [case.get("name") for case in junit.iter("testcase")][2:] == ["terminal_state"]
    assert not any(item.get("name").startswith("max_value") for item in junit.iter("property"))
    for view in (json.dumps(prairielearn), json.dumps(github),
                 ElementTree.tostring(junit, encoding="unicode"), hidden["stdout"],
                 json.dumps(hidden["student"])):
        assert "max_value" not in view.replace("max_value\": 25", "")
        assert not any(leak in view for leak in leaks) and "after the deadline" not in view
    assert hidden["student"]["max_score"] == 10


# --- the Gradescope zip grades as grade does --------------------------------------------------

def run_zip(tmp_path: Path, assignment: str, files: dict[str, Path], *options: str) -> dict:
    """Build the zip with `assignment`, lay it out as Gradescope does with `files` as the
    submission, run its run_autograder; its results."""
    table = tmp_path / "assignment.toml"
    table.write_text(assignment)
    autograder = tmp_path / "autograder.zip"
    assert main(["autograder", "gradescope", "--assignment", str(table), "--out",
                 str(autograder), *options]) == 0
    root = tmp_path / "autograder"
    with zipfile.ZipFile(autograder) as archive:
        archive.extractall(root / "source")
    (root / "submission").mkdir()
    for name, source in files.items():
        shutil.copy(source, root / "submission" / name)
    run = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")], capture_output=True, text=True,
        timeout=240, cwd=tmp_path,
        env={**os.environ, "AUTOGRADER_ROOT": str(root), "MINIMAX_LAB_PYTHON": sys.executable})
    assert run.returncode == 0, run.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    validate(results, GRADESCOPE)
    return results


CS50 = ROOT / "tests" / "submissions" / "python"


@pytest.mark.parametrize(("ties", "full"), few_by_default([("any", True), ("lowest", False)],
                                                          ("lowest",)))
def test_the_zip_grades_cs50_under_the_assignments_tie_rule_and_main_file(tmp_path, ties, full):
    """Its assignment names the interface, the tie rule and the main file: the zip grades a
    right CS50 program with another tie order as grade would, whatever else the folder holds."""
    results = run_zip(tmp_path, f'interface = "cs50"\nties = "{ties}"\nmain = "game.py"\n\n'
                      '[checks.minimax]\npoints = 35\n',
                      {"game.py": CS50 / "cs50_last_optimal.py",
                       "helpers.py": CS50 / "cs50_right.py"})
    tests = {test["name"]: test for test in results["tests"]}
    assert set(tests) == {"loading", "minimax"}
    assert (tests["minimax"]["score"] == 35) is full
    assert tests["minimax"]["score"] > 0 and "suboptimal move" not in tests["minimax"]["output"]
    said = ("any optimal move is right" if ties == "any"
            else "the lab's tie rule, the lowest optimal cell")
    assert f"policy: {said}" in results["output"]


def test_the_zip_cuts_the_budget_to_gradescopes_timeout_and_sets_up_any_ubuntu(tmp_path):
    table = tmp_path / "a.toml"
    table.write_text('interface = "cs50"\npython = "/opt/course/bin/python"\n'
                     'python-packages = ["numpy"]\n')
    for minutes, budget in ((10, "--budget 464 "), (70, "")):  # 70: above the 3600 s default
        out = tmp_path / f"a{minutes}.zip"
        assert main(["autograder", "gradescope", "--assignment", str(table), "--timeout",
                     str(minutes), "--out", str(out)]) == 0
        with zipfile.ZipFile(out) as archive:
            run = archive.read("run_autograder").decode()
            setup = archive.read("setup.sh").decode()
        assert (budget in run) if budget else "--budget" not in run
        assert subprocess.run(["bash", "-n"], input=setup, text=True).returncode == 0
        assert "apt-get install -y -qq python3.11 python3.11-venv" in setup  # Ubuntu 22.04
        assert '"$PYTHON" -m venv /opt/course\n/opt/course/bin/pip install -q numpy' in setup


# --- PrairieLearn's question, as the docs give it ----------------------------------------------

def test_the_docs_prairielearn_info_json_meets_prairielearns_schema():
    text = (ROOT / "docs" / "grading-reference.md").read_text()
    section = text[text.index("### PrairieLearn"):text.index("### GitHub Classroom")]
    info = json.loads(section.split("```json\n")[1].split("```")[0])
    validate(info, PRAIRIELEARN_EXTERNAL)
    options = info["externalGradingOptions"]
    assert info["gradingMethod"] == "External" and options["timeout"] >= 600
    entrypoint = options["entrypoint"]
    assert "--prairielearn /grade/results" in entrypoint
    assert "--assignment /grade/tests/assignment.toml" in entrypoint
    assert "--run-timeout" not in entrypoint


# --- GitHub Classroom's workflow, as the docs give it ------------------------------------------

REPORTER_CALLS = {  # classroom-resources/autograding-grading-reporter, src/notify-classroom.js
    "actions.getWorkflowRun": ("actions", "read"),
    "checks.listForSuite": ("checks", "read"),
    "checks.update": ("checks", "write"),
}
"""The API calls the reporter makes to send Classroom the points, and the permission each
needs: a failed call is caught and the job stays green, so nothing else would tell."""
LEVELS = {"none": 0, "read": 1, "write": 2}


def test_the_docs_classroom_workflow_grants_what_the_reporter_calls():
    import yaml

    text = (ROOT / "docs" / "grading-reference.md").read_text()
    section = text[text.index("### GitHub Classroom"):text.index("### JUnit XML")]
    workflow = yaml.safe_load(section.split("```text\n")[1].split("```")[0])
    granted = workflow["permissions"]
    (job,) = workflow["jobs"].values()
    assert any(step.get("uses", "").startswith(
        "classroom-resources/autograding-grading-reporter@") for step in job["steps"])
    for call, (scope, level) in REPORTER_CALLS.items():
        assert LEVELS[granted.get(scope, "none")] >= LEVELS[level], call
    assert granted["contents"] == "read"  # actions/checkout, and nothing more
    assert set(granted) == {"contents", "actions", "checks"}
