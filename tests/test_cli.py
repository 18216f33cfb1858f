"""The command line: answers as Prolog prints them, exit statuses, one-line errors."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile

import pytest
from boards import LAB_CASES
from hypothesis import given, settings
from hypothesis import strategies as st
from marks import few_by_default
from processes import ROOT, environment, run_shell, started, stop, wait_for_caught
from processes import run as run_program

from minimax_lab.logic.commands.cli import (
    _STATE_LIKE,
    COMMANDS,
    EXIT_FALSE,
    EXIT_OK,
    EXIT_USAGE,
    build_parser,
    main,
)
from minimax_lab.logic.state import to_prolog


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("engine", ["logic", "reference"])
@pytest.mark.parametrize("name", list(LAB_CASES))
def test_decide_prints_the_labs_answer(capsys, engine, name):
    state, player, position, value = LAB_CASES[name]
    status, out, err = run(capsys, "decide", state, player, "--engine", engine)
    expected = f"Action = [{player},{position}], Value = {value}.\n"
    assert (status, out, err) == (EXIT_OK, expected, "")


def test_decide_reads_the_prolog_list_too(capsys):
    state, player, position, value = LAB_CASES["lab: o takes cell 4 and wins"]
    status, out, _ = run(capsys, "decide", to_prolog(state), player)
    assert (status, out) == (EXIT_OK, f"Action = [{player},{position}], Value = {value}.\n")


@pytest.mark.parametrize("engine", ["logic", "reference"])
def test_decide_at_a_terminal_state_is_false(capsys, engine):
    status, out, err = run(capsys, "decide", "xxxoo----", "o", "--engine", engine)
    assert (status, out, err) == (EXIT_FALSE, "false.\n", "")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["decide", "-------", "x"], "a state has 9 cells, '-------' has 7"),
        (["decide", "x--------x", "o"], "has 10"),
        (["decide", "x---a----", "o"], "cell 5 is 'a'"),
        (["decide", "xxx------", "o"], "x has 3 marks and o has 0"),
        (["decide", "xxxooo---", "o"], "both x and o have a line"),
        (["decide", "x--------", "x"], "it cannot be x's move"),
        (["decide", "x--------", "z"], "unknown player 'z'"),
        (["decide", "x--------", "o", "--engine", "lisp"], "unknown engine 'lisp'"),
        (["table", "--engine", "nope"], "unknown engine 'nope'"),
        (["decide", "x--------"], "required: PLAYER"),
        (["decide"], "required: STATE, PLAYER"),
        (["dance"], "invalid choice: 'dance' (choose from 'decide', "),
        (["decide", "x--------", "o", "extra"],
         "unrecognized arguments: extra (see 'minimax-lab decide --help')"),
        (["table", "--bogus"], "unrecognized arguments: --bogus (see 'minimax-lab table --help')"),
        ([], "required: COMMAND"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == EXIT_USAGE
    assert out == ""
    assert err.startswith("minimax-lab: error: ")
    assert message in err
    assert err.count("\n") == 1


def test_the_table_of_the_reference_engine(capsys):
    status, out, _ = run(capsys, "table", "--engine", "reference")
    lines = out.splitlines()
    assert status == EXIT_OK
    assert lines[0] == "state,player,position,value"
    assert len(lines) == 9041
    assert lines[1] == "---------,o,1,0"


@pytest.mark.parametrize(
    "argv",
    [["decide", "x--------", "x"], ["decide", "[x,-]", "o"], ["decide", "--engine"]],
)
def test_python_dash_m_logic_reports_errors_without_a_traceback(argv):
    result = subprocess.run(
        [sys.executable, "-m", "minimax_lab", *argv], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == EXIT_USAGE
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("minimax-lab: error: ")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full to fill the disk")
@pytest.mark.parametrize("argv", [["decide", "o-x------", "o"], ["table", "--engine", "reference"]])
def test_output_that_cannot_be_written_is_one_line_and_status_2(argv):
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "minimax_lab", *argv], stdout=full, stderr=subprocess.PIPE,
            text=True, timeout=120,
        )
    assert result.returncode == EXIT_USAGE
    assert result.stderr == "minimax-lab: error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize(
    ("argv", "stdin", "survivor"),
    [
        (["repl", "--engine", "reference"], b"\xff bad\nother_player(o, O).\n", "O = x."),
        (["play", "--engine", "reference"], b"5\n\xff\n", "is not a move"),
    ],
)
def test_bytes_that_are_not_text_are_refused_like_any_bad_line(argv, stdin, survivor):
    result = subprocess.run(
        [sys.executable, "-m", "minimax_lab", *argv], input=stdin, capture_output=True, timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert b"Traceback" not in result.stderr
    assert survivor.encode() in result.stdout


def test_the_installed_package_finds_its_facts_and_prolog_files(tmp_path):
    # Run from an empty directory: the installed package, with the files it ships.
    probe = subprocess.run(
        [sys.executable, "-c", "import minimax_lab.logic as m; print(m.__file__)"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )
    assert probe.returncode == 0, probe.stderr
    if "site-packages" not in probe.stdout:
        pytest.skip("an editable install reads the checkout; .ci/run installs the package")
    engines = ["logic", "reference"] + (["prolog-tabled"] if shutil.which("swipl") else [])
    for engine in engines:
        result = subprocess.run(
            [sys.executable, "-m", "minimax_lab", "decide", "o-x------", "o", "--engine", engine],
            cwd=tmp_path, capture_output=True, text=True, timeout=120,
        )
        assert (result.returncode, result.stdout) == (EXIT_OK, "Action = [o,4], Value = 1.\n")
    built = subprocess.run(  # the shipped assignments are installed, and go in the zip
        [sys.executable, "-m", "minimax_lab", "autograder", "gradescope", "--out", "a.zip"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert built.returncode == EXIT_OK, built.stderr
    with zipfile.ZipFile(tmp_path / "a.zip") as archive:
        names = archive.namelist()
        assert 'interface = "prolog"' in archive.read("assignment.toml").decode()
    assert "minimax-lab/minimax_lab/compare/grader/assignments/cs50.toml" in names
    assert "minimax-lab/minimax_lab/facts/game.pl" in names
    assert "minimax-lab/minimax_lab/__main__.py" in names


@pytest.mark.parametrize("shadow", few_by_default(["logic", "compare", "facts", "pyDatalog_shim"],
                                                    default=("pyDatalog_shim",)))
def test_a_working_directorys_modules_shadow_nothing(tmp_path, shadow):
    """A teacher's own logic.py, compare.py or facts.py beside the notebook or the command is
    theirs: the project is installed as minimax_lab and never imports those names."""
    (tmp_path / f"{shadow}.py").write_text("raise SystemExit('imported from the directory')\n")
    (tmp_path / shadow).mkdir()
    (tmp_path / shadow / "__init__.py").write_text("raise SystemExit('imported the folder')\n")
    result = subprocess.run(
        [sys.executable, "-m", "minimax_lab", "decide", "o-x------", "o"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert (result.returncode, result.stdout) == (EXIT_OK, "Action = [o,4], Value = 1.\n")


def test_a_short_state_is_read_as_a_state_not_an_option(capsys):
    status, _, err = run(capsys, "decide", "-x", "o")
    assert status == EXIT_USAGE
    assert "a state has 9 cells, '-x' has 2" in err


@settings(deadline=None)
@given(st.text("-xoXO", min_size=2, max_size=12).filter(lambda state: state != "--"),
       st.sampled_from(["x", "o", "-o"]),
       st.booleans())
def test_a_state_starting_with_a_dash_is_an_argument_wherever_it_stands(state, player, first):
    parser = build_parser("decide")
    options = ["--engine", "reference"]
    line = ["decide", state, player, *options] if first else ["decide", *options, state, player]
    parsed = parser.parse_args(line)
    assert (parsed.state, parsed.player, parsed.engine) == (state, player, "reference")


def test_no_option_of_any_command_looks_like_a_state():
    """A state starting with `-` is marked as an argument before parsing: no option may be
    spelt as one, or it would be read as a state."""
    parser = build_parser()
    for command in parser.commands.choices.values():
        for action in command._actions:
            assert not any(_STATE_LIKE.fullmatch(option) for option in action.option_strings
                           if option != "--"), action.option_strings


@pytest.mark.parametrize(("state", "message"), [
    ("---q-----", "cell 4 is 'q'; each cell is one of -, x, o"),
    ("-x-q-o---", "cell 4 is 'q'; each cell is one of -, x, o"),
    ("---q----", "a state has 9 cells, '---q----' has 8"),
])
def test_a_state_with_a_stray_mark_is_named_as_a_state_not_read_as_an_option(
        capsys, state, message):
    status, _, err = run(capsys, "decide", state, "x")
    assert status == EXIT_USAGE
    assert message in err


def test_version():
    result = subprocess.run(
        [sys.executable, "-m", "minimax_lab", "--version"], capture_output=True, text=True,
        timeout=60,
    )
    assert result.returncode == EXIT_OK
    assert result.stdout.startswith("minimax-lab ") and result.stdout.count("\n") == 1


@pytest.mark.parametrize("name", COMMANDS)
def test_a_command_line_naming_its_command_builds_only_that_one(name):
    assert list(build_parser(name).commands.choices) == [name]


def test_the_top_level_knows_every_command_in_help_order(capsys):
    assert tuple(build_parser().commands.choices) == COMMANDS
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    out = capsys.readouterr().out
    assert exited.value.code == EXIT_OK
    listed = [line.split()[0] for line in out.splitlines()
              if line.startswith("    ") and line.split()[0] in COMMANDS]
    assert tuple(listed) == COMMANDS  # a long name has its help on the next line


def test_grades_help_gives_each_policy_option_the_default_each_interface_has(capsys):
    with pytest.raises(SystemExit):
        main(["grade", "--help"])
    words = " ".join(capsys.readouterr().out.split())
    ties = words.split("--ties {lowest,any}")[-1].split("--values")[0]
    values = words.split("--values {all,none}")[-1].split("--unsandboxed")[0]
    assert "(default: the interface's own: lowest for prolog, any for cs50 and function and " \
        "predicate; or the assignment's)" in ties
    assert values.strip().endswith("(default: all, or the assignment's)")


# --- signals and standard streams -----------------------------------------------------------

@pytest.mark.parametrize(
    ("redirection", "status", "stderr"),
    [
        (">&-", EXIT_USAGE,
         "minimax-lab: error: cannot write the output: standard output is closed\n"),
        ("2>&-", EXIT_OK, None),
        ("<&-", EXIT_OK, ""),
    ],
)
def test_a_closed_standard_stream_is_no_traceback(redirection, status, stderr):
    decided = run_shell(f"decide --------- x --engine reference {redirection}")
    assert decided.returncode == status
    if stderr is not None:
        assert decided.stderr == stderr
    if redirection != ">&-":
        assert decided.stdout == "Action = [x,1], Value = 0.\n"


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc (Linux)")
@pytest.mark.parametrize("delay", [0.0, 0.01, 0.05])
def test_sigint_during_start_up_ends_in_one_line_and_status_130(delay):
    # The signal comes `delay` seconds after minimax-lab's own code took over from the Python
    # interpreter's start (it then catches SIGTERM), while it imports the engines.
    starting = started("decide", "---------", "x")
    try:
        wait_for_caught(starting.pid, signal.SIGTERM)
        time.sleep(delay)
        starting.send_signal(signal.SIGINT)
        out, err = stop(starting)
    finally:
        starting.kill()
    if starting.returncode == EXIT_OK:  # it had answered before the signal came
        assert out == "Action = [x,1], Value = 0.\n"
        return
    # 130, or ended by SIGINT itself, which a shell reports as 130 too: CPython does that
    # when the signal landed while it ran generated code (a dataclass being defined, say).
    assert starting.returncode in (130, -signal.SIGINT)
    assert err == "minimax-lab: interrupted\n"


def test_a_file_name_that_is_not_utf8_is_written_and_named_escaped(tmp_path):
    name = os.fsencode(tmp_path) + b"/tree-\xff.dot"
    drawn = subprocess.run(
        [sys.executable, "-m", "minimax_lab", "tree", "xo-xo----", "x", "--out", name],
        capture_output=True, timeout=60, cwd=ROOT, env=environment(),
    )
    assert drawn.returncode == EXIT_OK, drawn.stderr
    assert os.path.exists(name)
    assert drawn.stdout.startswith(os.fsencode(tmp_path) + b"/tree-\\udcff.dot: ")


def test_an_unreadable_file_name_that_is_not_utf8_is_one_escaped_line(tmp_path):
    name = os.fsencode(tmp_path) + b"/missing-\xff.csv"
    checked = subprocess.run(
        [sys.executable, "-m", "minimax_lab", "compare", "--against", name],
        capture_output=True, timeout=60, cwd=ROOT, env=environment(),
    )
    assert checked.returncode == EXIT_USAGE
    assert checked.stderr.count(b"\n") == 1 and b"Traceback" not in checked.stderr
    assert b"missing-\\udcff.csv" in checked.stderr


def test_terminal_escapes_in_an_error_are_shown_escaped():
    asked = run_program("query", "terminal_state('x\x1b]0;title\x07', x, V).")
    assert asked.returncode == EXIT_USAGE
    assert "type error: list expected, found 'x\\x1B\\]0;title\\a' (an atom)" in asked.stderr
    assert "\x1b" not in asked.stderr and "\x07" not in asked.stderr


INTERNAL_ERRORS = {
    "Died", "Late",  # a contained program's end or silence, turned into its grade
    "OverCpu",  # a contained program past its CPU time, turned into its grade
    "CannotTake",  # a submission that cannot be copied, turned into the copier's refusal
    "TooLong",  # a line too long to read, turned into the program's death
    "RowError",  # one row of a table, turned into a finding of that row
    "EndOfInput",  # play's end of input, a normal end of the game
    "_Stopped",  # an external command's end, turned into its failed answer
    "Halt",  # Prolog's halt/0 at the top level, the normal end of a session
    "Unlike",  # in the Python harness, an argument no answer of the lab's is given for
    "_Enough",  # a Prolog trace at its bound of calls, turned into its note
    "Aborted",  # `a` typed at a tracer's port: the goal stops, the session goes on
}


def test_every_error_the_command_line_can_meet_has_one_root_with_its_exit_status():
    import importlib
    import pkgutil

    from minimax_lab.logic.errors import LabError

    found = {}
    for package in ("minimax_lab.logic", "minimax_lab.compare", "minimax_lab.facts"):
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if info.name.endswith("__main__"):  # runs the command line
                continue
            module = importlib.import_module(info.name)
            found |= {value: module.__name__ for value in vars(module).values()
                      if isinstance(value, type) and issubclass(value, Exception)
                      and value.__module__ == module.__name__}
    outside = sorted(error.__name__ for error in found
                     if not issubclass(error, LabError) and error.__name__ not in INTERNAL_ERRORS)
    assert not outside
    assert len([error for error in found if issubclass(error, LabError)]) >= 12
    assert {error.exit_status for error in found if issubclass(error, LabError)} == {EXIT_USAGE}
