"""A student's program as an engine (`--engine prolog --program FILE`): the same answers as the
reference where the program is right, its own where it is wrong, one line where it fails."""

from __future__ import annotations

import select
from pathlib import Path

import pytest
from boards import LAB_CASES
from marks import few_by_default, needs_swipl
from processes import run

from minimax_lab.logic.commands.cli import EXIT_OK, EXIT_USAGE, main
from minimax_lab.logic.engines import EngineError, make_engine
from minimax_lab.logic.terms import Action, Decision
from minimax_lab.logic.toplevel.answers import MAX_SHOWN, MORE

pytestmark = needs_swipl
SUBMISSIONS = Path(__file__).parent / "submissions"
LAB_STYLE = str(SUBMISSIONS / "lab_style.pl")


@pytest.fixture(scope="module")
def student():
    with make_engine("prolog", program=LAB_STYLE) as engine:
        yield engine


@pytest.fixture(scope="module")
def reference():
    return make_engine("reference")


@pytest.mark.parametrize("name", few_by_default(  # the empty board's whole tree: in CI
    LAB_CASES, [name for name, (state, *_) in LAB_CASES.items() if state != "---------"]))
def test_a_right_program_answers_the_labs_cases_as_the_reference(student, name):
    state, player, position, value = LAB_CASES[name]
    assert student.minimax_decision(state, player) == Decision(Action(player, position), value)


@pytest.mark.parametrize(("state", "player"), [("xo-x-----", "o"), ("xxooxo---", "x")])
def test_every_predicate_agrees_with_the_reference(student, reference, state, player):
    assert student.successor(state, player) == reference.successor(state, player)
    assert student.max_value(state, player) == reference.max_value(state, player)
    assert student.min_value(state, player) == reference.min_value(state, player)
    assert student.move_values(state, player) == reference.move_values(state, player)
    assert student.terminal_state(state, player) is None
    assert student.terminal_state("xxxoo----", "o") == reference.terminal_state("xxxoo----", "o")
    assert student.other_player(player) == reference.other_player(player)
    assert student.minimax_decision("xxxoo----", "o") is None


def test_a_wrong_program_gives_its_own_wrong_decision(capsys, reference):
    status = main(["decide", "xo-------", "x", "--engine", "prolog", "--program",
                   str(SUBMISSIONS / "min_moves_agent.pl")])
    out, _ = capsys.readouterr()
    assert status == EXIT_OK
    assert out != f"{reference.minimax_decision('xo-------', 'x')}\n"


def test_a_program_that_cannot_answer_is_one_line_and_status_2(capsys, tmp_path):
    raising = tmp_path / "raising.pl"
    raising.write_text("minimax_decision(_, _, _, V) :- V is foo + 1.\n")
    status = main(["decide", "x--------", "o", "--engine", "prolog", "--program", str(raising)])
    _, err = capsys.readouterr()
    assert status == EXIT_USAGE
    assert err.count("\n") == 1 and "could not answer minimax_decision(" in err
    assert "is not a function" in err


def test_a_program_is_queried_and_played_against_from_the_command_line():
    asked = run("query", "once(minimax_decision(o-x------, o, A, V))", "--engine", "prolog",
                "--program", LAB_STYLE)  # what the program prints, then its answer
    assert (asked.returncode, asked.stdout) == (
        EXIT_OK, "[best value,1,reached in,[o,-,x,o,-,-,-,-,-]]\nA = [o,4], V = 1.\n")
    # as SWI-Prolog running it: the lab-style program offers the other optimal moves too
    every = run("query", "minimax_decision(o-x------, o, A, V)", "--engine", "prolog",
                "--program", LAB_STYLE)
    answers = [line for line in every.stdout.splitlines() if line.startswith("A = ")]
    assert every.returncode == EXIT_OK and answers[0] == "A = [o,4], V = 1 ;"
    assert {line.rstrip(" ;.") for line in answers} <= {  # each optimal move many times over
        "A = [o,4], V = 1", "A = [o,7], V = 1", "A = [o,9], V = 1"}
    assert len(answers) == MAX_SHOWN and every.stdout.endswith(MORE + "\n")
    game = run("play", "--engine", "prolog", "--program", LAB_STYLE, stdin="5\n9\n2\n4\n7\n")
    assert game.returncode == EXIT_OK
    assert game.stdout.splitlines()[0].startswith("You play x; the computer plays o, to win "
                                                  "(lab scoring, prolog engine)")
    assert game.stdout.splitlines()[-1] == "Result: draw"


def test_the_repl_switches_between_the_program_and_another_engine(reference):
    session = run("repl", "--engine", "prolog", "--program", LAB_STYLE, stdin=(
        "minimax_decision(xx--o----, o, A, V).\n:engine logic\n"
        "minimax_decision(xx--o----, o, A, V).\n:engine prolog\nother_player(x, O).\n"))
    decision = reference.minimax_decision("xx--o----", "o")
    assert session.stdout.count(f"A = {decision.action}, V = {decision.value}.") == 2
    assert session.stdout.endswith("O = o.\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--engine", "logic"], "a student's program runs as --engine prolog, not logic"),
        (["--engine", "prolog", "--mode", "lose"], "plays the lab's objective only"),
    ],
)
def test_a_program_with_another_engine_or_objective_is_a_usage_error(capsys, argv, message):
    status = main(["decide", "x--------", "o", *argv, "--program", LAB_STYLE])
    _, err = capsys.readouterr()
    assert status == EXIT_USAGE and message in err


def test_a_program_that_does_not_load_is_an_engine_error(monkeypatch):
    monkeypatch.setattr("minimax_lab.logic.engines.student.LOAD_SECONDS", 1.0)
    with pytest.raises(EngineError,
                       match="never_loads.pl': loading used more than 1 s of CPU time"):
        make_engine("prolog", program=str(SUBMISSIONS / "never_loads.pl"))


@pytest.mark.slow
def test_a_right_program_agrees_with_the_reference_on_every_position(capsys):
    status = main(["compare", "--engines", "prolog", "--program", LAB_STYLE, "--show", "0"])
    out, _ = capsys.readouterr()
    assert status == EXIT_OK
    assert "9040 of 9040 positions checked: 9040 agree" in out


def test_an_interrupted_question_never_answers_the_next(monkeypatch):
    with make_engine("prolog", program=LAB_STYLE) as engine:
        real_select = select.select

        def interrupted(*args):
            monkeypatch.setattr(select, "select", real_select)
            raise KeyboardInterrupt

        monkeypatch.setattr(select, "select", interrupted)
        with pytest.raises(KeyboardInterrupt):
            engine.minimax_decision("---------", "x")
        assert engine.minimax_decision("x--------", "o") == Decision(Action("o", 5), 0)
        assert engine.other_player("o") == "x"


def test_the_top_level_asks_a_students_program_about_a_board_no_game_reaches(reference):
    """A Prolog program answers any board itself: the student's own answer, never the
    reference's in its place."""
    wrong = str(SUBMISSIONS / "min_moves_agent.pl")
    with make_engine("prolog", program=wrong) as engine:
        own = engine.minimax_decision("xx-------", "o")
    assert own != reference.minimax_decision("xx-------", "o")
    asked = run("query", "once(minimax_decision(xx-------, o, A, V))", "--engine", "prolog",
                "--program", wrong)
    assert asked.returncode == EXIT_OK
    assert asked.stdout.endswith(f"\nA = {own.action}, V = {own.value}.\n")
