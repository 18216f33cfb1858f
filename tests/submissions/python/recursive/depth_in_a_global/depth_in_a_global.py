"""The lab's minimax in Python, with a look-ahead counted in a global: each function is right
one level at a time, but the whole search calls a position three moves ahead a draw."""

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
LOOKAHEAD = 3
depth = 0


def other_player(player):
    return "o" if player == "x" else "x"


def winning_config(board, player):
    return any(all(board[cell] == player for cell in line) for line in LINES)


def terminal_state(board, player):
    if winning_config(board, player):
        return 1
    if winning_config(board, other_player(player)):
        return -1
    if "-" not in board:
        return 0
    return None


def successor(board, player):
    return [board[:cell] + [player] + board[cell + 1:] for cell in range(9) if board[cell] == "-"]


def max_value(board, player):
    global depth
    value = terminal_state(board, player)
    if value is not None:
        return value
    if depth >= LOOKAHEAD:
        return 0
    depth += 1
    try:
        return max(min_value(after, player) for after in successor(board, player))
    finally:
        depth -= 1


def min_value(board, player):
    global depth
    value = terminal_state(board, player)
    if value is not None:
        return value
    if depth >= LOOKAHEAD:
        return 0
    depth += 1
    try:
        return min(max_value(after, player) for after in successor(board, other_player(player)))
    finally:
        depth -= 1


def minimax_decision(board, player):
    best = None
    for cell in range(9):
        if board[cell] == "-":
            value = min_value(board[:cell] + [player] + board[cell + 1:], player)
            if best is None or value > best[1]:
                best = ((cell // 3, cell % 3), value)
    return best
