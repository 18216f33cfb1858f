"""Decision tables made elsewhere, read leniently, each row or fault with its line number.

The dialect is the project's CSV (`state,player,position,value`, see `compare.sources.table`)
with the differences that tables written by hand or from Prolog have: an optional header, blank
lines and `#` comments, spaces around fields, upper-case marks, the state as a Prolog list in a
quoted field (`"[x,-,-,-,-,-,-,-,-]"`, or unquoted), and the position as an action `[o,5]`.
Three limits keep any input cheap: `MAX_LINE_CHARS`, `MAX_DIGITS` and `MAX_TABLE_BYTES`."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import IO, AnyStr

from minimax_lab.compare.sources.table import HEADER
from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import quoted
from minimax_lab.logic.state import Player, State, StateError, parse_player, parse_state

MAX_LINE_CHARS = 1000
"""Characters in a line of a table at most (a row is under 100): a longer line that is not
blank or a comment is a bad line, and its fields are not read."""
MAX_DIGITS = 18
"""Digits in a number at most (a value, either part of a fraction, a position)."""
MAX_TABLE_BYTES = 16 * 2**20
"""Bytes in a table file at most; a full table of 9040 rows is under 1 MiB."""

_ACTION = re.compile(r"\[\s*(?P<player>\w+)\s*,\s*(?P<position>[-+]?\d+)\s*\]")
_INTEGER = re.compile(r"[-+]?\d+")
_NUMBER = re.compile(r"(?P<numerator>[-+]?\d+)(?:/(?P<denominator>\d+))?")

_START, _PLAIN, _DOUBLE, _DOUBLE_END, _SINGLE, _LIST, _AFTER = range(7)
"""The scanner's states: before a field, in an unquoted field, in "..." (just after a `"` in
it), in '...', in [...], and after a closed quoted field or list."""
_OPENING = {'"': _DOUBLE, "'": _SINGLE, "[": _LIST}


class RowError(ValueError):
    """A line that is not a row of the decision table."""


class SourceError(LabError, OSError):
    """A table that cannot be read at all (missing, unreadable, a directory, too large)."""


@dataclass(frozen=True)
class Row:
    """One row: the position it answers, the cell it marks, the value it claims; its line."""

    line: int
    state: State
    player: Player
    cell: int
    value: int | Fraction | None


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
    """The comma-separated fields of a line; quotes and Prolog lists may hold commas.

    One pass: the line is read only through one iterator, each character once, in order."""
    fields: list[str] = []
    chars: list[str] = []
    closed = ""
    state = _START
    start = 0
    for index, char in enumerate(text):
        if state == _DOUBLE_END:
            if char == '"':
                chars.append(char)
                state = _DOUBLE
                continue
            closed, state = "".join(chars).strip(), _AFTER
        if state == _START:
            if char == ",":
                fields.append("")
                start = index + 1
            elif char in _OPENING:
                chars, state = ([char] if char == "[" else []), _OPENING[char]
            elif char == "]":
                raise _out_of_place(start)
            elif not char.isspace():
                chars, state = [char], _PLAIN
        elif state == _PLAIN:
            if char == ",":
                fields.append("".join(chars).rstrip())
                state, start = _START, index + 1
            elif char in "\"'[]":
                raise _out_of_place(start)
            else:
                chars.append(char)
        elif state == _DOUBLE:
            if char == '"':
                state = _DOUBLE_END
            else:
                chars.append(char)
        elif state == _SINGLE:
            if char == "'":
                closed, state = "".join(chars).strip(), _AFTER
            else:
                chars.append(char)
        elif state == _LIST:
            if char == "[":
                raise _out_of_place(start)
            chars.append(char)
            if char == "]":
                closed, state = "".join(chars), _AFTER
        else:
            if char == ",":
                fields.append(closed)
                state, start = _START, index + 1
            elif not char.isspace():
                raise _out_of_place(start)
    if state in (_DOUBLE, _SINGLE, _LIST):
        raise _out_of_place(start)
    fields.append(_last_field(state, chars, closed))
    return fields


def _last_field(state: int, chars: list[str], closed: str) -> str:
    if state == _PLAIN:
        return "".join(chars).rstrip()
    if state == _DOUBLE_END:
        return "".join(chars).strip()
    return closed if state == _AFTER else ""


def _out_of_place(start: int) -> RowError:
    return RowError(f"a quote or bracket out of place in the field at column {start + 1}")


def _without_trailing_empty(fields: list[str]) -> list[str]:
    """The fields, less one empty field after a trailing comma in place of a fifth field."""
    if len(fields) == len(HEADER) + 1 and fields[-1] == "":
        return fields[:-1]
    return fields


def parse_row(text: str) -> tuple[State, Player, int, int | Fraction | None]:
    """State, player, position and value of one row, in any form of the dialect.
    The value is an integer, a fraction `p/q` (a depth-limited search), or None if left out."""
    fields = _without_trailing_empty(split_fields(text))
    if len(fields) not in (len(HEADER), len(HEADER) - 1):
        count = f"{len(fields)} field" + ("" if len(fields) == 1 else "s")
        raise RowError(f"{count}; a row has {len(HEADER)}: {','.join(HEADER)}")
    if len(fields) == len(HEADER) - 1:
        fields = [*fields, ""]
    state_text, player_text, position_text, value_text = fields
    try:
        state = parse_state(state_text.lower())
        player = parse_player(player_text.lower())
    except StateError as error:
        raise RowError(str(error)) from None
    cell = _parse_cell(position_text, player)
    return state, player, cell, _parse_value(value_text) if value_text else None


def _parse_value(text: str) -> int | Fraction:
    number = _NUMBER.fullmatch(text)
    if number is None:
        raise RowError(f"the value {quoted(text)} is not an integer or a fraction p/q")
    numerator, denominator = number["numerator"], number["denominator"]
    if _digits(numerator) > MAX_DIGITS or _digits(denominator or "") > MAX_DIGITS:
        raise RowError(
            f"the value {quoted(text)} has more than {MAX_DIGITS} digits; "
            "a value is a small integer or a fraction p/q"
        )
    if denominator is None:
        return int(numerator)
    if int(denominator) == 0:
        raise RowError(f"the value {quoted(text)} is not an integer or a fraction p/q")
    return Fraction(int(numerator), int(denominator))


def _parse_cell(text: str, player: Player) -> int:
    action = _ACTION.fullmatch(text.lower())
    if action is not None:
        if action.group("player") != player:
            raise RowError(f"the action {quoted(text)} is not {player}'s, the row's player")
        text = action.group("position")
    if not _INTEGER.fullmatch(text):
        raise RowError(
            f"the position {quoted(text)} is not a cell number 1..9 or an action [{player},N]"
        )
    if _digits(text) > MAX_DIGITS:
        raise RowError(
            f"the position {quoted(text)} has more than {MAX_DIGITS} digits; "
            "a position is a cell number 1..9"
        )
    position = int(text)
    if not 1 <= position <= 9:
        raise RowError(f"the position {position} is not a cell number 1..9")
    return position


def _digits(number: str) -> int:
    return len(number) - number.startswith(("-", "+"))


def is_header(text: str) -> bool:
    """True for the header line `state,player,position,value` (any case, spacing, quoting),
    with or without one trailing comma."""
    try:
        fields = _without_trailing_empty(split_fields(text))
    except RowError:
        return False
    return tuple(part.lower() for part in fields) == HEADER


def is_skipped(text: str) -> bool:
    """True for lines that carry nothing: blank, or a `#` comment."""
    stripped = text.strip()
    return not stripped or stripped.startswith("#")


def read_rows(lines: Iterable[str], name: str = "-") -> Table:
    """Read a table's lines leniently: every row, and every line that is not one, by number.

    A line longer than `MAX_LINE_CHARS` is a bad line, and its fields are not looked at."""
    table = Table(name)
    seen_content = False
    for number, raw in enumerate(lines, start=1):
        text = raw.strip().lstrip("\ufeff")
        if is_skipped(text):
            continue
        first, seen_content = not seen_content, True
        if len(text) > MAX_LINE_CHARS:
            reason = f"the line has {len(text)} characters; a row has at most {MAX_LINE_CHARS}"
            table.bad.append(BadLine(number, text, reason))
            continue
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
    """Read the table in file `path` (`-`: standard input); `SourceError` if it cannot be read.

    At most `MAX_TABLE_BYTES` are read; a larger input is refused."""
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            data = _read_at_most(getattr(sys.stdin, "buffer", sys.stdin), name)
        else:
            with open(path, "rb") as handle:
                data = _read_at_most(handle, name)
    except SourceError:
        raise
    except OSError as error:
        raise SourceError(f"cannot read {name}: {error.strerror or error}") from None
    text = data if isinstance(data, str) else _decoded(data)
    if "\0" in text:
        raise SourceError(f"cannot read {name}: it is not a text table (it holds NUL bytes)")
    return read_rows(text.split("\n"), path)


def _read_at_most(stream: IO[AnyStr], name: str) -> AnyStr:
    """All of `stream` if it holds at most `MAX_TABLE_BYTES` (characters, for a text stream);
    `SourceError` if it holds more, of which at most one byte more is read."""
    limit = MAX_TABLE_BYTES
    chunks: list[AnyStr] = []
    size = 0
    while size <= limit:
        chunk = stream.read(limit + 1 - size)
        if not chunk:
            return chunk[:0].join(chunks)
        chunks.append(chunk)
        size += len(chunk)
    raise SourceError(
        f"cannot read {name}: it is larger than {_size(limit)}; a decision table is under 1 MiB"
    )


def _size(limit: int) -> str:
    return f"{limit // 2**20} MiB" if limit % 2**20 == 0 else f"{limit} bytes"


def _decoded(data: bytes) -> str:
    return data.decode("utf-8-sig", errors="replace")
