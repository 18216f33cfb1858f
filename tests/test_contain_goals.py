"""The lab's goals as a student's program is asked them, and their answers read back from the
harness's JSON (`logic.contain.lab_goals`): any term reads as the lab's answer it spells, or as
nothing, and never raises."""

from __future__ import annotations

import pytest
from boards import LAB_CASES
from hypothesis import given, settings
from hypothesis import strategies as st

from minimax_lab.compare.grader.interfaces import prolog
from minimax_lab.compare.grader.interfaces.sample import Judged
from minimax_lab.logic import reference
from minimax_lab.logic.contain.harness import Ask
from minimax_lab.logic.contain.lab_goals import lab_goal, read_decision, read_states, read_sv
from minimax_lab.logic.positions import reachable_states
from minimax_lab.logic.state import PLAYERS

STATES = sorted(reachable_states("x"))
json_terms = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3)
    | st.sampled_from(["x", "o", "-", "sv"]),
    lambda inner: st.lists(inner, max_size=10) | st.dictionaries(
        st.sampled_from(["f", "args", "x"]), inner, max_size=3),
    max_leaves=30)


def spelt(state: str) -> list[str]:
    """A state as the harness's JSON spells it."""
    return list(state)


@pytest.mark.parametrize("name", list(LAB_CASES))
def test_each_goal_names_the_predicate_the_board_and_the_player(name):
    state, player = LAB_CASES[name][:2]
    board = "[" + ",".join(state) + "]"
    assert lab_goal("max_value", state, player) == f"max_value({board}, {player}, A)"
    assert lab_goal("successor", state, player) == (
        f"findall(N, successor({board}, {player}, N), A)")
    assert lab_goal("minimax_decision", state, player) == (
        f"minimax_decision({board}, {player}, Action, Value), A = Action-Value")


@given(st.sampled_from(STATES), st.sampled_from(PLAYERS), st.integers(-1, 1))
def test_the_labs_answers_read_back_as_they_were_written(state, player, value):
    successors = reference.successor(state, player)
    assert read_states([spelt(after) for after in successors]) == successors
    assert read_sv({"f": "sv", "args": [spelt(state), value]}) == (state, value)
    assert read_decision({"f": "-", "args": [[player, 5], value]}) == (player, 5, value)


@given(json_terms)
def test_any_term_reads_as_an_answer_of_the_lab_or_as_none(term):
    states = read_states(term)
    assert states is None or all(len(state) == 9 and set(state) <= set("xo-")
                                 for state in states)
    sv = read_sv(term)
    assert sv is None or (len(sv[0]) == 9 and type(sv[1]) is int)
    decision = read_decision(term)
    assert decision is None or (decision[0] in PLAYERS and type(decision[1]) is int
                                and type(decision[2]) is int)


@pytest.mark.parametrize("term", [
    {"f": "sv", "args": [list("xo-------"), True]},  # JSON's true is no value
    {"f": "sv", "args": [list("xo-------")]},
    {"f": "-", "args": [["z", 5], 1]},
    {"f": "-", "args": None},
    {"f": "-", "args": [["x", 5.0], 1]},
    [list("xo-------"), list("xo")],
    "xo-------",
])
def test_a_term_that_is_nearly_an_answer_is_none(term):
    assert read_sv(term) is None and read_decision(term) is None
    assert read_states(term) is None


@settings(deadline=None)  # the first answers below fill the reference's tables
@given(st.sampled_from(STATES), st.sampled_from(PLAYERS), st.integers(0, 2**62),
       st.none() | st.integers(1, 10**9))
def test_a_question_reads_the_same_from_a_pipe_and_in_a_host(state, player, number, inferences):
    """The line sent to a contained `swipl` and the text given to one in a browser are one
    question: the text is the line without its final `.` and line break."""
    below = prolog.Question("max_value", state, player, Judged.CLAUSES).below
    ask = Ask(lab_goal("max_value", state, player), "A", 3, inferences, below)
    assert ask.line(number).decode() == ask.text(number) + ".\n"
    assert ask.text(number).count("(") == ask.text(number).count(")")
    assert ask.size >= len(ask.line(number))
