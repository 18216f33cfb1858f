"""A hostile submission in CS50 AI's interface, right on every function, whose player() prints
`loudness` characters a call (`shout` sets it) after lifting a harness's cap on what a call may
send of its output: the cap's name in the harness's module is set past any output, and standard
output is replaced by a writer of its own, which writes to the harness's stream and straight to
descriptor 1 besides. Were the cap the harness's, all it prints would ride in each answer."""
import os
import sys

loudness = 20_000
_harness = sys.modules["__main__"]
_harness.MAX_OUTPUT = 10**12


class _Loud:
    """Standard output: to what the harness made of it (a capture, its cap lifted), and
    straight to the process's descriptor 1 as well."""

    def __init__(self, inner):
        self.inner = inner

    def write(self, text):
        os.write(1, text.encode())
        return self.inner.write(text)

    def flush(self):
        self.inner.flush()


sys.stdout = sys.stderr = _Loud(sys.stdout)


def shout(characters):
    global loudness
    loudness = characters
    return loudness


import copy
from functools import lru_cache


X = "X"
O = "O"
EMPTY = None


def initial_state():
    return [[EMPTY] * 3 for _ in range(3)]


def player(board):
    print("y" * loudness)
    xs = sum(row.count(X) for row in board)
    os_ = sum(row.count(O) for row in board)
    return X if xs == os_ else O


def actions(board):
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] is EMPTY}


def result(board, action):
    i, j = action
    if board[i][j] is not EMPTY:
        raise ValueError("taken")
    new = copy.deepcopy(board)
    new[i][j] = player(board)
    return new


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
