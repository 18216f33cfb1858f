"""The tracer that steps: every port and every command at a port, in-process with scripted keys
and on a pseudo-terminal; spy points; any text typed at a port; the printed trace off a
terminal is `test_toplevel_repl.py`'s and `test_trace.py`'s."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from keys import Keys
from marks import needs_swipl
from processes import Terminal

from minimax_lab.logic.engines import make_engine
from minimax_lab.logic.state import parse_position, to_prolog
from minimax_lab.logic.toplevel import repl
from minimax_lab.logic.toplevel.repl import Session
from minimax_lab.logic.toplevel.stepper import MAX_PRINTED, OPTIONS, UNKNOWN, help_lines

ROOT = Path(__file__).resolve().parent.parent
LAB_STYLE = ROOT / "tests" / "submissions" / "lab_style.pl"
PORT = re.compile(r"^ ([ *]) (Call|Exit|Redo|Fail): \((\d+)\) (.*) \? (\S*)$")

# x to move, one move from a win: x plays cell 3
#  x | x | 3
#  o | o | 6
#  7 | 8 | 9
NEAR_WIN = "xx-oo----"
# x to move, three blanks left
#  x | o | x
#  x | o | 6
#  o | 8 | 9
LATE = "xoxxo-o--"


def stepped(lines: list[str], keys: str, engine: str = "reference") -> tuple[Session, str]:
    """The session after `lines`, the keys typed as asked, and what it printed."""
    session = Session(engine, io.StringIO(), Keys(keys))
    for line in lines:
        assert session.handle(line)
    return session, session.out.getvalue()


def ports(shown: str) -> list[tuple[str, str, int, str, str]]:
    """Each port line shown: spied mark, port, depth, goal, the command echoed."""
    return [(match[1], match[2], int(match[3]), match[4], match[5])
            for line in shown.splitlines() if (match := PORT.match(line))]


def untraced(goal: str, engine: str = "reference") -> list[str]:
    """The answers to `goal` asked without a tracer, each without its ` ;` or `.`."""
    out = io.StringIO()
    repl.run(engine, io.StringIO(goal + "\n"), out)
    return [line.removesuffix(" ;").removesuffix(".")
            for line in out.getvalue().splitlines()[1:]]


# --- the four ports and creep -----------------------------------------------------------------

def test_creep_shows_call_exit_redo_fail_one_at_a_time_and_the_answers_between():
    answers = untraced("member(X, [a,b]).")
    _, shown = stepped(["trace.", "member(X, [a,b])."], "cc;cc;cc")
    assert [(port, depth, goal) for _, port, depth, goal, _ in ports(shown)] == [
        ("Call", 1, "member(X, [a,b])"), ("Exit", 1, "member(a, [a,b])"),
        ("Redo", 1, "member(X, [a,b])"), ("Exit", 1, "member(b, [a,b])"),
        ("Redo", 1, "member(X, [a,b])"), ("Fail", 1, "member(X, [a,b])")]
    assert all(command == "creep" for *_, command in ports(shown))
    after = shown.split("Exit: (1) member(a, [a,b]) ? creep\n")[1]
    assert after.startswith(f"{answers[0]} ;\n")
    assert shown.endswith("creep\nfalse.\n")


@pytest.mark.parametrize("engine", ["reference", "logic"])
def test_creeping_into_a_lab_predicate_shows_the_lab_s_recursion_and_its_answer(engine):
    state, player = parse_position(NEAR_WIN, "x")
    answer = make_engine(engine).max_value(state, player)
    goal = f"max_value({NEAR_WIN}, x, SV)."
    _, shown = stepped(["trace.", goal], "c" * 40 + "l\r", engine)
    steps = ports(shown)
    assert steps[0][1:4] == ("Call", 1, f"max_value({to_prolog(state)}, x, SV)")
    assert steps[1][1:3] == ("Call", 2) and steps[1][3].startswith("terminal_state(")
    assert all(depth >= 2 for _, _, depth, _, _ in steps[1:])
    assert f"SV = sv({to_prolog(answer.state)},{answer.value})" in shown


@pytest.mark.parametrize("engine", ["reference", "logic"])
def test_skip_runs_the_call_unseen_to_its_exit_with_the_engines_answer(engine):
    state, player = parse_position(LATE, "x")
    answer = make_engine(engine).max_value(state, player)
    _, shown = stepped(["trace.", f"max_value({LATE}, x, SV)."], "sc\r", engine)
    steps = ports(shown)
    assert [(port, depth, command) for _, port, depth, _, command in steps] == [
        ("Call", 1, "skip"), ("Exit", 1, "creep")]
    assert steps[1][3] == (f"max_value({to_prolog(state)}, x, "
                           f"sv({to_prolog(answer.state)},{answer.value}))")


def test_what_a_stepped_goal_writes_comes_between_its_ports_escaped():
    _, shown = stepped(["trace.", "write('a\\eb'), X = 1."], "ccc\r")
    call, written, exit_ = shown.splitlines()[2:5]
    assert call.startswith("   Call: (1) write(") and call.endswith(" ? creep")
    assert written == "a\\x1bb"
    assert exit_.startswith("   Exit: (1) write(") and exit_.endswith(" ? creep")
    assert "\x1b" not in shown


# --- the other commands -------------------------------------------------------------------------

def test_retry_goes_back_to_the_call_port_undoing_its_bindings():
    _, shown = stepped(["trace.", "other_player(x, O)."], "crc\r")
    assert [(port, goal, command) for _, port, _, goal, command in ports(shown)] == [
        ("Call", "other_player(x, O)", "creep"), ("Exit", "other_player(x, o)", "retry"),
        ("Call", "other_player(x, O)", "creep"), ("Exit", "other_player(x, o)", "creep")]
    assert shown.endswith("O = o .\n")


@pytest.mark.parametrize("at", ["call", "exit"])
def test_fail_makes_the_call_fail_at_once(at):
    keys = "f" if at == "call" else "cf"
    _, shown = stepped(["trace.", "other_player(x, O)."], keys + "c")
    assert ports(shown)[-1][1:4] == ("Fail", 1, "other_player(x, O)")
    assert untraced("other_player(x, O).") == ["O = o"]
    assert shown.endswith("false.\n")


def test_abort_stops_the_goal_and_the_session_goes_on():
    session, shown = stepped(["trace.", "member(X, [a,b,c])."], "ca")
    assert shown.endswith("? abort\n% Execution Aborted\n")
    assert "X = " not in shown
    session.handle("other_player(x, O).")
    assert session.out.getvalue().endswith("% Execution Aborted\nO = o.\n")


def test_leap_without_spy_points_runs_to_the_answer_and_nodebug_too():
    for key in "ln":
        _, shown = stepped(["trace.", "member(X, [a,b])."], key + "\r")
        assert len(ports(shown)) == 1
        assert shown.endswith(f"{untraced('member(X, [a,b]).')[0]} .\n")


def test_help_lists_every_command_and_asks_again_at_the_same_port():
    _, shown = stepped(["trace.", "other_player(x, O)."], "h?cc\r")
    assert "\n".join(help_lines()) in shown
    assert all(option.word in "\n".join(help_lines()) for option in OPTIONS)
    assert [command for *_, command in ports(shown)] == ["help", "help", "creep", "creep"]
    assert len({goal for _, _, _, goal, _ in ports(shown)[:3]}) == 1


# --- spy points -------------------------------------------------------------------------------

def test_leap_stops_only_at_the_ports_of_a_spy_point():
    state, player = parse_position(LATE, "x")
    session, shown = stepped(["spy(min_value/3).", f"max_value({LATE}, x, SV)."],
                             "l" * 200 + "\r")
    assert "% Spy point on min_value/3" in shown
    steps = ports(shown)
    assert steps and all(mark == "*" and goal.startswith("min_value(")
                         for mark, _, _, goal, _ in steps)
    answer = make_engine("reference").max_value(state, player)
    assert f"SV = sv({to_prolog(answer.state)},{answer.value})" in shown
    session.handle("nospy(min_value/3).")
    session.handle("debugging.")
    assert session.out.getvalue().endswith(
        "% Spy point removed from min_value/3\ntrue.\n% debug mode on; spy points: none\n"
        "true.\n")


def test_nodebug_keeps_the_spy_points_but_acts_on_none_and_nospyall_removes_them():
    session, _ = stepped(["spy(max_value).", "spy(terminal_state/3).", "nodebug."], "\r")
    session.handle("debugging.")
    session.handle(f"max_value({NEAR_WIN}, x, SV).")
    shown = session.out.getvalue()
    assert "% debug mode off; spy points: max_value, terminal_state/3\n" in shown
    assert not ports(shown.split("debugging.")[-1])
    session.handle("nospyall.")
    session.handle("debugging.")
    assert session.out.getvalue().endswith(
        "% All spy points removed\ntrue.\n% debug mode off; spy points: none\ntrue.\n")


@pytest.mark.parametrize("keys", ["", "\r"])  # off a terminal, and on one
def test_in_debug_mode_the_sessions_own_words_answer_once(keys):
    """With a spy point in debug mode, `debugging.`, `nospy/1`, `debug.` and `nodebug.` are
    not stepped: each answers `true.`, no `;` asked, as SWI-Prolog answers them."""
    words = ["spy(successor).", "debugging.", "nospy(max_value).", "debug.", "nodebug."]
    _, shown = stepped(words, keys)
    assert [line for line in shown.splitlines() if not line.startswith("%")] == (
        ["true."] * len(words))


def test_nospy_of_one_arity_removes_it_from_a_spy_point_on_the_name():
    """`spy(successor)` spies on every arity of successor; `nospy(successor/2)` removes that
    one and keeps the others, `nospy(min_value/3)` the only one of min_value."""
    session, shown = stepped(["spy(successor).", "spy(min_value).", "nospy(successor/2).",
                              "nospy(min_value/3).", "debugging."], "")
    assert "% Spy point removed from successor/2\n" in shown
    assert "% Spy point removed from min_value/3\n" in shown
    assert shown.splitlines()[-2] == "% debug mode on; spy points: successor/3"


@pytest.mark.parametrize(("goal", "error"), [
    ("spy(no_such/2).", "ERROR: spy/1: no predicate no_such/2 (:help lists them)"),
    ("spy(max_value/x).", "ERROR: a spy point is Name or Name/Arity (max_value/3), not "
                          "max_value/x"),
    ("spy(S).", "ERROR: arguments are not sufficiently instantiated"),
])
def test_a_wrong_spy_point_is_one_error_line(goal, error):
    _, shown = stepped([goal], "")
    assert shown.splitlines()[-1].startswith(error)
    assert len(shown.splitlines()) == 1


def test_off_a_terminal_the_ports_of_spy_points_are_printed_without_asking():
    out = io.StringIO()
    repl.run("reference", io.StringIO(f"spy(min_value/3).\nmax_value({LATE}, x, SV).\n"), out)
    steps = ports("\n".join(line + " ? -" for line in out.getvalue().splitlines()))
    assert steps and {mark for mark, *_ in steps} == {"*"}
    assert {port for _, port, *_ in steps} >= {"Call", "Exit"}


def test_off_a_terminal_the_printed_ports_are_bounded_and_the_engine_answers_the_rest():
    state, player = parse_position("x--------", "o")
    decision = make_engine("reference").minimax_decision(state, player)
    out = io.StringIO()
    repl.run("reference", io.StringIO(
        "spy(max_value/3).\nminimax_decision(x--------, o, A, V).\n"), out)
    shown = out.getvalue()
    assert len(ports("\n".join(line + " ? -" for line in shown.splitlines()))) == MAX_PRINTED
    assert f"A = {decision.action}, V = {decision.value} ;\nfalse.\n% the ports" in shown


@needs_swipl
def test_a_students_loaded_program_is_one_box_skipped_stepped_crept_printed_off_a_terminal():
    session = Session("reference", io.StringIO(), Keys("s\rs\rc" + "c" * 10 + "a"),
                      program=str(LAB_STYLE))
    printing = Session("reference", io.StringIO(), None, program=str(LAB_STYLE))
    try:
        session.handle("trace.")
        session.handle(f"max_value({NEAR_WIN}, x, SV), other_player(x, O).")
        skipped = session.out.getvalue()
        session.handle("trace.")
        session.handle(f"max_value({NEAR_WIN}, x, SV).")
        crept = session.out.getvalue()[len(skipped):]
        printing.handle("trace.")
        printing.handle(f"max_value({NEAR_WIN}, x, SV).")
        printed = printing.out.getvalue()
    finally:
        session.close()
        printing.close()
    steps = ports(skipped)
    state, player = parse_position(NEAR_WIN, "x")
    answer = make_engine("reference").max_value(state, player)
    assert [(port, depth) for _, port, depth, _, _ in steps] == [
        ("Call", 1), ("Exit", 1), ("Call", 1), ("Exit", 1)]
    assert steps[1][3].endswith(f"sv({to_prolog(answer.state)},{answer.value}))")
    inside = ports(crept)
    assert inside[1][1:3] == ("Call", 2) and inside[-1][4] == "abort" and len(inside) > 10
    assert not ports(printed) and " Call: " in printed and " Exit: " in printed


# --- any text at a port -----------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.text(max_size=12))
def test_any_text_at_a_port_is_a_command_or_one_line_and_the_session_goes_on(typed):
    session, shown = stepped(["trace.", "member(X, [a,b])."], typed)
    lines = shown.splitlines()[2:]
    words = {option.word for option in OPTIONS}
    for line in lines:
        match = PORT.match(line)
        assert (match and (match[5] in words or match[5] == "")) or line in (
            UNKNOWN, "% Execution Aborted", "false.", "X = a ;", "X = b ;", "X = a .",
            "X = b .") or line in help_lines() or re.fullmatch(r"X = [ab] [;.]", line), line
    assert session.handle("other_player(x, O).")
    assert session.out.getvalue().endswith("O = o.\n")


# --- on a pseudo-terminal ------------------------------------------------------------------------

@pytest.fixture
def terminal():
    opened = Terminal("repl", "--engine", "reference")
    yield opened
    opened.close()


def test_on_a_terminal_each_port_waits_for_its_command(terminal):
    terminal.read_until("?- ")
    terminal.send("trace.\r")
    terminal.read_until("?- ")
    terminal.send(f"max_value({NEAR_WIN}, x, SV).\r")
    call = f"max_value({to_prolog(parse_position(NEAR_WIN, 'x')[0])}, x, SV)"
    assert terminal.read_until(" ? ").endswith(f"   Call: (1) {call} ? ")
    terminal.send("\r")
    assert terminal.read_until(" ? ").startswith("creep\n   Call: (2) terminal_state(")
    terminal.send("s")
    assert re.match(r"skip\n   Fail: \(2\) terminal_state\(.*\) \? $", terminal.read_until(" ? "))
    terminal.send("x")
    assert terminal.read_until(" ? ").startswith(f"\n{UNKNOWN}\n   Fail: (2)")
    terminal.send("r")
    assert terminal.read_until(" ? ").startswith("retry\n   Call: (2) terminal_state(")
    terminal.send("f")
    assert terminal.read_until(" ? ").startswith("fail\n   Fail: (2) terminal_state(")
    terminal.send("h")
    assert "creep" in terminal.read_until(" ? ")
    terminal.send("a")
    assert terminal.read_until("?- ").endswith("abort\n% Execution Aborted\n?- ")
    terminal.send("spy(min_value/3).\r")
    terminal.read_until("?- ")
    terminal.send(f"max_value({NEAR_WIN}, x, SV).\r")
    assert terminal.read_until(" ? ").split("\n")[-1].startswith(" * Call: (")
    terminal.send("l")
    assert " * Exit: (" in terminal.read_until(" ? ")
    terminal.send("n")
    assert terminal.read_until("SV = ").endswith("nodebug\nSV = ")
    terminal.send("\r")
    terminal.read_until("?- ")
    terminal.send(":quit\r")
    assert terminal.exit_status() == 0
