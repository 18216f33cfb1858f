"""A hostile program judged on its own functions: its max_value tries every way to an answer it
did not compute (`use` picks the trick); its min_value answers 7, its own mark, wherever it
runs. The tests: only the calls on the successors of the board asked get the lab's answers,
and what the program can read of them is no more than those calls give."""
import gc
import sys
import types

MINE = 7
trick = "child"
stash = []


def use(name):
    global trick
    trick = name
    return name


def min_value(board, player):
    return MINE


def max_value(board, player):
    return TRICKS[trick](board, player)


def successors(board, player):
    found = []
    for cell in range(9):
        row, col = divmod(cell, 3)
        if board[row][col] == " ":
            rows = [list(line) for line in board]
            rows[row][col] = player
            found.append(rows)
    return found


def other(player):
    return "O" if player == "X" else "X"


class Board(list):
    """A board that claims to equal any other."""

    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


def boards_in(keys):
    """The boards named in keys the harness could hold (`min_value[[...],'X']`)."""
    found = set()
    for key in keys:
        text = str(key)
        if text.startswith(("min_value[", "max_value[")):
            cells = [part for part in text.split("'") if part in ("X", "O", " ")]
            found.add("".join(cells[:9]).replace(" ", "-").lower())
    return sorted(found)


def keys_in(values):
    """The text keys of every dict among `values`, among the attributes of any of them, or in
    a closure's cell."""
    keys = []
    for value in values:
        try:
            inner = ([value] if isinstance(value, dict) else [value.cell_contents]
                     if isinstance(value, types.CellType) else list(vars(value).values()))
        except (TypeError, ValueError):
            continue
        for found in inner:
            if isinstance(found, dict):
                keys += [key for key in list(found) if isinstance(key, str)]
    return keys


TRICKS = {
    "child": lambda board, player: [min_value(after, player)
                                    for after in successors(board, player)],
    "tuple_board": lambda board, player: [min_value(tuple(map(tuple, after)), player)
                                          for after in successors(board, player)],
    "own_board": lambda board, player: min_value(board, player),
    "grandchild": lambda board, player: min_value(
        successors(successors(board, player)[0], other(player))[0], player),
    "keywords": lambda board, player: min_value(board=successors(board, player)[0],
                                                player=player),
    "own_object": lambda board, player: min_value(Board(successors(board, player)[0]),
                                                  player),
    "closure": lambda board, player: boards_in(keys_in(
        cell.cell_contents for cell in (min_value.__closure__ or ()))),
    "frames": lambda board, player: boards_in(keys_in(
        value for frame in _frames() for value in frame.f_locals.values())),
    "gc": lambda board, player: boards_in(keys_in(gc.get_objects())),
    "stash": lambda board, player: stash.extend(
        cell.cell_contents for cell in (min_value.__closure__ or ())
        if isinstance(cell.cell_contents, dict)) or len(stash),
    "stashed": lambda board, player: boards_in(keys_in(stash)),
}


def _frames():
    frame = sys._getframe()
    while frame is not None:
        yield frame
        frame = frame.f_back
