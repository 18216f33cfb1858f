"""Every legal move's value drawn on the board, the decision marked."""

from __future__ import annotations

from logic.state import BLANK, SIZE, State

_WIDTH = 6


def draw_move_values(state: State, values: dict[int, int], decision: int | None) -> str:
    """The 3x3 board: marks where played, each legal move's value, `[v]` on the decision."""
    side = int(SIZE**0.5)
    cells = []
    for number, mark in enumerate(state, start=1):
        if mark != BLANK:
            text = mark
        elif number in values:
            text = f"{values[number]:+d}" if values[number] else "0"
            if number == decision:
                text = f"[{text}]"
        else:
            text = str(number)
        cells.append(text.center(_WIDTH))
    rows = ["|".join(cells[row : row + side]).rstrip() for row in range(0, SIZE, side)]
    return ("\n" + "+".join(["-" * _WIDTH] * side) + "\n").join(rows)
