"""CS50 AI's tictactoe.py with minimax through max_value(board) and min_value(board), as the
course's lecture writes them: each reads the player from the board (X maximises, O minimises)
and counts values from X's side, as utility does."""
import copy

X = "X"
O = "O"
EMPTY = None


def initial_state():
    return [[EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY]]


def player(board):
    marks = sum(row.count(X) - row.count(O) for row in board)
    return O if marks > 0 else X


def actions(board):
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] is EMPTY}


def result(board, action):
    i, j = action
    if board[i][j] is not EMPTY:
        raise ValueError("that cell is taken")
    after = copy.deepcopy(board)
    after[i][j] = player(board)
    return after


def winner(board):
    lines = [row for row in board]
    lines += [[board[i][j] for i in range(3)] for j in range(3)]
    lines += [[board[i][i] for i in range(3)], [board[i][2 - i] for i in range(3)]]
    for line in lines:
        if line[0] is not EMPTY and line.count(line[0]) == 3:
            return line[0]
    return None


def terminal(board):
    return winner(board) is not None or all(cell is not EMPTY for row in board for cell in row)


def utility(board):
    return {X: 1, O: -1, None: 0}[winner(board)]


def max_value(board):
    if terminal(board):
        return utility(board)
    return max(min_value(result(board, action)) for action in sorted(actions(board)))


def min_value(board):
    if terminal(board):
        return utility(board)
    return min(max_value(result(board, action)) for action in sorted(actions(board)))


def minimax(board):
    if terminal(board):
        return None
    moves = sorted(actions(board))
    if player(board) == X:
        return max(moves, key=lambda action: min_value(result(board, action)))
    return min(moves, key=lambda action: max_value(result(board, action)))
