"""Move values drawn on the board."""

from __future__ import annotations

from boards import SCORING_CASES

from logic.explain import draw_move_values


def test_values_in_their_cells_and_the_decision_in_brackets():
    state = SCORING_CASES["o can win at once"]
    drawing = draw_move_values(state, {1: 7, 2: 5, 3: 9, 4: 7, 5: 7}, decision=3)
    assert drawing == (
        "  +7  |  +5  | [+9]\n"
        "------+------+------\n"
        "  +7  |  +7  |  o\n"
        "------+------+------\n"
        "  x   |  x   |  o"
    )


def test_zero_has_no_sign_and_unvalued_blanks_show_their_number():
    state = SCORING_CASES["o can win at once"]
    drawing = draw_move_values(state, {1: 0, 2: -1}, decision=1)
    assert drawing.splitlines()[0] == " [0]  |  -1  |  3"
