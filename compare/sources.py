"""Decision tables made elsewhere, read leniently, each row or fault with its line number.

The dialect is the project's CSV (`state,player,position,value`, see `compare.table`) with the
differences that tables written by hand or from Prolog have: an optional header, blank lines
and `#` comments, spaces around fields, upper-case marks, the state as a Prolog list in a
quoted field (`"[x,-,-,-,-,-,-,-,-]"`, or unquoted), and the position as an action `[o,5]`.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from compare.table import HEADER
from logic.quote import quoted
from logic.state import Player, State, StateError, parse_player, parse_state

_FIELD = re.compile(
    r"""\s*(?P<field>"(?:[^"]|"")*"|'[^']*'|\[[^\[\]]*\]|[^,"'\[\]]*?)\s*(?P<end>,|$)"""
)
_ACTION = re.compile(r"\[\s*(?P<player>\w+)\s*,\s*(?P<position>[-+]?\d+)\s*\]")
_INTEGER = re.compile(r"[-+]?\d+")
_FRACTION = re.compile(r"[-+]?\d+/(?P<denominator>\d+)")


class RowError(ValueError):
    """A line that is not a row of the decision table."""


class SourceError(OSError):
    """A table that cannot be read at all (missing, unreadable, a directory)."""


@dataclass(frozen=True)
class Row:
    """One row: the position it answers, the cell it marks, the value it claims; its line."""

    line: int
    state: State
    player: Player
    position: int
    value: int


@dataclass(frozen=True)
class BadLine:
    """A line that could not be read as a row, and why."""

    line: int
    text: str
    reason: str


@dataclass
class Table:
    """What a table file holds: its rows and the lines that are not rows, in file order."""

    name: str
    rows: list[Row] = field(default_factory=list)
    bad: list[BadLine] = field(default_factory=list)


def split_fields(text: str) -> list[str]:
    """The comma-separated fields of a line; quotes and Prolog lists may hold commas."""
    fields = []
    index = 0
    while True:
        match = _FIELD.match(text, index)
        if match is None:
            raise RowError(f"a quote or bracket out of place in the field at column {index + 1}")
        fields.append(_unquote(match.group("field")))
        index = match.end()
        if match.group("end") != ",":
            return fields


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1].replace('""', '"').strip()
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].strip()
    return text


def parse_row(text: str) -> tuple[State, Player, int, int | Fraction]:
    """State, player, position and value of one row, in any form of the dialect.

    A value is an integer, or a fraction `p/q` as a depth-limited search writes it."""
    fields = split_fields(text)
    if len(fields) == len(HEADER) + 1 and fields[-1] == "":
        fields.pop()
    if len(fields) != len(HEADER):
        count = f"{len(fields)} field" + ("" if len(fields) == 1 else "s")
        raise RowError(f"{count}; a row has {len(HEADER)}: {','.join(HEADER)}")
    state_text, player_text, position_text, value_text = fields
    try:
        state = parse_state(state_text.lower())
        player = parse_player(player_text.lower())
    except StateError as error:
        raise RowError(str(error)) from None
    position = _parse_position(position_text, player)
    if _INTEGER.fullmatch(value_text):
        return state, player, position, int(value_text)
    fraction = _FRACTION.fullmatch(value_text)
    if fraction is not None and int(fraction["denominator"]) != 0:
        return state, player, position, Fraction(value_text)
    raise RowError(f"the value {quoted(value_text)} is not an integer or a fraction p/q")


def _parse_position(text: str, player: Player) -> int:
    action = _ACTION.fullmatch(text.lower())
    if action is not None:
        if action.group("player") != player:
            raise RowError(f"the action {text} is not {player}'s, the row's player")
        text = action.group("position")
    if not _INTEGER.fullmatch(text):
        raise RowError(
            f"the position {quoted(text)} is not a cell number 1..9 or an action [{player},N]"
        )
    position = int(text)
    if not 1 <= position <= 9:
        raise RowError(f"the position {position} is not a cell number 1..9")
    return position


def is_header(text: str) -> bool:
    """True for the header line `state,player,position,value` (any case, spacing, quoting)."""
    try:
        return tuple(part.lower() for part in split_fields(text)) == HEADER
    except RowError:
        return False


def is_skipped(text: str) -> bool:
    """True for lines that carry nothing: blank, or a `#` comment."""
    stripped = text.strip()
    return not stripped or stripped.startswith("#")


def read_rows(lines: Iterable[str], name: str = "-") -> Table:
    """Read a table's lines leniently: every row, and every line that is not one, by number."""
    table = Table(name)
    seen_content = False
    for number, raw in enumerate(lines, start=1):
        text = raw.strip().lstrip("\ufeff")
        if is_skipped(text):
            continue
        first, seen_content = not seen_content, True
        if first and is_header(text):
            continue
        if is_header(text):
            table.bad.append(BadLine(number, text, "a header after the first row"))
            continue
        try:
            state, player, position, value = parse_row(text)
        except RowError as error:
            table.bad.append(BadLine(number, text, str(error)))
            continue
        table.rows.append(Row(number, state, player, position, value))
    return table


def read_table(path: str) -> Table:
    """Read the table in file `path` (`-`: standard input); `SourceError` if it cannot be read."""
    try:
        if path == "-":
            stdin = getattr(sys.stdin, "buffer", None)
            text = _decoded(stdin.read()) if stdin is not None else sys.stdin.read()
        else:
            with open(path, "rb") as handle:
                text = _decoded(handle.read())
    except OSError as error:
        name = "standard input" if path == "-" else path
        raise SourceError(f"cannot read {name}: {error.strerror or error}") from None
    if "\0" in text:
        name = "standard input" if path == "-" else path
        raise SourceError(f"cannot read {name}: it is not a text table (it holds NUL bytes)")
    return read_rows(text.split("\n"), path)


def _decoded(data: bytes) -> str:
    return data.decode("utf-8-sig", errors="replace")
