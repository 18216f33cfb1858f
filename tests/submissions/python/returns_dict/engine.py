"""A search that answers a dict: search(cells, turn) -> {"move": i, "eval": v}, `cells` a list of
9 of "X", "O" and "." in reading order, `i` the cell from 0, `v` the value for `turn` (1 a win,
0 a draw, -1 a loss). It has no fault: the first best move in cell order."""
from functools import lru_cache

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def won(cells, mark):
    return any(cells[a] == cells[b] == cells[c] == mark for a, b, c in LINES)


@lru_cache(maxsize=None)
def negamax(cells, turn):
    other = "O" if turn == "X" else "X"
    best = None
    for i, cell in enumerate(cells):
        if cell != ".":
            continue
        after = cells[:i] + turn + cells[i + 1:]
        if won(after, turn):
            score = 1
        elif "." not in after:
            score = 0
        else:
            score = -negamax(after, other)["eval"]
        if best is None or score > best["eval"]:
            best = {"move": i, "eval": score}
    return best


def search(cells, turn):
    return dict(negamax("".join(cells), turn))
