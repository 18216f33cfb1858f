"""The terminal side of the REPL: line editing, history and Tab completion, and single keys.

`readline` (stdlib, guarded: some Pythons lack it) gives `input()` line editing and a history
kept between sessions (`history_file`); Tab completes the lab's predicate names, the REPL's
commands, and after `:engine` the engines' names.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from minimax_lab.logic import interrupts

try:
    import readline
except ImportError:  # pragma: no cover - Pythons built without readline
    HAS_READLINE = False
else:
    HAS_READLINE = True

try:
    import termios
except ImportError:  # pragma: no cover - non-POSIX systems
    HAS_TERMIOS = False
else:
    HAS_TERMIOS = True

KEY_BYTES = 64
"""The most bytes one read of a key takes: every key's escape sequence, and then some."""
NEXT_KEYS = frozenset(";nr \t")
"""The keys that ask for the next answer, as in SWI-Prolog; any other key (Enter) stops."""
HISTORY_LINES = 1000
"""Lines of history kept between sessions."""


def history_file() -> Path:
    """Where the history is kept: `$MINIMAX_LAB_HISTORY`, else `~/.minimax_lab_history`."""
    named = os.environ.get("MINIMAX_LAB_HISTORY")
    return Path(named) if named else Path.home() / ".minimax_lab_history"


def completer(
    words: Sequence[str], after: Mapping[str, Sequence[str]] = {},
    line: Callable[[], str] = lambda: readline.get_line_buffer() if HAS_READLINE else "",
) -> Callable[[str, int], str | None]:
    """A readline completer: the `state`-th of `words` that start with `text`, or, on a line
    that starts with one of `after`'s commands, of that command's own words."""

    def complete(text: str, state: int) -> str | None:
        command = line().lstrip().partition(" ")
        choices = after.get(command[0], words) if command[1] else words
        matches = [word for word in choices if word.startswith(text)]
        return matches[state] if state < len(matches) else None

    return complete


def enable_line_editing(words: Sequence[str], after: Mapping[str, Sequence[str]] = {}) -> None:
    """Turn on readline's editing for `input()`, Tab completing `words` (and `after`'s words
    after its commands), and the history kept between sessions."""
    if not HAS_READLINE:
        return
    readline.set_completer(completer(words, after))
    readline.set_completer_delims(" \t\n(),[]")
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    path = history_file()
    readline.set_auto_history(False)  # a goal typed over several lines is kept as one
    with contextlib.suppress(OSError):
        readline.read_history_file(path)
    readline.set_history_length(HISTORY_LINES)


def remember(line: str) -> None:
    """Add what was typed (a goal's lines joined) to the history, and to its file at once, so
    a session that is killed keeps it."""
    if not HAS_READLINE or not line.strip():
        return
    readline.add_history(line)
    path = history_file()
    try:
        if not path.exists():
            path.touch(mode=0o600)
        readline.append_history_file(1, path)
    except OSError:
        return


class TerminalKeys:
    """Single keys from the terminal on standard input, read without Enter and without echo.
    While answers are shown (`answering()`), a key typed early is not printed; Ctrl-C works."""

    def __init__(self) -> None:
        self.fd = sys.stdin.fileno()

    @contextmanager
    def answering(self) -> Iterator[None]:
        """Keys unechoed and unbuffered for the duration; the terminal restored after."""
        if not HAS_TERMIOS:
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
