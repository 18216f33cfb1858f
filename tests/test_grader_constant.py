"""Credit only above what one constant answer gets right: each check's base counted from the
positions (not from the check's own code), the rule of partial credit, and the red team's
stubs (every function a constant; a Prolog program whose games never end, every state worth
0) scoring nothing under the shipped assignments, while right programs keep full marks."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from marks import needs_bwrap, needs_swipl

from minimax_lab.compare.grader.assignments.assignment import default_assignment
from minimax_lab.compare.grader.interfaces.interface import constant_share
from minimax_lab.compare.grader.interfaces.prolog import CHECKS
from minimax_lab.compare.grader.interfaces.python import cs50_functions
from minimax_lab.compare.grader.interfaces.python_interfaces import CS50Interface
from minimax_lab.compare.grader.outputs.text import points
from minimax_lab.compare.judge.scores import Credit, Rule, above_base
from minimax_lab.compare.judge.truth import Policy, Ties
from minimax_lab.logic import api as lab
from minimax_lab.logic import reference
from minimax_lab.logic.contain.python_program import sandboxed_python
from minimax_lab.logic.positions import all_positions, reachable_states, to_move
from minimax_lab.logic.state import BLANK, PLAYERS, is_terminal, mark, winner

SUBMISSIONS = Path(__file__).parent / "submissions"
needs_python = pytest.mark.skipif(sandboxed_python() is None,
                                  reason="no Python a contained program may run")
X_FIRST = sorted(reachable_states(PLAYERS[0]))
EITHER = sorted(reachable_states(PLAYERS[0]) | reachable_states(PLAYERS[1]))


# --- each check's base, counted from the positions -----------------------------------------

def test_a_constant_terminal_state_is_right_where_the_game_goes_on():
    """No answer (the goal fails) is right on every board in play, asked with both
    players: the largest share any one answer gets."""
    going_on = sum(not is_terminal(state) for state in EITHER)
    assert constant_share(CHECKS["terminal_state"], Policy()) == going_on / len(EITHER)


@pytest.mark.parametrize(("function", "right"), [
    ("terminal", lambda states: sum(not is_terminal(state) for state in states)),
    ("winner", lambda states: sum(winner(state) is None for state in states)),
])
def test_a_constant_cs50_answer_is_right_where_most_boards_agree(function, right):
    share = constant_share(cs50_functions()[function], Policy(Ties.ANY))
    assert share == right(X_FIRST) / len(X_FIRST)


def test_a_constant_player_is_right_where_that_player_moves():
    going_on = [state for state in X_FIRST if not is_terminal(state)]
    x_moves = sum(to_move(state) == PLAYERS[0] for state in going_on)
    share = constant_share(cs50_functions()["player"], Policy(Ties.ANY))
    assert share == max(x_moves, len(going_on) - x_moves) / len(going_on)


def test_a_constant_list_of_states_is_right_only_where_the_boards_own_answer_is_that_list():
    """A successor list or a resulting board is the board's own: a constant is right only
    on the few questions whose answer is that same list or board."""
    lists = Counter(tuple(reference.successor(state, player)) for state, player in all_positions())
    assert constant_share(CHECKS["successor"], Policy()) == max(lists.values()) / len(
        all_positions())
    boards: Counter[str] = Counter()
    questions = 0
    for state in X_FIRST:
        if not is_terminal(state):
            blanks = [cell for cell in range(1, 10) if state[cell - 1] == BLANK]
            boards.update(mark(state, cell, to_move(state)) for cell in blanks)
            questions += len(blanks) + (len(blanks) < 9)  # and one taken cell, if any
    assert constant_share(cs50_functions()["result"], Policy()) == max(boards.values()) / questions


# --- the rule -------------------------------------------------------------------------------

@pytest.mark.parametrize(("right", "base", "points"), [
    (100, 0.5, 10.0), (75, 0.5, 5.0), (50, 0.5, 0.0), (30, 0.5, 0.0), (60, 0.0, 6.0),
    (99, 1.0, 0.0),
])
def test_proportional_credit_counts_what_is_right_above_the_base(right, base, points):
    assert Rule(10).earned(right, 100, base) == points


def test_thresholds_apply_to_the_share_above_the_base_and_all_or_nothing_is_unchanged():
    thresholds = Rule(10, Credit.THRESHOLDS, ((0.9, 0.5), (1.0, 1.0)))
    assert thresholds.earned(95, 100) == 5.0  # 95 % right, no base
    assert thresholds.earned(95, 100, 0.5) == 5.0  # 90 % of what is above 50 %
    assert thresholds.earned(94, 100, 0.5) == 0.0  # 88 %
    assert Rule(10, Credit.ALL_OR_NOTHING).earned(100, 100, 0.9) == 10.0
    assert Rule(10, Credit.ALL_OR_NOTHING).earned(99, 100, 0.0) == 0.0


@given(st.integers(0, 500), st.integers(1, 500), st.floats(0, 1))
def test_credit_is_nothing_at_the_base_all_for_all_right_and_grows_with_the_right(
        right, questions, base):
    right = min(right, questions)
    share = above_base(right / questions, base)
    assert 0.0 <= share <= 1.0
    assert (share == 1.0) == (right == questions)
    if right / questions <= base and right < questions:
        assert share == 0.0
    if right < questions:
        assert above_base((right + 1) / questions, base) >= share


# --- the red team's stubs, and right programs -------------------------------------------------

@needs_swipl
def test_a_prolog_stub_scores_nothing_on_a_check_and_a_right_check_keeps_its_points():
    """The stub on terminal_state (the slow sibling asks every check): none of its points,
    though a constant answer is right on some of its questions."""
    asked = ("terminal_state",)
    stub = lab.grade(SUBMISSIONS / "constant.pl", predicates=asked, jobs=1)
    assert stub.score == 0
    assert "points count the right answers above" in stub.report
    right = lab.grade(SUBMISSIONS / "lab_style.pl", predicates=asked, jobs=1)
    rules = default_assignment("prolog", tuple(CHECKS)).checks
    assert right.score == sum(rules[name].points for name in asked) > 0


@pytest.mark.slow  # by default, on two checks
@needs_swipl
def test_a_prolog_stub_scores_nothing_and_a_right_check_keeps_full_marks(tmp_path):
    stub = lab.grade(SUBMISSIONS / "constant.pl", jobs=1)
    assert stub.score == 0 and stub.max_score == 100
    assert "points count the right answers above 13234" in stub.report
    right = lab.grade(SUBMISSIONS / "lab_style.pl", predicates=["terminal_state"], jobs=1)
    assert right.score == 10  # all of terminal_state's points: the other checks not asked


def cs50_gradebook(tmp_path, functions=None):
    """The CS50 stub and the right program graded as a class on `functions` (None: every
    function): the gradebook's score and max_score by name, and the run's `Grade`."""
    graded = lab.grade([SUBMISSIONS / "python" / "cs50_constants.py",
                        SUBMISSIONS / "python" / "cs50_right.py"], interface="cs50",
                       predicates=functions, cpu_seconds=10, jobs=2, csv=tmp_path / "grades.csv")
    rows = (tmp_path / "grades.csv").read_text().splitlines()
    return {row.split(",")[0]: row.split(",")[-3:-1] for row in rows[1:]}, graded


@pytest.mark.slow  # one of the default run's costliest: CI's slow step runs it
@needs_python
@needs_bwrap
def test_a_cs50_stub_scores_nothing_and_a_right_program_keeps_each_functions_points(tmp_path):
    """Every check but `result` (whose 20 686 questions are two fifths of all), the play check
    among them: the stub earns none of their points, the right program all of them (the slow
    sibling asks all)."""
    asked = tuple(check for check in CS50Interface.checks if check != "result")
    rules = default_assignment("cs50", CS50Interface.checks).checks
    scores, graded = cs50_gradebook(tmp_path, asked)
    possible = points(sum(rules[name].points for name in asked))  # result's out of it
    assert scores == {"cs50_constants": ["0", possible], "cs50_right": [possible, possible]}
    assert graded.status == 1 and graded.score is None  # a class: no one score


@pytest.mark.slow  # by default, the same on every function but result
@needs_python
def test_a_cs50_stub_scores_nothing_and_a_right_program_full_marks(tmp_path):
    scores, graded = cs50_gradebook(tmp_path)
    assert scores == {"cs50_constants": ["0", "100"], "cs50_right": ["100", "100"]}
    assert graded.status == 1 and graded.score is None  # a class: no one score
