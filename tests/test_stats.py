"""`minimax-lab stats`: the node counts of the three searches and alpha-beta's cuts."""

from __future__ import annotations

import pytest
from test_search import SMALL

from minimax_lab.logic.commands.cli import EXIT_OK, EXIT_USAGE, main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def counts(out: str) -> dict[str, int]:
    return {name: int(number) for name, number in (line.split(": ") for line in out.splitlines())}


def test_the_empty_board_with_x_to_move(capsys):
    status, out, err = run(capsys, "stats", "---------", "x")
    assert (status, err) == (EXIT_OK, "")
    assert list(counts(out)) == ["minimax", "alphabeta", "memo", "alpha cuts", "beta cuts"]
    assert counts(out)["minimax"] == 549946
    assert counts(out)["memo"] == 5478


def test_a_small_position_worked_by_hand(capsys):
    # The counts of tests/test_search.py::test_counts_of_a_small_position_worked_by_hand.
    status, out, _ = run(capsys, "stats", SMALL, "o")
    assert status == EXIT_OK
    assert out == "minimax: 24\nalphabeta: 14\nmemo: 21\nalpha cuts: 2\nbeta cuts: 1\n"


def test_depth_one_visits_the_root_and_its_moves(capsys):
    status, out, _ = run(capsys, "stats", "[-,-,-,-,-,-,-,-,-]", "o", "--depth", "1")
    assert status == EXIT_OK
    assert out == "minimax: 10\nalphabeta: 10\nmemo: 10\nalpha cuts: 0\nbeta cuts: 0\n"


def test_a_terminal_state_is_one_node(capsys):
    status, out, _ = run(capsys, "stats", "xxxoo----", "x")
    assert status == EXIT_OK
    assert counts(out) == {"minimax": 1, "alphabeta": 1, "memo": 1, "alpha cuts": 0,
                           "beta cuts": 0}


def test_the_objective_changes_what_alphabeta_can_cut(capsys):
    _, lab, _ = run(capsys, "stats", "x--------", "o")
    _, depth, _ = run(capsys, "stats", "x--------", "o", "--scoring", "depth")
    assert counts(lab)["minimax"] == counts(depth)["minimax"]
    assert counts(lab)["alphabeta"] < counts(depth)["alphabeta"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["stats", "xxx------", "o"], "x has 3 marks and o has 0"),
        (["stats", "x--------", "x"], "it cannot be x's move"),
        (["stats", "x--------", "q"], "unknown player 'q'"),
        (["stats", "x-------", "o"], "a state has 9 cells"),
        (["stats", "x--------", "o", "--depth", "0"], "1 or more, not '0'"),
        (["stats", "x--------", "o", "--depth", "two"], "not 'two'"),
        (["stats", "x--------", "o", "--mode", "draw"], "unknown mode 'draw'"),
        (["stats", "x--------"], "required: PLAYER"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert (status, out) == (EXIT_USAGE, "")
    assert err.startswith("minimax-lab: error: ") and message in err
    assert err.count("\n") == 1
