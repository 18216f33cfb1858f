"""The roster: who each submission is, for a course's gradebook. A CSV file (UTF-8, a BOM
allowed) whose first line names its columns, `folder`, `id` and `name`, and `email` if
wanted, in any order; then a line per student: the submission's name (its folder's name, or
its file's stem), the identifier the course's gradebook matches rows on, the student's name,
and an email address (docs/grading-reference.md, "The roster"). Anything else is refused in one line
that names the file and the line (`RosterError`, exit status 2).
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from minimax_lab.logic.errors import LabError
from minimax_lab.logic.quote import one_line, quoted, starts_formula

REQUIRED = ("folder", "id", "name")
COLUMNS = (*REQUIRED, "email")
"""The roster's columns: the first three required."""


class RosterError(LabError, ValueError):
    """A roster that cannot be read as one."""


@dataclass(frozen=True)
class Student:
    """Who a submission is: the identifier a gradebook matches rows on, a name, an email."""

    id: str
    name: str
    email: str = ""


Roster = Mapping[str, Student]
"""Each submission's name (its folder, or its file's stem) and its student."""


def student_of(roster: Roster, name: str) -> Student:
    """The student of the submission `name`: the roster's, else one named by the submission
    (its id and name are the folder's name)."""
    return roster.get(name) or Student(name, name)


def read_roster(path: str | Path) -> dict[str, Student]:
    """The roster in the file at `path`."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        why = error.strerror if isinstance(error, OSError) and error.strerror else (
            "not UTF-8 text" if isinstance(error, UnicodeDecodeError) else str(error))
        raise RosterError(f"cannot read the roster {quoted(str(path))}: {why}") from None
    return parse_roster(text, str(path))


def parse_roster(text: str, source: str = "roster") -> dict[str, Student]:
    """The roster `text` holds (read from the file `source`), each submission's name to its
    student; a `RosterError` that names the line for anything else."""
    where = f"roster {quoted(source)}"
    rows = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""), strict=True)
    try:
        header = next(rows, None)
        if header is None or not any(cell.strip() for cell in header):
            raise RosterError(f"{where} is empty: its first line names the columns "
                              f"{','.join(REQUIRED)}[,email]")
        columns = [cell.strip().lower() for cell in header]
        _check_header(columns, where)
        roster: dict[str, Student] = {}
        seen: dict[tuple[str, str], int] = {}
        for row in rows:
            line = rows.line_num
            if not any(cell.strip() for cell in row):
                continue  # a blank line, as spreadsheets leave at the end
            if len(row) != len(columns):
                raise RosterError(f"{where}, line {line}: {len(row)} cells where the first "
                                  f"line names {len(columns)} columns")
            cells = {column: cell.strip() for column, cell in zip(columns, row, strict=True)}
            _check_cells(cells, f"{where}, line {line}")
            for column in ("folder", "id", "email"):
                value = cells.get(column, "")
                if value and (column, value) in seen:
                    raise RosterError(f"{where}, line {line}: {column} {quoted(value)} is "
                                      f"given twice (lines {seen[column, value]} and {line})")
                seen[column, value] = line
            roster[cells["folder"]] = Student(cells["id"], cells["name"], cells.get("email", ""))
    except csv.Error as error:
        raise RosterError(f"{where}, line {rows.line_num}: not CSV ({error})") from None
    return roster


def _check_header(columns: list[str], where: str) -> None:
    unknown = [column for column in columns if column not in COLUMNS]
    if unknown:
        raise RosterError(f"{where}: unknown column {quoted(one_line(unknown[0]))}; the "
                          f"columns are {','.join(REQUIRED)}[,email]")
    twice = sorted({column for column in columns if columns.count(column) > 1})
    if twice:
        raise RosterError(f"{where}: the column {twice[0]} is named twice")
    missing = [column for column in REQUIRED if column not in columns]
    if missing:
        raise RosterError(f"{where}: no {missing[0]} column; the columns are "
                          f"{','.join(REQUIRED)}[,email]")


def _check_cells(cells: dict[str, str], where: str) -> None:
    for column in REQUIRED:
        if not cells[column]:
            raise RosterError(f"{where}: no {column}")
    for column, value in cells.items():
        if any(unicodedata.category(char)[0] == "C" or unicodedata.category(char) in ("Zl", "Zp")
               for char in value):
            raise RosterError(f"{where}: the {column} {quoted(value)} holds a line break or a "
                              "control character")
    for column in ("id", "email"):
        if starts_formula(cells.get(column, "")):
            raise RosterError(f"{where}: the {column} {quoted(cells[column])} starts as a "
                              "spreadsheet formula does; a gradebook could not match it")
