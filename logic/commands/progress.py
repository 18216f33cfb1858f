"""A one-line progress bar on a terminal, drawn once a run has taken a second; elsewhere (a
file, a pipe, a CI log) nothing, or a line per item as it finishes where the caller gives one
(`told`)."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TextIO, TypeVar

Item = TypeVar("Item")
_WIDTH = 30


class Progress:
    """Counts items handed out towards `total`; shows `label [###---] done/total seconds`.
    Drawn only on a terminal once the run has lasted `delay` seconds; `close` erases it."""

    def __init__(
        self,
        label: str,
        total: int,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        delay: float = 1.0,
        interval: float | None = 0.1,
    ) -> None:
        self.label, self.total, self.done = label, total, 0
        self.stream = sys.stderr if stream is None else stream
        self.clock, self.delay = clock, delay
        self.start = clock()
        self.shown = False
        self.on_terminal = _is_terminal(self.stream)
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._ticker = None
        if self.on_terminal and interval is not None:
            # redraws every `interval` seconds, so the seconds go on counting during a batch
            self._ticker = threading.Thread(target=self._tick, args=(interval,), daemon=True)
            self._ticker.start()

    def advance(self, count: int = 1) -> None:
        """Note `count` more items handed out."""
        self.done += count

    def told(self, line: str) -> None:
        """One item finished, as `line`: off a terminal, written on a line of its own and
        flushed at once, so a redirected run shows each item as it ends (on a terminal the
        bar counts it)."""
        if self.on_terminal:
            return
        with self._lock:
            self.stream.write(line + "\n")
            self.stream.flush()

    def iterate(self, items: Iterable[Item]) -> Iterator[Item]:
        """The items, advancing by one as each is taken."""
        for item in items:
            self.advance()
            yield item

    def refresh(self) -> None:
        """Draw the bar now, if it is on a terminal and the run has lasted long enough."""
        with self._lock:
            if self.on_terminal and not self._stopped.is_set():
                seconds = self.clock() - self.start
                if seconds >= self.delay:
                    self._draw(seconds)

    def close(self) -> None:
        """Stop redrawing and erase the bar, if it was drawn."""
        self._stopped.set()
        if self._ticker is not None:
            self._ticker.join()
        with self._lock:
            if self.shown:
                self.stream.write("\r\033[K")
                self.stream.flush()
                self.shown = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _tick(self, interval: float) -> None:
        while not self._stopped.wait(interval):
            self.refresh()

    def _draw(self, seconds: float) -> None:
        filled = _WIDTH * min(self.done, self.total) // max(self.total, 1)
        bar = "#" * filled + "-" * (_WIDTH - filled)
        self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total} {seconds:.0f} s\033[K")
        self.stream.flush()
        self.shown = True


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
