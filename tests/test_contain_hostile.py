"""What a class hands in, taken safely: a submission sees only its own files, cannot forge the
harness's replies, outlive the run or touch what is not its own, and its name is data in every
report; the Python that runs submissions can be a course's own."""

from __future__ import annotations

import ast
import csv
import dis
import io
import itertools
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from installed import install_grader
from marks import needs_bwrap, needs_swipl

from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface
from minimax_lab.compare.grader.interfaces.python_interfaces import CS50Interface
from minimax_lab.compare.grader.running.run import grade_class, grade_submission
from minimax_lab.compare.judge.categories import Category
from minimax_lab.logic.commands.cli import EXIT_USAGE, main
from minimax_lab.logic.contain import python_harness, reading, sandbox
from minimax_lab.logic.contain.contained import MAX_OUTPUT
from minimax_lab.logic.contain.python_harness import definitions
from minimax_lab.logic.contain.python_program import PythonProgram, taken
from minimax_lab.logic.positions import reachable_states
from minimax_lab.logic.quote import FORMULA_STARTS, one_line, unescape_line
from minimax_lab.logic.state import PLAYERS, is_terminal

SUBMISSIONS = Path(__file__).parent / "submissions"
HOSTILE = SUBMISSIONS / "hostile"
PYTHON = SUBMISSIONS / "python"
ROOT = Path(__file__).resolve().parent.parent
MARKER = "minimax-lab-daemon-marker"
STATES = sorted(reachable_states(PLAYERS[0]) | reachable_states(PLAYERS[1]))


@pytest.fixture
def opened_to_the_grader(monkeypatch):
    """The sandbox as it was before: a copy of the grader's packages, readable by every user,
    visible to every submission (`opened_to_the_grader()` opens it)."""
    shown = Path(tempfile.mkdtemp(prefix="minimax-lab-grader-"))

    def opened() -> None:
        install_grader(shown, ("logic", "facts"))
        for path in [shown, *shown.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        wider = sandbox._bwrap_prefix
        monkeypatch.setattr(sandbox, "grader_folders", lambda: ())
        monkeypatch.setattr(sandbox, "_bwrap_prefix",
                            lambda folder, readable=(), limits=sandbox.DEFAULT_LIMITS:
                            wider(folder, (*readable, str(shown)), limits))

    yield opened
    shutil.rmtree(shown, ignore_errors=True)


def left_behind() -> list[str]:
    """The command lines of processes a hostile submission meant to leave running."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            line = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if MARKER.encode() in line and b"pytest" not in line:
            found.append(line.decode(errors="replace"))
    return found


def gone_within(seconds: float) -> bool:
    """True once no process a hostile submission left is running, waiting up to `seconds`."""
    deadline = time.monotonic() + seconds
    while left_behind():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def world_writable_canary() -> Path:
    """A folder any user may write in, with a file any user may change."""
    folder = Path(tempfile.mkdtemp(prefix="minimax-lab-canary-"))
    (folder / "kept.txt").write_text("as it was\n")
    folder.chmod(0o777)
    (folder / "kept.txt").chmod(0o666)
    return folder


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes() if path.is_file() else b"/"
            for path in sorted(folder.rglob("*"))}


# --- a submission sees only its own files -----------------------------------------------------

@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_swipl
@needs_bwrap
def test_a_prolog_submission_that_looks_for_the_graders_solution_finds_nothing(
        opened_to_the_grader):
    program = HOSTILE / "peeks_at_the_solution.pl"
    grade = grade_submission("peeks", program, Options(
        PrologInterface(), checks=("terminal_state", "minimax_decision"), budget=120))
    decisions = grade.checks["minimax_decision"]
    assert decisions.checked == 9040 + decisions.end_to_end and decisions.correct == 0
    states = grade.checks["terminal_state"]
    assert states.checked == 2 * len(STATES) and states.correct == 0
    assert "No permission to call sandboxed" in " ".join(map(str, grade.load.messages))

    opened_to_the_grader()  # where the grader's files are seen, SWI-Prolog's sandbox holds
    stolen = grade_submission("peeks", program, Options(  # its 9052 questions, not 17066
        PrologInterface(), checks=("minimax_decision",), budget=120))
    assert stolen.checks["minimax_decision"].correct == 0


@needs_bwrap
def test_a_python_submission_that_imports_the_graders_reference_scores_nothing(
        opened_to_the_grader):
    program = HOSTILE / "imports_the_reference.py"
    options = Options(CS50Interface(), checks=("minimax",), budget=120)
    grade = grade_submission("imports", program, options)
    assert grade.checks["minimax"].checked == 5478
    assert grade.checks["minimax"].correct == 0
    assert any("NameError" in problem.message for problem in grade.problems)

    opened_to_the_grader()
    stolen = grade_submission("imports", program, options)
    assert stolen.checks["minimax"].correct == 5478


def test_the_graders_own_packages_are_hidden_wherever_they_are_installed():
    folders = sandbox.grader_folders()
    assert {Path(folder).name for folder in folders} == {"logic", "compare", "facts"}
    assert len(sandbox.GRADER_PACKAGES) == 3
    prefix = sandbox._bwrap_prefix(Path("/tmp/x"), readable=(str(ROOT), sys.prefix))
    hidden = {prefix[index + 1] for index, word in enumerate(prefix) if word == "--tmpfs"}
    assert set(folders) <= hidden
    assert "/" not in prefix[prefix.index("--ro-bind") + 1:prefix.index("--ro-bind") + 2]


# --- the harness's channel is the harness's -------------------------------------------------

@pytest.mark.slow
@needs_swipl
def test_a_forged_reply_costs_the_forger_alone_and_the_class_goes_on():
    options = Options(PrologInterface(), checks=("terminal_state",), budget=60)
    right = SUBMISSIONS / "lab_style.pl"
    alone = grade_submission("lab_style", right, options)
    forger, lab_style = grade_class([HOSTILE / "forges_a_reply.pl", right], options, jobs=2)
    result = forger.checks["terminal_state"]  # SWI-Prolog's sandbox refuses it the channel
    assert result.correct == 0 and result.counts[Category.EXCEPTION] == result.checked > 0
    assert "No permission to call sandboxed `open(" in forger.problems[0].message
    assert lab_style.checks["terminal_state"].correct == (
        alone.checks["terminal_state"].correct) == 2 * len(STATES)


# --- no check rests on a name the program can replace --------------------------------------------

def nested(code: types.CodeType):
    """The code of every function defined inside `code`, however deep."""
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield constant
            yield from nested(constant)


def test_the_harness_looks_up_no_name_once_it_has_made_its_tools():
    """What runs beside the program is closures over what `hardened` bound before the program
    was imported: no module's name, no built-in and no name of the harness's own is looked up
    (a program can replace any of them)."""
    made = list(nested(python_harness.hardened.__code__))
    assert {"encode", "dump", "serve", "send", "wrapper", "over_cpu"} <= {
        code.co_name for code in made}
    assert {(code.co_name, instruction.argval) for code in made
            for instruction in dis.get_instructions(code)
            if instruction.opname.endswith(("_GLOBAL", "_NAME"))} == set()


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_bwrap
def test_a_result_that_hides_its_mutation_from_the_harness_is_seen_to_change_its_argument():
    """Its module replaces json.dumps, copy.deepcopy and the harness's own dump: what it changes
    is found as often as where the program hides nothing."""
    options = Options(CS50Interface(), checks=("result",), budget=120)
    hides, mutates = grade_class([HOSTILE / "hides_its_mutation.py",
                                  PYTHON / "cs50_result_mutates.py"], options, jobs=2)
    assert hides.checks["result"].counts[Category.MUTATES] == 16167
    assert hides.checks["result"].counts == mutates.checks["result"].counts


def test_what_the_grader_keeps_of_an_output_is_its_first_characters_and_all_are_counted():
    printed = "héllo wörld €"
    data, head = printed.encode(), reading.Head(3)
    for start in range(0, len(data), 2):  # chunks that end inside characters
        head.add(data[start:start + 2])
    assert (head.text(), head.chars) == ("hél", len(printed))


@needs_bwrap
def test_output_past_a_cap_the_program_lifted_is_cut_by_the_grader_and_changes_no_answer():
    program = HOSTILE / "floods_its_output.py"
    copy = taken(program)
    floods = PythonProgram(copy, copy.folder / program.name)
    try:
        assert floods.load().problem is None
        assert floods.call("shout", [650_000], 30, 30).value == 650_000
        called = floods.call("player", [[[None] * 3] * 3], 30, 30)
        assert called.value == "X"
        assert called.output == "y" * MAX_OUTPUT  # kept: the cap, whatever it printed
        assert called.output_chars >= 650_000  # counted: all of it
        assert floods.reply_bytes < 1000  # the answer carries none of it
    finally:
        floods.close()
    grade = grade_submission("floods", program, Options(CS50Interface(), checks=("player",),
                                                         budget=120))
    assert grade.checks["player"].correct == grade.checks["player"].checked == 4520
    assert grade.printed == 4520
    kept = [entry.split("\n", 1)[1].partition("\n")[0] for entry in grade.log]
    assert kept[0] == "y" * MAX_OUTPUT  # the log, full, cuts the last it keeps
    assert all(text == "y" * len(text) and len(text) <= MAX_OUTPUT for text in kept)


# --- names are data ------------------------------------------------------------------------------

NAMES = {
    "bob\x1b]0;owned\x07\x1b[2J\x1b[31m": "cs50_right.py",
    "carol: load ok; terminal_state 17066 of 17066; all right (1.0 s)\nzz":
        "cs50_winner_no_anti_diagonal.py",
    '=HYPERLINK("example.invalid","click")': "cs50_right.py",
    "@SUM(1+1)*cmd|calc": "cs50_right.py",
    "-2+3": "cs50_right.py",
}


@needs_bwrap
def test_names_chosen_by_students_are_data_in_the_summary_the_reports_and_the_gradebook(
        tmp_path, capsys):
    folders = []
    for name, program in NAMES.items():
        folder = tmp_path / "class" / name
        folder.mkdir(parents=True)
        shutil.copy(PYTHON / program, folder / "tictactoe.py")
        folders.append(str(folder))
    reports, book, whole = tmp_path / "reports", tmp_path / "book.csv", tmp_path / "all.json"
    # utility: its 958 questions find carol's bug (her winner misses a diagonal) as well
    status = main(["grade", "--interface", "cs50", "--predicates", "utility", *folders,
                   "--reports", str(reports), "--csv", str(book), "--json", str(whole)])
    out = capsys.readouterr().out
    assert status == 1
    assert "\x1b" not in out and "\x07" not in out
    summary, _, bugs = out.partition("\n== bugs: ")
    policy, *lines = summary.splitlines()
    assert policy.startswith("policy: any optimal move is right")
    assert len(lines) == len(NAMES) + 1  # a name cannot start a line of its own
    assert "(1.0 s)\\nzz" in bugs and "\nzz" not in bugs  # carol's bug: her name escaped
    for line, (name, program) in zip(lines, NAMES.items(), strict=False):
        shown = unescape_line(line)
        assert shown.startswith(f"{name}: load ok; utility ")
        assert shown.endswith("all right" if program == "cs50_right.py" else "faults found",
                              0, shown.rindex("; score "))

    rows = list(csv.reader(io.StringIO(book.read_text())))
    cells = [cell for row in rows for cell in row]
    assert not [cell for cell in cells if cell.startswith((*FORMULA_STARTS, "\t", "\r"))]
    assert [unescape_line(row[0].removeprefix("'")) for row in rows[1:]] == list(NAMES)

    assert [sub["name"] for sub in json.loads(whole.read_text())["submissions"]] == list(NAMES)
    for path in reports.iterdir():
        text = path.read_text()
        assert "\x1b" not in text and "\x07" not in text and "\n" not in path.name
    first = (reports / f"{one_line(list(NAMES)[1])}.txt").read_text().splitlines()
    assert unescape_line(first[0]) == f"== {list(NAMES)[1]} =="
    assert sum(line.startswith("-- ") for line in first) == 1


# --- a hostile class ----------------------------------------------------------------------------

@pytest.mark.slow
@needs_bwrap
def test_a_hostile_class_costs_each_its_own_grade_and_leaves_nothing_behind(tmp_path, capsys):
    canary = world_writable_canary()
    try:
        alice = tmp_path / "class" / "alice"
        alice.mkdir(parents=True)
        shutil.copy(PYTHON / "cs50_right.py", alice / "tictactoe.py")
        hostile = ["outlives_the_run", "fork_bomb", "memory_bomb", "writes_everywhere",
                   "reads_other_submissions", "imitates_the_grader"]
        paths = [str(alice), *(str(HOSTILE / f"{name}.py") for name in hostile)]
        before = snapshot(tmp_path / "class"), snapshot(canary)
        reports, book = tmp_path / "reports", tmp_path / "book.csv"
        status = main(["grade", "--interface", "cs50", "--predicates", "winner", *paths,
                       "--reports", str(reports), "--csv", str(book), "--budget", "120"])
        out = capsys.readouterr().out
        assert status == 1
        assert (snapshot(tmp_path / "class"), snapshot(canary)) == before
        assert gone_within(10.0)
        policy, *lines = out.splitlines()
        assert policy.startswith("policy: any optimal move is right")
        summary = lines.index("1 of 7 submissions right everywhere")
        assert [line.split(":")[0] for line in lines[:summary]] == ["alice", *hostile]
        members = [name for line in lines[summary:] if line.startswith("-- bug-")
                   for name in line.split(" of the class: ")[1].split(", ")]
        assert members and set(members) <= set(hostile)  # alice is right: in no bug's group
        assert lines[0].startswith("alice: load ok; winner 5478/5478; all right")
        rows = {row["name"]: row for row in csv.DictReader(io.StringIO(book.read_text()))}
        assert rows["reads_other_submissions"]["winner_correct"] == "0"
        assert rows["imitates_the_grader"]["winner_correct"] == "0"
        assert sorted(path.name for path in reports.iterdir() if path.name[0] != ".") == \
            sorted(f"{name}.{kind}" for name in ["alice", *hostile] for kind in ("txt", "log"))
        for name in ["alice", *hostile]:
            report = (reports / f"{name}.txt").read_text().splitlines()
            assert report[0] == f"== {name} ==" and "-- winner: " in " ".join(report)
    finally:
        shutil.rmtree(canary, ignore_errors=True)


@needs_swipl
def test_a_prolog_daemon_does_not_outlive_its_grading():
    grade = grade_submission("daemon", HOSTILE / "outlives_the_run.pl",
                             Options(PrologInterface(), checks=("terminal_state",),
                                     budget=5))
    assert grade.load.problem is None
    assert gone_within(10.0)  # killed at once; a loaded machine may take a moment to reap it


# --- the submissions' Python ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def course_python():
    """A course's Python: a virtual environment of the system's Python, every user may read,
    with a package of the course's own (as numpy would be) installed."""
    system = shutil.which("python3", path="/usr/bin:/usr/local/bin")
    if system is None or not sandbox.bwrap_works():
        pytest.skip("needs the system's python3 and a working bwrap")
    folder = Path(tempfile.mkdtemp(prefix="minimax-lab-course-"))
    folder.chmod(0o755)
    try:
        subprocess.run([system, "-m", "venv", "--without-pip", str(folder / "venv")],
                       check=True, timeout=120, capture_output=True)
        site = next((folder / "venv").glob("lib/python3*/site-packages"))
        (site / "coursepkg.py").write_text("def other(mark):\n    return {'X': 'O', "
                                           "'O': 'X'}[mark]\n")
        for path in [folder, *folder.rglob("*")]:
            path.chmod(path.stat().st_mode | stat.S_IROTH | (
                stat.S_IXOTH if path.is_dir() else 0))
        yield folder / "venv" / "bin" / "python"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def uses_the_course_package(tmp_path: Path) -> Path:
    source = (PYTHON / "cs50_right.py").read_text()
    program = tmp_path / "tictactoe.py"
    program.write_text("import coursepkg\n" + source)
    return program


@needs_bwrap
def test_a_missing_module_is_named_with_what_the_teacher_can_do(tmp_path, capsys):
    status = main(["grade", "--interface", "cs50", "--predicates", "winner",
                   str(uses_the_course_package(tmp_path))])
    out = capsys.readouterr().out
    assert status == 1
    assert ("importing raised ModuleNotFoundError: No module named 'coursepkg' (line 1); the "
            "submissions' Python has no module 'coursepkg': give grade --python PATH") in out


def test_the_course_python_runs_submissions_with_its_packages(tmp_path, capsys, course_python):
    status = main(["grade", "--interface", "cs50", "--predicates", "winner",
                   "--python", str(course_python), str(uses_the_course_package(tmp_path))])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "winner 5478/5478; all right" in out


@pytest.mark.parametrize("python, said", [
    ("/no/such/python", "is not a Python that runs here"),
    ("/bin/true", "is not a Python that runs here"),
])
def test_a_python_that_cannot_run_submissions_is_a_usage_error(python, said, capsys):
    status = main(["grade", "--interface", "cs50", "--python", python,
                   str(PYTHON / "cs50_right.py")])
    assert status == EXIT_USAGE
    assert said in capsys.readouterr().err


def test_python_options_are_refused_for_prolog(capsys):
    status = main(["grade", "--definitions-only", str(SUBMISSIONS / "lab_style.pl")])
    assert status == EXIT_USAGE
    assert capsys.readouterr().err == ("minimax-lab: error: --definitions-only is for Python "
                                       "submissions: use --interface cs50 or function\n")


# --- a module that runs a demo on import ---------------------------------------------------------

@needs_bwrap
def test_a_demo_at_import_is_named_by_its_line_and_definitions_only_grades_the_functions(
        capsys):
    program = PYTHON / "cs50_demo_at_import.py"
    line = next(number for number, text in enumerate(program.read_text().splitlines(), 1)
                if "input(" in text)
    status = main(["grade", "--interface", "cs50", "--predicates", "winner", str(program)])
    out = capsys.readouterr().out
    assert status == 1
    assert (f"importing raised EOFError: EOF when reading a line (line {line}); line {line} "
            "runs when the module is imported, as a demo at its top level does: grade "
            "--definitions-only") in out
    status = main(["grade", "--interface", "cs50", "--predicates", "utility",
                   "--definitions-only", str(program)])
    out = capsys.readouterr().out
    assert status == 0, out
    finished = sum(map(is_terminal, reachable_states(PLAYERS[0])))  # utility's questions
    assert f"utility {finished}/{finished}; all right" in out


def _kept_names(source: str) -> dict[str, object]:
    """What running the definitions of `source` binds (no input: a read raises EOFError)."""
    namespace: dict[str, object] = {}
    tree = ast.fix_missing_locations(definitions(ast.parse(source)))
    exec(compile(tree, "<submission>", "exec"), namespace)  # noqa: S102 - the test's own text
    namespace.pop("__builtins__")
    return namespace


def test_definitions_leave_out_what_reads_the_answer_to_a_question_left_out():
    source = ('user = input("X or O? ")\n'
              'HUMAN = user.upper()\n'
              'COMPUTER = "O" if HUMAN == "X" else "X"\n'
              'START = user[0]\n'
              'def opponent(player):\n'
              '    return COMPUTER if player == HUMAN else HUMAN\n')
    assert list(_kept_names(source)) == ["opponent"]  # its body reads them only when called


def test_definitions_leave_out_a_chain_of_three_and_keep_what_no_question_reaches():
    source = ('answer = input()\n'
              'FIRST = answer + "!"\n'
              'SECOND = [FIRST, 1]\n'
              'THIRD = max(SECOND, [0])\n'
              'EMPTY = None\n'
              'def plays(board=THIRD):\n'
              '    return board\n'
              'LINES = [[row for row in range(3)] for answer in range(2)]\n')
    assert _kept_names(source) == {"EMPTY": None, "LINES": [[0, 1, 2], [0, 1, 2]]}


def test_a_name_a_kept_assignment_binds_again_stays_bound_for_what_reads_it():
    source = ('HUMAN = input("X or O? ")\n'
              'HUMAN = "X"\n'
              'COMPUTER = "O" if HUMAN == "X" else "X"\n'
              'try:\n'
              '    LEVEL = int(input())\n'
              'except EOFError:\n'
              '    LEVEL = 9\n'
              'DEPTH = LEVEL\n')
    assert _kept_names(source) == {"HUMAN": "X", "COMPUTER": "O"}


_NAMES = ["a", "b", "c", "d"]


@st.composite
def _expressions(draw: st.DrawFn) -> str:
    """An expression of text over `_NAMES`, read as it runs whatever the values (no branch,
    no comprehension over an empty text)."""
    name, other = draw(st.sampled_from(_NAMES)), draw(st.sampled_from(_NAMES))
    return draw(st.sampled_from([
        name, '"xo"', f"{name} + {other}", f"str({name})", f'max({name}, "a")',
        f'"O" if {name} == "X" else "X"', f'max([{name} for {name} in "xo"])',
        f"max([{name} + {other} for {name} in {other}])"]))


@st.composite
def _modules(draw: st.DrawFn) -> list[tuple[str, bool]]:
    """Top-level statements, each with whether it is a demo (a definition otherwise); a demo
    binds every name first."""
    statements = [(f"{' = '.join(_NAMES)} = input()", True)]
    for number in range(draw(st.integers(1, 8))):
        name, expression = draw(st.sampled_from(_NAMES)), draw(_expressions())
        statements.append(draw(st.sampled_from([
            (f"{name} = {expression}", False), (f"{name} += {expression}", False),
            (f"def f{number}(x={expression}):\n    return {expression}", False),
            (f"{name} = input()", True), (f"{name} = {expression}.upper()", True),
            (f"for {name} in {expression}:\n    pass", True),
            (f'if {expression} == "x":\n    {name} = "y"', True)])))
    return statements


@given(_modules())
@settings(max_examples=300, deadline=None)
def test_definitions_keep_exactly_what_runs_without_what_was_left_out(module):
    """A definition is kept when it reads no name only the demos bind: running the kept
    definitions in turn, none raises NameError, and running each in turn after the ones kept
    before it raises NameError exactly where it was left out."""
    namespace: dict[str, object] = {}
    expected = []
    for statement, demo in module:
        if demo:
            continue
        try:
            exec(statement, namespace)  # noqa: S102 - the test's own text
        except NameError:
            continue
        expected.append(statement)
    kept = definitions(ast.parse("\n".join(statement for statement, _ in module))).body
    assert [ast.unparse(node) for node in kept] == [
        ast.unparse(ast.parse(statement)) for statement in expected]


# --- a student's modules never stand in for the grader's ----------------------------------------

@needs_bwrap
def test_a_students_logic_compare_and_facts_modules_shadow_nothing_of_the_grader(tmp_path,
                                                                               capsys):
    # json.py once ran as root: the sandbox's launcher imported it from the workspace.
    folder = tmp_path / "dana"
    folder.mkdir()
    shutil.copy(PYTHON / "cs50_right.py", folder / "tictactoe.py")
    for name in ("logic", "compare", "facts", "json", "ast"):
        (folder / f"{name}.py").write_text("raise SystemExit('the grader imported me')\n")
    status = main(["grade", "--interface", "cs50", "--predicates", "player,winner",
                   "--main", "tictactoe.py", str(folder)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "player 4520/4520, winner 5478/5478; all right" in out


# --- a sandbox's user is its own ----------------------------------------------------------------

@pytest.mark.skipif(os.geteuid() != 0, reason="sandboxes have users of their own only as root")
def test_a_sandbox_never_takes_a_user_a_running_process_has(monkeypatch):
    # Another grader's sandbox (here a process of the next uid in turn) keeps its user; the
    # uid taken is a later one in turn (which, the sandboxes running beside this test decide)
    monkeypatch.setattr(sandbox, "_UIDS", itertools.count(7))
    other = subprocess.Popen(["sleep", "60"], user=sandbox.BASE_UID + 7)
    try:
        assert sandbox.BASE_UID + 7 < sandbox._free_uid() < sandbox.BASE_UID + 1000
    finally:
        other.kill()
        other.wait(timeout=10)
