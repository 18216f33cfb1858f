"""`--search` and `--depth` on the commands that ask an engine: the same table, or a clear error."""

from __future__ import annotations

import pytest

from minimax_lab.logic.commands.cli import EXIT_OK, EXIT_USAGE, main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(("mode", "scoring"), [("win", "lab"), ("lose", "depth")])
def test_alphabeta_and_a_covering_depth_write_the_same_table_as_minimax(capsys, mode, scoring):
    objective = ["--engine", "reference", "--mode", mode, "--scoring", scoring]
    _, minimax, _ = run(capsys, "table", *objective)
    _, alphabeta, _ = run(capsys, "table", *objective, "--search", "alphabeta")
    _, deep, _ = run(capsys, "table", *objective, "--depth", "9")
    assert minimax.count("\n") == 9041
    assert alphabeta == minimax == deep


def test_decide_with_alphabeta_and_with_a_depth(capsys):
    assert run(capsys, "decide", "o-x------", "o", "--engine", "reference",
               "--search", "alphabeta") == (EXIT_OK, "Action = [o,4], Value = 1.\n", "")
    assert run(capsys, "decide", "o-x------", "o", "--engine", "reference",
               "--depth", "1") == (EXIT_OK, "Action = [o,5], Value = 1/3.\n", "")
    lab = run(capsys, "decide", "x-o-x----", "o", "--engine", "reference")
    for search in ("minimax", "memo"):
        assert run(capsys, "decide", "x-o-x----", "o", "--engine", "reference",
                   "--search", search) == lab


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["decide", "x--------", "o", "--search", "alphabeta"],
         "--search alphabeta: only the reference engine searches that way; "
         "add --engine reference"),
        (["table", "--engine", "logic", "--depth", "3"],
         "--depth 3: only the reference engine searches that way; add --engine reference"),
        (["decide", "x--------", "o", "--engine", "reference", "--depth", "0"],
         "argument --depth: a depth is a number of plies, 1 or more, not '0'"),
        (["decide", "x--------", "o", "--engine", "reference", "--depth", "deep"],
         "not 'deep'"),
        (["decide", "x--------", "o", "--search", "beta"],
         "argument --search: invalid choice: 'beta'"),
    ],
)
def test_bad_search_options_are_one_line_and_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert (status, out) == (EXIT_USAGE, "")
    assert err.startswith("minimax-lab: error: ") and message in err
    assert err.count("\n") == 1
