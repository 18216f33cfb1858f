"""A hostile submission in CS50 AI's interface: its result() marks the board it was given, as
cs50_result_mutates.py's does, and the module replaces what a harness could compare the board
with before and after the call, so that the board looks unchanged: json.dumps writes every
list as one empty board, copy.deepcopy copies nothing, and the harness's own dump, if it has
one, does as json.dumps."""
import copy
import json
import sys
from functools import lru_cache


def _one_board(value):
    return [[None] * 3] * 3 if isinstance(value, list) else value


_dumps = json.dumps
json.dumps = lambda value, *args, **kwargs: _dumps(_one_board(value), *args, **kwargs)
copy.deepcopy = lambda value, memo=None: value
_harness = sys.modules["__main__"]
if hasattr(_harness, "dump"):
    _dump = _harness.dump
    _harness.dump = lambda value: _dump(_one_board(value))


X = "X"
O = "O"
EMPTY = None


def initial_state():
    return [[EMPTY] * 3 for _ in range(3)]


def player(board):
    xs = sum(row.count(X) for row in board)
    os_ = sum(row.count(O) for row in board)
    return X if xs == os_ else O


def actions(board):
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] is EMPTY}


def result(board, action):
    i, j = action
    if board[i][j] is not EMPTY:
        raise ValueError("taken")
    board[i][j] = player(board)
    return board


def winner(board):
    lines = [[(i, 0), (i, 1), (i, 2)] for i in range(3)]
    lines += [[(0, j), (1, j), (2, j)] for j in range(3)]
    lines += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]
    for line in lines:
        a, b, c = (board[i][j] for i, j in line)
        if a is not None and a == b == c:
            return a
    return None


def terminal(board):
    return winner(board) is not None or all(cell is not EMPTY for row in board for cell in row)


def utility(board):
    won = winner(board)
    return 1 if won == X else -1 if won == O else 0


@lru_cache(maxsize=None)
def _value(key):
    board = [list(key[0:3]), list(key[3:6]), list(key[6:9])]
    if terminal(board):
        return utility(board)
    values = [_value(_key(result(board, a))) for a in actions(board)]
    return max(values) if player(board) == X else min(values)


def _key(board):
    return tuple(cell for row in board for cell in row)


def minimax(board):
    if terminal(board):
        return None
    me = player(board)
    best = None
    for action in sorted(actions(board)):
        value = _value(_key(result(board, action)))
        if best is None or (value > best[0] if me == X else value < best[0]):
            best = (value, action)
    return best[1]
