"""User text quoted in a message: its repr, cut to a readable length."""

from __future__ import annotations

LIMIT = 60


def quoted(text: str, limit: int = LIMIT) -> str:
    """`repr(text)`, with the middle left out when it is longer than `limit` characters."""
    shown = repr(text)
    if len(shown) <= limit:
        return shown
    keep = (limit - 5) // 2
    return f"{shown[:keep]} ... {shown[-keep:]}"
