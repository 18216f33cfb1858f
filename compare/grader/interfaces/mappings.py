"""How a Python program states the game: CS50 AI's `tictactoe.py`, or a declared mapping for a
function of its own (docs/grading-reference.md). Boards, players and moves translated both ways.

A mapping is read from a TOML file and `--set KEY=VALUE` options; every key is checked here,
at the boundary, so that grading never meets a mapping it cannot follow.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from pathlib import Path
from typing import TypeGuard, TypeVar

from minimax_lab.logic.errors import LabError
from minimax_lab.logic.objective import MODES
from minimax_lab.logic.quote import quoted
from minimax_lab.logic.state import BLANK, PLAYERS, SIDE, SIZE, Player, State, marks_made

CS50_FUNCTIONS = ("player", "actions", "result", "winner", "terminal", "utility", "minimax")
"""The functions of CS50 AI's tic-tac-toe project, in the order they are reported."""


class Board(StrEnum):
    """How the program holds a board: 3 lists of 3, a list of 9, or 9 characters."""

    ROWS = "rows"
    FLAT = "flat"
    STRING = "string"


class Returns(StrEnum):
    """What the function returns: a move as (row, col), a cell from 0 or 1, a move with its
    value, or the position's value alone."""

    ROW_COL = "row_col"
    CELL0 = "cell0"
    CELL1 = "cell1"
    ROW_COL_VALUE = "row_col_value"
    MOVE_VALUE = "move_value"
    VALUE = "value"


class Side(StrEnum):
    """Whose side a value is counted from: x's, or the mover's."""

    X = "x"
    MOVER = "mover"


VALUED = (Returns.ROW_COL_VALUE, Returns.MOVE_VALUE, Returns.VALUE)
"""The answers that carry a value."""
ARGUMENTS = ("board", "player", "is_x", "is_o", "blanks")
"""The words a mapping's `args` may use; anything else is passed as it is written."""
MAPPING_FILE = "minimax-lab.toml"
"""The mapping's file name when it sits next to the program."""


class MappingError(LabError, ValueError):
    """A mapping that cannot be followed: an unknown key, or a value out of its choices."""


@dataclass(frozen=True)
class Mapping:
    """How to call a program's function on a position and read its answer."""

    function: str = ""
    file: str | None = None
    board: Board = Board.ROWS
    x: object = "X"
    o: object = "O"
    blank: object = " "
    plays: str | None = None
    args: tuple[object, ...] = ("board", "player")
    returns: Returns = Returns.ROW_COL
    value_side: Side = Side.X
    win_value: int = 1
    objective: str = "win"
    max_value: str | None = None
    min_value: str | None = None
    negamax: str | None = None
    value_args: tuple[object, ...] | None = None

    @property
    def gives_values(self) -> bool:
        """True when the function's answer carries a value."""
        return self.returns in VALUED

    def encode_board(self, state: State) -> object:
        """`state` as the program's board."""
        marks = [self.mark(cell) for cell in state]
        if self.board is Board.STRING:
            return "".join(str(mark) for mark in marks)
        if self.board is Board.FLAT:
            return marks
        return [marks[row : row + SIDE] for row in range(0, SIZE, SIDE)]

    def mark(self, cell: str) -> object:
        """The program's mark for one of the lab's cells (`x`, `o`, `-`)."""
        return {PLAYERS[0]: self.x, PLAYERS[1]: self.o, BLANK: self.blank}[cell]

    def arguments(self, state: State, mover: Player) -> list[object]:
        """The call's arguments at a position, as the harness decodes them."""
        words = {"board": self.encode_board(state), "player": self.mark(mover),
                 "is_x": mover == PLAYERS[0], "is_o": mover == PLAYERS[1],
                 "blanks": SIZE - marks_made(state)}
        return [words.get(item, item) if isinstance(item, str) else item for item in self.args]

    @property
    def recursive(self) -> tuple[str, ...]:
        """The names of the recursive value functions it declares: `max_value` and
        `min_value`, or one `negamax` (none: the program is judged as a whole)."""
        return tuple(name for name in (self.max_value, self.min_value, self.negamax)
                     if name is not None)

    def value_arguments(self, state: State, player: Player) -> list[object]:
        """A recursive value function's arguments at `state`, `player` the agent (for
        `max_value` and `min_value`, as in the lab) or the mover (for `negamax`)."""
        return replace(self, args=self.value_args or self.args).arguments(state, player)

    @property
    def names_the_value_player(self) -> bool:
        """True when the recursive value functions are told a player."""
        return bool({"player", "is_x", "is_o"} & set(self.value_args or self.args))

    @property
    def reads_the_mover(self) -> bool:
        """True when the program is told no player and finds it on the board, as CS50's
        `player(board)` does: X moves first."""
        return self.plays is None and not {"player", "is_x", "is_o"} & set(self.args)

    def movers(self) -> tuple[Player, ...]:
        """The players the function is asked to move for."""
        if self.plays is None:
            return PLAYERS
        return tuple(player for player in PLAYERS if self.mark(player) == self.plays)


def read_mapping(path: Path | None, settings: list[str],
                 table: dict[str, object] | None = None) -> Mapping:
    """The mapping in the TOML file at `path` (else `table`, an assignment's `[mapping]`, if
    any), then each `KEY=VALUE` of `settings`."""
    values: dict[str, object] = dict(table or {}) if path is None else {}
    if path is not None:
        try:
            values.update(tomllib.loads(path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError) as error:
            raise MappingError(f"cannot read the mapping {quoted(str(path))}: {error}") from None
        except tomllib.TOMLDecodeError as error:
            raise MappingError(f"the mapping {quoted(str(path))} is not TOML: {error}") from None
    for setting in settings:
        key, equals, text = setting.partition("=")
        if not equals:
            raise MappingError(f"--set {quoted(setting)}: expected KEY=VALUE")
        try:
            values[key.strip()] = tomllib.loads(f"v = {text}")["v"]
        except tomllib.TOMLDecodeError as error:
            if text.strip().startswith(("[", "{", '"', "'")):  # meant as TOML, and not TOML
                raise MappingError(f"--set {quoted(setting)}: the value is not TOML: "
                                   f"{error}") from None
            values[key.strip()] = text  # a bare word: the text itself
    return checked_mapping(values)


def checked_mapping(values: dict[str, object]) -> Mapping:
    """A `Mapping` from raw values; `MappingError` naming the first key that is wrong."""
    known = {field.name for field in fields(Mapping)}
    for key in values:
        if key not in known:
            raise MappingError(f"unknown mapping key {quoted(key)}; the keys are "
                               f"{', '.join(sorted(known))}")
    marks: dict[str, object] = {key: _mark(values[key]) for key in ("x", "o", "blank", "plays")
                                if key in values}
    mapping = replace(Mapping(), **{**values, **marks})  # type: ignore[arg-type]
    if not isinstance(mapping.function, str) or not mapping.function.isidentifier():
        raise MappingError("the mapping names no function: set function = \"NAME\"")
    mapping = replace(mapping, board=_choice("board", mapping.board, Board),
                      returns=_choice("returns", mapping.returns, Returns),
                      value_side=_choice("value_side", mapping.value_side, Side))
    if mapping.objective not in MODES:
        raise MappingError(f"objective = {mapping.objective!r}: expected one of "
                           f"{', '.join(MODES)}")
    if len({repr(mapping.x), repr(mapping.o), repr(mapping.blank)}) != 3:
        raise MappingError("the marks x, o and blank must differ")
    if mapping.plays is not None and mapping.plays not in (mapping.x, mapping.o):
        raise MappingError(f"plays = {mapping.plays!r} is neither x's mark nor o's")
    if not isinstance(mapping.args, (list, tuple)) or "board" not in mapping.args:
        raise MappingError("args must be a list that holds \"board\"")
    if type(mapping.win_value) is not int or mapping.win_value <= 0:
        raise MappingError("win_value is the whole number a win is worth, 1 or more")
    _check_recursive(mapping)
    if mapping.board is Board.STRING and not all(
            isinstance(mark, str) and len(mark) == 1 for mark in (mapping.x, mapping.o,
                                                                   mapping.blank)):
        raise MappingError("a board that is a string needs marks of one character")
    return replace(mapping, args=tuple(mapping.args), value_args=None if mapping.value_args
                   is None else tuple(mapping.value_args))


def _check_recursive(mapping: Mapping) -> None:
    """The recursive value functions: `max_value` and `min_value` together, or `negamax`
    alone, each a Python name of its own; their `value_args` a list that holds "board"."""
    for key in ("max_value", "min_value", "negamax"):
        name = getattr(mapping, key)
        if name is not None and (not isinstance(name, str) or not name.isidentifier()):
            raise MappingError(f"{key} = {name!r}: expected the name of a Python function")
    if (mapping.max_value is None) != (mapping.min_value is None):
        raise MappingError("max_value and min_value go together: name both, or negamax")
    if mapping.negamax is not None and mapping.max_value is not None:
        raise MappingError("negamax or max_value and min_value: not both")
    if len(set(mapping.recursive)) != len(mapping.recursive):
        raise MappingError("max_value and min_value must name two functions")
    if mapping.value_args is not None and (not isinstance(mapping.value_args, (list, tuple))
                                           or "board" not in mapping.value_args):
        raise MappingError("value_args must be a list that holds \"board\"")
    if mapping.value_args is not None and not mapping.recursive:
        raise MappingError("value_args is for the recursive functions: name max_value and "
                           "min_value, or negamax")
    if mapping.recursive and mapping.objective != "win":
        raise MappingError("the recursive functions are judged as the lab plays, to win: "
                           "objective = \"win\" with max_value, min_value or negamax")


def _mark(value: object) -> object:
    """A mark as TOML gives it; the text `None` stands for Python's None (CS50's blank)."""
    return None if value == "None" else value


Choice = TypeVar("Choice", Board, Returns, Side)


def _choice(key: str, value: object, choices: type[Choice]) -> Choice:
    if not isinstance(value, str) or value not in choices.__members__.values():
        raise MappingError(f"{key} = {value!r}: expected one of "
                           f"{', '.join(choice.value for choice in choices)}")
    return choices(value)


CS50 = Mapping(function="minimax", x="X", o="O", blank=None, args=("board",),
               plays=None, returns=Returns.ROW_COL)
"""CS50's boards: 3 lists of 3 of `"X"`, `"O"` or None, X moving first."""


def move_cell(answer: object, returns: Returns) -> tuple[int | None, object]:
    """The cell (1..9) a move answer names, and its value part; (None, None) if unreadable."""
    returns = Returns(returns)
    move, value = answer, None
    if returns in (Returns.ROW_COL_VALUE, Returns.MOVE_VALUE):
        items = _items(answer)
        if items is None or len(items) < 2 + (returns is Returns.ROW_COL_VALUE):
            return None, None
        move, value = ([items[0], items[1]], items[2]) if returns is Returns.ROW_COL_VALUE else (
            items[0], items[1])
    if returns in (Returns.CELL0, Returns.CELL1):
        if not _integer(move):
            return None, value
        cell = move + (returns is Returns.CELL0)
        return (cell if 1 <= cell <= SIZE else None), value
    items = _items(move)
    if items is None or len(items) != 2:
        return None, value
    row, column = items
    if not (_integer(row) and _integer(column) and 0 <= row < SIDE and 0 <= column < SIDE):
        return None, value
    return row * SIDE + column + 1, value


def _items(value: object) -> list[object] | None:
    """The items of a list or tuple as the harness encodes them."""
    items = value.get("tuple") if isinstance(value, dict) else value
    return items if isinstance(items, list) else None


def _integer(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
