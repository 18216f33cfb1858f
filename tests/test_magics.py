"""`%%prolog` and `%prolog` (`logic.magics`) in a real IPython shell: the top level's answers,
as tables, on any engine, traced; bad options and bad goals one `ERROR:` line each."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from boards import LAB_CASES
from hypothesis import given, settings
from hypothesis import strategies as st
from marks import needs_swipl

from minimax_lab.logic.state import to_prolog
from minimax_lab.logic.toplevel import repl

pytest.importorskip("IPython", reason="IPython is not installed (pip install '.[notebook]')")
from IPython.testing.globalipapp import start_ipython  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CELL = """\
% the lab's own cases
minimax_decision([o,-,x,-,-,-,-,-,-], o, Action, Value).
successor(o-x------, x, Next).
terminal_state([x,x,x,o,o,-,-,-,-], o, V).
max_value(xxoo-----,
          x, SV).
:engine reference
min_value([x,x,-,o,-,-,-,-,-], x, SV).
nonsense(
"""


@pytest.fixture(scope="module")
def shell():
    ipython = start_ipython()
    ipython.run_line_magic("load_ext", "minimax_lab.logic.magics")
    return ipython


def piped(text: str, engine: str = "logic") -> str:
    """What `minimax-lab repl` prints for `text` on a pipe."""
    out = io.StringIO()
    repl.run(engine, io.StringIO(text), out)
    return out.getvalue()


def table(html: str) -> list[list[str]]:
    """The rows of the first answers table in `html`, its header first."""
    found = re.search(r'<table class="answers">(.*?)</table>', html, re.DOTALL)
    assert found is not None, html
    return [re.findall(r"<t[hd]>(?:<code[^>]*>)?(.*?)(?:</code>)?</t[hd]>", row)
            for row in re.findall(r"<tr>(.*?)</tr>", found.group(1))]


def test_a_cell_answers_as_the_top_level_does_from_a_pipe(shell):
    shown = shell.run_cell_magic("prolog", "", CELL)
    assert shown.text() + "\n" == piped(CELL)
    assert "ERROR: syntax error" in shown.text()


def test_answers_display_as_a_table_a_column_per_variable(shell):
    shown = shell.run_cell_magic("prolog", "--engine reference", "successor(o-x------, x, Next).")
    rows = table(shown.html())
    expected = re.findall(r"Next = (\S+?)(?: ;|\.)$", piped("successor(o-x------, x, Next).",
                                                            "reference"), re.MULTILINE)
    assert rows[0] == ["Next"] and [row[0] for row in rows[1:]] == expected
    assert len(expected) == 7


@pytest.mark.parametrize("name", list(LAB_CASES))
def test_the_line_magic_answers_one_goal_on_each_engine(shell, name):
    state, player, cell, value = LAB_CASES[name]
    for engine in ("reference", "logic"):
        shown = shell.run_line_magic(
            "prolog", f"--engine {engine} minimax_decision({to_prolog(state)}, {player}, A, V)")
        assert table(shown.html())[1] == [f"[{player},{cell}]", str(value)]


def test_a_cells_engine_holds_for_the_cell_and_an_engine_command_for_the_session(shell):
    shell.run_cell_magic("prolog", "", ":engine logic")
    shown = shell.run_cell_magic("prolog", "--engine reference", ":engine")
    assert shown.text().endswith("% engine: reference")
    assert shell.run_cell_magic("prolog", "", ":engine").text().endswith("% engine: logic")
    shell.run_cell_magic("prolog", "", ":engine reference")
    assert shell.run_cell_magic("prolog", "", ":engine").text().endswith("% engine: reference")
    shell.run_cell_magic("prolog", "", ":engine logic")


def test_trace_shows_the_calls_before_every_goal_of_the_cell(shell):
    goals = "max_value(o-x------, o, SV).\nmin_value(ox-------, o, SV).\n"
    shown = shell.run_cell_magic("prolog", "--trace 1", goals)
    calls = [line for line in shown.text().splitlines() if "Call: (1)" in line]
    assert calls == [" Call: (1) max_value([o,-,x,-,-,-,-,-,-], o, _)",
                     " Call: (1) min_value([o,x,-,-,-,-,-,-,-], o, _)"]
    untraced = shell.run_cell_magic("prolog", "", goals)
    assert "Call:" not in untraced.text()


@pytest.mark.parametrize(("options", "message"), [
    ("--bogus", "unknown option '--bogus'"),
    ("--engine nowhere", "unknown engine 'nowhere'"),
    pytest.param("--program /no/such/file.pl", "no file or folder '/no/such/file.pl'",
                 marks=needs_swipl),  # swipl is asked for before the file
    ("--engine logic --program x.pl", "a student's program runs as --engine prolog"),
])
def test_a_bad_option_is_one_error_line(shell, options, message):
    shown = shell.run_cell_magic("prolog", options, "true.")
    assert shown.text().startswith("ERROR: ") and message in shown.text()
    assert len(shown.text().splitlines()) == 1


@needs_swipl
def test_a_students_program_answers_a_cell_of_its_own(shell):
    program = ROOT / "tests" / "submissions" / "no_draw.pl"
    goal = "terminal_state([x,o,x,x,o,o,o,x,x], x, V)."
    assert shell.run_cell_magic("prolog", f"--program {program}", goal).text().endswith(
        "false.")
    assert shell.run_cell_magic("prolog", "", goal).text().endswith("V = 0.")


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=80))
def test_any_line_is_answered_or_an_error_and_the_session_goes_on(shell, line):
    shown = shell.run_line_magic("prolog", "<i>" + line.replace("\n", " "))
    assert "<i>" not in shown.html() and "ERROR: " in shown.text()
    shell.run_line_magic("prolog", line.replace("\n", " "))
    after = shell.run_line_magic("prolog", "terminal_state([x,x,x,o,o,-,-,-,-], o, V).")
    assert after.text().endswith("V = -1.")


def test_a_traces_hint_names_what_the_cell_can_use(shell):
    """A cell traced by its --trace option says --trace N, one traced by :trace says :trace N;
    neither names the command line."""
    by_option = shell.run_cell_magic("prolog", "--trace 1", "max_value(o-x------, o, SV).")
    by_command = shell.run_cell_magic("prolog", "", ":trace 1\nmax_value(o-x------, o, SV).")
    for shown, words in ((by_option, "--trace N"), (by_command, ":trace N")):
        (hint,) = [line for line in shown.text().splitlines() if "more calls not shown" in line]
        assert hint.endswith(f"; {words} shows N levels; lab.trace(STATE, PLAYER, max_calls=N) "
                             "shows more calls")
        assert "minimax-lab" not in shown.text()


def test_a_cells_engine_is_made_for_a_session_that_has_not_met_it():
    from minimax_lab.logic.magics import NotebookSession, answer_cell

    session = NotebookSession("logic")
    shown = answer_cell(session, "--engine reference", "other_player(x, O).")
    assert shown.text() == "?- other_player(x, O).\nO = o."
    assert set(session.engines) == {"logic", "reference"}
