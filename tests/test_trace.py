"""`minimax-lab trace` and the top level's `:trace`: the lab's recursion, call by call, as
SWI-Prolog's tracer prints it, its answers the reference's."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from boards import board
from marks import needs_swipl

from minimax_lab.logic import reference
from minimax_lab.logic.commands.cli import EXIT_FALSE, EXIT_OK, EXIT_USAGE, main
from minimax_lab.logic.positions import all_positions
from minimax_lab.logic.state import to_prolog
from minimax_lab.logic.terms import SV
from minimax_lab.logic.tools.trace import Tracer
from minimax_lab.logic.toplevel.repl import Session

# o to move, two blanks: o6 lets x take 8 for a draw, o8 wins at once.
TWO_LEFT = board("""
    x o x
    x o -
    o - x
""")
_LINE = re.compile(r"^( +)(Call|Exit|Fail): \((\d+)\) (\w+)\((.*)\)$")


def test_a_small_trace_is_exactly_what_swi_prolog_prints_indented():
    tracer = Tracer()
    assert tracer.max_value(TWO_LEFT, "o") == reference.max_value(TWO_LEFT, "o")
    s = to_prolog
    after6, after8 = TWO_LEFT[:5] + "o" + TWO_LEFT[6:], TWO_LEFT[:7] + "o" + TWO_LEFT[8:]
    full = after6[:7] + "x" + after6[8:]
    assert list(tracer.text()) == [
        f" Call: (1) max_value({s(TWO_LEFT)}, o, _)",
        f"  Call: (2) terminal_state({s(TWO_LEFT)}, o, _)",
        f"  Fail: (2) terminal_state({s(TWO_LEFT)}, o, _)",
        f"  Call: (2) min_value({s(after6)}, o, _)",
        f"   Call: (3) terminal_state({s(after6)}, o, _)",
        f"   Fail: (3) terminal_state({s(after6)}, o, _)",
        f"   Call: (3) max_value({s(full)}, o, _)",
        f"    Call: (4) terminal_state({s(full)}, o, _)",
        f"    Exit: (4) terminal_state({s(full)}, o, 0)",
        f"   Exit: (3) max_value({s(full)}, o, sv({s(full)}, 0))",
        f"  Exit: (2) min_value({s(after6)}, o, sv({s(full)}, 0))",
        f"  Call: (2) min_value({s(after8)}, o, _)",
        f"   Call: (3) terminal_state({s(after8)}, o, _)",
        f"   Exit: (3) terminal_state({s(after8)}, o, 1)",
        f"  Exit: (2) min_value({s(after8)}, o, sv({s(after8)}, 1))",
        f" Exit: (1) max_value({s(TWO_LEFT)}, o, sv({s(after8)}, 1))",
    ]


def check_well_formed(lines: list[str]) -> list[tuple[str, int, str, str]]:
    """Every port read back; each Exit or Fail closes the latest open Call at its depth."""
    read, open_calls = [], []
    for line in lines:
        match = _LINE.match(line)
        assert match, line
        indent, port, depth, name, _ = match.groups()
        assert len(indent) == int(depth)
        if port == "Call":
            assert int(depth) == len(open_calls) + 1
            open_calls.append(name)
        else:
            assert open_calls and open_calls.pop() == name and int(depth) == len(open_calls) + 1
        read.append(match.groups())
    assert not open_calls
    return read


@pytest.mark.parametrize("position", [position for position in all_positions()
                                      if position[0].count("-") <= 3][::25])
def test_every_trace_is_well_formed_and_answers_as_the_reference(position):
    state, player = position
    tracer = Tracer(max_calls=10**6)
    decision = tracer.minimax_decision(state, player)
    assert decision == reference.minimax_decision(state, player)
    read = check_well_formed(list(tracer.text()))
    assert read[-1][1] == "Exit" and read[-1][4].endswith(
        f"{decision.action}, {decision.value}")
    calls = sum(port == "Call" for _, port, *_ in read)
    terminal_calls = sum(name == "terminal_state" for _, port, _, name, _ in read
                         if port == "Call")
    assert terminal_calls == calls - 1 - terminal_calls  # one per max_value and min_value


def test_the_bounds_show_part_and_count_the_rest():
    state, player = "x--------", "o"
    whole = Tracer(max_calls=10**7)
    whole.minimax_decision(state, player)
    every = sum(line.port == "Call" for line in whole.lines)
    for levels, most in ((2, 10**7), (None, 50), (3, 20)):
        tracer = Tracer(levels=levels, max_calls=most)
        tracer.minimax_decision(state, player)
        shown = [line for line in tracer.lines if line.port == "Call"]
        assert len(shown) + tracer.hidden == every
        assert len(shown) <= most and all(levels is None or line.depth <= levels
                                          for line in tracer.lines)
        note = list(tracer.text())[-1]
        assert note.startswith(f"% {tracer.hidden} more calls not shown")
        check_well_formed(list(tracer.text())[:-1])


def test_the_command_prints_the_trace_and_the_answer(capsys):
    assert main(["trace", TWO_LEFT, "o", "--levels", "1"]) == EXIT_OK
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f" Call: (1) minimax_decision({to_prolog(TWO_LEFT)}, o, _, _)"
    assert out[-1] == str(reference.minimax_decision(TWO_LEFT, "o"))
    whole = Tracer()
    whole.minimax_decision(TWO_LEFT, "o")
    below = sum(line.port == "Call" for line in whole.lines) - 1
    assert out[-2] == (f"% {below} more calls not shown (deeper than 1 level); --levels N and "
                       "--max-calls N show more")


def test_a_finished_game_fails_as_the_lab_does(capsys):
    assert main(["trace", "xxxoo----", "o"]) == EXIT_FALSE
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == [" Fail: (1) minimax_decision([x,x,x,o,o,-,-,-,-], o, _, _)", "false."]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["trace", "xoxxo-o-x", "x"], "it cannot be x's move"),
        (["trace", "xoxxo-o-x", "o", "--goal", "min_value"], "it cannot be x's move"),
        (["trace", "xoxxo-o-x", "o", "--max-calls", "0"],
         "a call limit is a number of calls, 1 or more, not '0'"),
        (["trace", "xoxxo-o--", "x", "--depth", "2"], "--levels 2 shows 2 levels of calls"),
        (["trace", "xoxxo-o-x", "o", "--goal", "successor"], "invalid choice: 'successor'"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, argv, message):
    assert main(argv) == EXIT_USAGE
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_the_top_level_traces_the_next_goal_only():
    out = io.StringIO()
    session = Session("reference", out)
    for line in (":trace", f"max_value({TWO_LEFT}, o, SV)", f"max_value({TWO_LEFT}, o, SV)"):
        session.handle(line)
    lines = out.getvalue().splitlines()
    tracer = Tracer()
    tracer.max_value(TWO_LEFT, "o")
    answer = "SV = sv([x,o,x,x,o,-,o,o,x],1)."
    assert lines == ["% the next goal is traced", *tracer.text(), answer, answer]


@pytest.mark.parametrize("name", ["logic", "logic-plain"])
def test_a_pydatalog_engines_proof_is_the_lab_recursion_with_its_own_answers(name):
    from minimax_lab.logic.engines import make_engine

    for state, player in [(TWO_LEFT, "o"), ("xoxxo-o--", "x"), ("x-o-x-o--", "x")]:
        lab, logic = Tracer(), Tracer(engine=make_engine(name))
        assert lab.minimax_decision(state, player) == logic.minimax_decision(state, player)
        assert list(lab.text()) == list(logic.text())


def test_an_answer_its_calls_do_not_justify_is_pointed_out():
    class OffByOne:
        """The reference's answers, but max_value keeps the last successor."""

        def max_value(self, state, player):
            return SV(reference.successor(state, player)[-1], 0)

        def min_value(self, state, player):
            return reference.min_value(state, player)

    tracer = Tracer(engine=OffByOne())
    tracer.max_value(TWO_LEFT, "o")
    notes = [str(line) for line in tracer.lines if line.port == "Note"]
    wins = to_prolog(reference.max_value(TWO_LEFT, "o").state)
    assert notes == [f" Note: (1) the engine answers sv({wins}, 0); the calls above justify "
                     f"sv({wins}, 1)"]


_SWI = re.compile(r"^ T \[\d+\] (Call|Exit|Fail): (\w+)\((\[[^]]*\]), (\w)")


@needs_swipl
@pytest.mark.parametrize("engine", ["prolog", "prolog-tabled"])
def test_swi_prologs_own_tracer_walks_the_same_calls(capsys, engine):
    assert main(["trace", "xoxxo-o--", "x", "--engine", engine, "--max-calls", "1000"]) == 0
    out = capsys.readouterr().out.splitlines()
    swi = [_SWI.match(line).groups() for line in out[:-1]]
    swi = [(port, name, state.replace(" ", ""), player) for port, name, state, player in swi]
    ours = Tracer(max_calls=10**6)
    ours.minimax_decision("xoxxo-o--", "x")
    mine = [(line.port, *_LINE.match(str(line)).group(4, 5)) for line in ours.lines]
    mine = [(port, name, args.split(", ")[0], args.split(", ")[1]) for port, name, args in mine
            if name != "minimax_decision"]
    if engine == "prolog":
        assert swi == mine
    else:  # tabled: each state's value is worked out once, then looked up
        assert swi[0] == mine[0] and set(swi) <= set(mine)
    assert out[-1] == "Action = [x,8], Value = 0."


@needs_swipl
def test_a_students_program_is_traced_contained(capsys):
    submission = Path(__file__).parent / "submissions" / "lab_style.pl"
    assert main(["trace", "xoxxo-o--", "x", "--engine", "prolog", "--program", str(submission),
                 "--max-calls", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2] == "% the trace stopped after 2 calls; --max-calls N shows more"
    assert sum(" Call: " in line for line in out) == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--program", "x.pl"], "a student's program runs as --engine prolog, not reference"),
        (["--engine", "prolog", "--mode", "lose"], "plays the lab's objective only"),
        (["--engine", "prolog", "--levels", "2"], "bounded by --max-calls only"),
        pytest.param(["--engine", "prolog", "--program", "no-such.pl"],
                     "no file or folder 'no-such.pl'", marks=needs_swipl),  # swipl is asked first
        (["--engine", "nope"], "unknown engine 'nope'"),
    ],
)
def test_bad_engine_options_are_one_line_and_status_2(capsys, argv, message):
    assert main(["trace", "xoxxo-o--", "x", *argv]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize(("levels", "max_calls"), [(None, 3), (1, 10**6), (2, 10**6), (2, 7)])
def test_calls_left_out_are_counted_as_the_whole_trace_makes_them(levels, max_calls):
    whole = Tracer(max_calls=10**6)
    decision = whole.minimax_decision("xoxx--o--", "x")
    assert whole.hidden == 0
    made = sum(line.port == "Call" for line in whole.lines)
    bounded = Tracer(levels=levels, max_calls=max_calls)
    assert bounded.minimax_decision("xoxx--o--", "x") == decision
    shown = sum(line.port == "Call" for line in bounded.lines)
    assert shown + bounded.hidden == made and bounded.hidden > 0
    assert [str(line) for line in bounded.lines if line.port == "Call"] == [
        str(line) for line in whole.lines if line.port == "Call"
        and (levels is None or line.depth <= levels)][:max_calls]


def test_a_pydatalog_engine_is_asked_only_about_the_calls_shown():
    class Counting:
        def __init__(self):
            self.asked = 0

        def max_value(self, state, player):
            self.asked += 1
            return reference.max_value(state, player)

        def min_value(self, state, player):
            self.asked += 1
            return reference.min_value(state, player)

    engine = Counting()
    tracer = Tracer(levels=2, engine=engine)
    tracer.minimax_decision("---------", "x")
    shown = [line for line in tracer.lines if line.port == "Exit"
             and line.goal.startswith(("max_value", "min_value"))
             and not reference.terminal_state(*_LINE.match(str(line)).group(5).split(", ")[:2])]
    assert 0 < engine.asked <= len(shown) + 1


def test_the_top_level_traces_to_a_depth_and_can_be_told_not_to():
    out = io.StringIO()
    session = Session("reference", out)
    for line in (":trace 1", f"max_value({TWO_LEFT}, o, SV)", ":trace", ":trace off",
                 f"max_value({TWO_LEFT}, o, SV)", ":trace deep"):
        session.handle(line)
    lines = out.getvalue().splitlines()
    tracer = Tracer(levels=1)
    tracer.max_value(TWO_LEFT, "o")
    answer = "SV = sv([x,o,x,x,o,-,o,o,x],1)."
    traced = list(tracer.text(":trace N shows N levels; minimax-lab trace STATE PLAYER "
                              "--max-calls N shows more calls"))
    assert lines[:len(traced) + 2] == ["% the next goal is traced, 1 level of calls", *traced,
                                       answer]
    assert lines[len(traced) + 2:] == [
        "% the next goal is traced", "% the next goal is not traced", answer,
        "ERROR: usage: :trace, :trace N (levels of calls shown, 1 to 999) or :trace off, "
        "not 'deep'"]
