"""A program in its own interface: the computer (X) plays to lose or draw, a board of rows with '-' for blank;
ties are shuffled, as such programs often do."""
import math
import random

COMPUTER, HUMAN, EMPTY = "X", "O", "-"
_memo = {}


def evaluate(board):
    lines = [list(row) for row in board] + [list(col) for col in zip(*board)]
    lines += [[board[i][i] for i in range(3)], [board[i][2 - i] for i in range(3)]]
    for line in lines:
        if all(cell == COMPUTER for cell in line):
            return 1
        if all(cell == HUMAN for cell in line):
            return -1
    return 0 if all(cell != EMPTY for row in board for cell in row) else None


def minimax(board, computers_turn):
    key = (str(board), computers_turn)
    if key not in _memo:
        score = evaluate(board)
        if score is None:
            scores = []
            for r, c in empty_cells(board):
                board[r][c] = COMPUTER if computers_turn else HUMAN
                scores.append(minimax(board, not computers_turn))
                board[r][c] = EMPTY
            score = min(scores) if computers_turn else max(scores)
        _memo[key] = score
    return _memo[key]


def empty_cells(board):
    return [(r, c) for r in range(3) for c in range(3) if board[r][c] == EMPTY]


def find_worst_move(board):
    worst, move = math.inf, None
    cells = empty_cells(board)
    random.shuffle(cells)
    for r, c in cells:
        board[r][c] = COMPUTER
        value = minimax(board, False)
        board[r][c] = EMPTY
        if value < worst:
            worst, move = value, (r, c)
    return move


if __name__ == "__main__":
    print(find_worst_move([[EMPTY] * 3 for _ in range(3)]))
