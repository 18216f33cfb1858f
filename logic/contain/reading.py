"""Reading a contained process's pipes with bounds, for everything the grader runs (the
harnesses of `logic.contain.contained` and `compare`'s external commands): waiting on several
pipes until a deadline, a chunk at a time, each line kept to a most, a stream's end kept as
its tail. However much a process writes, what is kept of it stays bounded.
"""

from __future__ import annotations

import select
import time
from collections import deque
from collections.abc import Sequence

CHUNK = 65536
"""Bytes read from a pipe at a time."""


class Late(Exception):
    """Nothing came before the deadline."""


class TooLong(Exception):
    """A line longer than its most, where a longer one is refused."""


def ready(reading: Sequence[int], deadline: float, writing: Sequence[int] = ()) -> set[int]:
    """The descriptors ready to read (or write) before `deadline`; `Late` if none is."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise Late
    readable, writable, _ = select.select(reading, writing, [], left)
    if not readable and not writable:
        raise Late
    return set(readable) | set(writable)


def waiting(fd: int) -> bool:
    """True when `fd` has something to read (or its end) now."""
    return bool(select.select([fd], [], [], 0)[0])


class Lines:
    """Bytes of a stream, split into lines, each kept to its first `most` bytes: the rest of a
    longer line dropped up to its line break (`cut`), or the line refused (`TooLong`)."""

    def __init__(self, most: int, cut: bool) -> None:
        self.most, self.cut = most, cut
        self._done: deque[bytes] = deque()
        self._current = bytearray()

    def feed(self, chunk: bytes) -> None:
        """Add what was read; complete lines wait for `take`."""
        *complete, last = chunk.split(b"\n")
        for piece in complete:
            self._add(piece)
            self._done.append(bytes(self._current))
            self._current.clear()
        self._add(last)

    def _add(self, piece: bytes) -> None:
        room = self.most - len(self._current)
        if len(piece) > room:
            if not self.cut:
                raise TooLong
            piece = piece[: max(room, 0)]
        self._current += piece

    def take(self) -> bytes | None:
        """The next complete line, without its line break; None if none has come."""
        return self._done.popleft() if self._done else None

    def rest(self) -> bytes:
        """What came after the last line break (at the end of the stream), and forget it."""
        rest = bytes(self._current)
        self._current.clear()
        return rest


class Tail:
    """The last `most` bytes of a stream."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._kept = bytearray()

    def add(self, chunk: bytes) -> None:
        self._kept += chunk
        del self._kept[: -self.most]

    def last_line(self) -> str | None:
        """Its last line with anything on it, stripped; None if there is none."""
        for line in reversed(self._kept.decode("utf-8", errors="replace").split("\n")):
            if line.strip():
                return line.strip()
        return None


CONTINUATION = bytes(range(0x80, 0xC0))
"""The bytes that continue a character in UTF-8: every other byte starts one."""


class Head:
    """The first `most` characters of a stream, read as UTF-8, and how many it had in all:
    what is past them is counted and dropped as it comes, never held."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.chars = 0
        self._kept = bytearray()

    def add(self, chunk: bytes) -> None:
        room = 4 * self.most - len(self._kept)  # a character is 4 bytes at most
        if room > 0:
            self._kept += chunk[:room]
        self.chars += len(chunk) if chunk.isascii() else len(chunk.translate(None, CONTINUATION))

    def text(self) -> str:
        """Its first `most` characters."""
        return self._kept.decode("utf-8", errors="replace")[: self.most]

