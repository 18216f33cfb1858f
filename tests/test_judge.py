"""The judge (`compare/judge/`): the reference's decision agrees with itself, a move is judged
into its category for every objective, and why is said in the lab's notation."""

from __future__ import annotations

import pytest
from boards import LAB_CASES, SCORING_CASES, board

from minimax_lab.compare.judge.categories import Category, Kind
from minimax_lab.compare.judge.truth import Answer, Policy, Truth, lab_words
from minimax_lab.compare.judge.truth import truth as the_truth
from minimax_lab.logic.engines import make_engine
from minimax_lab.logic.objective import LAB, Objective


@pytest.fixture(scope="module")
def truth():
    return Truth(LAB)


def reference_values(objective, state, player):
    return make_engine("reference", objective).move_values(state, player)


def test_each_category_says_what_it_is_and_has_a_key_of_its_own():
    notes = {Category.TIE_BREAK, Category.SAME_AGAIN, Category.OTHER_OPTIMAL_AGAIN,
             Category.NOT_REPEATABLE}
    assert {category for category in Category if category.kind is Kind.NOTE} == notes
    assert Category.RIGHT.kind is Kind.RIGHT and Category.NOT_ASKED.kind is Kind.UNASKED
    assert Category.WRONG_VALUE.kind is Kind.FAULT and Category.DIED.kind is Kind.FAULT
    assert {category for category in Category if category.on_backtracking} == {
        Category.SAME_AGAIN, Category.OTHER_OPTIMAL_AGAIN}
    assert len({category.key for category in Category}) == len(Category)
    assert Category.WRONG_VALUE == "wrong value" and Category.WRONG_VALUE.key == "wrong_value"


def test_the_reference_answers_are_computed_once_per_objective_and_policy():
    assert the_truth(LAB) is the_truth(LAB, Policy())
    assert the_truth(LAB, Policy("any", "none")) is not the_truth(LAB)
    assert the_truth(LAB, Policy("any", "none")).policy == Policy("any", "none")


def test_the_details_say_what_was_answered_and_what_it_is_worth(truth):
    position = ("x--------", "o")
    details = {
        (cell, value): lab_words(truth.judge(Answer(position, cell, value)))
        for cell, value in [(2, 0), (5, 1), (1, 0)]
    }
    assert details == {
        (2, 0): "answered [o,2] value 0; that move is worth -1; the best move, [o,5], is worth 0",
        (5, 1): "answered [o,5] value 1; that move is optimal and worth 0",
        (1, 0): "answered [o,1] value 0; cell 1 is taken",
    }
    other = truth.judge(Answer(("-x--o----", "o"), 3, 1))
    assert lab_words(other) == (
        "answered [o,3] value 1; optimal too, but the lowest optimal cell is 1")
    assert other.expected.action.cell == 1
    assert other.move_values == reference_values(LAB, "-x--o----", "o")


@pytest.mark.parametrize("name", list(LAB_CASES))
def test_the_reference_decision_agrees(truth, name):
    state, player, position, value = LAB_CASES[name]
    assert truth.judge(Answer((state, player), position, value)).right


def test_a_suboptimal_move_with_the_move_s_own_value_is_still_suboptimal(truth):
    # x must block at 7; cell 4 loses, and says so honestly.
    state = board("x x o / - o - / - - -")
    assert truth.judge(Answer((state, "x"), 4, -1)).category == Category.SUBOPTIMAL


def test_playing_to_lose_the_best_move_has_the_lowest_value():
    # x wins at 3; playing to lose, that is the worst move, and 7 (a draw) the decision.
    position = (board("x x - / o o - / - - -"), "x")
    truth = Truth(Objective("lose", "lab"))
    assert truth.move_values(position) == {3: 1, 6: 1, 7: 0, 8: 0, 9: 0}
    assert truth.judge(Answer(position, 7, 0)).right
    assert truth.judge(Answer(position, 3, 1)).category == Category.SUBOPTIMAL
    assert truth.judge(Answer(position, 8, 0)).category == Category.OTHER_OPTIMAL
    assert Truth(LAB).judge(Answer(position, 3, 1)).right


def test_depth_scoring_tells_a_quick_win_from_a_slow_one():
    # o wins at once at 3, or later at 1: the same to the lab, a slower win to depth scoring.
    state = SCORING_CASES["o can win at once"]
    lab, depth = Truth(LAB), Truth(Objective("win", "depth"))
    position = (state, "o")
    assert lab.judge(Answer(position, 1, 1)).right
    slow = depth.judge(Answer(position, 1, depth.move_values(position)[1]))
    assert slow.category == Category.SUBOPTIMAL
    assert depth.decision(position).action.cell == 3
