"""A program in its own interface: a board as 9 characters ('.' blank, lowercase marks), the player as its mark,
answering the cell 1-9 only."""
from functools import lru_cache

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def other(player):
    return "o" if player == "x" else "x"


@lru_cache(maxsize=None)
def value(board, player, me):
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return 1 if board[a] == me else -1
    if "." not in board:
        return 0
    scores = [value(board[:i] + player + board[i + 1:], other(player), me)
              for i in range(9) if board[i] == "."]
    return max(scores) if player == me else min(scores)


def choose(board, player):
    cells = [i for i in range(9) if board[i] == "."]
    scores = {i: value(board[:i] + player + board[i + 1:], other(player), player) for i in cells}
    best = max(scores.values())
    return min(i for i in cells if scores[i] == best) + 1
