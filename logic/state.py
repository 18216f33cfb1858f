"""The one state model: a state is 9 cells row by row, as a 9-character string of `-`, `x`, `o`.

Parsing (the lab's two notations, docs/lab.md), printing, legality and whose move it is live here;
everything else receives a `State` that came through `parse_state`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NewType

from minimax_lab.facts import load_game
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import quoted
from minimax_lab.logic.slices import runs

GAME = load_game()
BLANK = GAME.blank
PLAYERS = GAME.players
MARKS = (BLANK, *PLAYERS)
SIZE = len(GAME.cells)

State = NewType("State", str)
"""A validated state in compact form, e.g. `o-x------` (cell 1 first)."""

Player = str
"""`x` or `o`."""

Turn = tuple[State, Player]
"""A position: a state and the player to move in it (the lab's own Position is a cell, which
this project calls a cell: see `logic.terms.Action`)."""

EMPTY = State(BLANK * SIZE)
_IMAGES = tuple(runs(cells) for cells in GAME.symmetries.values())
_LINES = tuple((a - 1, b - 1, c - 1) for a, b, c in GAME.lines)
_LIST = re.compile(r"\[(.*)\]", re.DOTALL)


class StateError(LabError, ValueError):
    """A text that is not a state or player, or a state no game can reach."""


def parse_state(text: str) -> State:
    """Read a state in compact form (`o-x------`) or as a Prolog list (`[o,-,x,-,-,-,-,-,-]`)."""
    stripped = text.strip()
    match = _LIST.fullmatch(stripped)
    if match is not None:
        inside = match.group(1)
        cells = [cell.strip() for cell in inside.split(",")] if inside.strip() else []
    else:
        cells = list(stripped)
    if len(cells) != SIZE:
        raise StateError(f"a state has {SIZE} cells, {quoted(text.strip())} has {len(cells)}")
    for number, cell in enumerate(cells, start=1):
        if cell not in MARKS:
            raise StateError(
                f"cell {number} is {quoted(cell)}; each cell is one of {', '.join(MARKS)}"
            )
    return State("".join(cells))


_SEPARATOR = re.compile(r"[-+=]*")
_BLANKS = {"", BLANK, ".", "_"}


def parse_drawing(text: str) -> State:
    """Read a board drawn in rows, one a line or split by `/`: cells split by `|` or spaces, or
    one character each; a blank is `-`, `.`, `_`, nothing or its cell number; `x`, `o` in
    either case. Lines of `-`, `+` and `=` between rows are skipped."""
    rows = []
    for line in re.split(r"[\n/]", text):
        bare = "".join(line.split())
        if not bare or (_SEPARATOR.fullmatch(bare) and ("+" in bare or len(bare) != SIDE)):
            continue
        if "|" in line:
            cells = [cell.strip() for cell in line.split("|")]
        else:
            cells = line.split() if len(line.split()) > 1 else list(bare)
        rows.append(cells)
    if len(rows) != SIDE or any(len(row) != SIDE for row in rows):
        raise StateError(f"a drawn board has {SIDE} rows of {SIDE} cells, "
                         f"{quoted(text.strip())} has rows of {[len(row) for row in rows]}")
    marks = []
    for number, cell in enumerate((cell for row in rows for cell in row), start=1):
        if cell in _BLANKS or cell == str(number):
            marks.append(BLANK)
        elif cell.lower() in PLAYERS:
            marks.append(cell.lower())
        else:
            raise StateError(f"cell {number} is {quoted(cell)}; each cell is x, o, or a blank "
                             f"(-, ., _ or its number {number})")
    return State("".join(marks))


def parse_player(text: str) -> Player:
    """Read a player: `x` or `o`."""
    player = text.strip()
    if player not in PLAYERS:
        raise StateError(f"unknown player {quoted(text)}; the players are {' and '.join(PLAYERS)}")
    return player


def to_prolog(state: State) -> str:
    """The Prolog list form, e.g. `[o,-,x,-,-,-,-,-,-]`."""
    return "[" + ",".join(state) + "]"


def has_line(state: str, player: Player) -> bool:
    """True if `player` holds all three cells of one of the game's lines."""
    return any(state[a] == state[b] == state[c] == player for a, b, c in _LINES)


def winner(state: State) -> Player | None:
    """The player who has a line, if any (a legal state has at most one)."""
    for a, b, c in _LINES:
        if state[a] == state[b] == state[c] != BLANK:
            return state[a]
    return None


def is_full(state: State) -> bool:
    """True if no blank cell is left."""
    return BLANK not in state


def is_terminal(state: State) -> bool:
    """True if the game is over: a player has a line or the board is full."""
    return winner(state) is not None or is_full(state)


def marks_count(state: State, player: Player) -> int:
    """How many cells `player` has marked."""
    return state.count(player)


def marks_made(state: str) -> int:
    """How many cells either player has marked: the plies played to reach `state`."""
    return SIZE - state.count(BLANK)


def mark(state: State, cell: int, player: Player) -> State:
    """`state` with `cell` (1..9) marked by `player`, as the lab's `list_replace` makes it."""
    return State(state[: cell - 1] + player + state[cell:])


def result(state: State) -> str | None:
    """How the game ended, `x wins`, `o wins` or `draw`; None while it goes on."""
    won = winner(state)
    if won is not None:
        return f"{won} wins"
    return "draw" if is_full(state) else None


def _marks(count: int) -> str:
    return f"{count} mark" if count == 1 else f"{count} marks"


def last_movers(state: State) -> tuple[Player, ...]:
    """The players who can have made the last move, judging by the counts alone."""
    x, o = PLAYERS
    difference = marks_count(state, x) - marks_count(state, o)
    if state == EMPTY:
        return ()
    return {1: (x,), 0: PLAYERS, -1: (o,)}.get(difference, ())


def check_legal(state: State) -> None:
    """Raise `StateError` unless play from the empty board, either player first, reaches `state`."""
    x, o = PLAYERS
    counts = {player: marks_count(state, player) for player in PLAYERS}
    if abs(counts[x] - counts[o]) > 1:
        raise StateError(
            f"illegal state {state}: x has {_marks(counts[x])} and o has {counts[o]}; "
            "players take turns, so the counts differ by at most one"
        )
    winners = [player for player in PLAYERS if has_line(state, player)]
    if len(winners) == 2:
        raise StateError(
            f"illegal state {state}: both x and o have a line; the first line ends the game"
        )
    if winners and winners[0] not in last_movers(state):
        won, other = winners[0], GAME.other_player(winners[0])
        raise StateError(
            f"illegal state {state}: {won} has a line but {other} has moved since; "
            "the game ends with the winning move"
        )


def players_to_move(state: State) -> tuple[Player, ...]:
    """Whose move it can be in a legal state (both when the counts are equal and nobody has won)."""
    won = winner(state)
    if won is not None:
        return (GAME.other_player(won),)
    if state == EMPTY:
        return PLAYERS
    return tuple(GAME.other_player(mover) for mover in last_movers(state))


def check_turn(state: State, player: Player) -> None:
    """Raise `StateError` unless `player` can be the one to move in the legal `state`."""
    movers = players_to_move(state)
    if player not in movers:
        x, o = PLAYERS
        raise StateError(
            f"it cannot be {player}'s move in {state}: x has {_marks(marks_count(state, x))} "
            f"and o has {marks_count(state, o)}, so {movers[0]} moves next"
        )


def parse_position(state_text: str, player_text: str) -> tuple[State, Player]:
    """Read a position at the boundary: a legal state, and a player whose turn it can be.
    At a terminal state any player is accepted, since no move is asked of them."""
    state, player = parse_state(state_text), parse_player(player_text)
    check_legal(state)
    if not is_terminal(state):
        check_turn(state, player)
    return state, player


def symmetries(state: State) -> Iterator[State]:
    """The 8 images of `state` under the symmetries of the square (facts `symmetry/10`)."""
    for image in _IMAGES:
        yield State("".join(state[run] for run in image))


def canonical(state: State) -> State:
    """The smallest of the 8 images: one representative per symmetry class."""
    return min(symmetries(state))


SIDE = int(SIZE**0.5)
"""Cells per row (and rows per board)."""


def board_rows(cells: list[str]) -> list[list[str]]:
    """Anything said of the cells one by one, cell 1 first, split into the board's rows."""
    return [cells[row : row + SIDE] for row in range(0, SIZE, SIDE)]


def draw_board(state: State) -> str:
    """The board as three rows, blanks showing their cell numbers."""
    cells = [mark if mark != BLANK else str(number) for number, mark in enumerate(state, start=1)]
    rows = [" " + " | ".join(row) for row in board_rows(cells)]
    return "\n---+---+---\n".join(rows)
