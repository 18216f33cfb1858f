"""A stub the red team wrote: every function of CS50's tic-tac-toe answers a constant. It
computes nothing, and earns nothing."""

X = "X"
O = "O"
EMPTY = None


def initial_state():
    return [[EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY]]


def player(board):
    return X


def actions(board):
    return set()


def result(board, action):
    return initial_state()


def winner(board):
    return None


def terminal(board):
    return False


def utility(board):
    return 0


def minimax(board):
    return (1, 1)
