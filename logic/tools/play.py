"""A game against the agent: the rules of turn-taking, reading a human's move, the computer's move.

The agent is whatever engine it is given, playing for the engine's objective (logic/objective.py):
`win` is the lab's unbeatable agent, `lose` an agent that plays to lose, for its worst outcome.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from minimax_lab.logic.engines import Engine
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.objective import DEPTH_BASE
from minimax_lab.logic.quote import quoted
from minimax_lab.logic.state import BLANK, EMPTY, GAME, SIDE, Player, State, mark, result

_CELL = re.compile(r"\s*(\d+)\s*")
_ROW_COLUMN = re.compile(r"\s*(\d+)[\s,]+(\d+)\s*")
_DIGITS = 4


class MoveError(LabError, ValueError):
    """A human's move that cannot be played: not a move, not a cell, or a taken cell."""


def parse_move(text: str, state: State) -> int:
    """The cell (1..9) a human means by `5` or by `row col` (rows and columns 0..2)."""
    cell_match, row_column_match = _CELL.fullmatch(text), _ROW_COLUMN.fullmatch(text)
    if cell_match is not None:
        cell = _small(cell_match.group(1))
        if not 1 <= cell <= SIDE * SIDE:
            raise MoveError(f"there is no cell {_shown(cell_match.group(1))}; the cells are 1 to 9")
    elif row_column_match is not None:
        row, column = (_small(group) for group in row_column_match.groups())
        if not (0 <= row < SIDE and 0 <= column < SIDE):
            shown_row, shown_column = (_shown(group) for group in row_column_match.groups())
            raise MoveError(f"there is no row {shown_row}, column {shown_column}; "
                            "rows and columns are 0 to 2")
        cell = row * SIDE + column + 1
    else:
        raise MoveError(
            f"{quoted(text.strip())} is not a move; "
            "type a cell 1-9, or a row and a column 0-2 (e.g. 1 2)"
        )
    if state[cell - 1] != BLANK:
        raise MoveError(f"cell {cell} is taken by {state[cell - 1]}; choose a blank cell")
    return cell


def _small(digits: str) -> int:
    """The number `digits` spell, or -1 for one too long to be a cell, row or column."""
    return int(digits) if len(digits) <= _DIGITS else -1


def _shown(digits: str) -> str:
    """`digits` as typed, or quoted in part when there are too many to be a cell."""
    return digits if len(digits) <= _DIGITS else quoted(digits)


def foretold(value: int, computer: Player, scoring: str) -> str:
    """What the value of the computer's move means once it is played: `it is a draw`, `o wins`,
    or, under depth scoring, `o wins in 3 more plies` (`o wins` when the move itself wins)."""
    if value == 0:
        return "it is a draw"
    side = computer if value > 0 else GAME.other_player(computer)
    if scoring != "depth":
        return f"{side} wins"
    plies_left = DEPTH_BASE - abs(value) - 1
    if plies_left == 0:
        return f"{side} wins"
    return f"{side} wins in {plies_left} more {'ply' if plies_left == 1 else 'plies'}"


def announcement(move: Move, mode: str, scoring: str) -> str:
    """The computer's move in words: where it played and what its value means for the game.
    A depth-limited search's value may be an estimate (a fraction), reported as such."""
    played = f"{move.player} plays {move.cell}"
    value = move.value
    if value is None:
        return f"{played}."
    if value != int(value):
        return f"{played}; its search stops before the end of the game and rates the move {value}."
    expected = foretold(int(value), move.player, scoring)
    if mode == "lose":
        opponent = GAME.other_player(move.player)
        return (f"{played}, playing to lose, and assuming {opponent} tries to make it win; "
                f"with such play, {expected}.")
    return f"{played}; with best play, {expected}."


@dataclass(frozen=True)
class Move:
    """One move of a game: who played which cell, and, for the computer, the value it expected."""

    player: Player
    cell: int
    value: int | Fraction | None = None


def play_game(
    engine: Engine,
    human: Player,
    first: Player,
    human_move: Callable[[State], int],
    on_move: Callable[[State, Move], None] = lambda state, move: None,
) -> State:
    """Play from the empty board until the game is over; return the final state.
    `human_move(state)` gives the human's cell, already checked; `on_move` hears of each move."""
    state, to_move = EMPTY, first
    while result(state) is None:
        if to_move == human:
            move = Move(human, human_move(state))
        else:
            decision = engine.minimax_decision(state, to_move)
            assert decision is not None, "a game in progress has a decision"
            move = Move(to_move, decision.action.cell, decision.value)
        on_move(state, move)  # with the state before the move
        state = mark(state, move.cell, move.player)
        to_move = GAME.other_player(to_move)
    return state
