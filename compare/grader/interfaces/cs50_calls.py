"""A CS50 `tictactoe.py`'s own calls below a question, as the Python harness recorded them
(`python_harness`'s `record`): each read back as a call on the lab's board, for the player CS50's
`player(board)` says moves there, with what it returned; and the lab's answer beside a call of
a function of the program's own, not one of CS50's (docs/grading-reference.md, "The student's
search beside the lab's")."""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence

from minimax_lab.compare.grader.interfaces.mappings import CS50_FUNCTIONS, Returns, move_cell
from minimax_lab.compare.grader.interfaces.python import Question, shown
from minimax_lab.logic import reference
from minimax_lab.logic.positions import to_move
from minimax_lab.logic.state import BLANK, PLAYERS, SIDE, State
from minimax_lab.logic.terms import whole

_MARK = r"(None|'X'|'O')"
_ROW = rf"\[{_MARK},{_MARK},{_MARK}\]"
KEY = re.compile(rf"([A-Za-z_][A-Za-z0-9_]*)\[\[{_ROW},{_ROW},{_ROW}\](?:,\[([0-2]),([0-2])\])?\]")
"""A recorded call's key, as the harness's `plain` writes it: the function's name, then its
arguments, a board of 3 rows of `None`, `'X'` or `'O'`, and for `result` an action (i, j)."""
MARKS = {"None": BLANK, "'X'": PLAYERS[0], "'O'": PLAYERS[1]}
TAKES_AN_ACTION = ("result",)
"""CS50's functions called with an action after the board."""


def own_calls(made: Sequence[str], returned: Sequence[tuple[int, object]]
              ) -> list[tuple[Question, str]]:
    """The calls the program's code made one level below a question, in order, each once,
    with what it returned, where its arguments are a CS50 board (and for `result` an action)
    of an x-first game; any other call is left out."""
    values = dict(returned)
    calls: dict[Question, str] = {}
    for index, key in enumerate(made):
        found = KEY.fullmatch(key)
        if found is None:
            continue
        name, *marks, row, column = found.groups()
        if (row is not None) != (name in TAKES_AN_ACTION):
            continue
        state = State("".join(MARKS[mark] for mark in marks))
        if state.count(PLAYERS[0]) - state.count(PLAYERS[1]) not in (0, 1):
            continue
        cell = None if row is None else int(row) * SIDE + int(column) + 1
        calls.setdefault(Question(name, state, to_move(state), cell),
                         _said(values[index]) if index in values else "raised")
    return list(calls.items())


def _said(value: object) -> str:
    """What a call returned, as Python shows it, with the lab's cell where it is a move."""
    cell, _ = move_cell(value, Returns.ROW_COL)
    return f"returns {shown(value)}" + ("" if cell is None else f" (cell {cell})")


def own_function_right(question: Question) -> frozenset[Hashable]:
    """The lab's answer beside a call of a function of the program's own (not one of CS50's):
    the value of its board from X's side, as CS50's `utility` counts it, the lab's
    `max_value` for x where X moves, else its `min_value` for x."""
    if question.check in CS50_FUNCTIONS:
        return frozenset()
    state, x = question.state, PLAYERS[0]
    found = (reference.max_value if to_move(state) == x else reference.min_value)(state, x)
    return frozenset({whole(found.value)})
