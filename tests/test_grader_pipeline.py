"""A class graded from start to end (`compare.grader.pipeline`), the grading itself stood in for
by grades built here: an interrupt keeps what was graded (shown and written) and goes on; a
run that cannot start still gives the platforms their results; nothing is graded before every
output is known to be writable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compare.grader import pipeline
from compare.grader.config import Settings
from compare.grader.graded import Graded
from compare.grader.interface import Options
from compare.grader.pipeline import GradingError, GradingRun, Quiet, grade_run
from compare.grader.python_interfaces import CS50Interface
from compare.judge.categories import Category
from compare.judge.results import CheckResult, SubmissionGrade, Verdict
from logic.contain.harness import LoadReport
from logic.errors import LabError


class Watched(Quiet):
    """What a front end would have shown."""

    def __init__(self) -> None:
        super().__init__()
        self.shown: list[Graded] = []

    def show(self, graded: Graded) -> None:
        self.shown.append(graded)


def right(name: str) -> SubmissionGrade:
    result = CheckResult()
    result.add(("xxxoo----", "o"), "winner(xxxoo----)", Verdict(Category.RIGHT), True)
    return SubmissionGrade(name, LoadReport(), checks={"winner": result})


@pytest.fixture
def cs50(monkeypatch):
    """Options as for CS50's `winner`, whatever is installed."""
    monkeypatch.setattr(pipeline, "configure", lambda settings, assignment, paths: Options(
        CS50Interface(), ("winner",)))


def class_of(tmp_path: Path, *names: str) -> tuple[Path, ...]:
    for name in names:
        (tmp_path / f"{name}.py").write_text("")
    return tuple(tmp_path / f"{name}.py" for name in names)


def test_an_interrupt_keeps_what_was_graded_then_goes_on(tmp_path, monkeypatch, cs50):
    def interrupted(paths, options, jobs, done, names):
        done(right(names[0]))
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "grade_class", interrupted)
    told = Watched()
    run = GradingRun(class_of(tmp_path, "ada", "bob"), Settings(), jobs=1, outputs={
        "json": tmp_path / "class.json", "csv": tmp_path / "grades.csv"})
    with pytest.raises(KeyboardInterrupt):
        grade_run(run, told)
    assert "interrupted: 1 submissions graded; their results are kept" in told.said
    assert [grade.name for grade in told.shown[0].grades] == ["ada"]
    report = json.loads((tmp_path / "class.json").read_text())
    assert [sub["name"] for sub in report["submissions"]] == ["ada"]
    assert (tmp_path / "grades.csv").read_text().splitlines()[1].startswith("ada,ok,1,1,0,")


def test_a_run_that_cannot_start_still_gives_the_platforms_their_results(tmp_path,
                                                                          monkeypatch):
    def refused(settings, assignment, paths):
        raise LabError("grade needs SWI-Prolog")

    monkeypatch.setattr(pipeline, "configure", refused)
    run = GradingRun(class_of(tmp_path, "ada"), outputs={"gradescope": tmp_path / "gs",
                                                         "csv": tmp_path / "grades.csv"})
    with pytest.raises(LabError, match="grade needs SWI-Prolog"):
        grade_run(run, Quiet())
    results = json.loads((tmp_path / "gs" / "results.json").read_text())
    assert results["score"] == 0
    assert "the grader could not start: grade needs SWI-Prolog" in results["tests"][0]["output"]
    assert not (tmp_path / "grades.csv").exists()  # a gradebook of nobody is no gradebook


def test_files_that_are_no_submission_are_noted_and_nothing_left_is_an_error(tmp_path, cs50):
    (tmp_path / "notes.txt").write_text("mine")
    told = Quiet()
    run = GradingRun((tmp_path / "notes.txt",), outputs={"gradescope": tmp_path / "gs"})
    with pytest.raises(GradingError, match="nothing to grade: no cs50 submission"):
        grade_run(run, told)
    assert told.said == ["note: notes.txt is not a submission (.py, or a folder): left out"]
    assert "nothing to grade" in (tmp_path / "gs" / "results.json").read_text()


def test_nothing_is_graded_before_every_output_is_known_writable(tmp_path, monkeypatch, cs50):
    monkeypatch.setattr(pipeline, "grade_class", lambda *args, **kwargs: pytest.fail("graded"))
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "my notes.txt").write_text("the teacher's")
    paths = class_of(tmp_path, "ada")
    with pytest.raises(LabError, match="holds files grade did not write"):
        grade_run(GradingRun(paths, outputs={"reports": reports}), Quiet())
    with pytest.raises(LabError, match="cannot write"):
        grade_run(GradingRun(paths, outputs={"csv": tmp_path / "none" / "g.csv"}), Quiet())
    assert (reports / "my notes.txt").read_text() == "the teacher's"
