"""The terminal side of the REPL: line editing, history and Tab completion, and single keys.

`readline` (stdlib, guarded: some Pythons lack it) gives `input()` line editing and an
in-memory history; Tab completes the lab's predicate names and the REPL's commands.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from logic import interrupts

try:
    import readline
except ImportError:  # pragma: no cover - Pythons built without readline
    readline = None

try:
    import termios
except ImportError:  # pragma: no cover - non-POSIX systems
    termios = None

KEY_BYTES = 64
"""The most bytes one read of a key takes: every key's escape sequence, and then some."""
NEXT_KEYS = frozenset(";nr \t")
"""The keys that ask for the next answer, as in SWI-Prolog; any other key (Enter) stops."""


def completer(words: Sequence[str]) -> Callable[[str, int], str | None]:
    """A readline completer: the `state`-th of `words` that start with `text`."""

    def complete(text: str, state: int) -> str | None:
        matches = [word for word in words if word.startswith(text)]
        return matches[state] if state < len(matches) else None

    return complete


def enable_line_editing(words: Sequence[str]) -> None:
    """Turn on readline's editing and history for `input()`, with Tab completing `words`."""
    if readline is None:
        return
    readline.set_completer(completer(words))
    readline.set_completer_delims(" \t\n(),[]")
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")


class TerminalKeys:
    """Single keys from the terminal on standard input, read without Enter and without echo.

    While answers are shown (`answering()`), the terminal neither echoes nor waits for Enter,
    so a key typed early is not printed; Ctrl-C still interrupts.
    """

    def __init__(self) -> None:
        self.fd = sys.stdin.fileno()

    @contextmanager
    def answering(self) -> Iterator[None]:
        """Keys unechoed and unbuffered for the duration; the terminal restored after."""
        if termios is None:
            yield
            return
        saved = termios.tcgetattr(self.fd)
        changed = termios.tcgetattr(self.fd)
        changed[3] &= ~(termios.ICANON | termios.ECHO)
        changed[6][termios.VMIN] = 1
        changed[6][termios.VTIME] = 0
        termios.tcsetattr(self.fd, termios.TCSANOW, changed)
        try:
            yield
        finally:
            termios.tcsetattr(self.fd, termios.TCSANOW, saved)

    def read(self) -> str:
        """The next key; "" at end of file. A key that sends several bytes (an arrow, `é`) is
        read whole, so none of its bytes are left in front of the next goal."""
        with interrupts.waking_reads():
            typed = os.read(self.fd, KEY_BYTES)
        return typed.decode("utf-8", errors="replace")[:1]
