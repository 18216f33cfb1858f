"""Every output `grade` writes, from classes built here (no swipl, no sandbox): each writer of
the registry meets its format, every one carries the same score and the one pass rule, the
text says what the points count, a new output is one writer and one registry line, and a
class merged from its parts writes what it wrote whole."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from pathlib import Path
from xml.etree import ElementTree

import pytest
from platforms import (
    GITHUB_CLASSROOM,
    GRADESCOPE,
    PRAIRIELEARN,
    check_junit,
    read_canvas,
    read_moodle,
    validate,
)

from minimax_lab.compare.grader.assignments.assignment import default_assignment
from minimax_lab.compare.grader.findings.groups import group_class
from minimax_lab.compare.grader.interfaces.prolog import PREDICATES
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface
from minimax_lab.compare.grader.outputs import writers
from minimax_lab.compare.grader.outputs.graded import Graded, Shard
from minimax_lab.compare.grader.outputs.merge import MergeError, merge, merged
from minimax_lab.compare.grader.outputs.outputs import OutputsError, checked_outputs, write_outputs
from minimax_lab.compare.grader.outputs.results_json import class_from_json, class_json
from minimax_lab.compare.grader.outputs.roster import Roster, Student
from minimax_lab.compare.grader.outputs.text import check_report, summary, summary_line
from minimax_lab.compare.grader.outputs.writer import Reach, Writer
from minimax_lab.compare.grader.outputs.writers import WRITERS
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import (
    CheckResult,
    Finding,
    SubmissionGrade,
    Verdict,
    WrongCall,
)
from minimax_lab.compare.judge.scores import CheckScore
from minimax_lab.logic.commands.cli import build_parser
from minimax_lab.logic.contain.loading import LoadMessage, LoadReport

DRAW = ("xoxxoooxx", "x")  # a full board with no line: a draw
CHECKS = (*PREDICATES[:4], "play")


def result(right: int, wrong: int = 0, unasked: int = 0, base: float = 0.5) -> CheckResult:
    """A check's result: `right` right answers, then `wrong` answers that fail on the drawn
    board, then `unasked` questions not asked."""
    made = CheckResult(base=base)
    for _ in range(right):
        made.add(DRAW, "terminal_state(...)", Verdict(Category.RIGHT), True)
    for _ in range(wrong):
        made.add(DRAW, "terminal_state([x,o,x,x,o,o,o,x,x], x, ...)",
                 Verdict(Category.NO_ANSWER, "the goal fails"), True)
    for _ in range(unasked):
        made.add(DRAW, "terminal_state(...)", Verdict(Category.NOT_ASKED, "budget"), True)
    return made


def graded(name: str, **checks: CheckResult) -> SubmissionGrade:
    grade = SubmissionGrade(name, LoadReport(containment="bwrap"), checks=checks,
                            seconds=1.5)
    grade.score = default_assignment("prolog", PrologInterface.checks).score(grade)
    return grade


def the_class() -> list[SubmissionGrade]:
    right = graded("ada", **{check: result(10) for check in CHECKS})
    faulty = graded("bob", terminal_state=result(6, 4), max_value=result(10))
    faulty.checks["terminal_state"].first_wrong = WrongCall(
        Finding(Category.NO_ANSWER, DRAW, "no answer", asked="terminal_state(...)"), (), 1,
        clause="terminal_state(State, Player, 0) :- ...")
    faulty.bug = "bug-00000b0b"  # as grading names it (compare.grader.findings.groups.fingerprint)
    short = graded("cy", terminal_state=result(6, 0, 4))
    broken = SubmissionGrade("dee", LoadReport(
        messages=[LoadMessage("error", "dee.pl", 3, "syntax error: operator expected")],
        problem="loading did not finish within 30 s of CPU time"))
    broken.score = default_assignment("prolog", PrologInterface.checks).score(broken)
    grades = [right, faulty, short, broken]
    group_class(grades, {})
    faulty.hypotheses = ("no draw clause: terminal_state fails on full boards (a guess)",)
    return grades


def written(tmp_path: Path, grades: list[SubmissionGrade], names: list[str],
            roster: Roster | None = None, title: str = "") -> dict[str, Path]:
    """Each writer's output of `grades` (who they are: `roster`), in `tmp_path`."""
    destinations = {name: tmp_path / name for name in names}
    outputs = checked_outputs(destinations, [Path(grade.name) for grade in grades])
    for writer, destination in outputs:
        if writer.prepare is not None:
            writer.prepare(destination, None)
    assert write_outputs(Graded(grades, checks=CHECKS, groups=group_class(grades),
                                roster=roster or {}, title=title), outputs) == []
    return destinations


CLASS = [name for name, writer in WRITERS.items() if writer.reach is Reach.CLASS]
ONE = [name for name, writer in WRITERS.items() if writer.reach is Reach.SUBMISSION]


def test_every_output_of_a_class_is_written_in_its_format(tmp_path):
    grades = the_class()
    out = written(tmp_path, grades, CLASS)
    rows = list(csv.DictReader(io.StringIO(out["csv"].read_text())))
    assert [row["name"] for row in rows] == ["ada", "bob", "cy", "dee"]
    assert [row["load"] for row in rows] == ["ok", "ok", "ok", "failed"]
    assert rows[2]["terminal_state_not_asked"] == "4"
    report = json.loads(out["json"].read_text())
    assert report["status"] == 1 and [sub["clean"] for sub in report["submissions"]] == [
        True, False, False, False]
    junit = ElementTree.parse(out["junit"]).getroot()
    check_junit(junit)
    assert junit.find("testsuite[@name='dee']/testcase/error") is not None
    assert sorted(path.name for path in out["reports"].glob("*.txt")) == [
        "ada.txt", "bob.txt", "cy.txt", "dee.txt"]
    assert "first wrong call: terminal_state(...)" in (out["reports"] / "bob.txt").read_text()


@pytest.mark.parametrize("index", range(4), ids=["right", "faulty", "not asked", "not loading"])
def test_every_platforms_file_meets_its_schema_and_carries_the_same_score(tmp_path, index):
    grade = the_class()[index]
    out = written(tmp_path, [grade], ONE + ["json", "junit"])
    gradescope = json.loads((out["gradescope"] / "results.json").read_text())
    prairielearn = json.loads((out["prairielearn"] / "results.json").read_text())
    github = json.loads(out["github_classroom"].read_text())
    validate(gradescope, GRADESCOPE)
    validate(prairielearn, PRAIRIELEARN)
    validate(github, GITHUB_CLASSROOM)
    score = json.loads(out["json"].read_text())["submissions"][0]["score"]
    assert gradescope["score"] == score == pytest.approx(sum(
        test["score"] for test in github["tests"]))
    properties = {item.get("name"): item.get("value")
                  for item in ElementTree.parse(out["junit"]).getroot().iter("property")}
    assert float(properties["score"]) == pytest.approx(score)
    if prairielearn["gradable"]:
        assert prairielearn["score"] == pytest.approx(score / 100)


def test_the_pass_rule_is_one_rule_everywhere(tmp_path):
    """Every question asked and right: passed on Gradescope, pass for GitHub Classroom, no
    failure in JUnit; right as far as asked is neither."""
    passed = CheckScore("terminal_state", 10, 10, 17, 17)
    assert passed.passed and not replace(passed, right=16).passed
    assert not CheckScore("terminal_state", 0, 10, 0, 0).passed  # nothing asked passes nothing
    grade = the_class()[2]  # right on all asked, 4 not asked
    out = written(tmp_path, [grade], ONE + ["junit"])
    gradescope = json.loads((out["gradescope"] / "results.json").read_text())
    github = json.loads(out["github_classroom"].read_text())
    statuses = {test["name"]: test["status"] for test in gradescope["tests"]}
    assert statuses["terminal_state"] == "failed"
    assert {test["name"]: test["status"] for test in github["tests"]}["terminal_state"] == "fail"
    case = next(case for case in ElementTree.parse(out["junit"]).getroot().iter("testcase")
                if case.get("name") == "terminal_state")
    assert case.find("skipped") is not None and case.find("failure") is None


def test_a_check_not_asked_is_no_failure_on_any_platform(tmp_path):
    """The lab's solution graded on two checks: full marks of their points everywhere, the
    others out of the maximum and named, skipped in JUnit."""
    asked = ("terminal_state", "minimax_decision")
    grade = graded("ada", **{check: result(10) for check in asked})
    grade.score = default_assignment("prolog", PrologInterface.checks).score(grade, asked)
    assert [check.check for check in grade.score.unasked] == ["max_value", "min_value", "play"]
    out = written(tmp_path, [grade], [*ONE, "junit", "json", "csv"])
    gradescope = json.loads((out["gradescope"] / "results.json").read_text())
    assert gradescope["score"] == 30 == sum(test["max_score"] for test in gradescope["tests"])
    assert {test.get("status") for test in gradescope["tests"]} == {"passed"}
    assert "max_value (15 points), min_value (15 points), play (40 points)" in gradescope[
        "output"]
    prairielearn = json.loads((out["prairielearn"] / "results.json").read_text())
    assert prairielearn["score"] == 1.0 and "play (40 points)" in prairielearn["message"]
    github = json.loads(out["github_classroom"].read_text())
    assert github["status"] == "pass" and github["max_score"] == 30
    assert sum(test["score"] for test in github["tests"]) == 30
    junit = ElementTree.parse(out["junit"]).getroot()
    check_junit(junit)
    suite = junit.find("testsuite")
    assert (suite.get("failures"), suite.get("skipped")) == ("0", "3")
    skipped = [case.get("name") for case in suite.iter("testcase")
               if case.find("skipped") is not None]
    assert skipped == ["max_value", "min_value", "play"]
    assert suite.find("testcase[@name='score: 30 of 30']") is not None
    report = json.loads(out["json"].read_text())
    assert (report["submissions"][0]["score"], report["submissions"][0]["max_score"]) == (30, 30)
    assert class_json(class_from_json(report)) == report
    row = next(csv.DictReader(io.StringIO(out["csv"].read_text())))
    assert (row["score"], row["max_score"]) == ("30", "30")
    assert (row["minimax_decision_points"], row["max_value_points"]) == ("20", "")
    assert summary_line(grade).endswith("score 30/30 (70 points not asked) (1.5 s)")


ROSTER = {"ada": Student("s001", "Ada Lovelace", "ada@uni.example"),
          "bob": Student("s002", "Bob Lee, Jr.", "bob@uni.example"),
          "cy": Student("s003", "Cy Young")}  # dee is not in it


def test_the_gradebook_says_who_each_submission_is_and_each_checks_points(tmp_path):
    grades = the_class()
    out = written(tmp_path, grades, ["csv"], ROSTER)
    rows = list(csv.DictReader(io.StringIO(out["csv"].read_text())))
    assert [(row["name"], row["id"], row["student"], row["email"]) for row in rows] == [
        ("ada", "s001", "Ada Lovelace", "ada@uni.example"),
        ("bob", "s002", "Bob Lee, Jr.", "bob@uni.example"),
        ("cy", "s003", "Cy Young", ""), ("dee", "dee", "dee", "")]
    for row, grade in zip(rows, grades, strict=True):
        earned = [float(row[f"{check}_points"]) for check in CHECKS]
        assert earned == [grade.score.of(check).score for check in CHECKS]
        assert float(row["score"]) == pytest.approx(sum(earned))
    assert rows[1]["terminal_state_points"] == "2"  # 6 of 10 right, above the 5 of a constant
    (tmp_path / "plain").mkdir()
    plain = list(csv.DictReader(io.StringIO(written(tmp_path / "plain", grades, ["csv"])[
        "csv"].read_text())))
    assert [(row["id"], row["student"]) for row in plain][:2] == [("ada", "ada"), ("bob", "bob")]
    assert "email" not in plain[0]


def test_canvas_and_moodle_import_the_scores_as_they_document(tmp_path):
    grades = the_class()
    out = written(tmp_path, grades, ["canvas", "moodle"], ROSTER, "minimax lab, week 3")
    possible, students = read_canvas(out["canvas"].read_text())
    assert possible == {"minimax lab, week 3": 100.0}
    assert students == {
        ("SIS User ID", "s001"): {"minimax lab, week 3": 100.0},
        ("SIS User ID", "s002"): {"minimax lab, week 3": grades[1].score.score},
        ("SIS User ID", "s003"): {"minimax lab, week 3": grades[2].score.score},
        ("SIS User ID", "dee"): {"minimax lab, week 3": 0.0}}
    rows = list(csv.DictReader(io.StringIO(out["canvas"].read_text())))
    assert (rows[2]["Student"], rows[2]["SIS Login ID"]) == ("Bob Lee, Jr.", "bob@uni.example")
    users = read_moodle(out["moodle"].read_text(), "ID number")
    assert users == {student: {"minimax lab, week 3": grade.score.score} for student, grade in
                     zip(["s001", "s002", "s003", "dee"], grades, strict=True)}
    emails = list(csv.DictReader(io.StringIO(out["moodle"].read_text())))
    assert [row["Email address"] for row in emails][:2] == ["ada@uni.example", "bob@uni.example"]
    (tmp_path / "untitled").mkdir()
    untitled = written(tmp_path / "untitled", grades[:1], ["canvas", "moodle"])
    assert read_canvas(untitled["canvas"].read_text())[1] == {
        ("SIS User ID", "ada"): {"minimax lab": 100.0}}
    assert read_moodle(untitled["moodle"].read_text(), "ID number") == {
        "ada": {"minimax lab": 100.0}}


def test_a_name_that_could_be_a_formula_is_text_in_every_gradebook(tmp_path):
    grade = graded("=HYPERLINK(1)", terminal_state=result(10))
    out = written(tmp_path, [grade], ["csv", "canvas", "moodle"])
    for name in ("csv", "canvas", "moodle"):
        assert "\n=" not in out[name].read_text() and ",=" not in out[name].read_text()
    assert read_canvas(out["canvas"].read_text())[1] == {
        ("SIS User ID", "'=HYPERLINK(1)"): {"minimax lab": grade.score.score}}


def test_the_points_line_says_what_the_points_count_where_it_matters():
    grades = the_class()
    faulty, right = grades[1], grades[0]
    line = check_report("terminal_state", faulty.checks["terminal_state"], faulty)[0]
    earned = faulty.score.of("terminal_state")
    assert earned.constant == 5 and earned.score == 2.0  # 6 of 10, above the 5 a constant gets
    assert line == ("-- terminal_state: 6 of 10 right; 2 of 10 points (points count the right "
                    "answers above 5, as many as one constant answer gets right)")
    assert check_report("terminal_state", right.checks["terminal_state"], right)[0] == (
        "-- terminal_state: 10 of 10 right; 10 of 10 points")


def test_the_summary_is_a_lone_submissions_report_or_the_class_and_its_bugs():
    grades = the_class()
    one = summary(Graded(grades[1:2]))
    assert one.startswith("== bob ==\n") and one.endswith("0 of 1 submissions right everywhere\n")
    several = summary(Graded(grades, groups=group_class(grades)))
    assert several.startswith("ada: load ok;") and "== bugs: 1 ==" in several
    assert "-- bug-" in several and "bob" in several.split("== bugs")[1]


def test_a_class_merged_from_its_parts_writes_what_it_wrote_whole(tmp_path):
    grades = the_class()
    whole = class_json(Graded(grades))
    parts = [class_json(Graded(grades[part::2], shard=Shard(part + 1, 2, tuple(
        range(len(grades)))[part::2]))) for part in (0, 1)]
    joined = merged(json.loads(json.dumps(parts)))
    assert class_json(joined) == whole
    out = written(tmp_path, joined.grades, ["junit"])  # a part's failed load with messages
    assert "syntax error: operator expected" in out["junit"].read_text()
    with pytest.raises(MergeError, match="part 2 of 2 is missing"):
        merged(parts[:1])
    files = []
    for number, part in enumerate(parts, start=1):
        files.append(str(tmp_path / f"part{number}.json"))
        Path(files[-1]).write_text(json.dumps(part))
    roster = tmp_path / "roster.csv"
    roster.write_text("folder,id,name\nbob,s002,Bob\n")
    merge(files, {"moodle": tmp_path / "moodle.csv"}, str(roster))
    assert list(read_moodle((tmp_path / "moodle.csv").read_text(), "ID number")) == [
        "ada", "s002", "cy", "dee"]


def test_a_platforms_file_is_one_submissions_and_an_unknown_output_is_refused(tmp_path):
    with pytest.raises(OutputsError, match="--gradescope writes one submission's results"):
        checked_outputs({"gradescope": tmp_path / "gs"}, [Path("a.pl"), Path("b.pl")])
    with pytest.raises(OutputsError, match="unknown output 'html'; the outputs are reports"):
        checked_outputs({"html": tmp_path / "x.html"}, [Path("a.pl")])
    assert not (tmp_path / "gs").exists()


def test_a_new_output_is_one_writer_and_one_registry_line(tmp_path, monkeypatch):
    """Registered, it is an option of grade and of gradebook merge, and written with the
    others."""
    def write(graded: Graded, path: Path) -> list[str]:
        path.write_text(f"{len(graded.grades)} graded\n")
        return []

    monkeypatch.setitem(writers.WRITERS, "tally", Writer("tally", "FILE", "a tally", write))
    args = build_parser("grade").parse_args(["grade", "a.pl", "--tally", "t.txt"])
    assert args.tally == "t.txt"
    args = build_parser("gradebook").parse_args(["gradebook", "merge", "p.json", "--tally", "t"])
    assert args.tally == "t"
    out = written(tmp_path, the_class(), ["tally"])
    assert out["tally"].read_text() == "4 graded\n"
