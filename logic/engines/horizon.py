"""The evaluation at the horizon of a depth-limited search: its evaluation function.

A well-known Python example of depth-limited minimax leaves the horizon undefined (its
`mini_max` returns `None` there and then compares it with numbers). Here a non-terminal state
at the horizon is worth the player's open lines minus the opponent's, over one more than the
number of lines: a fraction strictly between -1 and 1, so strictly between every loss and every
win in every scoring (`logic.objective`: a lab win is 1, a depth win 10 - k >= 1, and losses
the same negated).
"""

from __future__ import annotations

from fractions import Fraction

from minimax_lab.facts import load_game
from minimax_lab.logic.objective import Objective
from minimax_lab.logic.state import State

GAME = load_game()
SCALE = len(GAME.lines) + 1


def open_lines(state: State, player: str) -> int:
    """How many lines `player` can still complete: those with no mark of the other player."""
    other = GAME.other_player(player)
    return sum(all(state[cell - 1] != other for cell in line) for line in GAME.lines)


def evaluate(state: State, player: str, objective: Objective) -> Fraction:
    """What `player` maximises at a horizon state: open lines for minus open lines against.
    Strictly inside (-1, 1); the lose mode negates it as it negates the terminal utilities."""
    # the difference is at most the number of lines, so dividing by SCALE keeps it inside
    difference = open_lines(state, player) - open_lines(state, GAME.other_player(player))
    return objective.sign * Fraction(difference, SCALE)
