"""The lab in real SWI-Prolog: `logic/prolog/lab.pl` behind the `prolog`, `prolog-tabled` engines.

`prolog-tabled` is checked on all 9040 positions; the untabled `prolog` (the same program text,
15-50 s for the whole table) on both empty boards and a fixed sample of 300 positions.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from boards import LAB_CASES, TACTICS, TERMINAL
from marks import few_by_default, needs_swipl
from processes import Terminal, started, stop, wait_for_work

from minimax_lab.logic.commands.cli import EXIT_USAGE, main
from minimax_lab.logic.contain import reading, swipl
from minimax_lab.logic.engines import EngineError, make_engine
from minimax_lab.logic.engines.prolog import program_files
from minimax_lab.logic.objective import Objective
from minimax_lab.logic.positions import all_positions
from minimax_lab.logic.state import EMPTY
from minimax_lab.logic.terms import Action, Decision

SAMPLE = random.Random(3).sample(all_positions(), 300)


@pytest.fixture(scope="module")
def reference():
    return make_engine("reference")


@pytest.fixture(scope="module", params=["prolog", "prolog-tabled"])
def prolog(request):
    if shutil.which("swipl") is None:
        pytest.skip("swipl is not installed (Debian package swi-prolog-nox); .ci/run installs it")
    engine = make_engine(request.param)
    yield engine
    engine.close()


@needs_swipl
@pytest.mark.parametrize("name", few_by_default(  # the empty board, untabled: the whole tree
    [*LAB_CASES, *TACTICS],  # (the tabled lab decides it below, on every position)
    [name for name, (state, *_) in {**LAB_CASES, **TACTICS}.items() if state != "---------"]))
def test_the_labs_cases_and_the_boards_decisions(prolog, name):
    state, player, position, value = {**LAB_CASES, **TACTICS}[name]
    assert prolog.minimax_decision(state, player) == Decision(Action(player, position), value)


@needs_swipl
@pytest.mark.parametrize("name", list(TERMINAL))
def test_terminal_states_have_values_and_no_decision(prolog, name):
    state, values = TERMINAL[name]
    for player, value in values.items():
        assert prolog.terminal_state(state, player) == value
        assert prolog.minimax_decision(state, player) is None
        assert prolog.move_values(state, player) == {}


@needs_swipl
def test_every_predicate_answers_as_the_reference_on_a_sample(prolog, reference):
    for state, player in SAMPLE[:60]:
        other = reference.other_player(player)
        assert prolog.other_player(player) == other
        assert prolog.successor(state, player) == reference.successor(state, player)
        assert prolog.terminal_state(state, player) == reference.terminal_state(state, player)
        assert prolog.max_value(state, player) == reference.max_value(state, player)
        assert prolog.min_value(state, other) == reference.min_value(state, other)
        assert prolog.move_values(state, player) == reference.move_values(state, player)
        for next_state in reference.successor(state, player):
            assert prolog.get_action(state, next_state) == reference.get_action(state, next_state)
        assert prolog.get_action(state, state) is None


@pytest.mark.slow
@needs_swipl
def test_the_untabled_lab_agrees_with_the_reference_on_every_position(reference):
    # The lab's program as the lab runs it, no tabling: about 16 s for the 9040 positions.
    positions = all_positions()
    with make_engine("prolog") as engine:
        assert engine.decisions(positions) == reference.decisions(positions)


@needs_swipl
def test_the_tabled_lab_agrees_with_the_reference_on_every_position(reference):
    positions = all_positions()
    with make_engine("prolog-tabled") as engine:
        decisions = engine.decisions(positions)
    assert decisions == reference.decisions(positions)
    assert Counter(decision.value for decision in decisions.values()) == {
        1: 5672, 0: 2104, -1: 1264,
    }


@needs_swipl
def test_one_swipl_process_answers_every_query():
    with make_engine("prolog-tabled") as engine:
        pid = engine.pid
        engine.decisions(SAMPLE[:50])
        assert engine.pid == pid
        assert engine._swipl.running


@needs_swipl
def test_a_swipl_that_stops_on_a_question_twice_is_reported_in_one_line():
    # The engine's swipl is killed, and the one started in its place dies on the question too.
    engine = make_engine("prolog-tabled")
    engine._swipl.argv = ["sh", "-c", "printf 'oops\\033[2J\\n' >&2; exit 3"]
    engine._swipl.process.kill()
    engine._swipl.process.wait()
    with pytest.raises(EngineError) as stopped:
        engine.minimax_decision(EMPTY, "x")
    engine.close()
    assert str(stopped.value) == (
        "the prolog-tabled engine stopped: swipl exited with status 3; it said: 'oops\\x1b[2J'"
    )


@needs_swipl
def test_lab_pl_runs_in_swipl_as_the_lab_is_used():
    goal = "minimax_decision([x,-,-,-,-,-,-,-,-], o, A, V), print(A-V), nl"
    game, lab, _ = program_files("lab.pl")
    result = subprocess.run(
        ["swipl", "-q", "-f", "none", "-g", goal, "-t", "halt", game, lab],
        capture_output=True, text=True, timeout=60,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "[o,5]-0\n", "")


def test_the_labs_program_has_no_tabling_and_reads_the_games_facts():
    game, lab, _ = program_files("lab.pl")
    text = Path(lab).read_text(encoding="utf-8")
    assert ":- table" not in text
    assert "line(A, B, C)" in text and "other_player(Player, Other)" in text
    assert Path(game).read_text(encoding="utf-8").startswith("% Tic-tac-toe as plain facts")


@pytest.mark.parametrize("name", ["prolog", "prolog-tabled"])
def test_without_swipl_the_engine_says_so_in_one_line(monkeypatch, name):
    monkeypatch.setattr(swipl, "SWIPL", "swipl-that-is-not-installed")
    with pytest.raises(EngineError) as raised:
        make_engine(name)
    message = str(raised.value)
    assert "install swi-prolog-nox" in message and "\n" not in message


def test_without_swipl_the_command_line_says_so_and_exits_2(monkeypatch, capsys):
    monkeypatch.setattr(swipl, "SWIPL", "swipl-that-is-not-installed")
    status = main(["decide", "x--------", "o", "--engine", "prolog"])
    out, err = capsys.readouterr()
    assert (status, out) == (EXIT_USAGE, "")
    assert err.startswith("minimax-lab: error: the prolog engine needs SWI-Prolog")
    assert err.count("\n") == 1


@pytest.mark.parametrize("objective", [Objective("lose", "lab"), Objective("win", "depth")])
def test_the_prolog_engines_play_the_labs_objective_only(objective):
    with pytest.raises(EngineError, match="the lab's objective only"):
        make_engine("prolog", objective)


# --- interrupts and a swipl that dies --------------------------------------------------------

@needs_swipl
def test_a_dead_swipl_is_started_afresh_for_the_next_question():
    with make_engine("prolog") as engine:
        first = engine.pid
        os.kill(first, signal.SIGKILL)
        assert engine.minimax_decision("x--------", "o") == Decision(Action("o", 5), 0)
        assert engine.pid != first


@needs_swipl
def test_an_interrupted_question_is_cancelled_and_never_answers_the_next(monkeypatch):
    with make_engine("prolog") as engine:
        first = engine.pid

        real_ready = reading.ready

        def interrupted(*args, **kwargs):
            """A Ctrl-C while the first answer is awaited; later waits as they are."""
            monkeypatch.setattr(reading, "ready", real_ready)
            raise KeyboardInterrupt

        monkeypatch.setattr(reading, "ready", interrupted)
        with pytest.raises(KeyboardInterrupt):
            engine.minimax_decision("---------", "x")
        assert engine.minimax_decision("x--------", "o") == Decision(Action("o", 5), 0)
        assert engine.other_player("x") == "o"
        assert engine.pid != first


@needs_swipl
def test_sigint_to_minimax_lab_alone_cancels_the_query_and_the_session_goes_on():
    session = started("repl", "--engine", "prolog")
    try:
        session.stdin.write("minimax_decision(---------, x, A, V).\n")
        session.stdin.flush()
        assert session.stdout.readline() == "?- minimax_decision(---------, x, A, V).\n"
        wait_for_work(session.pid, 0.5)  # swipl is deep in the question
        session.send_signal(signal.SIGINT)
        out, err = stop(session, "minimax_decision(x--------, o, A, V).\nother_player(x, O).\n")
    finally:
        session.kill()
    assert out == (
        "% interrupted\n"
        "?- minimax_decision(x--------, o, A, V).\nA = [o,5], V = 0.\n"
        "?- other_player(x, O).\nO = o.\n"
    )
    assert err == ""


@needs_swipl
def test_on_a_terminal_ctrl_c_reaches_minimax_lab_alone_and_the_engine_goes_on():
    terminal = Terminal("repl", "--engine", "prolog-tabled")
    try:
        terminal.read_until("?- ")
        terminal.send("minimax_decision(x--------, o, A, V)\r")
        assert terminal.read_until("?- ").endswith("A = [o,5], V = 0.\n?- ")
        terminal.send("\x03")
        assert terminal.read_until("?- ", timeout=10) == "\n?- "
        terminal.send("minimax_decision(o-x------, o, A, V)\r")
        assert terminal.read_until("?- ").endswith("\nA = [o,4], V = 1.\n?- ")
    finally:
        terminal.close()
