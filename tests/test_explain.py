"""Move values drawn on the board."""

from __future__ import annotations

from fractions import Fraction

import pytest
from boards import LAB_CASES, SCORING_CASES, TACTICS

from minimax_lab.logic.commands.cli import EXIT_FALSE, EXIT_OK, EXIT_USAGE, main
from minimax_lab.logic.engines.search import SearchEngine
from minimax_lab.logic.tools.explain import draw_move_values, principal_variation


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


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_fractions_from_the_horizon_are_drawn_with_their_sign():
    state = SCORING_CASES["o can win at once"]
    drawing = draw_move_values(state, {1: Fraction(4, 9), 2: Fraction(-1, 3)}, decision=1)
    assert drawing.splitlines()[0] == "[+4/9]| -1/3 |  3"


def test_o_must_block_and_best_play_is_forced_to_a_draw(capsys):
    # Anything but o3 lets x complete the top row (-1). After o3 every move is forced: x7
    # blocks 3-5-7, o4 blocks 1-4-7, x6 blocks 4-5-6; o8 and o9 both draw, o8 is the lower.
    state, player, _, _ = TACTICS["o must block the top row"]
    status, out, err = run(capsys, "explain", state, player, "--engine", "reference")
    assert (status, err) == (EXIT_OK, "")
    assert out == (
        "o to move in xx--o---- = [x,x,-,-,o,-,-,-,-]\n"
        "The value of each move, from o's side; [v] marks the decision:\n"
        "  x   |  x   | [0]\n"
        "------+------+------\n"
        "  -1  |  o   |  -1\n"
        "------+------+------\n"
        "  -1  |  -1  |  -1\n"
        "Action = [o,3], Value = 0.\n"
        "Principal variation (each side's decision in turn, to the end):\n"
        "1. [o,3]  xxo-o----  [x,x,o,-,o,-,-,-,-]\n"
        "2. [x,7]  xxo-o-x--  [x,x,o,-,o,-,x,-,-]\n"
        "3. [o,4]  xxooo-x--  [x,x,o,o,o,-,x,-,-]\n"
        "4. [x,6]  xxoooxx--  [x,x,o,o,o,x,x,-,-]\n"
        "5. [o,8]  xxoooxxo-  [x,x,o,o,o,x,x,o,-]\n"
        "6. [x,9]  xxoooxxox  [x,x,o,o,o,x,x,o,x]\n"
        "The board is full: a draw.\n"
    )


def test_every_move_wins_and_depth_scoring_tells_them_apart(capsys):
    # x3 and x7 complete a line at once (10 - 1 = 9); x9 threatens both, o blocks one, x
    # completes the other: a win in 3 plies (7). The lab's scoring values all three at 1.
    state, player, _, _ = TACTICS["x wins at 3 or 7 and takes the lower cell"]
    status, out, _ = run(capsys, "explain", state, player, "--engine", "reference",
                         "--search", "alphabeta", "--scoring", "depth")
    assert status == EXIT_OK
    assert out == (
        "x to move in xx-xoo-o- = [x,x,-,x,o,o,-,o,-]\n"
        "The value of each move, from x's side; [v] marks the decision:\n"
        "  x   |  x   | [+9]\n"
        "------+------+------\n"
        "  x   |  o   |  o\n"
        "------+------+------\n"
        "  +9  |  o   |  +7\n"
        "Action = [x,3], Value = 9.\n"
        "Principal variation (each side's decision in turn, to the end):\n"
        "1. [x,3]  xxxxoo-o-  [x,x,x,x,o,o,-,o,-]\n"
        "x wins.\n"
    )
    _, lab, _ = run(capsys, "explain", state, player, "--engine", "reference")
    assert lab.splitlines()[2:7] == ["  x   |  x   | [+1]", "------+------+------",
                                     "  x   |  o   |  o", "------+------+------",
                                     "  +1  |  o   |  +1"]


def test_the_last_blank_cell(capsys):
    state, player, _, _ = TACTICS["the last blank cell, a draw"]
    status, out, _ = run(capsys, "explain", state, player, "--engine", "reference")
    assert status == EXIT_OK
    assert out.splitlines()[2:] == [
        "  x   |  o   |  x",
        "------+------+------",
        "  x   |  o   |  o",
        "------+------+------",
        "  o   |  x   | [0]",
        "Action = [x,9], Value = 0.",
        "Principal variation (each side's decision in turn, to the end):",
        "1. [x,9]  xoxxoooxx  [x,o,x,x,o,o,o,x,x]",
        "The board is full: a draw.",
    ]


def test_a_terminal_state_shows_how_the_game_ended(capsys):
    status, out, _ = run(capsys, "explain", "[o,x,x,-,o,x,-,-,o]", "x")
    assert status == EXIT_FALSE
    assert out == (
        "  o   |  x   |  x\n"
        "------+------+------\n"
        "  4   |  o   |  x\n"
        "------+------+------\n"
        "  7   |  8   |  o\n"
        "o wins.\n"
        "false.\n"
    )


def test_the_principal_variation_is_the_same_on_every_engine(engine):
    state, player, _, _ = TACTICS["o must block the top row"]
    line = principal_variation(engine, state, player)
    assert [str(action) for action, _ in line] == [
        "[o,3]", "[x,7]", "[o,4]", "[x,6]", "[o,8]", "[x,9]"]
    assert line == principal_variation(SearchEngine(search="alphabeta"), state, player)


def test_a_depth_limited_explanation_shows_horizon_values(capsys):
    # One ply: o keeps its 5 lines that avoid cell 3 wherever it plays. x keeps the lines
    # that avoid o's cells: o2 or o4 leave x 4 lines (5 - 4 = 1/9), o6, o7, o8 or o9 leave 3
    # (2/9), o5 leaves 2 (3/9 = 1/3).
    state, player, _, _ = LAB_CASES["lab: o takes cell 4 and wins"]
    status, out, _ = run(capsys, "explain", state, player, "--engine", "reference",
                         "--depth", "1")
    assert status == EXIT_OK
    assert out.splitlines()[2:7] == [
        "  o   | +1/9 |  x",
        "------+------+------",
        " +1/9 |[+1/3]| +2/9",
        "------+------+------",
        " +2/9 | +2/9 | +2/9",
    ]
    assert out.splitlines()[7] == "Action = [o,5], Value = 1/3."


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["explain", "xxx------", "o"], "x has 3 marks and o has 0"),
        (["explain", "x--------", "x"], "it cannot be x's move"),
        (["explain", "x--------", "o", "--search", "alphabeta"], "add --engine reference"),
        (["explain", "x--------", "o", "--engine", "reference", "--depth", "0"], "not '0'"),
        (["explain"], "required: STATE, PLAYER"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert (status, out) == (EXIT_USAGE, "")
    assert err.startswith("minimax-lab: error: ") and message in err
    assert err.count("\n") == 1


def test_in_lose_mode_the_explanation_says_what_the_agent_assumes(capsys):
    status, out, _ = run(capsys, "explain", "x-------o", "o", "--mode", "lose")
    lines = out.splitlines()
    assert status == EXIT_OK
    assert lines[1] == ("o plays to lose, and assumes x tries to make o win; the principal "
                        "variation below is that play.")
    _, won, _ = run(capsys, "explain", "x-------o", "o")
    assert "plays to lose" not in won
