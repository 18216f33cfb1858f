"""An external engine: a command asked one position per line, answering one CSV row per line.

The command runs under `/bin/sh` with its input and output as pipes, in lockstep: the tool
writes `STATE PLAYER` and waits for that position's row before writing the next, so every
fault is charged to the position that caused it. Blank lines, `#` comments and a header on
the command's output are skipped. A crash, or output that ends, is retried once in a fresh
process (a program that answers one position and exits still works); a position that takes
longer than the per-position limit is charged a failure, and the command is restarted for
the next. After `GIVE_UP` failed positions in a row, or when the total time limit runs out,
the positions not yet asked are reported missing, with the reason.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from compare.sources import is_header, is_skipped
from logic.engines import Position

GIVE_UP = 5
"""Failed positions in a row after which the remaining positions are not asked."""
MAX_LINE = 4096
"""Bytes of output without a line break that are read as one (unparsable) line."""


@dataclass(frozen=True)
class Reply:
    """The row the command printed for a position, and its line number in the output."""

    position: Position
    text: str
    line: int


@dataclass(frozen=True)
class Failure:
    """A position the command did not answer: it crashed, hung, or was never asked."""

    position: Position
    reason: str
    asked: bool = True


@dataclass
class Run:
    """Everything a command answered, and every position it failed on."""

    replies: list[Reply] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0


class _Stopped(Exception):
    """The command's output ended: it exited or closed its standard output."""


class _TimedOut(Exception):
    """No row came within the time left."""


class _Child:
    """One run of the command, with its output read line by line against deadlines."""

    def __init__(self, command: str) -> None:
        self.process = subprocess.Popen(
            command,
            shell=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.pending = b""
        self.stderr_tail: deque[str] = deque(maxlen=5)
        self.answered = 0
        self.stderr_reader = threading.Thread(target=self._drain_stderr, daemon=True)
        self.stderr_reader.start()

    def _drain_stderr(self) -> None:
        for raw in self.process.stderr:
            text = raw.decode(errors="replace").strip()
            if text:
                self.stderr_tail.append(text)

    def send(self, text: str, deadline: float) -> None:
        """Write one line; `_TimedOut` if the command will not take it before the deadline
        (a command that never reads its input fills the pipe), `_Stopped` if it is gone."""
        data = text.encode() + b"\n"
        stdin = self.process.stdin.fileno()
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                raise _TimedOut
            _, ready, _ = select.select([], [stdin], [], left)
            if not ready:
                raise _TimedOut
            try:
                data = data[os.write(stdin, data) :]
            except OSError:
                raise _Stopped from None

    def read_line(self, deadline: float) -> str:
        """The next line of output; `_Stopped` at its end, `_TimedOut` past the deadline."""
        stdout = self.process.stdout.fileno()
        while b"\n" not in self.pending:
            if len(self.pending) >= MAX_LINE:
                line, self.pending = self.pending[:MAX_LINE], self.pending[MAX_LINE:]
                return line.decode(errors="replace")
            left = deadline - time.monotonic()
            if left <= 0:
                raise _TimedOut
            ready, _, _ = select.select([stdout], [], [], left)
            if not ready:
                raise _TimedOut
            chunk = os.read(stdout, 65536)
            if not chunk:
                if self.pending:
                    chunk = b"\n"
                else:
                    raise _Stopped
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode(errors="replace").rstrip("\r")

    def why_stopped(self) -> str:
        """How it ended, and the last line it wrote to standard error."""
        try:
            code = self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.process.wait()
        ended = f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"
        self.stderr_reader.join(timeout=1)
        said = f"; it said: {self.stderr_tail[-1]}" if self.stderr_tail else ""
        return f"the command {ended} before answering{said}"

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def close(self) -> None:
        """Close its input so it may end; kill it if it does not in a moment."""
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=1)
        self.kill()
        self.process.stdout.close()


class _Reader:
    """Output lines of one command, numbered across restarts; rows only, others skipped."""

    def __init__(self) -> None:
        self.line = 0

    def row(self, child: _Child, deadline: float) -> tuple[str, int]:
        while True:
            text = child.read_line(deadline)
            self.line += 1
            if is_skipped(text) or (child.answered == 0 and is_header(text)):
                continue
            child.answered += 1
            return text.strip(), self.line


def run_command(
    command: str,
    positions: Sequence[Position],
    timeout: float,
    total_timeout: float,
    on_position: Callable[[], None] = lambda: None,
) -> Run:
    """Ask `command` every position in turn; its rows, and the positions it failed on."""
    run = Run()
    start = time.monotonic()
    total_deadline = start + total_timeout
    reader = _Reader()
    child: _Child | None = None
    failed_in_a_row = 0
    try:
        for index, position in enumerate(positions):
            if failed_in_a_row >= GIVE_UP or time.monotonic() >= total_deadline:
                reason = (
                    f"not asked: the command failed on {GIVE_UP} positions in a row"
                    if failed_in_a_row >= GIVE_UP
                    else f"not asked: the total time limit of {total_timeout:g} s ran out"
                )
                run.failures.extend(Failure(rest, reason, False) for rest in positions[index:])
                break
            for attempt in (1, 2):
                if child is None or child.process.poll() is not None:
                    if child is not None:
                        child.close()
                    child = _Child(command)
                deadline = min(time.monotonic() + timeout, total_deadline)
                try:
                    child.send(" ".join(position), deadline)
                    text, line = reader.row(child, deadline)
                except _Stopped:
                    reason = child.why_stopped()
                    child.close()
                    child = None
                    if attempt == 1:
                        continue
                    run.failures.append(Failure(position, reason))
                    failed_in_a_row += 1
                except _TimedOut:
                    child.kill()
                    child.close()
                    child = None
                    if time.monotonic() >= total_deadline:
                        limit = f"the total time limit of {total_timeout:g} s"
                    else:
                        limit = f"the limit of {timeout:g} s per position"
                    run.failures.append(Failure(position, f"no answer within {limit}"))
                    failed_in_a_row += 1
                else:
                    run.replies.append(Reply(position, text, line))
                    failed_in_a_row = 0
                break
            on_position()
    finally:
        if child is not None:
            child.close()
        run.seconds = time.monotonic() - start
    return run
