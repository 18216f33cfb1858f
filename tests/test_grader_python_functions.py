"""Python judged on its own functions (`grade --interface function --judged clauses`, where a
mapping names the recursive functions): each typical bug lands in the same function as when the
whole program answers; right programs (the lab's style, negamax) are right everywhere in both
modes; a program gets the lab's answers only for calls on the successors of the board asked,
and can read no more of them than those calls give; the end-to-end sample, asked first of a
fresh import, catches a program right function by function but wrong as a whole; the answers
below a question are the reference's. CS50's minimax keeps the whole program's mode."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from boards import board
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marks import few_by_default

from minimax_lab.compare.grader.assignments.assignment import default_assignment
from minimax_lab.compare.grader.interfaces.interface import Options
from minimax_lab.compare.grader.interfaces.mappings import (
    Mapping,
    MappingError,
    checked_mapping,
    return_path,
)
from minimax_lab.compare.grader.interfaces.play import PLAY
from minimax_lab.compare.grader.interfaces.python import Question, function_questions
from minimax_lab.compare.grader.interfaces.python_interfaces import (
    CS50Interface,
    FunctionInterface,
    PythonSession,
)
from minimax_lab.compare.grader.interfaces.python_recursive import (
    lab_below,
    sampled,
    value_questions,
)
from minimax_lab.compare.grader.interfaces.sample import LAB_CASES, Judged
from minimax_lab.compare.grader.options.config import WorkLimits
from minimax_lab.compare.grader.outputs.results_json import grade_from_json, grade_json
from minimax_lab.compare.grader.outputs.text import submission_report
from minimax_lab.compare.grader.running.run import grade_submission
from minimax_lab.compare.judge.categories import Category
from minimax_lab.compare.judge.truth import truth
from minimax_lab.logic import reference
from minimax_lab.logic.commands.cli import EXIT_USAGE, main
from minimax_lab.logic.contain.python_harness import plain
from minimax_lab.logic.contain.python_program import (
    Called,
    PythonProgram,
    sandboxed_python,
    taken,
)
from minimax_lab.logic.objective import LAB
from minimax_lab.logic.positions import game_tree_size, reachable_states
from minimax_lab.logic.state import BLANK, PLAYERS, State, is_terminal

pytestmark = pytest.mark.skipif(sandboxed_python() is None,
                                reason="no Python a contained program may run")
SUBMISSIONS = Path(__file__).parent / "submissions"
RECURSIVE = SUBMISSIONS / "python" / "recursive"
QUICK = WorkLimits(cpu_budget=0.5)  # the fullest boards first: their faults come early
# (max_value goes wrong at 2 blanks below a min_value that moves the agent, min_value at 1;
# every fault these tests look for was found within a budget of 0.2)


@cache
def graded(name: str, judged: str, sample: int = 0, work: WorkLimits = QUICK):
    options = Options(FunctionInterface(judged=judged, end_to_end=sample),
                      budget=600, work=work)
    return grade_submission(name, RECURSIVE / name, options)


def landed(grade) -> set[str]:
    """The functions where the first wrong calls of a grade's checks land."""
    return {result.first_wrong.call.asked.split("(")[0]
            for result in grade.checks.values() if result.first_wrong is not None}


# --- the corpus: the same function in both modes ---------------------------------------------

@pytest.mark.parametrize("name, function", few_by_default(
    [("min_moves_agent", "min_value"), ("negamax_no_negation", "negamax")], ("min_moves_agent",)))
def test_each_typical_bug_lands_in_the_same_function_in_both_modes(name, function):
    whole, clauses = graded(name, "whole"), graded(name, "clauses", 1)
    assert landed(clauses) == landed(whole) == {function}
    assert all(result.first_wrong.concluded for result in clauses.checks.values()
               if result.first_wrong is not None)


def test_a_bug_below_is_counted_in_the_function_that_holds_it():
    whole, clauses = graded("min_moves_agent", "whole"), graded("min_moves_agent", "clauses", 1)
    assert whole.checks["max_value"].correct < whole.checks["max_value"].checked
    assert clauses.checks["max_value"].correct == clauses.checks["max_value"].checked > 0
    assert clauses.checks["min_value"].correct < clauses.checks["min_value"].checked
    decision = clauses.checks["minimax_decision"]  # right but for its sample, asked whole
    assert decision.end_to_end_right < decision.end_to_end
    assert decision.checked - decision.correct == decision.end_to_end - decision.end_to_end_right


def asked_of(name: str, check: str) -> int:
    """The questions of a program's check, its end-to-end sample left out."""
    mapping = FunctionInterface().mapping_for(RECURSIVE / name, RECURSIVE / name)
    return len(value_questions(mapping, check)) if check in mapping.recursive else 9040


@pytest.mark.slow  # by default, test_right_solutions_are_right_on_every_question_their_budget_asks
@pytest.mark.parametrize(("judged", "name"), [
    ("clauses", "negamax"), ("clauses", "lab_style"), ("whole", "lab_style"), ("whole", "negamax"),
])
def test_right_solutions_are_right_everywhere_in_both_modes(name, judged):
    grade = graded(name, judged, 1, WorkLimits())
    assert grade.clean, submission_report(grade)
    assert grade.judged == {"clauses": "functions", "whole": "whole"}[judged]
    mapping = FunctionInterface().mapping_for(RECURSIVE / name, RECURSIVE / name)
    for check, result in grade.checks.items():
        assert result.checked == asked_of(name, check) + result.end_to_end > 0
        assert result.end_to_end == (12 if check == mapping.function and judged == "clauses"
                                     else 0)


@pytest.mark.parametrize("name", ["lab_style", "negamax"])
def test_right_solutions_are_right_on_every_question_their_budget_asks(name):
    """The default run's share of a right program judged on its own functions (right on every
    question, slow): the fullest boards its budget reaches, and its whole sample first."""
    grade = graded(name, "clauses", 1)
    assert grade.judged == "functions"
    mapping = FunctionInterface().mapping_for(RECURSIVE / name, RECURSIVE / name)
    for check, result in grade.checks.items():
        assert result.correct == result.checked > 0, submission_report(grade)
        assert result.checked + result.counts[Category.NOT_ASKED] == (
            asked_of(name, check) + result.end_to_end)
        assert result.end_to_end == result.end_to_end_right == (
            12 if check == mapping.function else 0)



@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
def test_functions_that_read_the_player_from_the_board_are_asked_where_they_apply():
    """CS50's max_value(board) and min_value(board), told no player (X maximises, O minimises,
    values from X's side): max_value asked where X moves, min_value where O moves, both on
    finished boards; right on every one, with full marks and no bug. (Judged whole, with no
    cache, each question searches its whole tree in Python: minutes.)"""
    grade = graded("cs50_style", "clauses", 1, WorkLimits())
    assert grade.clean, submission_report(grade)
    assert grade.bug is None and not grade.problems
    score = default_assignment("function", list(grade.checks)).score(grade)
    assert score.score == score.max_score == 300
    states = reachable_states("x")
    finished = sum(is_terminal(state) for state in states)
    x_moves = sum(state.count("x") == state.count("o") for state in states
                  if not is_terminal(state))
    assert grade.checks["max_value"].checked == x_moves + finished
    assert grade.checks["min_value"].checked == len(states) - x_moves

def test_cs50_keeps_the_whole_programs_mode(tmp_path):
    options = Options(CS50Interface(), ("minimax",), work=WorkLimits(cpu_budget=0.2))
    grade = grade_submission("cs50_right", SUBMISSIONS / "python" / "cs50_right.py", options)
    assert grade.judged == ""
    assert "judged:" not in submission_report(grade)
    assert main(["grade", "--interface", "cs50", "--judged", "clauses",
                 str(SUBMISSIONS / "python" / "cs50_right.py")]) == EXIT_USAGE


def test_a_mapping_without_recursive_functions_is_judged_as_a_whole():
    mapping = str(SUBMISSIONS / "python" / "number_board.toml")
    options = Options(FunctionInterface(mapping=mapping), work=WorkLimits(cpu_budget=0.2))
    grade = grade_submission("number_board", SUBMISSIONS / "python" / "number_board.py",
                             options)
    assert grade.judged == ""
    assert list(grade.checks) == ["best_move"]


# --- one level of the program's own code -------------------------------------------------------

COUNTED = '''
calls = 0
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

def counted():
    return calls

def value(board, player, mover, best):
    global calls
    calls += 1
    for mark, worth in ((player, 1), ("o" if player == "x" else "x", -1)):
        if any(all(board[cell] == mark for cell in line) for line in LINES):
            return worth
    if "-" not in board:
        return 0
    after = [board[:cell] + [mover] + board[cell + 1:] for cell in range(9) if board[cell] == "-"]
    below = min_value if best is max else max_value
    return best(below(next, player) for next in after)

def max_value(board, player):
    return value(board, player, player, max)

def min_value(board, player):
    return value(board, player, "o" if player == "x" else "x", min)
'''
LAB_STYLE = checked_mapping({"function": "max_value", "board": "flat", "x": "x", "o": "o",
                             "blank": "-", "value_side": "mover", "max_value": "max_value",
                             "min_value": "min_value"})


def started(path: Path) -> PythonProgram:
    """The program at `path`, taken and imported in its sandbox."""
    copy = taken(path)
    program = PythonProgram(copy, copy.folder / path.name)
    assert program.load().problem is None
    return program


@pytest.fixture
def counted(tmp_path):
    (tmp_path / "counted.py").write_text(COUNTED)
    program = started(tmp_path / "counted.py")
    yield program
    program.close()


def ask(program, function, state, player, mapping=LAB_STYLE, below=None, wrap=True):
    args = mapping.value_arguments(state, player)
    return program.call(function, args, 60, 60, mapping.recursive if wrap else (),
                        lab_below(mapping, state) if below is None else below)


POSITIONS = {
    "x in a corner": board("""
        x - -
        - - -
        - - -
    """),
    "a game in the middle": board("""
        x o -
        x - o
        - - -
    """),
    "the empty board": board("""
        - - -
        - - -
        - - -
    """),
    "x to win or block": board("""
        x o x
        o x o
        - - -
    """),
}


@pytest.mark.parametrize("name", few_by_default(  # the empty board's whole tree: seconds
    ["x in a corner", "a game in the middle", "the empty board"],
    ["x in a corner", "a game in the middle"]))
@pytest.mark.parametrize("function", ["max_value", "min_value"])
def test_judged_on_its_own_functions_a_question_costs_one_level(counted, name, function):
    state = POSITIONS[name]
    before = counted.call("counted", [], 60, 60).value
    whole = ask(counted, function, state, "o", wrap=False)
    own = counted.call("counted", [], 60, 60).value - before
    clauses = ask(counted, function, state, "o")
    one = counted.call("counted", [], 60, 60).value - before - own
    expected = (reference.max_value if function == "max_value" else reference.min_value)(
        state, "o").value
    assert whole.value == clauses.value == expected
    assert one == 1  # its own call alone: every call below it got the lab's answer
    mover = "o" if function == "max_value" else "x"
    assert own == game_tree_size(state, mover)


# --- the end-to-end sample ---------------------------------------------------------------------

@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
def test_the_sample_catches_a_program_right_function_by_function_but_wrong_as_a_whole():
    alone = graded("depth_in_a_global", "clauses", 0)
    for result in alone.checks.values():  # function by function, all right
        assert result.checked - result.correct == result.end_to_end - result.end_to_end_right
    assert alone.checks["minimax_decision"].end_to_end == len(LAB_CASES)  # and no more
    assert alone.checks["max_value"].correct == alone.checks["max_value"].checked > 0
    assert alone.checks["min_value"].correct == alone.checks["min_value"].checked > 0
    sampled_grade = graded("depth_in_a_global", "clauses", 1)
    decision = sampled_grade.checks["minimax_decision"]
    assert decision.end_to_end_right < decision.end_to_end == 12
    assert decision.correct == decision.checked - (decision.end_to_end
                                                   - decision.end_to_end_right)
    assert all(finding.asked.endswith("(end to end)") for finding in decision.findings)
    report = submission_report(sampled_grade)
    assert "judged: on its own functions" in report
    assert f"end to end: {decision.end_to_end_right} of {decision.end_to_end} right" in report
    again = grade_from_json(grade_json(sampled_grade))
    assert again.judged == "functions"
    assert again.checks["minimax_decision"].end_to_end == decision.end_to_end


def test_the_sample_holds_the_labs_cases_and_each_number_of_blanks_and_is_asked_first():
    mapping = FunctionInterface().mapping_for(RECURSIVE / "lab_style", RECURSIVE / "lab_style")
    session = FunctionInterface().open(RECURSIVE / "lab_style", Options(FunctionInterface()))
    try:
        questions = session.questions(tuple(session.functions))
    finally:
        session.program.close()
    sample = [question for question in questions if question.sample]
    assert questions[:len(sample)] == sample  # before any answer of the lab's is given
    assert {question.check for question in sample} == {mapping.function}
    asked = {(question.state, question.player) for question in sample}
    assert set(LAB_CASES) <= asked
    blanks = [question.state.count(BLANK) for question in sample]
    assert all(blanks.count(count) >= 1 for count in range(1, 9))
    assert blanks == sorted(blanks)
    assert len(sample) == len(sampled([q for q in questions if q.check == mapping.function
                                       and not q.sample], 1)) == 12



def test_the_play_check_stands_for_the_sample_where_it_is_asked():
    options = Options(FunctionInterface(play=True))
    session = FunctionInterface(play=True).open(RECURSIVE / "lab_style", options)
    try:
        with_play = session.questions(tuple(session.functions))
        without = session.questions(tuple(check for check in session.functions
                                          if check != PLAY))
    finally:
        session.program.close()
    assert PLAY in session.functions and session.play_starts()
    assert not any(question.sample for question in with_play)
    assert sum(question.sample for question in without) == 12


class Calls:
    """A program that records its calls (with the lab's answers or without) and restarts."""

    given_up = None

    def __init__(self) -> None:
        self.said: list[str] = []

    def call(self, function, args, seconds, work, wrap=(), below=()):
        self.said.append("lab's answers" if wrap else "whole")
        return Called("returned", None)

    def stop(self) -> None:
        self.said.append("restart")


def test_a_whole_program_question_is_never_asked_of_a_process_given_the_labs_answers():
    """The play check's decisions and the sample are asked of a process never given an
    answer of the lab's; the questions with the lab's answers of another."""
    checks = FunctionInterface(play=True).functions(RECURSIVE / "lab_style",
                                                    RECURSIVE / "lab_style")[0]
    program = Calls()
    session = PythonSession(program, checks, recursive=LAB_STYLE, judged=Judged.CLAUSES)
    state = State("xo-------")
    played = session.decision(state, "x")
    sample = Question("minimax_decision", state, "x", sample=True)
    clause = Question("max_value", state, "x")
    for question in (played, played, sample, clause, clause, played, clause, sample):
        session.ask(question, 1.0, 1.0)
    assert program.said == ["whole", "whole", "whole", "restart", "lab's answers",
                            "lab's answers", "restart", "whole", "restart", "lab's answers",
                            "restart", "whole"]


# --- the answers below a question ---------------------------------------------------------------

@pytest.mark.parametrize("name", list(POSITIONS))
@pytest.mark.parametrize("mapping", ["lab style", "negamax", "x's side"])
def test_the_answers_below_are_the_references_on_every_successor(name, mapping):
    state = POSITIONS[name]
    chosen = {"lab style": LAB_STYLE,
              "negamax": Mapping(function="best", negamax="negamax", value_side="mover",
                                 win_value=10),
              "x's side": Mapping(function="best", max_value="mx", min_value="mn",
                                  args=("board",))}[mapping]
    below = dict(lab_below(chosen, state))
    blanks = [cell for cell, mark in enumerate(state, 1) if mark == BLANK]
    expected = {}
    for cell in blanks:
        for mark in PLAYERS:
            after = State(state[:cell - 1] + mark + state[cell:])
            if chosen.negamax:
                for player in PLAYERS:
                    expected["negamax" + plain(chosen.value_arguments(after, player))] = (
                        reference.max_value(after, player).value * 10)
            elif chosen.names_the_value_player:
                for player in PLAYERS:
                    expected["max_value" + plain(chosen.value_arguments(after, player))] = (
                        reference.max_value(after, player).value)
                    expected["min_value" + plain(chosen.value_arguments(after, player))] = (
                        reference.min_value(after, player).value)
            else:  # x's side, the player read from the board: x maximises, o minimises
                lead = after.count("x") - after.count("o")  # 0: x moves, 1: o moves
                key = plain([chosen.encode_board(after)])
                if lead == 0 or (lead == 1 and is_terminal(after)):
                    expected["mx" + key] = reference.max_value(after, "x").value
                if lead == 1 or (lead == 0 and is_terminal(after)):
                    expected["mn" + key] = reference.min_value(after, "x").value
    assert below == expected


def test_a_finished_board_has_no_answers_below():
    assert lab_below(LAB_STYLE, board("""
        x x x
        o o -
        - - -
    """)) == []


def test_value_questions_follow_the_role_and_the_side():
    x_side = Mapping(function="best", max_value="mx", min_value="mn", args=("board",))
    maxed, mined = value_questions(x_side, "mx"), value_questions(x_side, "mn")
    assert {question.player for question in maxed + mined} == {"x"}
    assert all(question.state.count("x") == question.state.count("o")
               for question in maxed if not is_terminal(question.state))
    assert all(question.state.count("x") == question.state.count("o") + 1
               for question in mined if not is_terminal(question.state))
    finished = {state for state in reachable_states("x") if is_terminal(state)}
    assert {question.state for question in maxed if is_terminal(question.state)} == finished
    assert {question.state for question in mined if is_terminal(question.state)} == finished
    assert len(maxed) + len(mined) == len(reachable_states("x")) + len(finished)
    states = reachable_states("x") | reachable_states("o")
    asked = value_questions(LAB_STYLE, "max_value")
    assert {question.state for question in asked} == states


# --- a program gets no answer it did not compute -------------------------------------------------

HOSTILE = Mapping(function="max_value", max_value="max_value", min_value="min_value",
                  value_side="mover")
BOARD = POSITIONS["a game in the middle"]


@pytest.fixture(scope="module")
def hostile():
    program = started(SUBMISSIONS / "hostile" / "asks_the_lab.py")
    yield program
    program.close()


def tried(program, trick, state=BOARD, below=None, wrap=True):
    assert program.call("use", [trick], 30, 30).value == trick
    return ask(program, "max_value", state, "x", HOSTILE, below, wrap)


def successors_of(state, player="x"):
    return [HOSTILE.encode_board(after) for after in reference.successor(state, player)]


def lab_children(state):
    return [reference.min_value(after, "x").value for after in reference.successor(state, "x")]


@pytest.mark.parametrize("trick", ["own_board", "grandchild", "keywords", "own_object"])
def test_a_call_on_another_board_than_a_successor_runs_the_programs_own_function(hostile,
                                                                                 trick):
    assert tried(hostile, trick).value == 7


@pytest.mark.parametrize("trick", ["child", "tuple_board"])
def test_a_call_on_a_successor_gets_the_labs_answer(hostile, trick):
    assert tried(hostile, trick).value == lab_children(BOARD)
    assert tried(hostile, trick, wrap=False).value == [7] * len(lab_children(BOARD))


@pytest.mark.parametrize("trick", ["closure", "frames", "gc"])
def test_what_the_program_can_read_is_what_the_calls_on_the_successors_give(hostile, trick):
    read = set(tried(hostile, trick).value)
    successors = {after for mark in PLAYERS for after in reference.successor(BOARD, mark)}
    assert read == successors  # no answer on the board asked, nor on a grandchild
    assert tried(hostile, trick, below=[]).value == []


def test_no_answer_outlives_its_question(hostile):
    assert tried(hostile, "stash").value >= 1
    assert tried(hostile, "stashed", below=[], wrap=False).value == []
    other = POSITIONS["x in a corner"]
    assert tried(hostile, "child", below=lab_below(HOSTILE, other)).value == [7] * len(
        lab_children(BOARD))


def test_a_program_that_asks_the_lab_for_its_own_board_scores_nothing(tmp_path):
    folder = tmp_path / "asks_the_lab"
    folder.mkdir()
    source = (SUBMISSIONS / "hostile" / "asks_the_lab.py").read_text()
    (folder / "asks_the_lab.py").write_text(source.replace('trick = "child"',
                                                           'trick = "own_board"'))
    options = Options(FunctionInterface(mapping_set=(
        'function="max_value"', 'max_value="max_value"', 'min_value="min_value"',
        'value_side="mover"', 'returns="value"')), work=WorkLimits(cpu_budget=0.3))
    grade = grade_submission("asks_the_lab", folder, options)
    assert grade.judged == "functions"
    assert grade.checks["max_value"].correct == 0 < grade.checks["max_value"].checked


# --- the mapping's new keys ----------------------------------------------------------------------

@pytest.mark.parametrize("values, message", [
    ({"max_value": "mx"}, "max_value and min_value go together"),
    ({"negamax": "n", "max_value": "a", "min_value": "b"}, "not both"),
    ({"max_value": "a", "min_value": "a"}, "two functions"),
    ({"negamax": "not a name"}, "expected the name of a Python function"),
    ({"value_args": ["board"]}, "value_args is for the recursive functions"),
    ({"negamax": "n", "value_args": ["player"]}, "value_args must be a list"),
    ({"negamax": "n", "objective": "lose"}, "to win"),
])
def test_a_mapping_with_recursive_functions_it_cannot_follow_is_refused(values, message):
    with pytest.raises(MappingError, match=message):
        checked_mapping({"function": "best", **values})


NAMES = st.none() | st.sampled_from(["mx", "mn", "negamax", "best", "1x", ""]) | st.integers()


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.fixed_dictionaries({}, optional={
    "max_value": NAMES, "min_value": NAMES, "negamax": NAMES,
    "value_args": st.none() | st.lists(st.sampled_from(["board", "player", "is_x", 9]),
                                       max_size=3) | st.text(max_size=3)}))
def test_any_recursive_keys_are_a_mapping_or_a_mapping_error(values):
    values = {key: value for key, value in values.items() if value is not None}
    try:
        mapping = checked_mapping({"function": "best", **values})
    except MappingError:
        return
    assert len(mapping.recursive) in (0, 1, 2)
    assert (mapping.max_value is None) == (mapping.min_value is None)
    assert not (mapping.negamax and mapping.max_value)
    assert all(name.isidentifier() for name in mapping.recursive)
    if mapping.value_args is not None:
        assert "board" in mapping.value_args and mapping.recursive


def test_recursive_keys_over_a_file_are_checked_before_anything_runs(capsys, tmp_path):
    file = tmp_path / "minimax-lab.toml"
    file.write_text('function = "best"\nnegamax = "negamax"\nvalue_args = ["board", "player"]\n')
    report = tmp_path / "out.json"
    status = main(["grade", "--interface", "function", "--mapping", str(file), "--set",
                   "max_value=mx", "--set", "min_value=mn", str(RECURSIVE / "negamax"),
                   "--json", str(report)])
    assert status == EXIT_USAGE
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "minimax-lab: error: negamax or max_value and min_value: not both")
    assert not report.exists()


# --- return paths: a move and a value inside a dict or an object ---------------------------

PYTHON = SUBMISSIONS / "python"
EVERY = 40
"""The return-path programs are asked every EVERY-th question (all of them in the slow test)."""


class SampledFunctions(FunctionInterface):
    """`grade --interface function`, contained as grade's, asked every `EVERY`-th question."""

    def open(self, path, options):
        session = super().open(path, options)
        assert isinstance(session, PythonSession)
        session.questions = (  # type: ignore[method-assign]
            lambda checks, whole=session.questions: whole(checks)[::EVERY])
        return session


def draw_is_enough(state: State, player: str) -> int:
    """returns_object's move: the first cell that does not lose."""
    values = truth(LAB).move_values((state, player))
    return next(cell for cell in sorted(values) if values[cell] >= 0) if max(
        values.values()) >= 0 else min(values)


def expected_counts(mapping: Mapping, questions: list[Question], fault) -> dict[Category, int]:
    """The counts a program's questions get, from the reference's move values: its move where
    `fault` decides it (None: an optimal move everywhere)."""
    counts = {Category.RIGHT: 0, Category.SUBOPTIMAL: 0}
    for question in questions:
        values = truth(LAB).move_values((question.state, question.player))
        cell = fault(question.state, question.player) if fault else None
        right = cell is None or values[cell] == max(values.values())
        counts[Category.RIGHT if right else Category.SUBOPTIMAL] += 1
    return counts


@pytest.mark.parametrize(("name", "fault"), [("returns_dict", None),
                                              ("returns_object", draw_is_enough)])
def test_a_move_and_a_value_read_by_the_mappings_return_paths(name, fault):
    """search() answers {"move": i, "eval": v} and decide() an object with .move and .value:
    read through `move` and `value` paths, each is graded with the counts the reference's
    move values give its known fault (none, or a draw good enough)."""
    interface = SampledFunctions()
    grade = grade_submission(name, PYTHON / name, Options(interface, budget=600))
    assert grade.load.problem is None, grade.load
    mapping = interface.mapping_for(PYTHON / name, PYTHON / name)
    [(function, result)] = grade.checks.items()
    asked = function_questions(mapping)[::EVERY]
    expected = expected_counts(mapping, asked, fault)
    assert function == mapping.function and result.checked == len(asked)
    assert {category: result.counts[category] for category in expected} == expected
    for finding in result.findings:
        assert f"answers {mapping.move} = (" in finding.detail, finding.detail


def test_a_return_path_that_does_not_fit_the_answer_is_the_programs_fault(tmp_path):
    """A path to a key the dict lacks makes each call raise in the sandbox (a KeyError,
    its own fault), not the grader."""
    folder = tmp_path / "returns_dict"
    folder.mkdir()
    for file in (PYTHON / "returns_dict").iterdir():
        (folder / file.name).write_text(file.read_text().replace("result['move']",
                                                                 "result['best']"))
    grade = grade_submission("returns_dict", folder, Options(SampledFunctions(), budget=600))
    [result] = grade.checks.values()
    assert result.checked and result.counts[Category.EXCEPTION] == result.checked
    assert "KeyError" in result.findings[0].detail


_steps = st.lists(st.one_of(
    st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,8}", fullmatch=True).map(lambda name: ("attr", name)),
    st.integers(-99, 99).map(lambda index: ("item", index)),
    st.text(st.characters(blacklist_characters="'\"\\", blacklist_categories=("Cs",)),
            max_size=8).map(lambda key: ("item", key))), max_size=4)


def _written(steps) -> str:
    return "result" + "".join(f".{key}" if kind == "attr" else f"['{key}']" if isinstance(
        key, str) else f"[{key}]" for kind, key in steps)


@given(_steps)
def test_a_return_path_reads_back_the_steps_it_was_written_from(steps):
    assert return_path("move", _written(steps)) == tuple(steps)


@given(st.text(max_size=40))
def test_any_text_is_a_return_path_or_one_mapping_error(text):
    try:
        steps = return_path("value", text)
    except MappingError as error:
        assert str(error).startswith("value = ") and "\n" not in str(error)
    else:
        assert text.startswith("result") and len(steps) <= text.count(".") + text.count("[")


@pytest.mark.parametrize(("values", "message"), [
    ({"move": "result.move()"}, "expected a path from result"),
    ({"move": "__import__('os')"}, "expected a path from result"),
    ({"move": "result.__class__"}, "is Python's own"),
    ({"move": "result.move", "returns": "move_value"}, "returns says how it is written"),
    ({"value": "result.value", "returns": "row_col"}, "is for returns = \"value\""),
    ({"predicate": "p/3", "move": "result.move"}, "a Python mapping's key"),
])
def test_a_return_path_it_cannot_follow_is_refused_in_one_line(values, message):
    with pytest.raises(MappingError, match=re.escape(message)):
        checked_mapping({"function": "f", **values} if "predicate" not in values else values)
