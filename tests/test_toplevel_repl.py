"""The REPL and the `query` command: driven in-process, through a pipe, and through a
pseudo-terminal (the `;` walk, Ctrl-C, Tab); no input ends a session or prints a traceback."""

from __future__ import annotations

import contextlib
import io
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marks import needs_swipl
from processes import Terminal, environment, wait_for_work

from minimax_lab.logic import reference
from minimax_lab.logic.commands.cli import EXIT_FALSE, EXIT_OK, EXIT_USAGE, main
from minimax_lab.logic.state import draw_board
from minimax_lab.logic.tools.explain import draw_move_values
from minimax_lab.logic.toplevel import repl
from minimax_lab.logic.toplevel.answers import MORE
from minimax_lab.logic.toplevel.clauses import Database, lab_program
from minimax_lab.logic.toplevel.predicates import PREDICATES
from minimax_lab.logic.toplevel.repl import Session, help_text

ROOT = Path(__file__).resolve().parent.parent


class ScriptedKeys:
    """Keys typed after answers, from a script; counts what was read and the spans opened."""

    def __init__(self, keys: list[str]) -> None:
        self.keys = keys
        self.read_count = 0
        self.spans = 0

    @contextlib.contextmanager
    def answering(self):
        self.spans += 1
        yield

    def read(self) -> str:
        self.read_count += 1
        return self.keys.pop(0)


def session(engine: str = "reference", keys: ScriptedKeys | None = None) -> Session:
    return Session(engine, io.StringIO(), keys)


def output(of: Session) -> str:
    return of.out.getvalue()


def piped(text: str, engine: str = "reference") -> str:
    """What `repl.run` prints for `text` on a pipe."""
    out = io.StringIO()
    repl.run(engine, io.StringIO(text), out)
    return out.getvalue()


# --- answers one at a time -----------------------------------------------------------------

def test_semicolon_asks_for_the_next_answer_and_enter_stops():
    keys = ScriptedKeys([";", ";", "\n", ";"])
    walk = session(keys=keys)
    assert walk.handle("successor(x--------, o, S).")
    assert output(walk) == (
        "S = [x,o,-,-,-,-,-,-,-] ;\n"
        "S = [x,-,o,-,-,-,-,-,-] ;\n"
        "S = [x,-,-,o,-,-,-,-,-] .\n"
    )
    assert keys.read_count == 3
    assert keys.spans == 1


def test_the_last_answer_ends_without_waiting():
    keys = ScriptedKeys([";"])
    asked = session(keys=keys)
    asked.handle("other_player(P, O)")
    asked.handle("other_player(x, O)")
    asked.handle("other_player(x, x)")
    assert output(asked) == "P = x, O = o ;\nP = o, O = x.\nO = o.\nfalse.\n"
    assert keys.read_count == 1


@pytest.mark.parametrize("key", ["q", "\x03", "", "a"])
def test_any_other_key_stops(key):
    asked = session(keys=ScriptedKeys([key]))
    asked.handle("other_player(P, O)")
    assert output(asked) == "P = x, O = o .\n"


# --- a session from a pipe ------------------------------------------------------------------

def test_a_piped_session_echoes_each_goal_and_prints_every_answer():
    assert piped("other_player(P, O).\n\n% a comment\nterminal_state(o-x------, x, V)\n") == (
        "?- other_player(P, O).\n"
        "P = x, O = o ;\n"
        "P = o, O = x.\n"
        "?- terminal_state(o-x------, x, V)\n"
        "false.\n"
    )


def test_errors_are_printed_and_the_session_goes_on():
    transcript = piped(
        "successor(x--------, o S)\n"
        "nope(x)\n"
        "successor(xxx------, z, S)\n"
        ":nope\n"
        ":board\n"
        "other_player(x, O)\n"
    )
    assert transcript == (
        "?- successor(x--------, o S)\n"
        "ERROR: syntax error at column 24: expected ',' or ')', found 'S'\n"
        "  successor(x--------, o S)\n"
        "                         ^\n"
        "?- nope(x)\n"
        "ERROR: unknown predicate nope/1: neither the lab's, nor one of SWI-Prolog's built-ins "
        "the top level answers (:help lists them)\n"
        "?- successor(xxx------, z, S)\n"
        "S = [x,x,x,z,-,-,-,-,-] ;\n"
        "S = [x,x,x,-,z,-,-,-,-] ;\n"
        "S = [x,x,x,-,-,z,-,-,-] ;\n"
        "S = [x,x,x,-,-,-,z,-,-] ;\n"
        "S = [x,x,x,-,-,-,-,z,-] ;\n"
        "S = [x,x,x,-,-,-,-,-,z].\n"
        "?- :nope\n"
        "ERROR: unknown command :nope; the commands are :help, :board, :explain, :engine, "
        ":listing, :time, :trace, :quit\n"
        "?- :board\n"
        "ERROR: usage: :board STATE, e.g. :board o-x------\n"
        "?- other_player(x, O)\n"
        "O = o.\n"
    )


@pytest.mark.parametrize("leave", [":quit", "halt.", "halt"])
def test_only_quit_and_halt_end_the_session(leave):
    assert piped(f"other_player(x, O)\n{leave}\nother_player(o, O)\n") == (
        f"?- other_player(x, O)\nO = o.\n?- {leave}\n"
    )


# --- the commands ---------------------------------------------------------------------------

def test_board_draws_the_state_with_cell_numbers():
    drawn = session()
    drawn.handle(":board [o, -, x, -, -, -, -, -, -]")
    assert output(drawn) == " o | 2 | x\n---+---+---\n 4 | 5 | 6\n---+---+---\n 7 | 8 | 9\n"
    assert output(drawn) == draw_board("o-x------") + "\n"


@pytest.mark.parametrize("name", sorted(PREDICATES))
def test_listing_shows_the_predicate_in_prolog_pydatalog_and_python(name):
    shown = session()
    shown.handle(f":listing {name}")
    text = output(shown)
    prolog, datalog, python = (text.split("\n% the lab in pyDatalog")[0],
                               text.split("\n% the lab in pyDatalog")[1].split(
                                   "\n% the lab in Python")[0],
                               text.split("\n% the lab in Python")[1])
    assert re.search(rf"^{name}\(.*(:-|\.)$", prolog, re.MULTILINE), prolog
    assert name in datalog and ("<=" in datalog or "assert_fact" in datalog)
    assert f"def {name}(" in python
    comments = [line for line in python.splitlines() if line.startswith(f"# {name}(")]
    assert comments or name == "other_player"  # the lab's clause above the function
    other = {"max_value": "min_value", "min_value": "max_value"}.get(name)
    if other:  # the two share a section; each is listed alone
        assert f"def {other}(" not in python and f"\n{other}(S, P" not in datalog


def test_listing_takes_a_predicate_indicator_and_refuses_a_wrong_arity():
    shown = session()
    shown.handle(":listing max_value/3")
    by_name = session()
    by_name.handle(":listing max_value")
    assert output(shown) == output(by_name)
    shown.handle(":listing max_value/4")
    assert output(shown).endswith("ERROR: the lab has no max_value/4; it has max_value/3\n")


def test_board_draws_any_board_and_says_when_no_game_reaches_it():
    drawn = session()
    drawn.handle(":board xxx------")
    assert output(drawn) == (draw_board("xxx------") + "\n% no game reaches this board: x has "
                             "3 marks and o has 0; players take turns, so the counts differ by "
                             "at most one\n")


@pytest.mark.parametrize("engine", ["reference", "logic"])
def test_explain_draws_each_moves_value_and_marks_the_decision(engine):
    explained = session(engine)
    explained.handle(":explain o-x------ o")
    assert output(explained) == (
        "  o   |  -1  |  x\n"
        "------+------+------\n"
        " [+1] |  0   |  0\n"
        "------+------+------\n"
        "  +1  |  0   |  +1\n"
        "Action = [o,4], Value = 1.\n"
    )
    values = explained.engine.move_values("o-x------", "o")
    assert output(explained).startswith(draw_move_values("o-x------", values, 4))


def test_explain_at_a_terminal_state_and_for_the_wrong_player():
    explained = session()
    explained.handle(":explain xxxoo---- o")
    explained.handle(":explain x-------- x")
    explained.handle(":explain x--------")
    assert output(explained) == (
        draw_board("xxxoo----") + "\n"
        "% xxxoo---- is over: there is no move to explain\n"
        "ERROR: it cannot be x's move in x--------: x has 1 mark and o has 0, so o moves next\n"
        "ERROR: usage: :explain STATE PLAYER, e.g. :explain o-x------ o\n"
    )


def test_engine_switches_and_keeps_one_engine_object_per_name():
    switching = session("logic")
    logic = switching.engine
    switching.handle(":engine reference")
    reference = switching.engine
    switching.handle(":engine logic")
    switching.handle(":engine")
    switching.handle(":engine nope")
    assert switching.engine is logic
    assert switching.engines == {"logic": logic, "reference": reference}
    assert reference.name == "reference"
    shown = output(switching).splitlines()
    assert shown[:3] == ["% engine: reference", "% engine: logic", "% engine: logic"]
    assert shown[3].startswith(
        "ERROR: unknown engine 'nope'; the engines are logic, logic-plain, reference"
    )
    assert "nope" not in switching.engines
    assert len(shown) == 4


def test_time_shows_how_long_each_answer_took_until_asked_again():
    timed = session()
    timed.handle(":time")
    timed.handle("other_player(P, O)")
    timed.handle("terminal_state(o-x------, x, V)")
    timed.handle(":time")
    timed.handle("other_player(x, O)")
    shown = output(timed).splitlines()
    assert shown[0] == "% timing on"
    assert [line for line in shown[1:] if not line.startswith("% ")] == [
        "P = x, O = o ;", "P = o, O = x.", "false.", "O = o.",
    ]
    assert [re.fullmatch(r"% \d+\.\d{3} s", line) is not None for line in shown[1:7]] == [
        True, False, True, False, True, False,
    ]
    assert shown[7:] == ["% timing off", "O = o."]


def test_help_lists_every_predicate_with_an_example_that_answers():
    text = help_text()
    for predicate in PREDICATES.values():
        assert f"  {predicate.signature}\n" in text
        assert f"?- {predicate.example}\n" in text
        asked = session()
        asked.handle(predicate.example)
        assert not output(asked).startswith(("ERROR", "false.")), predicate.example
    for command in (":help", ":board", ":explain", ":engine", ":time", ":quit"):
        assert f"\n  {command}" in text


# --- Ctrl-C ---------------------------------------------------------------------------------

class Interrupting:
    """An engine interrupted in the middle of `successor`; the rest is the real engine's."""

    def __init__(self, engine) -> None:
        self.engine = engine

    def successor(self, state, player):
        raise KeyboardInterrupt

    def __getattr__(self, name):
        return getattr(self.engine, name)


@pytest.mark.parametrize(("engine", "reloads"), [("logic", 1), ("reference", 0)])
def test_ctrl_c_stops_the_query_and_the_session_goes_on(monkeypatch, engine, reloads):
    forgotten = []
    monkeypatch.setattr("minimax_lab.logic.engines.database.forget", lambda: forgotten.append(True))
    interrupted = session(engine)
    interrupted.engines[engine] = Interrupting(interrupted.engines[engine])
    assert interrupted.handle("successor(x--------, o, S)")
    assert interrupted.handle("other_player(x, O)")
    assert output(interrupted) == "% interrupted\nO = o.\n"
    assert len(forgotten) == reloads


# --- random input never ends a session -----------------------------------------------------

LINE_CHARACTERS = "()[],.:'_-xoSVP|sucesorminaxvhlpbdtq 0123456789\t%"


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=80), st.text(LINE_CHARACTERS, max_size=80)))
def test_no_line_raises_or_ends_the_session_but_quit_and_halt(line):
    handled = session()
    going_on = handled.handle(line)
    assert going_on or line.strip() in (":quit", "halt", "halt.") or line.strip().startswith(
        ":quit "
    )


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=80), st.text(LINE_CHARACTERS, max_size=80)))
def test_query_answers_any_text_with_0_1_or_2_and_one_error_line(text):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["query", "--engine", "reference", "--", text])
    assert status in (EXIT_OK, EXIT_FALSE, EXIT_USAGE)
    if status == EXIT_USAGE:
        assert err.getvalue().startswith("minimax-lab: error: ")
        assert "Traceback" not in err.getvalue()
    else:
        assert err.getvalue() == ""
        assert out.getvalue().endswith(("true.\n", "false.\n", ".\n")) or (
            "halt" in text and status == EXIT_OK)  # halt/0,1 ends it there, as swipl -g halt


# --- the query command ----------------------------------------------------------------------

@pytest.mark.parametrize(
    ("goal", "status", "out", "err"),
    [
        ("minimax_decision(o-x------, o, Action, Value).", EXIT_OK,
         "Action = [o,4], Value = 1.\n", ""),
        ("other_player(P, O)", EXIT_OK, "P = x, O = o ;\nP = o, O = x.\n", ""),
        ("other_player(x, o)", EXIT_OK, "true.\n", ""),
        ("halt", EXIT_OK, "", ""),  # ends there, as swipl -g halt: no answer
        ("minimax_decision(xxxoo----, o, A, V).", EXIT_FALSE, "false.\n", ""),
        ("X is Y + 1", EXIT_USAGE, "",
         "minimax-lab: error: arguments are not sufficiently instantiated\n"),
        ("length(L, N)", EXIT_OK, "".join(
            f"L = [{','.join('_' * n)}], N = {n} ;\n" for n in range(100)) + MORE + "\n", ""),
        ("member(X, [a, b]), write(X), nl", EXIT_OK, "a\nX = a ;\nb\nX = b.\n", ""),
        ("other_player(P, O), terminal_state(xxx------, P, V)", EXIT_OK,
         "P = x, O = o, V = 1 ;\nP = o, O = x, V = -1.\n", ""),
    ],
)
@pytest.mark.parametrize("engine", ["logic", "reference"])
def test_query_prints_answers_and_exits_with_the_status(capsys, engine, goal, status, out, err):
    assert main(["query", goal, "--engine", engine]) == status
    assert capsys.readouterr() == (out, err)


def test_query_with_an_unknown_engine(capsys):
    assert main(["query", "other_player(x, O)", "--engine", "nope"]) == EXIT_USAGE
    assert capsys.readouterr().err.startswith("minimax-lab: error: unknown engine 'nope'")


def run_logic(*args: str, stdin: str = "", cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "minimax_lab", *args], input=stdin, capture_output=True, text=True,
        timeout=120, cwd=cwd, env=env,
    )


def test_hostile_goals_are_clean_errors_and_nothing_runs(tmp_path):
    for goal in [
        "__import__('os').system('touch PWNED')",
        "().__class__.__mro__[1].__subclasses__()",
        "successor(x--------, o, S)" + ", successor(S, x, T)" * 60,
        "g(" * 500,
        "x" * 100_000,
    ]:
        result = run_logic("query", goal, "--engine", "reference", cwd=tmp_path)
        assert result.returncode == EXIT_USAGE
        assert result.stdout == ""
        assert result.stderr.startswith("minimax-lab: error: ")
        assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_goal_goes_on_over_lines_and_comments_and_a_leading_prompt_are_read_past():
    text = ("?- other_player(x, O). % the other\n"
            "successor(x--------,\n"
            "  % the player\n"
            "  o, S),\n"
            "  terminal_state(S, o, V)\n"
            "foo(\n"
            ":time\n")
    assert piped(text) == (
        "?- other_player(x, O). % the other\n"
        "O = o.\n"
        "?- successor(x--------,\n"
        "|    % the player\n"
        "|    o, S),\n"
        "|    terminal_state(S, o, V)\n"
        "false.\n"
        "?- foo(\n"
        "ERROR: syntax error at column 5: expected a term, found the end of the input\n"
        "  foo(\n"
        "      ^\n"
        "?- :time\n"
        "% timing on\n"
    )


def test_the_repl_reads_goals_piped_in():
    result = run_logic(
        "repl", stdin="minimax_decision(o-x------, o, Action, Value).\nfoo(\n:engine reference\n"
        "minimax_decision(o-x------, o, Action, Value)\n",
    )
    assert result.returncode == EXIT_OK
    assert result.stderr == ""
    assert result.stdout == (
        "?- minimax_decision(o-x------, o, Action, Value).\n"
        "Action = [o,4], Value = 1.\n"
        "?- foo(\n"
        "ERROR: syntax error at column 5: expected a term, found the end of the input\n"
        "  foo(\n"
        "      ^\n"
        "?- :engine reference\n"
        "% engine: reference\n"
        "?- minimax_decision(o-x------, o, Action, Value)\n"
        "Action = [o,4], Value = 1.\n"
    )


# --- through a pseudo-terminal --------------------------------------------------------------

@pytest.fixture
def terminal():
    opened = Terminal()
    yield opened
    opened.close()


def test_on_a_terminal_answers_come_one_at_a_time(terminal):
    assert "?- " in terminal.read_until("?- ")
    terminal.send("successor(x--------, o, S).\r")
    assert terminal.read_until("] ").endswith("\nS = [x,o,-,-,-,-,-,-,-] ")
    terminal.send(";")
    assert terminal.read_until("] ") == ";\nS = [x,-,o,-,-,-,-,-,-] "
    terminal.send(" ")
    assert terminal.read_until("] ") == ";\nS = [x,-,-,o,-,-,-,-,-] "
    terminal.send("\r")
    assert terminal.read_until("?- ") == ".\n?- "
    terminal.send("other_player(x, O)\r")
    assert terminal.read_until("?- ").endswith("\nO = o.\n?- ")
    terminal.send("\x04")
    assert terminal.exit_status() == EXIT_OK


def test_on_a_terminal_ctrl_c_stops_a_long_query(terminal):
    terminal.read_until("?- ")
    terminal.send(
        "successor(---------, x, A), successor(A, o, B), successor(B, x, C), "
        "successor(C, o, D), successor(D, x, E), terminal_state(E, x, 2)\r"
    )
    terminal.read_until("terminal_state(E, x, 2)")
    wait_for_work(terminal.pid, 0.5)  # deep in the query
    terminal.send("\x03")
    assert terminal.read_until("?- ") == "\n% interrupted\n?- "
    terminal.send("minimax_decision(o-x------, o, Action, Value)\r")
    assert terminal.read_until("?- ").endswith("\nAction = [o,4], Value = 1.\n?- ")
    terminal.send(":quit\r")
    assert terminal.exit_status() == EXIT_OK


def test_on_a_terminal_tab_completes_a_predicate(terminal):
    terminal.read_until("?- ")
    terminal.send("other_pl\t")
    terminal.read_until("other_player(")
    terminal.send("P, O)\r")
    assert terminal.read_until("O = o ").endswith("\nP = x, O = o ")
    terminal.send("\r")
    assert terminal.read_until("?- ") == ".\n?- "


def test_on_a_terminal_a_goal_goes_on_with_a_bar_prompt_and_tab_completes_engines(terminal):
    terminal.read_until("?- ")
    terminal.send("other_player(x,\r")
    assert terminal.read_until("|    ") == "other_player(x,\n|    "
    terminal.send("O)\r")
    assert terminal.read_until("?- ") == "O)\nO = o.\n?- "
    terminal.send(":engine alph\t")
    terminal.read_until(":engine alphabeta ")  # and a space, ready for what comes next
    terminal.send("\r")
    assert terminal.read_until("?- ") == "\n% engine: alphabeta\n?- "


def test_the_history_is_kept_between_sessions(tmp_path):
    env = environment(TERM="dumb", INPUTRC="/dev/null",
                      MINIMAX_LAB_HISTORY=str(tmp_path / "history"))
    first = Terminal("repl", env=env)
    try:
        first.read_until("?- ")
        first.send("terminal_state(xxxoo----, x, V)\r")
        first.read_until("V = 1.\r\n?- ")
        first.send("other_player(x,\r")  # a goal over two lines is kept as one
        first.read_until("|    ")
        first.send("O)\r")
        first.read_until("O = o.\r\n?- ")
        first.send("\x04")
        assert first.exit_status() == EXIT_OK
    finally:
        first.close()
    assert (tmp_path / "history").read_text().splitlines() == [
        "terminal_state(xxxoo----, x, V)", "other_player(x, O)"]
    second = Terminal("repl", env=env)
    try:
        second.read_until("?- ")
        second.send("\x1b[A\x1b[A")  # the up arrow twice: the first goal of the last session
        second.read_until("terminal_state(xxxoo----, x, V)")
        second.send("\r")
        assert second.read_until("?- ").endswith("V = 1.\n?- ")
        second.send("\x1b[A\x1b[A")  # the goal typed over two lines, on one
        second.read_until("other_player(x, O)")
        second.send("\r")
        assert second.read_until("?- ").endswith("O = o.\n?- ")
        second.send("\x04")
        assert second.exit_status() == EXIT_OK
    finally:
        second.close()


@pytest.mark.parametrize("attempt", range(3))
def test_on_a_terminal_ctrl_c_at_the_prompt_gives_a_new_prompt_at_once(terminal, attempt):
    terminal.read_until("?- ")
    terminal.send("\x03")
    assert terminal.read_until("?- ", timeout=10) == "\n?- "
    terminal.send("other_player(x, O)\r")
    assert terminal.read_until("?- ").endswith("\nO = o.\n?- ")


@pytest.mark.parametrize("key", ["\x1b[A", "é"])
def test_on_a_terminal_a_key_of_several_bytes_at_the_pause_leaves_none_behind(terminal, key):
    terminal.read_until("?- ")
    terminal.send("successor(x--------, o, S).\r")
    terminal.read_until("] ")
    terminal.send(key)
    assert terminal.read_until("?- ") == ".\n?- "
    terminal.send("other_player(x, O)\r")
    assert terminal.read_until("?- ").endswith("other_player(x, O)\nO = o.\n?- ")


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_and_sighup_end_the_session_with_their_status(terminal, signum, status):
    terminal.read_until("?- ")
    os.kill(terminal.pid, signum)
    assert terminal.exit_status(timeout=10) == status


def test_time_with_a_goal_times_that_goal_alone():
    timed = session()
    for line in (":time other_player(x, O).", "other_player(x, O)."):
        timed.handle(line)
    lines = output(timed).splitlines()
    assert re.fullmatch(r"% \d+\.\d{3} s", lines[0])
    assert lines[1:] == ["O = o.", "O = o."]


# --- SWI-Prolog's own words: help., listing/1, trace., halt., a lone '.' ---------------------

@pytest.mark.parametrize(("said", "command"), [
    ("help.", ":help"), ("listing(max_value).", ":listing max_value"),
    ("listing(max_value/3).", ":listing max_value/3"), ("trace.", ":trace"),
    ("notrace.", ":trace off"), ("nodebug.", ":trace off"),
])
def test_swi_prologs_words_do_what_the_matching_commands_do(said, command):
    by_command = piped(f"{command}\n").split("\n", 1)[1]
    assert piped(f"{said}\n") == f"?- {said}\n{by_command}true.\n"


def test_listing_with_no_program_loaded_lists_the_labs_program_and_answers_true():
    said = piped("listing.\n")
    assert said.startswith("?- listing.\n% the lab's program (")
    assert said.endswith("\ntrue.\n")
    listed = Database([("listed", said.split("\n", 2)[2].removesuffix("true.\n"))])
    lab = lab_program()
    assert list(listed.predicates) == list(lab.predicates)
    assert all([(clause.head, clause.body) for clause in listed.predicates[key]]
               == [(clause.head, clause.body) for clause in lab.predicates[key]]
               for key in lab.predicates)


@pytest.mark.parametrize("state", ["xxxooo---", "x-o-xoxoo", "xxx-o-o-o", "ooo-x-xxx"])
def test_board_says_on_a_board_where_both_hold_a_line_how_the_lab_answers_there(state):
    both = len(reference.terminal_values(state, "x")) > 1
    said = piped(f":board {state}\nterminal_state({state}, x, V).\nmax_value({state}, x, SV).\n")
    assert (repl.BOTH_LINES_NOTE in said) == both
    answers = said.split("?- ")[2:]
    assert answers[0].count(" = ") == (2 if both else 1)
    assert answers[1].count("SV = ") == 1


def test_trace_traces_the_next_goal_as_the_command_does():
    goal = "max_value(xx-oo----, x, SV).\n"
    traced = piped(f"trace.\n{goal}").split("?- ")[2]
    assert traced == piped(f":trace\n{goal}").split("?- ")[2]
    assert "Call: (1) max_value([x,x,-,o,o,-,-,-,-], x, _)" in traced


def test_help_on_one_predicate_and_on_what_is_not_one():
    said = piped("help(minimax_decision).\nhelp(between).\nhelp(nothing_here).\n")
    assert "minimax_decision(State, Player, Action, Value)\n" in said
    assert "?- minimax_decision(o-x------, o, Action, Value).\ntrue.\n" in said
    assert "% between is SWI-Prolog's built-in, answered as SWI-Prolog answers it" in said
    assert said.endswith("ERROR: no help on nothing_here; :help lists the predicates and "
                         "built-ins\n")


def test_help_breaks_no_word_on_an_80_column_terminal():
    lines = help_text().splitlines()
    assert max(map(len, lines)) <= 79
    words = help_text().split()
    assert "predicate" in words and "successor(State," in words and "[file]." in words


@pytest.mark.parametrize("line", ["halt.", "halt", "X = 1, halt.", "halt(0)."])
def test_halt_ends_the_session_wherever_it_comes(line):
    assert piped(f"{line}\nother_player(x, O)\n") == f"?- {line}\n"


def test_a_lone_full_stop_after_a_goal_answered_is_read_past():
    assert piped("other_player(x, O)\n.\nother_player(o, P).\n") == (
        "?- other_player(x, O)\nO = o.\n?- .\n?- other_player(o, P).\nP = x.\n")


def test_what_a_goal_writes_is_shown_escaped_before_its_answer():
    said = piped("write('\\e[2J'), X = 1.\nformat(\"~w~n\", [hi]), fail.\n")
    assert said == ("?- write('\\e[2J'), X = 1.\n\\x1b[2J\nX = 1.\n"
                    "?- format(\"~w~n\", [hi]), fail.\nhi\nfalse.\n")


# --- a student's own file, loaded at the prompt ---------------------------------------------

LAB_STYLE = ROOT / "tests" / "submissions" / "lab_style.pl"


def in_folder(folder: Path, text: str, engine: str = "reference") -> str:
    """What the REPL prints for `text` from a pipe, started in `folder`."""
    before = Path.cwd()
    os.chdir(folder)
    try:
        return piped(text, engine)
    finally:
        os.chdir(before)


@needs_swipl
@pytest.mark.parametrize("load", ["[minimax].", "consult(minimax).", "['minimax.pl'].",
                                  "consult(\"minimax.pl\")."])
def test_a_students_file_loads_at_the_prompt_and_its_helpers_answer(tmp_path, load):
    (tmp_path / "minimax.pl").write_text(LAB_STYLE.read_text() + (
        "\nfree_cells(State, N) :- findall(C, nth1(C, State, -), Cs), length(Cs, N).\n"
        "double(X, Y) :- Y is 2 * X.\n"))
    said = in_folder(tmp_path, f"{load}\nfree_cells(o-x------, N).\nwinning_config(W, o).\n"
                               "listing(free_cells).\ndouble(A, B).\n")
    assert (f"?- {load}\n% minimax.pl loaded, contained as grade loads a submission (a copy, "
            "in SWI-Prolog's sandbox): it defines double/2, free_cells/2, max_value/3, "
            "min_value/3, minimax_decision/4, terminal_state/3; its predicates answer before "
            "the lab's\ntrue.\n") in said
    assert "?- free_cells(o-x------, N).\nN = 7.\n" in said
    assert "?- winning_config(W, o).\nW = [[o,o,o,_,_,_,_,_,_],[_,_,_,o,o,o,_,_,_]," in said
    assert ("?- listing(free_cells).\n% minimax.pl:\nfree_cells(State, N) :- findall(C, "
            "nth1(C, State, -), Cs), length(Cs, N).\ntrue.\n") in said
    assert said.endswith("?- double(A, B).\nERROR: minimax.pl: is/2: Arguments are not "
                         "sufficiently instantiated\n")


@needs_swipl
def test_the_students_predicates_answer_before_the_labs_and_the_lab_answers_the_rest(
        tmp_path):
    (tmp_path / "mine.pl").write_text(
        "terminal_state(_, _, 42).\nmy_other(x, o).\n")
    said = in_folder(tmp_path, "terminal_state(xxxoo----, x, V).\n[mine].\n"
                               "terminal_state(xxxoo----, x, V).\nmax_value(xx-oo----, x, SV).\n"
                               "other_player(x, O).\nmy_other(x, O).\n")
    answers = [block.split("\n")[1] for block in said.split("?- ")[1:]]
    assert answers == ["V = 1.", "% mine.pl loaded, contained as grade loads a submission (a "
                       "copy, in SWI-Prolog's sandbox): it defines my_other/2, terminal_state/3; "
                       "its predicates answer before the lab's",
                       "V = 42.", "SV = sv([x,x,x,o,o,-,-,-,-],1).", "O = o.", "O = o."]


@needs_swipl
def test_a_loaded_file_is_a_copy_and_make_loads_it_again(tmp_path):
    program = tmp_path / "mine.pl"
    program.write_text("answer(1).\n")
    session = Session("reference", io.StringIO())
    try:
        before = Path.cwd()
        os.chdir(tmp_path)
        try:
            session.handle("[mine].")
            program.write_text("answer(2).\n")
            session.handle("answer(X).")
            session.handle("make.")
            session.handle("answer(X).")
        finally:
            os.chdir(before)
        shown = output(session)
        assert shown.count("X = 1.") == 1 and shown.index("X = 1.") < shown.index("X = 2.")
    finally:
        session.close()


@needs_swipl
def test_a_loaded_file_is_contained_as_grade_contains_a_submission(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the answers\n")
    (tmp_path / "snoop.pl").write_text(
        f"peek(Line) :- open('{secret}', read, S), read_term(S, Line, []).\n"
        ":- initialization(shell('touch PWNED')).\n")
    (tmp_path / "linked.pl").symlink_to(tmp_path / "snoop.pl")
    said = in_folder(tmp_path, "[snoop].\npeek(L).\n[linked].\n")
    assert "the answers" not in said and not (tmp_path / "PWNED").exists()
    assert "?- peek(L).\nERROR: snoop.pl: " in said  # refused by SWI-Prolog's sandbox
    assert said.endswith("?- [linked].\nERROR: the submission cannot be taken: linked.pl is "
                         "a symbolic link\n")  # a link is not taken, as grade takes none


def test_loading_what_is_not_one_file_says_what_to_do(tmp_path):
    said = in_folder(tmp_path, "[nowhere].\n[a, b].\nconsult(X).\nmake.\n")
    assert said == (
        "?- [nowhere].\n"
        f"ERROR: no file 'nowhere' (in {tmp_path}); [nowhere] loads nowhere.pl from "
        "the folder the top level runs in\n"
        "?- [a, b].\n"
        "ERROR: load one file at a time: the top level, like the grader, loads one main file "
        "(which loads minimax_helper itself)\n"
        "?- consult(X).\n"
        "ERROR: arguments are not sufficiently instantiated\n"
        "?- make.\n"
        "% no file is loaded ([file]. loads one)\ntrue.\n")


@needs_swipl
def test_query_and_repl_load_a_program_given_with_program(capsys):
    assert main(["query", "winning_config(W, x), length(W, N)", "--engine", "prolog",
                 "--program", str(LAB_STYLE)]) == EXIT_OK
    assert capsys.readouterr().out.endswith(", N = 8.\n")
