"""Negamax with a typical fault: a board's value is the best of its successors' values, not
negated (each successor's value is counted from the other player's side)."""

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
known = {}


def cells(board):
    return [mark for row in board for mark in row]


def won(flat, player):
    return any(all(flat[cell] == player for cell in line) for line in LINES)


def opponent(player):
    return "O" if player == "X" else "X"


def played(board, cell, player):
    rows = [list(row) for row in board]
    rows[cell // 3][cell % 3] = player
    return rows


def negamax(board, player):
    flat = cells(board)
    key = ("".join(flat), player)
    if key not in known:
        if won(flat, player):
            known[key] = 1
        elif won(flat, opponent(player)):
            known[key] = -1
        elif " " not in flat:
            known[key] = 0
        else:
            known[key] = max(negamax(played(board, cell, player), opponent(player))
                             for cell in range(9) if flat[cell] == " ")
    return known[key]


def best_move(board, player):
    flat = cells(board)
    best = None
    for cell in range(9):
        if flat[cell] == " ":
            value = -negamax(played(board, cell, player), opponent(player))
            if best is None or value > best[2]:
                best = [cell // 3, cell % 3, value]
    return best
