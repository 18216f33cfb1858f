"""The reference's answers as the Prolog grader keeps them (`compare.grader.interfaces.lab_answers`)
are the reference's own (`logic/reference.py`), on every board the grader asks or gives answers
below: each question's board, and each board one mark of either player away from it."""

from __future__ import annotations

import itertools

import pytest

from minimax_lab.compare.grader.interfaces import lab_answers, prolog
from minimax_lab.logic import reference
from minimax_lab.logic.objective import LAB
from minimax_lab.logic.state import BLANK, PLAYERS, SIZE, State, mark

FEW_BLANKS = 3
"""The default run's boards: those with at most this many blanks (their games are short)."""


def boards(most_blanks: int) -> list[State]:
    """The grader's boards with at most `most_blanks` blanks, and those one mark further."""
    asked = {state for state, _ in prolog._states()}
    further = {mark(state, cell, player) for state in asked
               for cell, blank in enumerate(state, 1) if blank == BLANK for player in PLAYERS}
    return sorted(state for state in asked | further if state.count(BLANK) <= most_blanks)


def assert_as_the_reference(states: list[State]) -> None:
    assert states
    for state in states:
        for player in PLAYERS:
            assert lab_answers.terminal_state(state, player) == reference.terminal_state(
                state, player), state
            assert lab_answers.max_value(state, player) == reference.max_value(
                state, player, LAB), state
            assert lab_answers.min_value(state, player) == reference.min_value(
                state, player, LAB), state
            assert list(lab_answers.successors(state, player)) == reference.successor(
                state, player), state
            assert list(lab_answers.moves(state, player)) == reference.moves(state, player)


def test_the_kept_terminal_state_is_the_references_on_every_board_of_the_grid():
    """Every way to fill the grid with x, o and blanks, boards no game reaches among them
    (both players holding a line, as a `terminal_state` question may ask)."""
    grid = [State("".join(cells)) for cells in itertools.product((*PLAYERS, BLANK),
                                                                 repeat=SIZE)]
    both = [state for state in grid
            if all(reference.winning_config(state, player) for player in PLAYERS)]
    assert both  # the kind of board where the reference's clause order decides
    for state in grid:
        for player in PLAYERS:
            assert lab_answers.terminal_state(state, player) == reference.terminal_state(
                state, player), (state, player)


def test_the_kept_answers_are_the_references_on_boards_with_few_blanks():
    assert_as_the_reference(boards(FEW_BLANKS))


@pytest.mark.slow
def test_the_kept_answers_are_the_references_on_every_board():
    assert_as_the_reference(boards(SIZE))
