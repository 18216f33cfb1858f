"""The positions (`logic/positions.py`): every position to decide, and its symmetry classes."""

from __future__ import annotations

from minimax_lab.logic.positions import all_positions, symmetry_classes
from minimax_lab.logic.state import EMPTY, canonical, check_legal, check_turn, is_terminal


def test_every_position_is_legal_non_terminal_and_its_players_turn():
    positions = all_positions()
    assert len(set(positions)) == len(positions)
    assert list(positions) == sorted(positions)
    for state, player in positions:
        check_legal(state)
        check_turn(state, player)
        assert not is_terminal(state)
    assert (EMPTY, "x") in positions and (EMPTY, "o") in positions


def test_symmetry_classes_cover_every_position_once_per_class():
    classes = set(symmetry_classes())
    assert all(canonical(state) == state for state, _ in classes)
    assert {(canonical(state), player) for state, player in all_positions()} <= classes
    assert len(classes) < len(all_positions()) / 4
