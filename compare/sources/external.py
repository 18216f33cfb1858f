"""An external engine: a command asked one position per line, answering one CSV row per line.

The command runs under `/bin/sh` with its input and output as pipes, in lockstep: the tool
writes `STATE PLAYER` and waits for that position's row before writing the next, so every
fault is charged to the position that caused it. Blank lines, `#` comments and a header on
the command's output are skipped. A crash, or output that ends, is retried once in a fresh
process (a program that answers one position and exits still works); a position that takes
longer than the per-position limit is charged a failure, and the command is restarted for
the next. After `GIVE_UP` failed positions in a row, or when the total time limit runs out,
the positions not yet asked are reported missing, with the reason.

What the command writes cannot take unbounded memory: a line is kept to its first `MAX_LINE_BYTES`
bytes (the rest is read and dropped), standard error to its last `STDERR_TAIL` bytes, whose
last line is quoted, escaped, in a failure. Interrupted (any exception out of `run_command`),
the tool kills the command's whole process group at once.
"""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from minimax_lab.compare.sources.rows import is_header, is_skipped
from minimax_lab.logic.contain import reading, sandbox
from minimax_lab.logic.contain.reading import Late
from minimax_lab.logic.engines import Turn

GIVE_UP = 5
"""Failed positions in a row (crashes and time-outs; a wrong or unreadable row is no failure)
after which the remaining positions are not asked, by default (`--give-up`; 0: never)."""
MAX_LINE_BYTES = 4096
"""Bytes kept of an output line; the rest of a longer line, up to its line break, is dropped."""
STDERR_TAIL = 4096
"""Bytes kept of the end of the command's standard error, to quote its last line."""
_POLL = 0.05
_STOP_SECONDS = 2.0
_CLOSE_SECONDS = 1.0
_DRAIN_CHUNKS = 32


@dataclass(frozen=True)
class CommandReply:
    """The row the command printed for a position, and its line number in the output."""

    position: Turn
    text: str
    line: int


@dataclass(frozen=True)
class Failure:
    """A position the command did not answer: it crashed, hung, or was never asked."""

    position: Turn
    reason: str
    asked: bool = True


@dataclass
class Run:
    """Everything a command answered, and every position it failed on."""

    replies: list[CommandReply] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0


class _Stopped(Exception):
    """The command's output ended: it exited or closed its standard output."""


class _Child:
    """One run of the command, its output read line by line against deadlines.

    Standard error is read in the same waits, and only its last `STDERR_TAIL` bytes are kept."""

    def __init__(self, command: str) -> None:
        self.process = sandbox.launch(
            ["/bin/sh", "-c", command], os.getcwd(), sandbox.COMMAND_LIMITS,
            stdin=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        stdin, stdout, stderr = self.process.stdin, self.process.stdout, self.process.stderr
        if stdin is None or stdout is None or stderr is None:
            sandbox.kill(self.process)
            raise RuntimeError(f"the command {command} was started without its pipes")
        self.input = stdin
        self.stdout = stdout.fileno()
        self.stderr: int | None = stderr.fileno()
        self.lines = reading.Lines(MAX_LINE_BYTES, cut=True)
        self.stderr_tail = reading.Tail(STDERR_TAIL)
        self.answered = 0
        self.killed = False

    def _wait_for(self, readable: list[int], writing: list[int], deadline: float) -> set[int]:
        """The descriptors ready before the deadline, standard error already read; `Late`
        if none is."""
        watched = readable + ([self.stderr] if self.stderr is not None else [])
        ready = reading.ready(watched, deadline, writing)
        if self.stderr in ready:
            self._read_stderr()
        return ready

    def _read_stderr(self) -> None:
        if self.stderr is None:
            raise RuntimeError("the command's standard error was read after it ended")
        chunk = os.read(self.stderr, reading.CHUNK)
        if not chunk:
            self.stderr = None
        self.stderr_tail.add(chunk)

    def send(self, text: str, deadline: float) -> None:
        """Write one line; `Late` if the command will not take it before the deadline
        (a command that never reads its input fills the pipe), `_Stopped` if it is gone."""
        data = text.encode() + b"\n"
        stdin = self.input.fileno()
        while data:
            if stdin not in self._wait_for([], [stdin], deadline):
                continue
            try:
                data = data[os.write(stdin, data) :]
            except OSError:
                raise _Stopped from None

    def read_line(self, deadline: float) -> str:
        """The next line of output, cut to `MAX_LINE_BYTES` bytes; `_Stopped` at the end of the
        output, `Late` past the deadline. Memory stays bounded however long a line is."""
        while (line := self.lines.take()) is None:
            if self.stdout not in self._wait_for([self.stdout], [], deadline):
                continue
            chunk = os.read(self.stdout, reading.CHUNK)
            if not chunk:
                rest = self.lines.rest()
                if rest:
                    return rest.decode(errors="replace").rstrip("\r")
                raise _Stopped
            self.lines.feed(chunk)
        return line.decode(errors="replace").rstrip("\r")

    def _settle(self, seconds: float) -> int | None:
        """Its exit status if it ends within `seconds`, else None; its standard error is read
        meanwhile, and what it left there is read after."""
        deadline = time.monotonic() + seconds
        while self.process.poll() is None and self.stderr is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            self._stderr_ready(min(left, _POLL))
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=max(0.0, deadline - time.monotonic()))
        for _ in range(_DRAIN_CHUNKS):
            if not self._stderr_ready(0):
                break
        return self.process.returncode

    def _stderr_ready(self, timeout: float) -> bool:
        """Read a chunk of standard error if one comes within `timeout` seconds; True if one did."""
        if self.stderr is None or not select.select([self.stderr], [], [], timeout)[0]:
            return False
        self._read_stderr()
        return self.stderr is not None

    def last_said(self) -> str | None:
        """The last non-empty line the command wrote to standard error, stripped."""
        return self.stderr_tail.last_line()

    def why_stopped(self) -> str:
        """How it ended, and the last line it wrote to standard error, escaped."""
        code = self._settle(_STOP_SECONDS)
        if code is None:
            self.kill()
            code = self.process.returncode
        ended, _, said = sandbox.how_it_ended(code, self.last_said()).partition("; ")
        return f"the command {ended} before answering" + (f"; {said}" if said else "")

    def kill(self) -> None:
        """Kill its whole process group at once, reap it (waiting a bounded time), close the
        pipes."""
        try:
            if not self.killed:
                self.killed = True
                sandbox.kill(self.process)
        finally:
            for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
                with contextlib.suppress(OSError):
                    if pipe is not None:
                        pipe.close()
            self.stderr = None

    def close(self) -> None:
        """Close its input and give it a moment to end, then kill what is left of its group."""
        try:
            with contextlib.suppress(OSError):
                self.input.close()
            self._settle(_CLOSE_SECONDS)
        finally:
            self.kill()


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
    positions: Sequence[Turn],
    timeout: float,
    total_timeout: float,
    on_position: Callable[[], None] = lambda: None,
    give_up: int = GIVE_UP,
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
            if give_up and failed_in_a_row >= give_up or time.monotonic() >= total_deadline:
                reason = (
                    f"not asked: the command failed on {give_up} positions in a row"
                    if give_up and failed_in_a_row >= give_up
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
                except Late:
                    child.kill()
                    child = None
                    if time.monotonic() >= total_deadline:
                        limit = f"the total time limit of {total_timeout:g} s"
                    else:
                        limit = f"the limit of {timeout:g} s per position"
                    run.failures.append(Failure(position, f"no answer within {limit}"))
                    failed_in_a_row += 1
                else:
                    run.replies.append(CommandReply(position, text, line))
                    failed_in_a_row = 0
                break
            on_position()
    except BaseException:
        if child is not None:
            child.kill()
            child = None
        raise
    finally:
        if child is not None:
            child.close()
        run.seconds = time.monotonic() - start
    return run
