"""The reference's answers (`logic/reference.py`, the lab's objective) as the Prolog grader
reads them: each asked of the reference once per board and player, then kept, since judging
asks them again and again (the reference keeps only its `max_value` and `min_value`, and
those per the arguments they were called with)."""

from __future__ import annotations

from functools import cache

from minimax_lab.logic import reference
from minimax_lab.logic.objective import LAB
from minimax_lab.logic.state import Player, State
from minimax_lab.logic.terms import SV


@cache
def terminal_state(state: State, player: Player) -> int | None:
    """The reference's `terminal_state`."""
    return reference.terminal_state(state, player)


@cache
def max_value(state: State, player: Player) -> SV:
    """The reference's `max_value` under the lab's objective, asked as its own recursion asks
    it (so from the same memo)."""
    return reference.max_value(state, player, LAB)


@cache
def min_value(state: State, player: Player) -> SV:
    """The reference's `min_value` under the lab's objective, as `max_value` asks it."""
    return reference.min_value(state, player, LAB)


@cache
def moves(state: State, player: Player) -> tuple[tuple[int, State], ...]:
    """The reference's `moves`: each blank cell, in cell order, with its successor."""
    return tuple(reference.moves(state, player))


@cache
def successors(state: State, player: Player) -> tuple[State, ...]:
    """The reference's `successor`, in cell order (a tuple: a list answered is not equal)."""
    return tuple(reference.successor(state, player))
