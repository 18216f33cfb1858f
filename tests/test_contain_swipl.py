"""The one client of a trusted `swipl` (`logic.contain.swipl`): replies read within a bound, a
child that hangs, dies mid-reply or writes what is not the protocol killed with one error, and
the one check that `swipl` is here, in one wording wherever it is needed."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from marks import needs_swipl

from minimax_lab.logic.commands.cli import EXIT_USAGE, main
from minimax_lab.logic.contain import swipl
from minimax_lab.logic.contain.contained import ProgramError
from minimax_lab.logic.contain.swipl import (
    Swipl,
    SwiplLate,
    SwiplMissing,
    SwiplRefused,
    SwiplStopped,
)
from minimax_lab.logic.engines import EngineError, make_engine
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.state import State
from minimax_lab.logic.tools.prolog_trace import PrologTraceError, trace_lab

GAME = Path(__file__).resolve().parent.parent / "facts" / "game.pl"


def child(monkeypatch, tmp_path, code: str) -> Swipl:
    """A client whose `swipl` is a Python child running `code`, with the protocol's pipes."""
    monkeypatch.setattr(swipl, "found", lambda: "/bin/sh")  # as if swipl were there
    client = Swipl([], tmp_path, "this test")
    client.argv = [sys.executable, "-c", "import os, sys, time\n"
                   "open('pid', 'w').write(str(os.getpid()))\n" + code]
    return client


def child_pid(tmp_path) -> int:
    return int((tmp_path / "pid").read_text())


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_child_that_hangs_is_killed_at_the_timeout(monkeypatch, tmp_path):
    client = child(monkeypatch, tmp_path, "os.read(3, 100); time.sleep(600)")
    with pytest.raises(SwiplLate, match="gave no reply within 0.5 s and was stopped"):
        client.ask("other_player(x)", 0.5)
    assert gone(child_pid(tmp_path)) and not client.running


def test_a_child_that_dies_mid_reply_is_one_error_saying_how(monkeypatch, tmp_path):
    client = child(monkeypatch, tmp_path, "os.read(3, 100); os.write(4, b'{\"ok\": [1, 2');"
                   " print('half a reply', file=sys.stderr, flush=True); os._exit(3)")
    with pytest.raises(SwiplStopped) as stopped:
        client.ask("other_player(x)", 30)
    assert str(stopped.value) == "swipl exited with status 3; it said: 'half a reply'"
    assert not client.running


@pytest.mark.parametrize("written", [b"not json\n", b"[1, 2]\n", b"{\"ok\": [1, 2\n",
                                     b"{\"other\": 1}\n"])
def test_a_reply_that_is_not_the_protocols_is_one_error_and_the_child_is_killed(
        monkeypatch, tmp_path, written):
    client = child(monkeypatch, tmp_path,
                   f"os.read(3, 100); os.write(4, {written!r}); time.sleep(600)")
    with pytest.raises(SwiplStopped, match="wrote a reply that is not"):
        client.ask("other_player(x)", 30)
    assert gone(child_pid(tmp_path)) and not client.running


def test_a_reply_too_long_is_one_error(monkeypatch, tmp_path):
    client = child(monkeypatch, tmp_path, "os.read(3, 100); os.write(4, b'x' * (2**20 + 10));"
                   " time.sleep(600)")
    with pytest.raises(SwiplStopped, match="too long"):
        client.ask("other_player(x)", 30)


@needs_swipl
def test_real_swipl_answers_refuses_and_is_started_afresh_after_a_hang(tmp_path):
    program = tmp_path / "loops.pl"
    program.write_text("forever :- repeat, fail.\n")
    with Swipl([GAME, program], tmp_path, "this test") as client:
        assert client.ask("other_player(x)", 30) == "o"
        with pytest.raises(SwiplRefused, match="no answer to nope"):
            client.ask("nope(1)", 30)
        assert client.running  # an error in Prolog costs that request only
        first = client.process.pid
        with pytest.raises(SwiplLate):
            client.ask("trace(forever, done, [])", 1)
        assert gone(first)
        assert client.ask("other_player(o)", 30) == "x"
        assert client.process.pid != first


@needs_swipl
def test_a_traces_lines_come_one_by_one_before_its_answer(tmp_path):
    program = tmp_path / "count.pl"
    program.write_text("count(0) :- !.\ncount(N) :- M is N - 1, count(M).\n")
    lines: list[str] = []
    with Swipl([program], tmp_path, "this test") as client:
        answer = client.ask("trace(count(2), counted, [count/1])", 30, lines.append)
    assert answer == "counted"
    assert [line.split("] ")[1] for line in lines] == [
        "Call: count(2)", "Call: count(1)", "Call: count(0)",
        "Exit: count(0)", "Exit: count(1)", "Exit: count(2)"]


# --- the one check that swipl is here ---------------------------------------------------------

MISSING = ("needs SWI-Prolog, and swipl-that-is-not-installed is not on the PATH; "
           "install swi-prolog-nox (Debian, Ubuntu) or see https://www.swi-prolog.org")


def test_without_swipl_every_user_says_so_in_the_one_wording(monkeypatch, tmp_path):
    monkeypatch.setattr(swipl, "SWIPL", "swipl-that-is-not-installed")
    with pytest.raises(SwiplMissing) as missing:
        swipl.require("this test")
    assert str(missing.value) == f"this test {MISSING}"
    assert isinstance(missing.value, ProgramError) and missing.value.exit_status == EXIT_USAGE
    with pytest.raises(EngineError) as engine:
        make_engine("prolog")
    with pytest.raises(PrologTraceError) as tracer:
        trace_lab("minimax_decision", State("x--------"), "o")
    program = tmp_path / "p.pl"
    program.write_text("other_player(x, o).\n")
    from minimax_lab.logic.contain.harness import StudentProgram
    with pytest.raises(ProgramError) as grading:
        StudentProgram([program])
    from minimax_lab.compare.grader.interfaces.prolog_interface import PrologInterface
    with pytest.raises(LabError) as grade:
        PrologInterface().ready([program])
    said = {str(error.value) for error in (engine, tracer, grading, grade)}
    assert said == {f"the prolog engine {MISSING}", f"tracing in Prolog {MISSING}",
                    f"grading Prolog {MISSING}", f"grade {MISSING}"}


@pytest.mark.parametrize("argv", [["decide", "x--------", "o", "--engine", "prolog"],
                                  ["trace", "x--------", "o", "--engine", "prolog"]])
def test_without_swipl_a_command_says_so_in_one_line_and_exits_2(monkeypatch, capsys, argv):
    monkeypatch.setattr(swipl, "SWIPL", "swipl-that-is-not-installed")
    assert main(argv) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("minimax-lab: error: ") and err.count("\n") == 1
    assert err.rstrip().endswith(MISSING)
