"""A student's loaded program stepped at the top level by SWI-Prolog's own tracer
(`logic/prolog/stepping.pl`, `logic/toplevel/program_step.py`): the ports creeping shows are
SWI-Prolog's own trace's, each command at a port, spy points, a program that runs on without
end, any keys; on a pseudo-terminal too."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from keys import Keys
from marks import needs_swipl
from processes import Terminal
from test_toplevel_stepper import PORT, ports

from minimax_lab.logic.contain.swipl import Swipl
from minimax_lab.logic.toplevel.repl import Session
from minimax_lab.logic.toplevel.stepper import OPTIONS, UNKNOWN, SpyPoints, help_lines

pytestmark = needs_swipl

PROGRAM = """\
len([], 0).
len([_|T], N) :- len(T, M), N is M + 1.
mem(X, [X|_]).
mem(X, [_|T]) :- mem(X, T).
loop(X) :- loop(X).
twice(L, D) :- len(L, N), D is 2 * N.
bad(X) :- Y = foo, X is Y + 1.
three(L, D) :- X = 1, len(L, N), D is N + X.
"""
GOAL = "len([a,b], N)."
MANY = "c" * 40


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("program") / "steps.pl"
    path.write_text(PROGRAM)
    return path


@pytest.fixture(scope="module")
def session(program):
    """One session with the program loaded, its keys set by `run`."""
    opened = Session("reference", io.StringIO(), Keys(""), program=str(program))
    yield opened
    opened.close()


def run(session: Session, lines: list[str], keys: str) -> str:
    """What the session prints for `lines`, `keys` typed as asked."""
    session.keys = Keys(keys)  # type: ignore[assignment]
    begun = len(session.out.getvalue())
    for line in lines:
        assert session.handle(line)
    return session.out.getvalue()[begun:]


def plain(goal: str) -> str:
    """A goal without its layout, each variable `_`: SWI-Prolog's names differ run to run."""
    return re.sub(r"\b(_\w*|[A-Z]\w*)", "_", goal.replace(" ", ""))


def swi_trace(program: Path, goal: str, spied: str) -> list[tuple[str, int, str]]:
    """SWI-Prolog's own printed trace of `goal` on `spied` (`server.pl`'s trace request):
    each port, its depth counted from 1 at the goal, and its goal."""
    lines: list[str] = []
    with Swipl([program], program.parent, "the test") as swipl:
        swipl.ask(f"trace(({goal}), true, [{spied}])", 30, lines.append)
    found = [re.match(r"^ T \[(\d+)\] (Call|Exit|Redo|Fail): (.*)$", line) for line in lines]
    levels = sorted({int(match[1]) for match in found if match})
    return [(match[2], levels.index(int(match[1])) + 1, plain(match[3]))
            for match in found if match]


def test_creeping_shows_swi_prologs_own_ports_of_the_programs_clauses(session, program):
    shown = ports(run(session, ["trace.", GOAL], MANY))
    ours = [(port, depth, plain(goal)) for _, port, depth, goal, _ in shown
            if goal.startswith("len(")]
    assert ours == swi_trace(program, GOAL.rstrip("."), "len/2")
    assert len(shown) > len(ours)  # the built-ins it calls (is/2) are shown too
    assert all(word == "creep" for *_, word in shown)


def test_fresh_variables_are_named_as_the_labs_stepping_names_them(session):
    """The program's fresh variables are _G1, _G2, ... in the order the goal first shows them,
    one name for one variable at every port, and the goal's own by their names, as the top
    level's tracer shows the lab's: not SWI-Prolog's _123, which change from run to run."""
    shown = ports(run(session, ["trace.", "twice([a,b], D)."], MANY))
    names = [name for _, _, _, goal, _ in shown for name in re.findall(r"\b_\w+|\b[A-Z]\w*", goal)]
    fresh = list(dict.fromkeys(name for name in names if name.startswith("_")))
    assert fresh == [f"_G{number}" for number in range(1, len(fresh) + 1)] and len(fresh) >= 3
    lines = [f"{port}: ({depth}) {goal}" for _, port, depth, goal, _ in shown]
    assert "Call: (2) len([a,b], _G1)" in lines and "Call: (3) len([b], _G2)" in lines
    assert "Call: (4) _G2 is 0+1" in lines and "Call: (2) D is 2*2" in lines  # the same ones
    assert run(session, ["trace.", "twice([a,b], D)."], MANY) == run(  # the same every time
        session, ["trace.", "twice([a,b], D)."], MANY)


def test_the_answer_is_the_programs_and_redo_steps_into_the_next(session):
    untraced = run(session, ["mem(X, [a,b])."], "")
    first = run(session, ["trace.", "mem(X, [a,b])."], "cc;" + MANY)
    assert untraced.splitlines()[0].rstrip(" ;.") + " ;" in first
    steps = ports(first)
    assert [port for _, port, _, _, _ in steps][:3] == ["Call", "Exit", "Redo"]
    assert ("Call", 2) in [(port, depth) for _, port, depth, _, _ in steps]
    assert "X = b" in first


def test_skip_runs_a_call_of_the_program_to_its_exit_unseen(session):
    crept = ports(run(session, ["trace.", GOAL], MANY))
    skipped = ports(run(session, ["trace.", GOAL], "cs" + MANY))
    assert skipped[1][4] == "skip" and skipped[1][1:3] == ("Call", 2)
    after = next(step for step in crept[2:] if step[2] <= 2)
    assert skipped[2][1:3] == after[1:3] and plain(skipped[2][3]) == plain(after[3])


def test_retry_goes_back_to_the_call_port(session):
    crept = ports(run(session, ["trace.", GOAL], MANY))
    at = next(i for i, step in enumerate(crept) if step[1] == "Exit" and step[2] == 3)
    retried = ports(run(session, ["trace.", GOAL], "c" * at + "r" + MANY))
    call = next(step for step in reversed(crept[:at]) if step[1] == "Call" and step[2] == 3)
    assert retried[at][4] == "retry"
    assert retried[at + 1][1:3] == ("Call", 3) and plain(retried[at + 1][3]) == plain(call[3])


def test_fail_makes_the_call_fail_and_the_goal_with_it(session):
    shown = run(session, ["trace.", GOAL], "cf" + MANY)
    steps = ports(shown)
    assert steps[1][4] == "fail"
    assert [port for _, port, _, _, _ in steps[2:]] == ["Fail"] * len(steps[2:])
    assert shown.rstrip().endswith("false.")


def test_abort_stops_the_goal_and_the_session_goes_on(session):
    shown = run(session, ["trace.", GOAL, "len([x], N)."], "cca")
    assert "abort\n% Execution Aborted\nN = 1." in shown


def test_nodebug_and_leap_run_on_to_the_programs_answer(session):
    answer = run(session, [GOAL], "").splitlines()[0]
    for key in "nl":
        shown = run(session, ["trace.", GOAL], "c" + key + "\r")
        assert len(ports(shown)) == 2 and shown.rstrip().endswith(answer.rstrip(".") + " .")


def test_leap_stops_at_a_spy_point_of_the_program_and_nospy_removes_it(session):
    run(session, ["spy(len/2)."], "\r")
    try:
        shown = run(session, ["trace.", "twice([a,b], D)."], "cl" + MANY)
        steps = ports(shown)
        assert steps[1][4] == "leap" and steps[2][0] == "*" and steps[2][3].startswith("len(")
        run(session, ["nospy(len/2)."], "\r")
        shown = run(session, ["trace.", "twice([a,b], D)."], "cl\r")
        assert len(ports(shown)) == 2 and "D = 4" in shown
    finally:
        session.spies = SpyPoints()


def test_in_debug_mode_a_call_of_the_program_leaps_to_its_spy_points_at_once(session):
    """Leapt into (debug mode, no trace.), the program's call shows no port before a spy
    point's, as the top level's own tracer leaps: its first call, X = 1, is not shown."""
    run(session, ["spy(len/2)."], "\r")
    try:
        steps = ports(run(session, ["three([a], D)."], "nn\r"))
        assert steps[0][:3] == ("*", "Call", 2) and steps[0][3].startswith("len([a], ")
    finally:
        session.spies = SpyPoints()


def test_a_program_that_runs_on_without_end_stops_at_the_bound(session):
    shown = run(session, ["trace.", "loop(a).", "len([x], N)."], "cs")
    assert re.search(r"ERROR: steps\.pl: .loop\(a\). took more than \d+ inferences", shown), shown
    assert shown.rstrip().endswith("N = 1.")


@pytest.mark.parametrize("keys", ["ccl", "ccs", "cl"])
def test_a_loop_leapt_or_skipped_after_creeping_is_stopped_at_the_bound(session, keys):
    """Each key runs the goal again in the same SWI-Prolog: the bound of a later run is met
    as the first run's is, however many ran before it."""
    shown = run(session, ["trace.", "loop(a).", "len([x], N)."], keys)
    assert re.search(r"ERROR: steps\.pl: .loop\(a\). took more than \d+ inferences", shown), shown
    assert shown.rstrip().endswith("N = 1.")


def test_an_error_passes_its_exception_port_and_is_one_error_line(session):
    shown = run(session, ["trace.", "bad(X).", "len([x], N)."], MANY)
    assert re.search(r"^   Exception: \(2\) X is foo\+1 \? creep$", shown, re.MULTILINE)
    assert re.search(r"^ERROR: steps\.pl: .*foo/0", shown, re.MULTILINE)
    assert shown.rstrip().endswith("N = 1.")


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text("csrlfnah?x;\r", max_size=14))
def test_any_keys_are_commands_or_one_line_and_the_session_goes_on(session, keys):
    shown = run(session, ["trace.", "twice([a], D)."], keys)
    words = {option.word for option in OPTIONS}
    for line in shown.splitlines()[2:]:
        match = PORT.match(line)
        assert (match and match[5] in words | {""}) or line in (
            UNKNOWN, "% Execution Aborted", "false.") or line in help_lines() or re.fullmatch(
            r"D = 2 ?[;.]?|;|\.", line), line
    assert run(session, ["len([x], N)."], "").endswith("N = 1.\n")


@pytest.mark.slow
def test_on_a_terminal_the_program_is_stepped_as_in_process(program, session):
    keys = "ccscrfc"
    expected = [line for line in run(session, ["trace.", GOAL], keys).splitlines()
                if PORT.match(line)]
    terminal = Terminal("repl", "--engine", "reference")
    try:
        terminal.read_until("?- ")
        terminal.send(f"['{program}'].\r")
        terminal.read_until("?- ")
        terminal.send("trace.\r")
        terminal.read_until("?- ")
        terminal.send(GOAL + "\r")
        shown = ""
        for key in keys:
            shown += terminal.read_until(" ? ")
            terminal.send(key)
        shown += terminal.read_until("?- ")
        terminal.send(":quit\r")
        assert terminal.exit_status() == 0
    finally:
        terminal.close()
    lines = [line for line in shown.splitlines() if PORT.match(line)]
    assert [plain(line) for line in lines] == [plain(line) for line in expected]
