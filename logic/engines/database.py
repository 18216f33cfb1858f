"""pyDatalog's database: one per thread, holding one program at a time.

The plain program (`logic/rules.py`) and the fast one (`logic/engines/fast_rules.py`) state the
same predicates, so a thread holds one of them, for one objective; asking for another clears
the database and states that one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import TypeVar

Loaded = TypeVar("Loaded")
_held = threading.local()


def program(key: Hashable, load: Callable[[], Loaded]) -> Loaded:
    """The program `key` names in this thread's database; `load()` states it (after clearing
    whatever the database held) unless it is the one held already."""
    if getattr(_held, "key", None) != key:
        _held.key = None
        _held.program = load()
        _held.key = key
    held: Loaded = _held.program  # what `load()` made for this key
    return held


def forget() -> None:
    """State the program afresh on the next query: after an interrupted query, say."""
    _held.key = None
