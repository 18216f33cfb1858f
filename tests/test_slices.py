"""Reading cells as slices (logic/slices.py): how the fast rules spell images and lines."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minimax_lab.facts import load_game
from minimax_lab.logic.slices import LINE_SEPARATOR, read_cells, read_lines, runs

GAME = load_game()
BOARD = "abcdefghi"
cells = st.lists(st.integers(min_value=1, max_value=9), min_size=1, max_size=12)


def one_by_one(text: str, order: list[int]) -> str:
    return "".join(text[cell - 1] for cell in order)


@given(cells)
def test_slices_read_the_cells_in_order(order):
    assert read_cells(BOARD, order) == one_by_one(BOARD, order)


def fewest_slices(order: list[int]) -> int:
    """The fewest runs of evenly spaced cells (a nonzero step) that `order` splits into."""
    fewest = [0] + [len(order)] * len(order)
    for end in range(1, len(order) + 1):
        for start in range(end):
            run = order[start:end]
            steps = {b - a for a, b in zip(run, run[1:], strict=False)}
            if len(steps) <= 1 and 0 not in steps:
                fewest[end] = min(fewest[end], fewest[start] + 1)
    return fewest[-1]


@given(cells)
def test_the_runs_are_as_few_as_can_be(order):
    assert len(runs(tuple(order))) == fewest_slices(order)


@pytest.mark.parametrize("name", list(GAME.symmetries))
def test_every_symmetry_of_the_facts_reads_in_at_most_three_slices(name):
    order = GAME.symmetries[name]
    assert read_cells(BOARD, order) == one_by_one(BOARD, order)
    assert len(runs(order)) <= 3


def test_the_identity_and_the_half_turn_are_one_slice_each():
    assert runs(GAME.symmetries["identity"]) == (slice(0, 9),)
    assert runs(GAME.symmetries["rotate180"]) == (slice(8, None, -1),)


def test_every_line_of_the_facts_is_one_slice():
    assert all(len(runs(line)) == 1 for line in GAME.lines)


def test_lines_read_side_by_side_with_the_separator_between():
    assert read_lines(BOARD, [(1, 2, 3), (1, 5, 9), (3, 5, 7)]) == "abc|aei|ceg"


def test_the_separator_is_no_mark_of_the_facts():
    assert LINE_SEPARATOR not in (*GAME.players, GAME.blank)
