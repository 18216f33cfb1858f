"""How a program states the game: CS50 AI's `tictactoe.py`, or a declared mapping for a Python
function or a Prolog predicate of its own (docs/grading-reference.md). Boards, players and
moves translated both ways (a Prolog program's terms in `prolog_mapping`).

A mapping is read from a TOML file and `--set KEY=VALUE` options; every key is checked here,
at the boundary, so that grading never meets a mapping it cannot follow. One grammar for both
languages: `function` declares a Python function, `predicate` a Prolog one, and a key that is
one language's own is refused in the other's.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from pathlib import Path
from typing import TypeGuard, TypeVar

from minimax_lab.logic.contain.harness import PROLOG_SUFFIXES
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.objective import MODES
from minimax_lab.logic.quote import quoted
from minimax_lab.logic.state import BLANK, PLAYERS, SIDE, SIZE, Player, State, marks_made

CS50_FUNCTIONS = ("player", "actions", "result", "winner", "terminal", "utility", "minimax")
"""The functions of CS50 AI's tic-tac-toe project, in the order they are reported."""


class Board(StrEnum):
    """How the program holds a board: 3 lists of 3 (rows, a 3x3 matrix), a list of 9, 9
    characters (Python), or a list of the marks played as `played(Position, Mark)` facts
    (Prolog)."""

    ROWS = "rows"
    FLAT = "flat"
    STRING = "string"
    FACTS = "facts"


class Result(StrEnum):
    """What a Prolog predicate's result argument holds: a move, the next board (in the board
    argument's shape), the lab's action `[Player, Position]`, or a move and its value as one
    pair (`Move-Value`, `[Move, Value]` or `(Move, Value)`)."""

    MOVE = "move"
    BOARD = "board"
    ACTION = "action"
    MOVE_VALUE = "move_value"


class Positions(StrEnum):
    """How a Prolog program numbers the cells: 1..9 or 0..8 in reading order, a row and a
    column from 1 (`[R, C]`, `R-C`, `R/C` or `(R, C)`), or as a numeric keypad (7 8 9 on top)."""

    CELL1 = "cell1"
    CELL0 = "cell0"
    ROW_COL = "row_col"
    NUMPAD = "numpad"


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
PICKED_MOVES = (Returns.ROW_COL, Returns.CELL0, Returns.CELL1)
"""How a move a return path names may be written."""
"""The answers that carry a value."""
ARGUMENTS = ("board", "player", "is_x", "is_o", "blanks")
"""The words a mapping's `args` may use; anything else is passed as it is written."""
PROLOG_ARGUMENTS = ("board", "player", "result", "value", "depth")
"""The words a Prolog mapping's `args` may use, at the top or inside a list (a position
`[Player, State, Board]`, say); any other text is an atom, a whole number an integer."""
FREE = "_"
"""The blank that is a free variable (a Prolog mapping's)."""
PYTHON_ONLY = ("function", "returns", "max_value", "min_value", "negamax", "value_args", "move",
               "value")
PROLOG_ONLY = ("predicate", "module", "result", "positions", "fact", "depth", "heuristic")
"""The keys that are one language's own."""
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
    move: str | None = None
    value: str | None = None
    predicate: str = ""
    module: str | None = None
    result: Result = Result.MOVE
    positions: Positions = Positions.CELL1
    fact: str = "played"
    depth: int | None = None
    heuristic: bool = False

    @property
    def prolog(self) -> bool:
        """True for a Prolog predicate's mapping."""
        return bool(self.predicate)

    @property
    def name(self) -> str:
        """The predicate's name (without its arity), or the function's."""
        return self.predicate.rpartition("/")[0] if self.prolog else self.function

    @property
    def arity(self) -> int:
        """The predicate's arity (a Prolog mapping's)."""
        return int(self.predicate.rpartition("/")[2]) if self.prolog else len(self.args)

    @property
    def gives_values(self) -> bool:
        """True when the function's answer carries a value (a Prolog predicate's, a value
        argument or a move and its value, on a scale that is not a heuristic's)."""
        if self.prolog:
            return not self.heuristic and (self.result is Result.MOVE_VALUE
                                           or "value" in self.args)
        return self.returns in VALUED or self.value is not None

    @property
    def picks(self) -> tuple[Path_, ...]:
        """The return paths it declares, the move's first (none: the whole value is the
        answer, as `returns` says)."""
        return tuple(return_path(key, text) for key, text in (("move", self.move),
                                                               ("value", self.value))
                     if text is not None)

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
        if self.prolog:
            return self.plays is None and "player" not in words_in(self.args)
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
    if "predicate" in values:
        return _checked_prolog(mapping, values)
    for key in PROLOG_ONLY:
        if key in values:
            raise MappingError(f"{key} is a Prolog mapping's key: name the predicate = "
                               "\"NAME/ARITY\", or leave it out")
    if not isinstance(mapping.function, str) or not mapping.function.isidentifier():
        raise MappingError("the mapping names no function: set function = \"NAME\"")
    if mapping.board == Board.FACTS:
        raise MappingError("board = \"facts\" is for a Prolog predicate")
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
    _check_paths(mapping)
    if mapping.board is Board.STRING and not all(
            isinstance(mark, str) and len(mark) == 1 for mark in (mapping.x, mapping.o,
                                                                   mapping.blank)):
        raise MappingError("a board that is a string needs marks of one character")
    return replace(mapping, args=tuple(mapping.args), value_args=None if mapping.value_args
                   is None else tuple(mapping.value_args))


def _checked_prolog(mapping: Mapping, values: dict[str, object]) -> Mapping:
    """A Prolog predicate's mapping, every key checked; `MappingError` naming the first that
    is wrong, or the combination that cannot be followed."""
    for key in PYTHON_ONLY:
        if key in values:
            raise MappingError(f"{key} is a Python mapping's key, and this one names a "
                               "predicate")
    defaults = {"x": "x", "o": "o", "blank": "-", "board": "flat",
                "args": ("board", "player", "result")}
    mapping = replace(mapping, **{key: value for key, value in defaults.items()  # type: ignore[arg-type]
                                  if key not in values})
    name, slash, arity = (mapping.predicate.rpartition("/") if isinstance(mapping.predicate, str)
                          else ("", "", ""))
    if not slash or not _atom_text(name) or not arity.isdigit() or not arity.isascii():
        raise MappingError(f"predicate = {mapping.predicate!r}: expected \"NAME/ARITY\", as "
                           "\"minimax/3\"")
    if mapping.module is not None and not _atom_text(mapping.module):
        raise MappingError(f"module = {mapping.module!r}: expected the name of a module")
    if not isinstance(mapping.fact, str) or not _atom_text(mapping.fact):
        raise MappingError(f"fact = {mapping.fact!r}: expected the name of the facts' functor")
    mapping = replace(mapping, board=_choice("board", mapping.board, Board),
                      result=_choice("result", mapping.result, Result),
                      positions=_choice("positions", mapping.positions, Positions),
                      value_side=_choice("value_side", mapping.value_side, Side))
    if mapping.board is Board.STRING:
        raise MappingError("board = \"string\" is for a Python function: a Prolog board is "
                           "flat, rows or facts")
    for key in ("x", "o", "blank"):
        _prolog_mark(key, getattr(mapping, key))
    if len({repr(mapping.x), repr(mapping.o), repr(mapping.blank)}) != 3:
        raise MappingError("the marks x, o and blank must differ")
    if mapping.plays is not None and mapping.plays not in (mapping.x, mapping.o):
        raise MappingError(f"plays = {mapping.plays!r} is neither x's mark nor o's")
    if mapping.objective not in MODES:
        raise MappingError(f"objective = {mapping.objective!r}: expected one of "
                           f"{', '.join(MODES)}")
    if type(mapping.win_value) is not int or mapping.win_value <= 0:
        raise MappingError("win_value is the whole number a win is worth, 1 or more")
    if mapping.depth is not None and (type(mapping.depth) is not int
                                      or not 1 <= mapping.depth <= SIZE):
        raise MappingError(f"depth = {mapping.depth!r}: expected the plies searched, 1 to 9")
    if type(mapping.heuristic) is not bool:
        raise MappingError("heuristic is true or false")
    if mapping.file is not None and (not isinstance(mapping.file, str)
                                     or not mapping.file.endswith(PROLOG_SUFFIXES)):
        raise MappingError(f"file = {mapping.file!r}: expected a Prolog file "
                           f"({', '.join(PROLOG_SUFFIXES)})")
    args = _prolog_args(mapping.args)
    _check_prolog_words(mapping, args)
    if len(args) != mapping.arity:
        raise MappingError(f"predicate = {mapping.predicate!r} takes {mapping.arity} "
                           f"arguments, and args lists {len(args)}")
    return replace(mapping, args=args)


def _atom_text(text: object) -> bool:
    """True for the text of an atom a mapping may name: printable, one line, not empty."""
    return isinstance(text, str) and bool(text) and text.isprintable() and len(text) <= 100


def _prolog_mark(key: str, mark: object) -> None:
    """A Prolog mark: an atom's text, a whole number, or (a blank only) `"_"`, a free
    variable."""
    if type(mark) is int or (_atom_text(mark) and (mark != FREE or key == "blank")):
        return
    raise MappingError(f"{key} = {mark!r}: expected an atom's text or a whole number"
                       + (", or \"_\" for a free variable" if key == "blank" else ""))


def _prolog_args(args: object, depth: int = 0) -> tuple[object, ...]:
    """A Prolog mapping's `args` as a tuple, lists inside it as tuples: each item a word, an
    atom's text, a whole number or a list of these."""
    if not isinstance(args, (list, tuple)) or depth > 3:
        raise MappingError("args must be a list of words, atoms, whole numbers and lists")
    items: list[object] = []
    for item in args:
        if isinstance(item, (list, tuple)):
            items.append(_prolog_args(item, depth + 1))
        elif type(item) is int or _atom_text(item):
            items.append(item)
        else:
            raise MappingError(f"args: {item!r} is no word, atom or whole number")
    return tuple(items)


def words_in(args: tuple[object, ...]) -> list[str]:
    """The words of `PROLOG_ARGUMENTS` in a Prolog mapping's `args`, lists included."""
    found: list[str] = []
    for item in args:
        if isinstance(item, tuple):
            found += words_in(item)
        elif isinstance(item, str) and item in PROLOG_ARGUMENTS:
            found.append(item)
    return found


def _check_prolog_words(mapping: Mapping, args: tuple[object, ...]) -> None:
    """The words a Prolog mapping's args must hold once each, and those whose keys go with
    them."""
    words = words_in(args)
    for word in set(words):
        if words.count(word) > 1:
            raise MappingError(f"args names {word!r} more than once")
    for word in ("board", "result"):
        if word not in words:
            raise MappingError(f"args must hold \"{word}\"")
    if "result" not in args:
        raise MappingError("\"result\" is an argument of its own, not inside a list")
    if "value" in words and mapping.result is Result.MOVE_VALUE:
        raise MappingError("result = \"move_value\" carries the value: no \"value\" "
                           "argument beside it")
    if "depth" in words and mapping.depth is None:
        raise MappingError("args passes \"depth\": say how deep with depth = N")
    if mapping.heuristic and mapping.depth is None:
        raise MappingError("heuristic = true is for a search cut at a depth: set depth = N")
    if mapping.board is Board.FACTS and mapping.blank == FREE:
        raise MappingError("a board of facts lists the marks played: it has no blank, and "
                           "blank = \"_\" is for a list")


Step = tuple[str, str | int]
"""A step of a return path: `("attr", NAME)`, an attribute, or `("item", KEY)`, an item of a
dict (a text key) or of a list or tuple (a whole number)."""
Path_ = tuple[Step, ...]
"""A return path: where in a function's returned value a part of its answer is."""
_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(-?[0-9]{1,9})\]|\['([^'\\]*)'\]"
                   r'|\["([^"\\]*)"\]')
PATH_SAID = ("expected a path from result: result.NAME, result['KEY'], result[\"KEY\"] or "
             "result[N], one after another (result.best.move, result['eval'], result[0])")


def return_path(key: str, text: object) -> Path_:
    """A return path's text (`result.move`, `result['eval']`, `result[0]`) read by its
    grammar, never run; `MappingError` naming `key` where it is not one."""
    if not isinstance(text, str) or not text.startswith("result") or len(text) > 200:
        raise MappingError(f"{key} = {text!r}: {PATH_SAID}")
    steps: list[Step] = []
    at = len("result")
    while at < len(text):
        found = _STEP.match(text, at)
        if found is None:
            raise MappingError(f"{key} = {text!r}: {PATH_SAID}")
        name, index, single, double = found.groups()
        if name is not None and name.startswith("__"):
            raise MappingError(f"{key} = {text!r}: {name} is Python's own, not the answer's")
        steps.append(("attr", name) if name is not None else
                     ("item", int(index)) if index is not None else
                     ("item", single if single is not None else double))
        at = found.end()
    return tuple(steps)


def _check_paths(mapping: Mapping) -> None:
    """The return paths: each one of the grammar; a move's with `returns` saying how the move
    is written (row_col, cell0 or cell1), a value's alone with returns = "value"."""
    for key in ("move", "value"):
        if getattr(mapping, key) is not None:
            return_path(key, getattr(mapping, key))
    if mapping.move is not None and mapping.returns not in PICKED_MOVES:
        raise MappingError("move = PATH names where the move is: returns says how it is "
                           "written, one of " + ", ".join(PICKED_MOVES))
    if (mapping.move is None and mapping.value is not None
            and mapping.returns is not Returns.VALUE):
        raise MappingError("value = PATH without move = PATH is for returns = \"value\"")
    if mapping.picks and mapping.recursive:
        raise MappingError("move and value paths are for a function judged whole, not with "
                           "max_value, min_value or negamax")


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


Choice = TypeVar("Choice", Board, Returns, Side, Result, Positions)


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
