"""A determined student's attacks on the grader, each as it was tried: links to the grader's
files, a classmate's or root's; devices; the harness redefined, read or escaped; work hidden
in threads and children; a class run stopped or stalled. Each attacker gets no credit it did
not earn, its classmates' grades are those of a class without it, the reports are whole and
strict JSON, and nothing is left on disk or running."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import pytest
from installed import install_grader
from marks import few_by_default, needs_bwrap, needs_swipl
from sampled import SampledPrologInterface

from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.prolog import CHECKS
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface
from minimax_lab.compare.grader.interfaces.python_interfaces import CS50Interface
from minimax_lab.compare.grader.options.config import WorkLimits
from minimax_lab.compare.grader.outputs.text import submission_report
from minimax_lab.compare.grader.running.hosted import Sample
from minimax_lab.compare.grader.running.run import grade_class, grade_submission
from minimax_lab.compare.judge.categories import Category
from minimax_lab.logic.commands.cli import main
from minimax_lab.logic.contain import cgroups, sandbox, submission
from minimax_lab.logic.contain.contained import MOST_STARTS, ProgramError
from minimax_lab.logic.contain.harness import StudentProgram
from minimax_lab.logic.contain.python_program import course_python, sandboxed_python
from minimax_lab.logic.positions import reachable_states
from minimax_lab.logic.state import PLAYERS, is_terminal, to_prolog

SUBMISSIONS = Path(__file__).parent / "submissions"
PYTHON = SUBMISSIONS / "python"
ROOT = Path(__file__).resolve().parent.parent
STATES = sorted(reachable_states(PLAYERS[0]) | reachable_states(PLAYERS[1]))
UNFINISHED = 2 * sum(not is_terminal(state) for state in STATES)
"""terminal_state's questions on unfinished boards, where failing is the right answer."""

needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="sandboxes have users of their own "
                                "and cgroups only when the grader runs as root")
needs_cgroups = pytest.mark.skipif(cgroups.version() is None,
                                   reason="this machine gives the grader no cgroup")

WRAPS_THE_LAB = """\
:- load_files(solution:'facts/game.pl', [silent(true)]).
:- load_files(solution:'grader/lab_tabled.pl', [silent(true)]).
terminal_state(S, P, V) :- solution:terminal_state(S, P, V).
minimax_decision(S, P, A, V) :- solution:minimax_decision(S, P, A, V).
"""

CS50_RIGHT = (PYTHON / "cs50_right.py").read_text()


def prolog(checks: tuple[str, ...], **options: object) -> Options:
    return Options(PrologInterface(), checks=checks, budget=120, **options)


def sampled(checks: tuple[str, ...]) -> Options:
    """As `prolog`, asking only the even spread of questions a host's check asks (`Sample`),
    where what a test shows holds of every question asked."""
    return Options(SampledPrologInterface(), checks=checks, budget=120)


SMALL_BUDGET = WorkLimits(budget_ratio=0.01)
"""A budget that busy work spends in a second or two: programs compared under it spend it
alike."""


def cs50(checks: tuple[str, ...], **options: object) -> Options:
    return Options(CS50Interface(), checks=checks, budget=120, **options)


def notes(grade) -> str:
    return "\n".join(str(message) for message in grade.load.messages)


@pytest.fixture
def own_tmp(monkeypatch):
    """A temporary folder for this test's workspaces alone (every user may pass through it,
    as a sandbox's user must)."""
    folder = Path(tempfile.mkdtemp(prefix="attacks-", dir="/tmp"))
    folder.chmod(0o755)
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


# --- a submission is data ----------------------------------------------------------------------

@needs_swipl
def test_links_to_the_graders_prolog_and_facts_are_not_taken_and_earn_nothing(tmp_path):
    folder = tmp_path / "sly"
    folder.mkdir()
    (folder / "grader").symlink_to(ROOT / "logic" / "prolog")
    (folder / "facts").symlink_to(ROOT / "facts")
    (folder / "minimax.pl").write_text(WRAPS_THE_LAB)
    grade = grade_submission("sly", folder, sampled(("terminal_state", "minimax_decision")))
    for check in ("minimax_decision", "terminal_state"):  # every call into `solution` refused
        assert grade.checks[check].correct == 0 < grade.checks[check].checked
    said = notes(grade)
    assert "warning at grader: a symbolic link, not taken" in said
    assert "warning at facts: a symbolic link, not taken" in said


@pytest.mark.slow
@needs_swipl
def test_links_at_the_gradescope_zips_own_paths_earn_nothing(tmp_path):
    assignment = tmp_path / "quick.toml"
    assignment.write_text("[checks.terminal_state]\npoints = 10\n")
    autograder = tmp_path / "autograder.zip"
    assert main(["autograder", "gradescope", "--assignment", str(assignment), "--out",
                 str(autograder)]) == 0
    root = tmp_path / "autograder"
    with zipfile.ZipFile(autograder) as archive:
        archive.extractall(root / "source")
    source, handed_in = root / "source" / "minimax-lab", root / "submission"
    handed_in.mkdir()
    (handed_in / "grader").symlink_to(source / "logic" / "prolog")
    (handed_in / "facts").symlink_to(source / "facts")
    (handed_in / "minimax.pl").write_text(WRAPS_THE_LAB)
    run = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")], capture_output=True, text=True,
        timeout=300, cwd=tmp_path,
        env={**os.environ, "AUTOGRADER_ROOT": str(root), "MINIMAX_LAB_PYTHON": sys.executable})
    assert run.returncode == 0, run.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == 0
    assert "grader: a symbolic link, not taken" in json.dumps(results)


@needs_bwrap
def test_a_link_to_the_graders_python_packages_is_not_taken(tmp_path):
    folder = tmp_path / "sly"
    folder.mkdir()
    (folder / "logic").symlink_to(ROOT / "logic")
    (folder / "tictactoe.py").write_text(
        "from logic import reference\n" + CS50_RIGHT.replace("def minimax(board):", (
            "def minimax(board):\n    return _minimax(board)\n\n\ndef _minimax(board):")))
    grade = grade_submission("sly", folder, cs50(("minimax",)))
    assert grade.checks["minimax"].correct == 0
    assert "warning at logic: a symbolic link, not taken" in notes(grade)
    assert "No module named 'logic'" in grade.load.problem


@needs_bwrap
def test_a_link_to_a_classmate_earns_nothing_and_the_classmate_keeps_their_grade(tmp_path):
    alice, mallory = tmp_path / "alice", tmp_path / "mallory"
    alice.mkdir()
    mallory.mkdir()
    (alice / "tictactoe.py").write_text(CS50_RIGHT)
    (mallory / "peer").symlink_to("../alice")
    (mallory / "tictactoe.py").write_text("from peer.tictactoe import *\n")
    alone = grade_class([alice], cs50(("winner",)), jobs=1)
    both = grade_class([alice, mallory], cs50(("winner",)), jobs=2)
    assert both[0].checks["winner"].correct == alone[0].checks["winner"].correct == 5478
    assert both[1].checks["winner"].correct == 0
    assert "warning at peer: a symbolic link, not taken" in notes(both[1])


@needs_swipl
def test_links_to_root_only_files_and_devices_are_not_read(tmp_path, own_tmp):
    folder = tmp_path / "prying"
    folder.mkdir()
    (folder / "shadow").symlink_to("/etc/shadow")
    (folder / "zero").symlink_to("/dev/zero")
    (folder / "zero.pl").symlink_to("/dev/zero")
    os.mkfifo(folder / "pipe")
    (folder / "minimax.pl").write_text(
        ":- read_file_to_string(shadow, S, []), print(S).\n"
        "terminal_state(_, _, 0).\n")
    grade = grade_submission("prying", folder, sampled(("terminal_state",)))
    said = notes(grade) + grade.load.output + "\n".join(grade.log)
    for name, why in (("shadow", "a symbolic link"), ("zero", "a symbolic link"),
                      ("zero.pl", "a symbolic link"), ("pipe", "a named pipe (FIFO)")):
        assert f"warning at {name}: {why}, not taken" in said
    if os.path.exists("/etc/shadow") and os.access("/etc/shadow", os.R_OK):
        secret = Path("/etc/shadow").read_text().splitlines()[0]
        assert secret not in said
    assert list(own_tmp.iterdir()) == []  # its workspace removed


def test_a_submission_past_its_caps_is_refused_before_any_file_is_read(tmp_path):
    deep = tmp_path / "deep"
    folder = deep
    for _ in range(submission.DEFAULT_CAPS.depth + 2):
        folder = folder / "d"
    folder.mkdir(parents=True)
    (folder / "minimax.pl").write_text("x.\n")
    with pytest.raises(submission.Refused, match="nest deeper than"):
        submission.take([deep])
    many = tmp_path / "many"
    many.mkdir()
    for number in range(submission.DEFAULT_CAPS.files + 1):
        (many / f"f{number}.txt").write_text("")
    with pytest.raises(submission.Refused, match="more than 1000 files"):
        submission.take([many], submission.Caps(files=1000))
    large = tmp_path / "large"
    large.mkdir()
    (large / "big.pl").write_bytes(b"%" * 2048)
    with pytest.raises(submission.Refused, match="more than 1024 bytes"):
        submission.take([large], submission.Caps(total_bytes=1024))


@needs_root
def test_root_copies_a_students_folder_as_the_student(tmp_path):
    student = 61999  # no one's uid: a student's, as root sees their folder
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "minimax.pl").write_text("mine.\n")
    secret = tmp_path / "root-only.txt"
    secret.write_text("root's\n")
    secret.chmod(0o600)
    os.link(secret, folder / "hard.txt")  # a hard link: a regular file, root's to read
    tmp_path.chmod(0o755)
    for path in (folder, folder / "minimax.pl"):
        os.chown(path, student, student)
    taken = submission.take([folder])
    try:
        assert taken.files == ("minimax.pl",)
        assert ("hard.txt", "cannot be read (Permission denied)") in taken.skipped
        assert not (taken.folder / "hard.txt").exists()
    finally:
        submission.remove_tree(taken.folder)


@needs_root
def test_root_copies_no_hard_link_from_a_folder_it_owns(tmp_path):
    folder = tmp_path / "extracted"  # as root extracts an archive: root's own
    folder.mkdir()
    (folder / "minimax.pl").write_text("mine.\n")
    secret = tmp_path / "root-only.txt"
    secret.write_text("root's\n")
    secret.chmod(0o600)
    os.link(secret, folder / "hard.txt")
    taken = submission.take([folder])
    try:
        assert taken.files == ("minimax.pl",)
        assert ("hard.txt", "a hard link to a file elsewhere") in taken.skipped
    finally:
        submission.remove_tree(taken.folder)


def test_a_tree_of_any_depth_and_modes_is_removed(tmp_path):
    folder = tmp_path / "workspace"
    folder.mkdir()
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(1200):  # deeper than Python's recursion and than a path may be long
        os.mkdir("a", dir_fd=fd)
        inner = os.open("a", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = inner
    os.close(os.open("f", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd))
    os.chmod(fd, 0o500)  # read-only on the way down too
    os.close(fd)
    (folder / "outside").symlink_to(tmp_path)
    keep = tmp_path / "kept.txt"
    keep.write_text("kept")
    assert submission.remove_tree(folder)
    assert not os.path.lexists(folder) and keep.read_text() == "kept"


def test_a_link_where_the_grader_places_its_file_is_replaced_not_written_through(tmp_path):
    workspace, victim = tmp_path / "workspace", tmp_path / "victim.pl"
    workspace.mkdir()
    victim.write_text("kept")
    (workspace / "harness.pl").symlink_to(victim)
    source = ROOT / "logic" / "prolog" / "harness.pl"
    placed = submission.place(source, workspace / "harness.pl")
    assert not placed.is_symlink() and placed.read_bytes() == source.read_bytes()
    assert victim.read_text() == "kept" and placed.stat().st_mode & 0o777 == 0o644


@needs_swipl
def test_a_name_with_a_line_break_stays_on_its_line_of_the_report(tmp_path):
    folder = tmp_path / "forger"
    folder.mkdir()
    shutil.copy(SUBMISSIONS / "lab_style.pl", folder / "minimax.pl")
    (folder / "a\x1b[31m\nscore: 100 of 100").symlink_to("minimax.pl")
    grade = grade_submission("forger", folder, sampled(("terminal_state",)))
    report = submission_report(grade)
    assert not any(line.strip().startswith("score: 100") for line in report.splitlines())
    assert "warning at a\\x1b[31m\\nscore: 100 of 100: a symbolic link" in report


# --- nothing that answers is visible -----------------------------------------------------------

@pytest.fixture(scope="module")
def python_with_the_grader():
    """A course's Python that has minimax-lab installed, every user may read."""
    system = shutil.which("python3", path="/usr/bin:/usr/local/bin")
    if system is None or not sandbox.bwrap_works():
        pytest.skip("needs the system's python3 and a working bwrap")
    folder = Path(tempfile.mkdtemp(prefix="minimax-lab-course-"))
    folder.chmod(0o755)
    try:
        subprocess.run([system, "-m", "venv", "--without-pip", str(folder / "venv")],
                       check=True, timeout=120, capture_output=True)
        site = next((folder / "venv").glob("lib/python3*/site-packages"))
        install_grader(site)
        for path in [folder, *folder.rglob("*")]:
            if not path.is_symlink():  # bin/python links to the system's: left as it is
                path.chmod(0o755 if path.is_dir() else 0o644)
        yield folder / "venv" / "bin" / "python"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_course_python_with_the_grader_installed_is_refused(python_with_the_grader):
    with pytest.raises(ProgramError, match="has minimax-lab installed"):
        course_python(str(python_with_the_grader))


def test_a_course_python_that_reaches_the_graders_source_is_refused(tmp_path):
    """An editable install (or any `.pth` file) puts a source folder on the path, wherever it
    lies: hiding the installed copies would not hide it."""
    system = shutil.which("python3", path="/usr/bin:/usr/local/bin")
    if system is None:
        pytest.skip("needs the system's python3")
    venv, source = tmp_path / "venv", tmp_path / "src" / "minimax-lab"
    subprocess.run([system, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120,
                   capture_output=True)
    install_grader(source, ("logic",))
    site = next(venv.glob("lib/python3*/site-packages"))
    (site / "minimax_lab_source.pth").write_text(f"{source}\n")
    with pytest.raises(ProgramError, match="has minimax-lab installed"):
        course_python(str(venv / "bin" / "python"))


# --- work counted where the student cannot reach it --------------------------------------------

BUSY = """
busy(0) :- !.
busy(N) :- M is N - 1, busy(M).
"""


def lab_style_with(tmp_path: Path, name: str, prelude: str, before_terminal: str) -> Path:
    source = (SUBMISSIONS / "lab_style.pl").read_text().replace(
        "terminal_state(State, Player, Value) :-\n",
        f"terminal_state(State, Player, Value) :-\n    {before_terminal},\n", 1)
    path = tmp_path / f"{name}.pl"
    path.write_text(source + BUSY + prelude)
    return path


@pytest.fixture(scope="module")
def openly(tmp_path_factory):
    """The lab's style, busy before each terminal_state, graded on it within `SMALL_BUDGET`:
    what each attack on the inference limit is compared with."""
    path = lab_style_with(tmp_path_factory.mktemp("openly"), "openly", "", "busy(600000)")
    return grade_submission(path.stem, path, prolog(("terminal_state",), work=SMALL_BUDGET))


@needs_swipl
def test_a_caught_inference_limit_still_counts_as_the_limit(tmp_path, openly):
    caught = lab_style_with(tmp_path, "caught", "", "catch(busy(600000), _, true)")
    graded = [openly, grade_submission(caught.stem, caught,
                                       prolog(("terminal_state",), work=SMALL_BUDGET))]
    counts = [grade.checks["terminal_state"].counts for grade in graded]
    assert counts[0][Category.INFERENCE_LIMIT] > 0
    assert counts[1] == counts[0]  # catching it changes nothing


@needs_swipl
@pytest.mark.parametrize("name, before_terminal, refused", few_by_default([
    ("threads", "thread_create(busy(600000), _, [detached(true)])", "thread_create"),
    ("abolishes", "abolish(harness:limited/3)", "abolish"),
    ("reads_frames",
     "prolog_current_frame(F), prolog_frame_attribute(F, parent_goal, harness:answer(_, _))",
     "prolog_current_frame"),
    ("asserts", "assertz(harness:checked(_, true))", "assert"),
    # an attribute of freeze wakes its goal when bound, and library(sandbox) checks no hook
    ("freezes", "put_attr(X, freeze, thread_create(busy(600000), _, [])), X = 1", "put_attr"),
    ("freezes_a_read", "put_attr(X, freeze, (open('/etc/passwd', read, S), close(S))), X = 1",
     "put_attr"),
    # the goal freeze/2 and when/2 keep, read from their attribute and changed in place
    ("changes_a_frozen_goal", "freeze(V, true), get_attr(V, freeze, A), "
     "setarg(2, A, busy(600000)), V = 1", "get_attr"),
    ("changes_a_when_goal", "when(nonvar(V), true), get_attr(V, when, call(A)), "
     "nb_setarg(2, A, busy(600000)), V = 1", "get_attr"),
    ("sets_an_argument", "T = f(_), setarg(1, T, busy)", "setarg"),
    # a message's ~@ calls its argument when the message is printed
    ("prints_a_message", "print_message(error, format(\"~@\", [busy(600000)]))",
     "print_message"),
    ("calls_print_message", "call(print_message, error, format(\"~@\", [busy(600000)]))",
     "print_message"),
], default=("threads", "abolishes", "reads_frames", "freezes")))
def test_a_predicate_that_could_reach_the_harness_is_refused_whole(tmp_path, name,
                                                                    before_terminal, refused):
    path = lab_style_with(tmp_path, name, "", before_terminal)
    grade = grade_submission(name, path, sampled(("terminal_state",)))
    states = grade.checks["terminal_state"]
    assert states.checked == len(Sample().select(CHECKS["terminal_state"].questions())) > 0
    assert states.correct == 0 and states.counts[Category.EXCEPTION] == states.checked
    assert all("No permission to call sandboxed" in finding.detail and refused in finding.detail
               for finding in states.findings)


@needs_swipl
@pytest.mark.parametrize("name, prelude", few_by_default([
    ("abolishes", ":- abolish(harness:limited/3).\n"),
    ("redefines", "harness:limited(_, Goal, true) :- call(Goal).\n"),
    ("hooks", "user:term_expansion(_, []).\nterm_expansion(_, []).\n"),
    ("expands", "goal_expansion(busy(_), true).\n"),
], default=("redefines",)))
def test_the_harness_cannot_be_changed_while_loading(tmp_path, openly, name, prelude):
    attack = lab_style_with(tmp_path, name, prelude, "busy(600000)")
    graded = [openly, grade_submission(attack.stem, attack,
                                       prolog(("terminal_state",), work=SMALL_BUDGET))]
    assert graded[1].checks["terminal_state"].counts == graded[0].checks["terminal_state"].counts
    assert graded[0].checks["terminal_state"].counts[Category.INFERENCE_LIMIT] > 0
    assert any(message.kind == "error" for message in graded[1].load.messages)


SECRET = "secret(666).\n"
"""A file outside the submission that no program may load."""


def loads_a_file(tmp_path: Path, directive: str, module: bool = False) -> StudentProgram:
    """A submission whose main file (a module's where `module`) loads a file by `directive`:
    its own `lib/own.pl` (a module's for use_module) or a path outside it; loaded,
    contained."""
    folder = tmp_path / "ada"
    (folder / "lib").mkdir(parents=True)
    (tmp_path / "secret.pl").write_text(SECRET)
    own = ":- module(own, [secret/1]).\n" if "use_module" in directive else ""
    (folder / "lib" / "own.pl").write_text(own + "secret(42).\n")
    head = ":- module(main, [answer/1]).\n" if module else ""
    (folder / "main.pl").write_text(f"{head}{directive}\nanswer(X) :- secret(X).\n")
    program = StudentProgram([folder], "main.pl")
    program.load()
    return program


def each_way(directives: list[str], default: int) -> list[object]:
    """Each directive in a plain main file and in a module's; the first `default` cases in the
    default run, the rest slow."""
    cases = [(directive, module) for module in (False, True) for directive in directives]
    cases.sort(key=lambda case: (directives.index(case[0]) + case[1]) % 2)
    return [pytest.param(*case, marks=() if at < default else pytest.mark.slow,
                         id=f"{case[0]}-{'module' if case[1] else 'plain'}")
            for at, case in enumerate(cases)]


@needs_swipl
@pytest.mark.parametrize(("directive", "module"), each_way([
    ":- use_module(lib/own).", ":- consult('lib/own').", ":- ensure_loaded(lib/own).",
    ":- [lib/own].", ":- include('lib/own.pl')."], 5))
def test_a_file_of_the_submissions_own_is_loaded_as_the_main_file(tmp_path, directive, module):
    program = loads_a_file(tmp_path, directive, module)
    try:
        assert program.report is not None and not program.report.messages
        reply = program.ask("answer(X)", "X", 2, 30.0, 10**6)
    finally:
        program.close()
    assert [answer.term for answer in reply.answers] == [42]


@needs_swipl
@pytest.mark.parametrize(("directive", "module"), each_way([
    ":- consult('../secret').", ":- use_module('../../etc/x').", ":- [lib/'../../secret'].",
    ":- ensure_loaded('{absolute}').", ":- include('/etc/passwd').",
    ":- load_files(solution:'../secret', []).",
], 6))
def test_a_file_outside_the_submission_is_refused_in_one_line_and_never_read(
        tmp_path, directive, module):
    directive = directive.replace("{absolute}", str(tmp_path / "secret.pl"))
    program = loads_a_file(tmp_path, directive, module)
    try:
        assert program.report is not None
        messages = [message.text for message in program.report.messages]
        reply = program.ask("answer(X)", "X", 2, 30.0, 10**6)
    finally:
        program.close()
    assert len(messages) == 1 and "\n" not in messages[0], messages
    assert messages[0].endswith("not a file of the program's own (the main file's folder): "
                                "refused")
    assert not reply.answers and reply.end == "error"


ORPHANS = (
    "def minimax(board):\n"
    "    import os, time\n"
    "    if all(cell is None for row in board for cell in row):\n"
    "        for _ in range(40):  # 8 s of CPU in orphans, each gone before the next\n"
    "            if os.fork() == 0:\n"
    "                if os.fork() == 0:\n"
    "                    os.setsid()\n"
    "                    end = time.process_time() + 0.2\n"
    "                    while time.process_time() < end:\n"
    "                        pass\n"
    "                os._exit(0)\n"
    "            os.wait()\n"
    "            time.sleep(0.25)\n")
"""CPU time spent by orphans in sessions of their own, each ended before the next starts:
only what takes in a sandbox's orphans sees it (a cgroup, a namespace's first process, or the
launcher)."""


@needs_swipl
def test_work_that_takes_cpu_time_but_few_inferences_counts_as_its_cpu_time(tmp_path):
    """The harness counts inferences inside the program, where a way past the sandbox could
    change the count; the CPU time it took, measured outside, shows the work all the same."""
    spread = Sample().select(CHECKS["terminal_state"].questions())  # the questions asked
    board = next(question.state for question in spread if not is_terminal(question.state))
    burns = lab_style_with(tmp_path, "burns", "", (
        f"( State == {to_prolog(board)} -> forall(between(1, 3, _), "
        "format(atom(_), '~*c', [10000000, 0'a])) ; true )"))
    grade = grade_submission("burns", burns, sampled(("terminal_state",)))
    states = grade.checks["terminal_state"]
    burnt = [(finding.category, finding.position) for finding in states.findings
             if finding.category is not Category.RIGHT]
    asked = [(Category.INFERENCE_LIMIT, (question.state, question.player))
             for question in spread if question.state == board]
    assert asked and sorted(burnt) == sorted(asked)
    assert states.correct == states.checked - len(asked)


@pytest.mark.slow
@needs_bwrap
@pytest.mark.parametrize("how", ["a child", "orphans", "orphans, no cgroup",
                                 "orphans, no cgroup, no bwrap"])
def test_cpu_spent_in_a_forked_child_is_counted(tmp_path, monkeypatch, how):
    if "no cgroup" in how:
        monkeypatch.setattr(cgroups, "make", lambda *limits: None)
    if "no bwrap" in how:
        monkeypatch.setattr(sandbox, "bwrap_works", lambda: False)
    program = tmp_path / "tictactoe.py"
    program.write_text(CS50_RIGHT.replace("def minimax(board):\n", ORPHANS if "orphans" in how
                                          else (
        "def minimax(board):\n"
        "    import os\n"
        "    if all(cell is None for row in board for cell in row):\n"
        "        if os.fork() == 0:\n"
        "            while True:\n"
        "                pass\n"
        "        os.wait()\n"), 1))
    work = WorkLimits(cpu_seconds=2.0, cpu_budget=900.0)
    grade = grade_submission("forks", program, cs50(("minimax",), work=work))
    minimax = grade.checks["minimax"]
    assert minimax.counts[Category.CPU_LIMIT] == 1
    assert minimax.correct == minimax.checked - 1


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_bwrap
def test_a_forged_clock_changes_no_work_and_the_json_stays_strict(tmp_path, capsys):
    program = tmp_path / "tictactoe.py"
    program.write_text("import time\ntime.process_time = lambda: float('nan')\n" + CS50_RIGHT)
    report = tmp_path / "class.json"
    main(["grade", "--interface", "cs50", "--predicates", "winner", str(program),
          "--json", str(report)])
    capsys.readouterr()

    def refuse(constant: str) -> None:
        raise ValueError(constant)

    data = json.loads(report.read_text(), parse_constant=refuse)
    (student,) = data["submissions"]
    assert 0 <= student["predicates"]["winner"]["work"] < 900


# --- resources per sandbox -----------------------------------------------------------------------

@needs_bwrap
def test_the_sandboxs_tmp_is_bounded(tmp_path):
    program = tmp_path / "tictactoe.py"
    program.write_text(
        "written = 0\n"
        "try:\n"
        "    for number in range(64):\n"
        "        with open(f'/tmp/f{number}', 'wb') as out:\n"
        "            for _ in range(16):\n"
        "                out.write(bytes(2**20))\n"
        "                written += 1\n"
        "except OSError:\n"
        "    pass\n"
        "print('wrote', written, 'MiB')\n" + CS50_RIGHT)
    grade = grade_submission("fills", program, cs50(("winner",)))
    said = grade.load.output.split()
    megabytes = int(said[said.index("wrote") + 1])
    assert megabytes <= sandbox.Limits.tmp_bytes // 2**20
    assert grade.checks["winner"].correct == 5478


@needs_bwrap
def test_nothing_but_tmp_and_dev_shm_is_writable_and_both_are_bounded(tmp_path):
    program = tmp_path / "tictactoe.py"
    program.write_text(
        "import os\n"
        "said = []\n"
        "for folder in ('/', '/dev', '/usr', '/dev/shm'):\n"
        "    written = 0\n"
        "    try:\n"
        "        with open(os.path.join(folder, 'filled'), 'wb') as out:\n"
        "            for _ in range(64):\n"
        "                out.write(bytes(2**20))\n"
        "                written += 1\n"
        "    except OSError:\n"
        "        pass\n"
        "    said.append(f'{folder}={written}')\n"
        "print(' '.join(said))\n" + CS50_RIGHT)
    grade = grade_submission("fills", program, cs50(("winner",)))
    written = dict(pair.split("=") for pair in grade.load.output.split())
    assert written == {"/": "0", "/dev": "0", "/usr": "0",
                       "/dev/shm": str(sandbox.Limits.shm_bytes // 2**20)}
    assert grade.checks["winner"].correct == 5478


FORKS = (
    "import os, time\n"
    "forked = 0\n"
    "while forked < 200:\n"
    "    try:\n"
    "        if os.fork() == 0:\n"
    "            time.sleep(30)\n"
    "            os._exit(0)\n"
    "    except OSError:\n"
    "        break\n"
    "    forked += 1\n"
    "print('forked', forked)\n")


@pytest.mark.slow
@needs_bwrap
@pytest.mark.parametrize("how", ["as it is", "no cgroup"])
def test_a_sandboxs_processes_are_capped_whatever_its_classmates_fork(tmp_path, monkeypatch,
                                                                        how):
    """The cap is the sandbox's own (a cgroup's, or the process limit inside its own user
    namespace), so a classmate forking to its cap starts all the same."""
    if how == "no cgroup":
        monkeypatch.setattr(cgroups, "make", lambda *limits: None)
    hog, honest = tmp_path / "hog", tmp_path / "honest"
    for folder, prelude in ((hog, FORKS), (honest, FORKS)):
        folder.mkdir()
        (folder / "tictactoe.py").write_text(prelude + CS50_RIGHT)
    grades = grade_class([hog, honest], cs50(("player",)), jobs=2)
    for grade in grades:
        said = grade.load.output.split()
        assert grade.load.problem is None
        assert 0 < int(said[said.index("forked") + 1]) < sandbox.Limits.processes
        assert grade.checks["player"].correct == grade.checks["player"].checked


@pytest.mark.slow
@needs_root
@needs_bwrap
def test_graded_by_a_user_without_root_a_fork_bomb_costs_no_classmate_a_start(own_tmp):
    """Run by a user of its own (no sandbox users, no cgroups), every sandbox's processes
    count against that user's limit; a sandbox's cap, set inside its own user namespace, is
    what keeps one from taking the others' room."""
    runuser, prlimit = shutil.which("runuser"), shutil.which("prlimit")
    python = shutil.which("python3", path="/usr/bin:/usr/local/bin")
    install_grader(own_tmp / "grader")  # the grader, where nobody may read it
    folders = [own_tmp / name for name in ("hog", "honest", "honest_too")]
    for folder in folders:
        folder.mkdir()
        (folder / "tictactoe.py").write_text((FORKS if folder.name == "hog" else "")
                                             + CS50_RIGHT)
    for path in [own_tmp, *own_tmp.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    out = own_tmp / "out"
    out.mkdir(mode=0o777)
    out.chmod(0o777)
    as_nobody = [runuser or "runuser", "-u", "nobody", "--", "env",
                 f"PYTHONPATH={own_tmp / 'grader'}", python or "python3"]
    probe = subprocess.run([*as_nobody, "-c", "import sys, minimax_lab; assert sys.version_info >= "
                            "(3, 11)"], cwd="/", capture_output=True, timeout=60)
    if runuser is None or prlimit is None or python is None or probe.returncode != 0:
        pytest.skip("needs runuser, prlimit and a system Python 3.11+ that nobody may run")
    # room for the grader and two sandboxes, but not for a sandbox that forks all it can
    done = subprocess.run(
        [*as_nobody[:4], prlimit, "--nproc=120:120", *as_nobody[4:], "-m", "minimax_lab", "grade",
         "--interface", "cs50", "--predicates", "player", "--jobs", "2", *map(str, folders),
         "--json", str(out / "class.json")],
        cwd="/", capture_output=True, text=True, timeout=600)
    assert (out / "class.json").exists(), done.stderr[-2000:]
    report = json.loads((out / "class.json").read_text())
    loaded = {student["name"]: student["load"]["problems"] for student in report["submissions"]}
    assert loaded == {"hog": [], "honest": [], "honest_too": []}, done.stdout[-2000:]


@pytest.mark.slow
@needs_root
@needs_cgroups
@needs_bwrap
def test_memory_is_bounded_for_all_of_a_sandboxs_processes_together(tmp_path):
    program = tmp_path / "tictactoe.py"
    program.write_text(
        "import os, time\n"
        "children = []\n"
        "for _ in range(4):\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        try:\n"
        "            held = bytearray(900 * 2**20)\n"
        "            time.sleep(3)\n"
        "        finally:\n"
        "            os._exit(0)\n"
        "    children.append(pid)\n"
        "survived = sum(os.waitpid(pid, 0)[1] == 0 for pid in children)\n"
        "print('survived', survived)\n" + CS50_RIGHT)
    limits = sandbox.Limits(memory_bytes=2 * 2**30)
    grade = grade_submission("hoards", program, cs50(("winner",), limits=limits))
    said = grade.load.output.split()
    assert int(said[said.index("survived") + 1]) <= 2  # 4 x 900 MiB would be 3.6 GiB


# --- a class run nothing stops -----------------------------------------------------------------

@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_bwrap
def test_a_very_long_folder_name_costs_nothing_of_the_class(tmp_path, capsys):
    long_name = tmp_path / ("a" * 240)
    alice = tmp_path / "alice"
    for folder in (long_name, alice):
        folder.mkdir()
        (folder / "tictactoe.py").write_text(CS50_RIGHT)
    reports, book, whole = tmp_path / "reports", tmp_path / "book.csv", tmp_path / "class.json"
    status = main(["grade", "--interface", "cs50", "--predicates", "winner", str(long_name),
                   str(alice), "--reports", str(reports), "--csv", str(book),
                   "--json", str(whole)])
    out = capsys.readouterr().out
    assert status == 0 and "2 of 2 submissions right everywhere" in out
    rows = list(csv.DictReader(io.StringIO(book.read_text())))
    assert [row["winner_correct"] for row in rows] == ["5478", "5478"]
    assert len(json.loads(whole.read_text())["submissions"]) == 2
    assert len(list(reports.glob("*.txt"))) == 2
    assert all(len(path.name.encode()) < 255 for path in reports.iterdir())


@needs_bwrap
def test_a_program_that_dies_on_every_question_is_given_up_after_a_bound(tmp_path):
    program = tmp_path / "tictactoe.py"
    program.write_text(CS50_RIGHT.replace("def winner(board):\n",
                                          "def winner(board):\n    import os\n    os._exit(3)\n",
                                          1))
    grade = grade_submission("dies", program, cs50(("winner",)))
    winner = grade.checks["winner"]
    assert winner.counts[Category.DIED] == MOST_STARTS
    assert winner.counts[Category.NOT_ASKED] == sum(winner.counts.values()) - MOST_STARTS
    assert [problem.kind for problem in grade.problems].count("given up") == 1


FORGES = """
import json, os, sys
FORGED = {{"value": {value}}}


def forge():
    # the question's number, read in the harness's frame beside the program's, and its answer
    question = sys._getframe(2).f_locals["question"]
    os.write(4, (json.dumps({{"id": question["id"], "end": "returned", "args": [], **FORGED}})
                 + "\\n").encode())
"""


FORGED_CHECKS = ("player",)
"""The function the forgers are graded on: every answer of it is forged."""


@pytest.fixture(scope="module")
def honest_alone(tmp_path_factory):
    """The right CS50 program graded by itself, on the function the forgers are."""
    honest = tmp_path_factory.mktemp("honest")
    (honest / "tictactoe.py").write_text(CS50_RIGHT)
    return grade_submission("honest", honest, cs50(FORGED_CHECKS))


@needs_bwrap
@pytest.mark.parametrize("name, value", few_by_default([
    ("no_tuple", '{"tuple": 5}'),
    ("bloated", '["\\x1b[2J" + "A" * 8000] * 110'),
    ("huge_int", "10 ** 40"),
    ("infinite", 'float("inf")'),
    ("not_a_value", '{"evil": [1, 2]}'),
], default=("no_tuple",)))
def test_a_forged_python_value_is_unreadable_and_costs_its_own_grade_alone(tmp_path, name,
                                                                           value, honest_alone):
    forger, honest = tmp_path / name, tmp_path / "honest"
    for folder, prelude in ((forger, FORGES.format(value=value)), (honest, "")):
        folder.mkdir()
        (folder / "tictactoe.py").write_text(prelude + CS50_RIGHT.replace(
            "def player(board):\n", "def player(board):\n    forge()\n", 1) if prelude
            else CS50_RIGHT)
    graded = grade_class([forger, honest], cs50(FORGED_CHECKS), jobs=2)
    forged = graded[0].checks["player"]
    assert forged.correct == 0 and forged.counts[Category.DIED] > 0  # each death costs its limit
    assert all("could not be read" in finding.detail for finding in forged.findings
               if finding.category is Category.DIED)
    assert len(submission_report(graded[0])) < 20_000
    assert {check: result.counts for check, result in graded[1].checks.items()} == {
        check: result.counts for check, result in honest_alone.checks.items()}


STALLS = """
import os, time


def stall():
    # the question pipe, opened afresh for writing (the program's own user may) and filled
    end = os.open("/proc/self/fd/3", os.O_WRONLY | os.O_NONBLOCK)
    try:
        while True:
            os.write(end, b" " * 4096)
    except BlockingIOError:
        pass
    time.sleep(3600)
"""


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_bwrap
def test_a_program_that_fills_its_question_pipe_stalls_nothing(tmp_path):
    program = tmp_path / "tictactoe.py"
    program.write_text(STALLS + CS50_RIGHT.replace("def player(board):\n",
                                                   "def player(board):\n    stall()\n", 1))
    grade = grade_submission("stalls", program, Options(
        CS50Interface(), checks=("player",), query_timeout=1, budget=4))
    player = grade.checks["player"]
    assert player.correct == 0 and player.checked > 0  # pytest-timeout bounds a stall


@needs_root
@needs_cgroups
def test_a_sandboxs_group_closes_its_descriptor_once():
    """Closed twice, the second close would close whatever another thread had opened under
    that number meanwhile (a classmate's pipe)."""
    group = cgroups.make(2**30, 8)
    group.remove()
    other = os.open(os.devnull, os.O_RDONLY)  # most likely the number just freed
    try:
        group.remove()
        os.fstat(other)
    finally:
        os.close(other)


@needs_root
@needs_cgroups
def test_groups_a_killed_grader_left_are_removed_and_no_others():
    dead = 2**22 + 1  # above the kernel's largest process number: no such process
    kind = cgroups.version()
    parent = cgroups.ROOT / cgroups.PARENT if kind == "v2" else (
        cgroups.ROOT / "pids" / cgroups.PARENT)
    left, ours = parent / f"sandbox-{dead}-0badc0ffee00", cgroups.make(2**30, 8)
    left.mkdir()
    try:
        cgroups._swept(kind)
        assert not left.exists()
        assert ours is not None and all(folder.exists() for folder in ours.folders.values())
    finally:
        with contextlib.suppress(OSError):
            left.rmdir()
        ours.remove()


@needs_root
@needs_cgroups
def test_telling_whether_a_python_runs_contained_leaves_no_group(tmp_path):
    def groups() -> set[str]:
        return {path.name for path in (cgroups.ROOT / "memory" / cgroups.PARENT).glob(
            f"sandbox-{os.getpid()}-*")} if cgroups.version() == "v1" else {
            path.name for path in (cgroups.ROOT / cgroups.PARENT).glob(
                f"sandbox-{os.getpid()}-*")}

    before = groups()
    python = sandboxed_python.__wrapped__()
    assert python is not None and groups() == before


@pytest.mark.slow
@needs_bwrap
def test_a_restart_is_held_to_what_is_left_of_the_submissions_time(tmp_path):
    """Importing takes 9 s of the wall clock (its guard is ten times its 1 s of CPU); the
    program dies on the first call, with 2 s of its budget left: the restart may take no
    more than those and a grace."""
    program = tmp_path / "tictactoe.py"
    program.write_text("import time\ntime.sleep(9)\n" + CS50_RIGHT.replace(
        "def player(board):\n", "def player(board):\n    import os\n    os._exit(3)\n", 1))
    options = Options(CS50Interface(), checks=("player",), budget=11, load_timeout=1)
    grade = grade_submission("slow", program, options)
    restarted = [finding.detail for finding in grade.checks["player"].findings
                 if "did not finish within" in finding.detail]
    assert restarted, [finding.detail for finding in grade.checks["player"].findings]
    guard = float(restarted[0].split("did not finish within ")[1].split(" s")[0])
    assert guard < 10  # what was left and a grace, not a whole load's guard


@pytest.mark.slow
@needs_bwrap
def test_the_first_wrong_call_walk_is_held_to_the_submissions_time_budget(tmp_path):
    program = tmp_path / "tictactoe.py"
    program.write_text(CS50_RIGHT.replace("def minimax(board):\n", (
        "STALL = []\n\n\n"
        "def minimax(board):\n"
        "    import time\n"
        "    if STALL:\n"
        "        time.sleep(10)\n"
        "    if all(cell is None for row in board for cell in row):\n"
        "        STALL.append(1)\n"
        "        return None\n"), 1))
    started = time.monotonic()
    grade = grade_submission("stalls", program, Options(
        CS50Interface(), checks=("minimax",), budget=40))
    took = time.monotonic() - started
    first = grade.checks["minimax"].first_wrong
    assert first is not None and not first.concluded and "time budget" in first.why
    # its budgets and one call past (the nine successors would take 90 s), however slow the
    # machine is at reaching the empty board within the budget
    assert took < 40 * 1.1 + 10 + 8


@pytest.mark.slow
@needs_bwrap
def test_spinners_in_sessions_of_their_own_change_no_classmates_grade(tmp_path):
    honest, hog = tmp_path / "honest", tmp_path / "hog"
    for folder in (honest, hog):
        folder.mkdir()
    (honest / "tictactoe.py").write_text(
        "import time\nstarted = time.process_time()\n"
        "while time.process_time() - started < 5.6:\n    pass\n" + CS50_RIGHT)
    (hog / "tictactoe.py").write_text(
        "import os\n"
        "for _ in range(29):\n"
        "    if os.fork() == 0:\n"
        "        os.setsid()\n"
        "        while True:\n"
        "            pass\n" + CS50_RIGHT)
    options = cs50(("winner", "terminal"))
    alone = grade_class([honest], options, jobs=1)[0]
    beside = grade_class([honest, hog], options, jobs=2)[0]
    assert alone.load.problem is None and beside.load.problem is None
    for check in ("winner", "terminal"):
        assert beside.checks[check].counts == alone.checks[check].counts
        assert beside.checks[check].correct == 5478


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_bwrap
def test_a_class_ended_by_sigterm_keeps_what_was_graded(tmp_path):
    from processes import started, stop, wait_for_caught

    alice, looper = tmp_path / "alice", tmp_path / "looper"
    for folder, source in ((alice, PYTHON / "cs50_right.py"), (looper, PYTHON / "cs50_loops.py")):
        folder.mkdir()
        shutil.copy(source, folder / "tictactoe.py")
    reports, book = tmp_path / "reports", tmp_path / "book.csv"
    running = started("grade", "--interface", "cs50", "--predicates", "minimax", "--jobs", "1",
                      str(alice), str(looper), "--reports", str(reports), "--csv", str(book))
    try:
        wait_for_caught(running.pid, signal.SIGTERM)
        deadline = time.monotonic() + 120
        while not (reports / "alice.txt").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (reports / "alice.txt").exists()
        running.send_signal(signal.SIGTERM)
        out, err = stop(running)
    finally:
        running.kill()
    assert running.returncode == 143
    assert "1 submissions graded; their results are kept" in err
    assert "\nalice: load ok; minimax 5478/5478; all right" in out
    assert out.endswith("1 of 1 submissions right everywhere\n")
    rows = list(csv.DictReader(io.StringIO(book.read_text())))
    assert [(row["name"], row["minimax_correct"]) for row in rows] == [("alice", "5478")]
