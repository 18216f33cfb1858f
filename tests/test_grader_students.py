"""What students may see (`compare.grader.outputs.students`), from grades built here (no swipl, no
sandbox): a check held back is invisible everywhere a student looks, its questions, answers and
results included where a shown check's first wrong call walked into it; the exit status of a
student view counts only what it shows."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from minimax_lab.compare.grader import pipeline
from minimax_lab.compare.grader.assignments.assignment import assignment_from
from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.prolog import PREDICATES
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface
from minimax_lab.compare.grader.options.config import Settings
from minimax_lab.compare.grader.outputs.gradebook import gradebook_csv
from minimax_lab.compare.grader.outputs.graded import Graded
from minimax_lab.compare.grader.outputs.platforms import github_classroom, gradescope, prairielearn
from minimax_lab.compare.grader.outputs.platforms.junit import junit_xml
from minimax_lab.compare.grader.outputs.results_json import class_json
from minimax_lab.compare.grader.outputs.students import student_view
from minimax_lab.compare.grader.outputs.text import check_text, submission_report, summary
from minimax_lab.compare.grader.pipeline import GradingRun, Quiet, grade_run
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import (
    CheckResult,
    Finding,
    SubmissionGrade,
    Verdict,
    WrongCall,
)
from minimax_lab.logic.contain import cgroups, sandbox
from minimax_lab.logic.contain.loading import LoadReport

START = ("---------", "x")
LEFT = ("x--------", "o")
WALKED = 700.0
"""The work a walk took."""
SECRET = "V = -7, the lab's 1"
"""What the hidden check answered in the walk: no student view may show it."""


def assignment(**visibility: str) -> dict:
    """An assignment: each check a point, with the visibility given (`visible` else), every
    wrong answer told in full (the hint level `clause`), so that only visibility holds back."""
    return tomllib.loads('hints = "clause"\n' + "".join(
        f'[checks.{check}]\npoints = 1\nvisibility = "{visibility.get(check, "visible")}"\n'
        for check in PREDICATES))


def walked(*checks: str, call: str = "max_value") -> WrongCall:
    """A first wrong call of minimax_decision found at a `call` asked on the way down, the
    walk having asked calls of `checks`."""
    board = "[x,-,-,-,-,-,-,-,-], o, ..."
    return WrongCall(
        Finding(Category.WRONG_VALUE, LEFT, SECRET, asked=f"{call}({board})"),
        (Finding(Category.RIGHT, LEFT, "yes", asked=f"terminal_state({board})"),),
        3, clause=f"{call}(State, Player, Value) :- ...", checks=checks, work=WALKED)


def result(wrong: int = 0, first_wrong: WrongCall | None = None) -> CheckResult:
    made = CheckResult(first_wrong=first_wrong, work=100.0 + (WALKED if first_wrong else 0.0))
    made.add(START, "q(...)", Verdict(Category.RIGHT), False)
    for _ in range(wrong):
        made.add(START, "minimax_decision([-,-,-,-,-,-,-,-,-], x, ...)",
                 Verdict(Category.WRONG_VALUE, "answers [x,1], value 0"), False)
    return made


def graded(visibility: dict[str, str], **results: CheckResult) -> SubmissionGrade:
    grade = SubmissionGrade("ada", LoadReport(containment="bwrap"), checks=results)
    grade.score = assignment_from(assignment(**visibility), "prolog",
                                  PrologInterface.checks).score(grade)
    return grade


def hidden_max_value() -> SubmissionGrade:
    """minimax_decision shown, wrong, its walk gone down into max_value, which is hidden."""
    return graded({"max_value": "hidden"},
                  minimax_decision=result(1, walked("max_value", "terminal_state")),
                  max_value=result(2, walked("terminal_state", "min_value")),
                  terminal_state=result())


def student_texts(grade: SubmissionGrade) -> dict[str, str]:
    """Everything a student may read of `grade`, by where they read it."""
    assert grade.score is not None
    shown = Graded([grade], student_view=True)
    scores = gradescope.results(grade, grade.score)
    return {
        "report": submission_report(student_view(grade)),
        "summary": summary(shown),
        "csv": gradebook_csv(shown.shown, shown.columns),
        "json": json.dumps(class_json(shown)),
        "prairielearn": json.dumps(prairielearn.results(grade, grade.score)),
        "github": json.dumps(github_classroom.results(grade, grade.score)),
        "junit": junit_xml([grade]),
        "gradescope, shown now": json.dumps(
            {**scores, "tests": [test for test in scores["tests"]
                                 if test["visibility"] == "visible"]}),
    }


def test_a_shown_checks_walk_into_a_hidden_check_is_shown_to_no_student():
    grade = hidden_max_value()
    for where, text in student_texts(grade).items():
        assert "max_value(" not in text, where
        assert SECRET not in text, where
    assert "max_value" not in student_texts(grade)["csv"]
    assert "first wrong call: max_value(" in submission_report(grade)  # the teacher's
    assert SECRET in check_text(grade, "minimax_decision")
    assert "max_value_correct" in gradebook_csv([grade], Graded([grade]).columns)
    assert student_view(grade).checks["minimax_decision"].work == 100.0  # not the walk's
    assert grade.checks["minimax_decision"].work == 100.0 + WALKED


def test_a_walk_that_asked_only_checks_shown_is_shown():
    grade = graded({"successor": "hidden"},
                   minimax_decision=result(1, walked("max_value", "terminal_state",
                                                     "min_value")),
                   successor=result(1))
    view = student_view(grade)
    assert view.checks["minimax_decision"].first_wrong == grade.checks[
        "minimax_decision"].first_wrong
    assert "first wrong call: max_value(" in submission_report(view)
    assert "successor" not in view.checks


def test_a_walk_not_known_to_have_kept_to_the_checks_shown_is_left_out_while_any_is_held():
    unknown = walked("max_value")
    unknown = WrongCall(unknown.call, unknown.below, unknown.asked, clause=unknown.clause)
    assert unknown.checks is None  # as read from a JSON written before walks kept them
    held = graded({"successor": "hidden"}, minimax_decision=result(1, unknown))
    assert student_view(held).checks["minimax_decision"].first_wrong is None
    shown = graded({}, minimax_decision=result(1, unknown))
    assert student_view(shown).checks["minimax_decision"].first_wrong is unknown


@pytest.mark.parametrize(("released", "walk_shown"), [
    ("visible", False), ("after_due_date", True), ("after_published", True)])
def test_a_gradescope_test_shows_a_walk_into_checks_released_no_later_than_itself(
        released, walk_shown):
    grade = graded({"minimax_decision": released, "max_value": "after_due_date",
                    "min_value": "after_published"},
                   minimax_decision=result(1, walked("max_value", "terminal_state")))
    assert grade.score is not None
    tests = {test["name"]: test for test in gradescope.results(grade, grade.score)["tests"]}
    assert tests["minimax_decision"]["visibility"] == released
    assert (SECRET in tests["minimax_decision"]["output"]) is walk_shown
    assert "minimax_decision([-,-,-,-,-,-,-,-,-], x, ...)" in tests["minimax_decision"]["output"]


def test_a_student_views_status_counts_only_the_checks_it_shows():
    wrong_where_hidden = graded({"max_value": "hidden"}, max_value=result(2),
                                terminal_state=result())
    assert Graded([wrong_where_hidden]).status == 1
    assert Graded([wrong_where_hidden], student_view=True).status == 0
    wrong_where_shown = hidden_max_value()
    assert Graded([wrong_where_shown], student_view=True).status == 1


def test_grade_student_view_exits_by_what_it_shows(tmp_path: Path, monkeypatch, capsys):
    from minimax_lab.logic.commands.cli import main

    monkeypatch.setattr(sandbox, "bwrap_works", lambda: True)
    monkeypatch.setattr(cgroups, "version", lambda: "v2")
    monkeypatch.setattr(pipeline, "configure", lambda settings, assignment, paths: Options(
        PrologInterface(), PREDICATES))
    monkeypatch.setattr(pipeline, "grade_class", lambda paths, options, jobs, done, names: [
        graded({"max_value": "hidden"}, max_value=result(2), terminal_state=result())])
    (tmp_path / "ada.pl").write_text("")
    assert main(["grade", str(tmp_path / "ada.pl")]) == 1
    assert main(["grade", "--student-view", str(tmp_path / "ada.pl")]) == 0
    out, _ = capsys.readouterr()
    assert "max_value" in out.split("== ada ==")[1]  # the teacher's report
    assert "max_value" not in out.split("== ada ==")[2]  # the student's
    told = Quiet()
    run = GradingRun((tmp_path / "ada.pl",), Settings(), student_view=True)
    assert grade_run(run, told).status == 0
