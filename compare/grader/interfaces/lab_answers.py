"""The reference's answers (`logic/reference.py`, the lab's objective) as the Prolog grader
reads them again and again, each found once per board and player and kept: `terminal_state`
(from the game's lines), the successors and the moves asked of the reference; `max_value`
and `min_value` by the reference's recursion on those (the reference asks `terminal_state`
afresh at each node)."""

from __future__ import annotations

from functools import cache

from minimax_lab.logic import reference
from minimax_lab.logic.objective import LAB
from minimax_lab.logic.state import BLANK, Player, State, has_line, marks_made
from minimax_lab.logic.terms import SV


@cache
def terminal_state(state: State, player: Player) -> int | None:
    """The reference's `terminal_state`, its first answer: found from the game's lines as
    `logic.state` keeps them, one look at each (the reference's `winning_config` looks at
    each line's cells in turn)."""
    if has_line(state, player):
        return 1
    if has_line(state, reference.other_player(player)):
        return -1
    return None if BLANK in state else 0


def utility(state: State, player: Player) -> int | None:
    """The reference's `utility` under the lab's objective, from the kept `terminal_state`."""
    value = terminal_state(state, player)
    return None if value is None else LAB.utility(value, marks_made(state))


@cache
def max_value(state: State, player: Player) -> SV:
    """The reference's `max_value` under the lab's objective, by its own recursion (the
    reference's `find_max_sv` on the values of the successors), each board's
    `terminal_state` asked of the reference once (tests/test_grader_lab_answers.py holds the two
    equal)."""
    value = utility(state, player)
    if value is not None:
        return SV(state, value)
    return reference.find_max_sv([SV(after, min_value(after, player).value)
                                  for after in successors(state, player)])


@cache
def min_value(state: State, player: Player) -> SV:
    """The reference's `min_value` under the lab's objective, as `max_value`."""
    value = utility(state, player)
    if value is not None:
        return SV(state, value)
    return reference.find_min_sv([SV(after, max_value(after, player).value)
                                  for after in successors(state, reference.other_player(player))])


@cache
def moves(state: State, player: Player) -> tuple[tuple[int, State], ...]:
    """The reference's `moves`: each blank cell, in cell order, with its successor."""
    return tuple(reference.moves(state, player))


@cache
def successors(state: State, player: Player) -> tuple[State, ...]:
    """The reference's `successor`, in cell order (a tuple: a list answered is not equal)."""
    return tuple(reference.successor(state, player))
