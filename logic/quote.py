"""User text in a message: quoted (its repr, cut to a readable length) or escaped (shown as
it is, but for the characters a terminal would act on); text a submission chose, as data: on
one line (`one_line`) and in a spreadsheet's cell (`spreadsheet_cell`)."""

from __future__ import annotations

import contextlib
import re
import sys
import unicodedata

LIMIT = 60


def quoted(text: str, limit: int = LIMIT) -> str:
    """`repr(text)`, with the middle left out when it is longer than `limit` characters."""
    shown = repr(text)
    if len(shown) <= limit:
        return shown
    keep = (limit - 5) // 2
    return f"{shown[:keep]} ... {shown[-keep:]}"


def escaped(text: str) -> str:
    """`text` with every character that is not printable (terminal escape sequences, carriage
    returns, bells) written as its Python escape; line breaks are kept."""
    if text.isprintable():
        return text
    return "\n".join(
        "".join(char if char.isprintable() else repr(char)[1:-1] for char in line)
        for line in text.split("\n")
    )


def say(message: str) -> None:
    """Print `message` on standard error, escaped, unless that cannot be done (a hung-up
    terminal)."""
    with contextlib.suppress(OSError, ValueError):
        print(escaped(message), file=sys.stderr, flush=True)


def one_line(text: str) -> str:
    """`text` on one line, as data: every character that is not printable (line breaks and
    terminal escape sequences included) written as its Python escape, and a backslash doubled,
    so that `unescape_line` gives `text` back."""
    if text.isprintable() and "\\" not in text:
        return text
    return "".join("\\\\" if char == "\\" else char if char.isprintable() else repr(char)[1:-1]
                   for char in text)


_ESCAPE = re.compile(r"\\(\\|[ntr]|x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})")
_NAMED = {"\\": "\\", "n": "\n", "t": "\t", "r": "\r"}


def unescape_line(line: str) -> str:
    """The text `one_line` wrote as `line`."""
    return _ESCAPE.sub(lambda found: _NAMED.get(found[1]) or chr(int(found[1][1:], 16)), line)


FORMULA_STARTS = ("=", "+", "-", "@")
"""What a spreadsheet reads as the start of a formula in a cell, after any leading whitespace
and under Unicode's compatibility normalisation (a tab or carriage return first too)."""


def spreadsheet_cell(text: str) -> str:
    """`text` for a CSV cell that no spreadsheet evaluates: on one line (`one_line`), with a
    leading `'` when it could start a formula (OWASP's advice on CSV injection)."""
    shown = one_line(text)
    return f"'{shown}" if starts_formula(shown) else shown


def starts_formula(cell: str) -> bool:
    """True when a spreadsheet could read `cell` as a formula: a tab or carriage return first,
    or one of `FORMULA_STARTS` after leading whitespace, as it is or once NFKC-normalised (a
    full-width `＝` is `=`)."""
    if cell.startswith(("\t", "\r")):
        return True
    normal = unicodedata.normalize("NFKC", cell)
    forms = (cell.lstrip(), normal.lstrip(), unicodedata.normalize("NFKC", cell.lstrip()))
    return any(form.startswith(FORMULA_STARTS) for form in forms)
