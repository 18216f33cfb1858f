"""A class graded from start to end (`compare.grader.pipeline`), the grading itself stood in for
by grades built here: an interrupt keeps what was graded (shown and written) and goes on; a
run that cannot start still gives the platforms their results; nothing is graded before every
output is known to be writable."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import tempfile
from pathlib import Path

import pytest

from minimax_lab.compare.grader import pipeline
from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.python_interfaces import CS50Interface
from minimax_lab.compare.grader.options.config import Settings
from minimax_lab.compare.grader.outputs.graded import Graded
from minimax_lab.compare.grader.pipeline import GradingError, GradingRun, Quiet, grade_run
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.results import CheckResult, SubmissionGrade, Verdict
from minimax_lab.logic.contain import cgroups, sandbox
from minimax_lab.logic.contain.loading import LoadReport
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import quoted


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
def contained(monkeypatch):
    """A machine where bwrap contains the submissions and cgroups count them."""
    monkeypatch.setattr(sandbox, "bwrap_works", lambda: True)
    monkeypatch.setattr(cgroups, "version", lambda: "v2")


@pytest.fixture
def cs50(monkeypatch, contained):
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
    assert (tmp_path / "grades.csv").read_text().splitlines()[1].startswith(
        "ada,ada,ada,ok,1,1,0,")


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


# --- where bwrap cannot contain the class --------------------------------------------------------

@pytest.fixture
def no_bwrap(monkeypatch):
    """A machine without a working bwrap (cgroups or not), where grading, if it starts, gives
    every submission one right answer."""
    monkeypatch.setattr(sandbox, "bwrap_works", lambda: False)
    monkeypatch.setattr(cgroups, "version", lambda: "v2")
    graded: list[str] = []

    def grading(paths, options, jobs, done, names):
        graded.extend(names)
        return [right(name) for name in names]

    monkeypatch.setattr(pipeline, "grade_class", grading)
    return graded


def test_a_class_is_not_graded_where_bwrap_cannot_contain_it(tmp_path, no_bwrap):
    told = Quiet()
    run = GradingRun(class_of(tmp_path, "ada"), Settings(interface="cs50"),
                     outputs={"gradescope": tmp_path / "gs"})
    with pytest.raises(GradingError, match=r"no working bwrap .*give --unsandboxed"):
        grade_run(run, told)
    assert no_bwrap == []
    results = json.loads((tmp_path / "gs" / "results.json").read_text())
    assert results["score"] == 0
    assert "the grader could not start: no working bwrap" in results["tests"][0]["output"]


@pytest.mark.parametrize("where", ["given", "assignment file"])
def test_unsandboxed_grades_all_the_same_and_warns(tmp_path, no_bwrap, where):
    assignment = tmp_path / "lab.toml"
    assignment.write_text('interface = "cs50"\nunsandboxed = true\n')
    told = Quiet()
    run = (GradingRun(class_of(tmp_path, "ada"), Settings(interface="cs50", unsandboxed=True))
           if where == "given" else
           GradingRun(class_of(tmp_path, "ada"), Settings(), assignment=str(assignment)))
    graded = grade_run(run, told)
    assert no_bwrap == ["ada"] and graded.status == 0
    assert told.said == [pipeline.UNSANDBOXED]


def test_the_roster_names_each_student_and_a_submission_it_does_not_name_is_noted(
        tmp_path, no_bwrap):
    roster = tmp_path / "roster.csv"
    roster.write_text("folder,id,name\nada,s001,Ada Lovelace\n")
    told = Quiet()
    run = GradingRun(class_of(tmp_path, "ada", "bob"), Settings(interface="cs50",
                                                                 unsandboxed=True),
                     outputs={"canvas": tmp_path / "canvas.csv"}, roster=str(roster))
    graded = grade_run(run, told)
    assert told.said == [pipeline.UNSANDBOXED, f"note: not in the roster {quoted(str(roster))}: "
                         "bob (each one's id is its name)"]
    assert [graded.student(grade).id for grade in graded.grades] == ["s001", "bob"]
    rows = (tmp_path / "canvas.csv").read_text().splitlines()
    assert rows[0] == "Student,ID,SIS User ID,SIS Login ID,Section,CS50 AI tic-tac-toe"
    assert rows[1:] == ["Ada Lovelace,,s001,,,", "bob,,bob,,,"]  # no score: nothing possible


def test_a_given_false_overrides_the_assignment_files_unsandboxed(tmp_path, no_bwrap):
    assignment = tmp_path / "lab.toml"
    assignment.write_text('interface = "cs50"\nunsandboxed = true\n')
    run = GradingRun(class_of(tmp_path, "ada"), Settings(unsandboxed=False),
                     assignment=str(assignment))
    with pytest.raises(GradingError, match="no working bwrap"):
        grade_run(run, Quiet())
    assert no_bwrap == []


def test_where_no_cgroup_counts_reaped_children_the_run_says_so(tmp_path, no_bwrap,
                                                                   monkeypatch):
    monkeypatch.setattr(sandbox, "bwrap_works", lambda: True)
    monkeypatch.setattr(cgroups, "version", lambda: None)
    told = Quiet()
    grade_run(GradingRun(class_of(tmp_path, "ada"), Settings(interface="cs50")), told)
    assert told.said == [pipeline.NO_CGROUPS]
    assert no_bwrap == ["ada"]


def test_the_command_line_refuses_without_bwrap_and_grades_when_told_unsandboxed(
        tmp_path, no_bwrap, capsys):
    from minimax_lab.logic.commands.cli import main

    (ada,) = class_of(tmp_path, "ada")
    assert main(["grade", "--interface", "cs50", str(ada)]) == 2
    out, err = capsys.readouterr()
    assert no_bwrap == [] and out == ""
    assert err.startswith("minimax-lab: error: no working bwrap (Debian package bubblewrap)")
    assert err.count("\n") == 1
    assert main(["grade", "--interface", "cs50", "--unsandboxed", str(ada)]) == 0
    out, err = capsys.readouterr()
    assert no_bwrap == ["ada"]
    assert err == f"grade: {pipeline.UNSANDBOXED}\n"


NO_USERNS = ("bwrap: No permissions to creating new namespace, likely because the kernel does "
             "not allow non-privileged user namespaces. On e.g. debian this can be enabled with "
             "'sysctl kernel.unprivileged_userns_clone=1'.")
"""What bwrap 0.8 says where it may not make a user namespace."""


@pytest.fixture
def failing_bwrap(tmp_path, monkeypatch):
    """A `bwrap` first on the PATH that fails as the real one does where no user namespace
    can be made (in a folder any user may read: root's probe runs it as a sandbox's user);
    the kernel settings read from `settings` (a folder in /proc/sys's layout)."""
    fake = Path(tempfile.mkdtemp(prefix="fake-bwrap-"))
    fake.chmod(0o755)
    (fake / "bwrap").write_text(f"#!/bin/sh\necho {shlex.quote(NO_USERNS)} >&2\nexit 1\n")
    (fake / "bwrap").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ['PATH']}")
    settings = tmp_path / "sys"
    monkeypatch.setattr(sandbox, "PROC_SYS", settings)
    sandbox.bwrap_trouble.cache_clear()
    try:
        yield settings
    finally:
        sandbox.bwrap_trouble.cache_clear()
        shutil.rmtree(fake)


@pytest.mark.parametrize(("setting", "value", "named"), [
    ("kernel/unprivileged_userns_clone", "0",
     "unprivileged user namespaces are off (sysctl kernel.unprivileged_userns_clone=0)"),
    ("user/max_user_namespaces", "0",
     "user namespaces are off (sysctl user.max_user_namespaces=0)"),
    ("kernel/apparmor_restrict_unprivileged_userns", "1",
     "AppArmor restricts unprivileged user namespaces "
     "(sysctl kernel.apparmor_restrict_unprivileged_userns=1)"),
    ("user/max_user_namespaces", "15000",  # allowed by the kernel: the container withholds it
     "this process may not (a container's seccomp profile, Docker's default among them, "
     "allows it only with CAP_SYS_ADMIN)"),
])
def test_where_bwrap_cannot_make_namespaces_grade_names_what_is_missing_in_one_line(
        tmp_path, failing_bwrap, capsys, setting, value, named):
    from minimax_lab.logic.commands.cli import main

    (failing_bwrap / setting).parent.mkdir(parents=True)
    (failing_bwrap / setting).write_text(f"{value}\n")
    (ada,) = class_of(tmp_path, "ada")
    assert main(["grade", "--interface", "cs50", str(ada)]) == 2
    out, err = capsys.readouterr()
    (line,) = err.splitlines()
    assert out == "" and line.startswith(
        "minimax-lab: error: no working bwrap (Debian package bubblewrap) to contain the "
        f"submissions: it cannot make user namespaces: {named} (bwrap: No permissions to "
        "creating new namespace);")
    assert line.endswith("or give --unsandboxed for programs you trust")


@pytest.mark.parametrize(("said", "settings", "trouble"), [
    ("bwrap: Creating new namespace failed: No space left on device", {},
     "it cannot make user namespaces: their limit is reached (sysctl user.max_user_namespaces)"),
    ("bwrap: Can't mount proc on /newroot/proc: Operation not permitted",
     {"user.max_user_namespaces": "15000"},
     "it cannot mount a /proc of its own: the container's /proc is masked, or its AppArmor "
     "profile forbids mounts"),
    ("bwrap: Failed to make / slave: Permission denied", {},
     "it cannot mount in its namespaces: a container's AppArmor or seccomp profile forbids it"),
    ("bwrap: Can't find source path /nowhere: No such file or directory",
     {"kernel.unprivileged_userns_clone": "0"},  # not a refusal: the setting is not the cause
     "it failed"),
])
def test_bwraps_own_error_tells_which_capability_is_missing(said, settings, trouble):
    words = said.removeprefix("bwrap: ")
    assert sandbox.namespace_trouble(said, settings.get) == f"{trouble} (bwrap: {words})"


def test_the_api_refuses_without_bwrap_and_grades_when_told_unsandboxed(tmp_path, no_bwrap):
    from minimax_lab.logic import api

    (ada,) = class_of(tmp_path, "ada")
    with pytest.raises(LabError, match="no working bwrap"):
        api.grade(ada, interface="cs50")
    assert no_bwrap == []
    graded = api.grade(ada, interface="cs50", unsandboxed=True)
    assert no_bwrap == ["ada"] and graded.clean
    assert graded.notes == (pipeline.UNSANDBOXED,)


# --- progress where nobody watches a terminal ---------------------------------------------------

def test_a_redirected_run_writes_each_submission_as_it_is_graded(tmp_path, monkeypatch, cs50):
    """Standard error a file: ada's line is in it, flushed, before bob's grading ends."""
    from minimax_lab.compare.grader.running import run as running
    from minimax_lab.logic.commands.cli import main

    log = tmp_path / "grade.log"
    seen: dict[str, str] = {}

    def one(name, path, options, watch):
        seen[name] = log.read_text()  # what a reader of the log has when it ends
        return right(name)

    monkeypatch.setattr(pipeline, "grade_class", lambda *args, **kwargs: running.grade_class(
        *args, **kwargs, grade_one=one))
    paths = class_of(tmp_path, "ada", "bob")
    with log.open("w") as stream:  # buffered, as a redirected stderr is
        monkeypatch.setattr("sys.stderr", stream)
        assert main(["grade", *map(str, paths), "--jobs", "1"]) == 0
    assert seen["ada"] == ""
    assert seen["bob"] == "grading 1/2: ada: all right (0.0 s)\n"
    assert log.read_text().splitlines() == ["grading 1/2: ada: all right (0.0 s)",
                                            "grading 2/2: bob: all right (0.0 s)"]


def test_on_a_terminal_the_bar_counts_and_no_line_is_written():
    import io

    from minimax_lab.logic.commands.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen, log = Terminal(), io.StringIO()
    for stream in (screen, log):
        progress = Progress("grading", 2, stream=stream, interval=None)
        progress.advance()
        progress.told("grading 1/2: ada: all right (0.0 s)")
        progress.close()
    assert screen.getvalue() == "" and progress.done == 1
    assert log.getvalue() == "grading 1/2: ada: all right (0.0 s)\n"
