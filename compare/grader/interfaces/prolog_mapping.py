"""A Prolog predicate declared by a mapping (`mappings.Mapping` with `predicate`): its goal at a
position built as data (`logic.contain.prolog_text`), and its answer, as the harness's JSON
gives it, read back as a move and a value."""

from __future__ import annotations

from typing import TypeGuard, cast

from minimax_lab.compare.grader.interfaces.mappings import (
    FREE,
    Board,
    Mapping,
    Positions,
    Result,
)
from minimax_lab.logic.contain.prolog_text import Atom, Compound, Term, Var, write
from minimax_lab.logic.state import BLANK, PLAYERS, SIDE, SIZE, Player, State

RESULT, VALUE = Var("Result"), Var("Value")
"""The variables a goal's answer is read from."""
NUMPAD = (7, 8, 9, 4, 5, 6, 1, 2, 3)
"""The keypad's number of each cell, in reading order."""


def position_term(mapping: Mapping, cell: int) -> Term:
    """Cell `cell` (1..9) as the program numbers it."""
    if mapping.positions is Positions.CELL0:
        return cell - 1
    if mapping.positions is Positions.NUMPAD:
        return NUMPAD[cell - 1]
    if mapping.positions is Positions.ROW_COL:
        return [(cell - 1) // SIDE + 1, (cell - 1) % SIDE + 1]
    return cell


def position_words(mapping: Mapping, cell: int) -> str:
    """Cell `cell` (1..9) in a finding on a Prolog program: as the program numbers it, written
    as Prolog writes it, with the lab's cell (`[2,1] (cell 4)`)."""
    term = position_term(mapping, cell)
    text = ("[" + ",".join(map(str, term)) + "]" if isinstance(term, list) else str(term))
    return f"{text} (cell {cell})"


def read_position(mapping: Mapping, term: object) -> int | None:
    """The cell (1..9) a position in the harness's JSON names, if it names one."""
    if mapping.positions is Positions.ROW_COL:
        pair = _pair(term)
        if pair is None:
            return None
        row, column = pair
        if not (_integer(row) and _integer(column) and 1 <= row <= SIDE
                and 1 <= column <= SIDE):
            return None
        return (row - 1) * SIDE + column
    if not _integer(term):
        return None
    if mapping.positions is Positions.NUMPAD:
        return NUMPAD.index(term) + 1 if term in NUMPAD else None
    cell = term + (mapping.positions is Positions.CELL0)
    return cell if 1 <= cell <= SIZE else None


def mark_term(mapping: Mapping, cell: str, blank: int = 0) -> Term:
    """The program's mark for one of the lab's cells; a free blank is a variable of its own
    (numbered `blank`)."""
    mark = {PLAYERS[0]: mapping.x, PLAYERS[1]: mapping.o, BLANK: mapping.blank}[cell]
    if mark == FREE and cell == BLANK:
        return Var(f"Blank{blank}")
    return mark if isinstance(mark, int) else Atom(str(mark))


def board_term(mapping: Mapping, state: State) -> Term:
    """`state` as the program's board."""
    if mapping.board is Board.FACTS:
        return [Compound(mapping.fact, (position_term(mapping, cell), mark_term(mapping, mark)))
                for cell, mark in enumerate(state, start=1) if mark != BLANK]
    marks = [mark_term(mapping, mark, cell) for cell, mark in enumerate(state, start=1)]
    if mapping.board is Board.FLAT:
        return marks
    return [marks[row:row + SIDE] for row in range(0, SIZE, SIDE)]


def goal(mapping: Mapping, state: State, mover: Player) -> tuple[str, str]:
    """The goal asking the predicate its decision for `mover` at `state` (`Module:Goal` where
    the mapping names its module), and the template its answer is read from (`Result`, or
    `[Result, Value]`), as the harness's question (`logic.contain.harness.Ask`) takes them."""
    words: dict[str, Term] = {"board": board_term(mapping, state),
                              "player": mark_term(mapping, mover),
                              "result": RESULT, "value": VALUE, "depth": mapping.depth or 0}

    def term(item: object) -> Term:
        if isinstance(item, tuple):
            return [term(inner) for inner in item]
        if isinstance(item, str):
            return words[item] if item in words else Atom(item)
        if isinstance(item, int):
            return item
        raise TypeError(f"not an argument: {item!r}")

    called: Term = Compound(mapping.name, tuple(term(item) for item in mapping.args))
    if mapping.module is not None:  # the predicate called in its own module: `Module:Goal`
        called = Compound(":", (Atom(mapping.module), called))
    template: Term = [RESULT, VALUE] if "value" in _flat(mapping.args) else RESULT
    return write(called), write(template)


def read_answer(mapping: Mapping, state: State, mover: Player,
                answer: object) -> tuple[int | None, object]:
    """The cell (1..9) an answer (the template's value, as JSON: the result, or the result
    and the value) names, and its value part (None where it gives none); (None, None) where
    the move cannot be read."""
    result, value = answer, None
    if "value" in _flat(mapping.args):
        if not isinstance(answer, list) or len(answer) != 2:
            return None, None
        result, value = answer
    if mapping.result is Result.MOVE_VALUE:
        pair = _pair(result)
        if pair is None:
            return None, None
        result, value = pair
    if mapping.result is Result.ACTION:
        pair = _pair(result)
        if pair is None or not _same_mark(pair[0], mark_term(mapping, mover)):
            return None, value
        result = pair[1]
    if mapping.result is Result.BOARD:
        return moved_cell(state, mover, read_board(mapping, _board_in(mapping, result))), value
    return read_position(mapping, result), value


def read_board(mapping: Mapping, term: object) -> State | None:
    """The board a term in the harness's JSON holds, in the mapping's encoding, if it is
    one."""
    if mapping.board is Board.FACTS:
        if not isinstance(term, list):
            return None
        cells = [BLANK] * SIZE
        for fact in term:
            if not (isinstance(fact, dict) and fact.get("f") == mapping.fact):
                return None
            arguments = fact.get("args")
            if not isinstance(arguments, list) or len(arguments) != 2:
                return None
            cell, mark = read_position(mapping, arguments[0]), _read_mark(mapping, arguments[1])
            if cell is None or mark in (None, BLANK) or cells[cell - 1] != BLANK:
                return None
            cells[cell - 1] = str(mark)
        return cast(State, "".join(cells))
    marks = term
    if mapping.board is Board.ROWS:
        if not (isinstance(term, list) and len(term) == SIDE
                and all(isinstance(row, list) and len(row) == SIDE for row in term)):
            return None
        marks = [mark for row in term for mark in row]
    if not isinstance(marks, list) or len(marks) != SIZE:
        return None
    read = [_read_mark(mapping, mark) for mark in marks]
    return None if None in read else cast(State, "".join(str(mark) for mark in read))


def recorded_term(mapping: Mapping) -> str:
    """The predicate the mapping declares, as the harness records its calls
    (`logic.contain.harness.Ask.recorded`): `[Module:Name/Arity]`, `student` its module
    where the mapping names none."""
    indicator = Compound("/", (Atom(mapping.name), mapping.arity))
    return write([Compound(":", (Atom(mapping.module or "student"), indicator))])


def called_position(mapping: Mapping, arguments: tuple[object, ...]) -> tuple[State, Player] | None:
    """The lab's board and player of a call of the declared predicate, its `arguments` as
    the harness's JSON gives them when it was made: the board argument read, the player the
    player argument's mark, else the one it plays (`plays`), else the board's mover (x
    first); None where they are not a board and a player the mapping reads."""
    if len(arguments) != len(mapping.args):
        return None
    state = read_board(mapping, argument_at(mapping.args, arguments, "board"))
    if state is None:
        return None
    if "player" in _flat(mapping.args):
        player = _read_mark(mapping, argument_at(mapping.args, arguments, "player"))
    elif mapping.plays is not None:
        player = next((mark for mark in PLAYERS if mapping.mark(mark) == mapping.plays), None)
    else:
        player = PLAYERS[state.count(PLAYERS[0]) != state.count(PLAYERS[1])]
    return (state, player) if player in PLAYERS else None


def answer_text(mapping: Mapping, texts: tuple[str, ...] | None) -> str:
    """What a recorded call of the declared predicate answered, as its goal's template is
    written (`Result`, or `[Result,Value]`), from the Prolog text of each argument after its
    first answer (None: it gave none)."""
    if texts is None or len(texts) != len(mapping.args):
        return "no answer"
    said = [texts[mapping.args.index(word)] for word in ("result", "value")
            if word in mapping.args]
    return "answers " + (said[0] if len(said) == 1 else "[" + ",".join(said) + "]")


def argument_at(args: tuple[object, ...], arguments: object, word: str) -> object:
    """The part of `arguments` (JSON) where the mapping's `args` put `word` (None: nowhere)."""
    if not isinstance(arguments, (list, tuple)) or len(arguments) != len(args):
        return None
    for item, argument in zip(args, arguments, strict=True):
        if item == word:
            return argument
        if isinstance(item, tuple) and word in _flat(item):
            return argument_at(item, argument, word)
    return None


def moved_cell(state: State, mover: Player, after: State | None) -> int | None:
    """The cell `mover` marked to make `after` from `state`, if it is one move."""
    if after is None:
        return None
    changed = [cell for cell in range(SIZE) if state[cell] != after[cell]]
    if len(changed) != 1 or state[changed[0]] != BLANK or after[changed[0]] != mover:
        return None
    return changed[0] + 1


def _board_in(mapping: Mapping, result: object) -> object:
    """The board inside a result shaped as the board argument (a position `[Player, State,
    Board]` whose board is the next one), else the result itself."""
    path = _path_to_board(mapping.args)
    if not path or path[0] == -1:
        return result
    for step in path:
        if not isinstance(result, list) or step >= len(result):
            return result
        result = result[step]
    return result


def _path_to_board(args: tuple[object, ...]) -> list[int]:
    """Where "board" sits inside the argument holding it (empty: it is an argument itself)."""
    for item in args:
        if isinstance(item, tuple) and "board" in _flat(item):
            return _inner_path(item)
    return []


def _inner_path(items: tuple[object, ...]) -> list[int]:
    for index, item in enumerate(items):
        if item == "board":
            return [index]
        if isinstance(item, tuple) and "board" in _flat(item):
            return [index, *_inner_path(item)]
    return [-1]


def _flat(args: tuple[object, ...]) -> list[object]:
    found: list[object] = []
    for item in args:
        found += _flat(item) if isinstance(item, tuple) else [item]
    return found


def _read_mark(mapping: Mapping, term: object) -> str | None:
    """The lab's mark (`x`, `o`, `-`) for a mark in the harness's JSON, if it is one."""
    for cell in (PLAYERS[0], PLAYERS[1], BLANK):
        if _same_mark(term, mark_term(mapping, cell)):
            return cell
    return None


def _same_mark(json: object, mark: Term) -> bool:
    if isinstance(mark, Var):
        return isinstance(json, dict) and json.get("var") is True
    if isinstance(mark, Atom):
        return json == mark.name
    return _integer(json) and json == mark


def _pair(term: object) -> tuple[object, object] | None:
    """The two items of `[A, B]`, `A-B`, `A/B` or `(A, B)` in the harness's JSON."""
    if isinstance(term, list) and len(term) == 2:
        return term[0], term[1]
    if isinstance(term, dict) and term.get("f") in ("-", "/", ",", ":"):
        arguments = term.get("args")
        if isinstance(arguments, list) and len(arguments) == 2:
            return arguments[0], arguments[1]
    return None


def _integer(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
