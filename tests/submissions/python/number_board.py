"""A program in its own interface: a flat board of numbers (1 for X, -1 for O, 0 blank), the player to move as
+1 or -1, answering [row, col, score] with the score from X's side."""
from functools import lru_cache

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def score(board):
    for a, b, c in LINES:
        if board[a] != 0 and board[a] == board[b] == board[c]:
            return board[a]
    return None


@lru_cache(maxsize=None)
def value(board, player):
    won = score(board)
    if won is not None:
        return won
    if 0 not in board:
        return 0
    results = [value(board[:i] + (player,) + board[i + 1:], -player)
               for i in range(9) if board[i] == 0]
    return max(results) if player == 1 else min(results)


def best_move(board, player):
    board = tuple(board)
    best = None
    for i in range(9):
        if board[i] == 0:
            v = value(board[:i] + (player,) + board[i + 1:], -player)
            if best is None or (v > best[2] if player == 1 else v < best[2]):
                best = [i // 3, i % 3, v]
    return best
