"""Named positions for the tests, drawn as boards so a reader sees the game."""

from __future__ import annotations

from minimax_lab.logic.state import State, parse_state


def board(drawing: str) -> State:
    """A state from a drawing of three rows of `x`, `o` and `-`; spaces and `/` are ignored."""
    return parse_state("".join(drawing.replace("/", " ").split()))


# The lab's cases (docs/lab.md): position, player, the decision's cell and value.
LAB_CASES = {
    "lab: o takes cell 4 and wins": (board("""
        o - x
        - - -
        - - -
    """), "o", 4, 1),
    "lab: o in the centre takes a corner": (board("""
        - x -
        - o -
        - - -
    """), "o", 1, 1),
    "lab: o answers a corner with the centre": (board("""
        x - -
        - - -
        - - -
    """), "o", 5, 0),
    "lab: x opens in cell 1": (board("""
        - - -
        - - -
        - - -
    """), "x", 1, 0),
}

# More positions whose decision can be read off the board.
TACTICS = {
    "x completes the top row": (board("""
        x x -
        o o -
        - - -
    """), "x", 3, 1),
    "x wins at 3 or 7 and takes the lower cell": (board("""
        x x -
        x o o
        - o -
    """), "x", 3, 1),
    "o must block the top row": (board("""
        x x -
        - o -
        - - -
    """), "o", 3, 0),
    "o must block cell 2": (board("""
        x - x
        - o -
        - - -
    """), "o", 2, 0),
    "the last blank cell, a draw": (board("""
        x o x
        x o o
        o x -
    """), "x", 9, 0),
}

TERMINAL = {
    "x has the top row": (board("""
        x x x
        o o -
        - - -
    """), {"x": 1, "o": -1}),
    "o has the diagonal": (board("""
        o x x
        - o x
        - - o
    """), {"x": -1, "o": 1}),
    "full board, no line": (board("""
        x o x
        x o o
        o x x
    """), {"x": 0, "o": 0}),
}

# Positions where the scoring changes the decision (read off the board).
SCORING_CASES = {
    # o wins at once in 3 (3-6-9); cell 1 also wins, later, with a double threat.
    "o can win at once": board("""
        - - -
        - - o
        x x o
    """),
    # o at 4 forks (1-4-7 and 4-5-6) and wins in 3 plies; o at 1 wins too, later.
    "o can fork now or win later": board("""
        - - -
        - - o
        o x x
    """),
}
