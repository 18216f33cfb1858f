"""User text in a message: quoted (its repr, cut to a readable length) or escaped (shown as
it is, but for the characters a terminal would act on)."""

from __future__ import annotations

import contextlib
import sys

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
