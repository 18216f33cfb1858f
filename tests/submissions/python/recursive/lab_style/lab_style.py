"""The lab's minimax in Python, predicate by predicate: max_value and min_value take the agent
and count values from its side; the lowest optimal cell is kept, as the lab keeps it."""
from functools import lru_cache

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


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
    return _max_value(tuple(board), player)


def min_value(board, player):
    return _min_value(tuple(board), player)


@lru_cache(maxsize=None)
def _max_value(board, player):
    value = terminal_state(board, player)
    if value is not None:
        return value
    return max(min_value(after, player) for after in successor(list(board), player))


@lru_cache(maxsize=None)
def _min_value(board, player):
    value = terminal_state(board, player)
    if value is not None:
        return value
    return min(max_value(after, player) for after in successor(list(board), other_player(player)))


def minimax_decision(board, player):
    best = None
    for cell in range(9):
        if board[cell] == "-":
            value = min_value(board[:cell] + [player] + board[cell + 1:], player)
            if best is None or value > best[1]:
                best = ((cell // 3, cell % 3), value)
    return best
