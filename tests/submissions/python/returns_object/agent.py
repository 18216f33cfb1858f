"""An agent that answers an object: decide(grid, me) -> Choice, `grid` 3 lists of 3 of "x", "o"
and "" (a blank), `Choice.move` a (row, col) from 0 and `Choice.value` the game's value from
x's side. Its fault: a draw is good enough, so it takes the first move in reading order that
does not lose, even where another wins."""
from functools import lru_cache

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class Choice:
    def __init__(self, move, value):
        self.move = move
        self.value = value


def winner(cells):
    for a, b, c in LINES:
        if cells[a] and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


@lru_cache(maxsize=None)
def worth(cells, me):
    """The value for `me`, to move, with both sides playing their best."""
    other = "o" if me == "x" else "x"
    scores = []
    for i, cell in enumerate(cells):
        if cell:
            continue
        after = cells[:i] + (me,) + cells[i + 1:]
        if winner(after) == me:
            scores.append(1)
        elif all(after):
            scores.append(0)
        else:
            scores.append(-worth(after, other))
    return max(scores)


def decide(grid, me):
    cells = tuple(cell for row in grid for cell in row)
    other = "o" if me == "x" else "x"
    side = 1 if me == "x" else -1
    for i, cell in enumerate(cells):
        if cell:
            continue
        after = cells[:i] + (me,) + cells[i + 1:]
        if winner(after) == me:
            mine = 1
        elif all(after):
            mine = 0
        else:
            mine = -worth(after, other)
        if mine >= 0:
            return Choice(divmod(i, 3), mine * side)
    i = cells.index("")
    return Choice(divmod(i, 3), -side)
